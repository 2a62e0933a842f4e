/*
 * The progress line (progress.h): "\r" then the line, each time the count
 * changes; "\r", the erase-to-end-of-line control (ESC [ K) at the end.
 */
#include <stdio.h>
#include <time.h>

#include "linkscope/banned.h"
#include "linkscope/progress.h"

void lk_progress_start(struct lk_progress *p, FILE *tty, const char *verb, const char *noun, size_t total)
{
	*p = (struct lk_progress){ tty, verb, noun, total, LK_PROGRESS_DELAY_MS, { 0, 0 }, 0 };
	clock_gettime(CLOCK_MONOTONIC, &p->start);
}

static long elapsed_ms(const struct lk_progress *p)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long)(now.tv_sec - p->start.tv_sec) * 1000 + (now.tv_nsec - p->start.tv_nsec) / 1000000;
}

void lk_progress_update(struct lk_progress *p, size_t done)
{
	if (!p->tty || (!p->shown && elapsed_ms(p) < p->delay_ms))
		return;
	fprintf(p->tty, "\rlinkscope: %s %zu/%zu %s...", p->verb, done, p->total, p->noun);
	fflush(p->tty);
	p->shown = 1;
}

void lk_progress_end(struct lk_progress *p)
{
	if (!p->shown)
		return;
	fputs("\r\033[K", p->tty);
	fflush(p->tty);
	p->shown = 0;
}
