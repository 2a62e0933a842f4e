/*
 * A progress line for a command that may run for more than a second
 * (report --failed): "linkscope: analysing 7/24 links..." on a terminal,
 * rewritten in place with \r as the count goes up, and cleared at the
 * end, so that what stays on the screen is only the command's output. It
 * is said only once the command has run for `delay_ms`, and never when
 * there is no terminal (`tty` NULL): a log or a pipe gets nothing.
 */
#ifndef LINKSCOPE_PROGRESS_H
#define LINKSCOPE_PROGRESS_H

#include <stdio.h>
#include <time.h>

struct lk_progress {
	FILE *tty;		/* where the line goes (stderr when it is a terminal), or NULL: nothing said */
	const char *verb, *noun;	/* "analysing", "links": borrowed, static */
	size_t total;
	long delay_ms;		/* nothing shown before this (LK_PROGRESS_DELAY_MS) */
	struct timespec start;
	int shown;		/* a line is on the terminal, to be cleared */
};

#define LK_PROGRESS_DELAY_MS 1000

/* Start counting `total` things (nothing is shown yet). */
void lk_progress_start(struct lk_progress *p, FILE *tty, const char *verb, const char *noun, size_t total);
/* `done` of them are done: the line, once the delay has passed. */
void lk_progress_update(struct lk_progress *p, size_t done);
/* The line cleared, if one was shown. */
void lk_progress_end(struct lk_progress *p);

#endif
