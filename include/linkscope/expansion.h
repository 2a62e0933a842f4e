/* Parsing a compiler driver's -### output. */
#ifndef LINKSCOPE_EXPANSION_H
#define LINKSCOPE_EXPANSION_H

#include <stddef.h>

#include "linkscope/buf.h"
#include "linkscope/runcmd.h"
#include "linkscope/strvec.h"

/* The driver's -### expansion, taken after a failed link. */
struct lk_expansion {
	int done;
	const char *trigger;		/* "failure" or "always" */
	int exit_status;
	struct { struct lk_strvec *items; size_t nr, alloc; } commands;
	long linker_command;		/* index into commands of collect2/ld, or -1 */
	char *linker_program;		/* -print-prog-name answer, owned, or NULL */
	char *library_path;		/* the driver's LIBRARY_PATH line, owned, or NULL */
	char *compiler_path;		/* its COMPILER_PATH line, owned, or NULL */
};

/*
 * Parse the text gcc prints for -###: lines starting with one space hold a
 * command; arguments are bare, or double-quoted with backslash escapes when
 * they hold special characters. LIBRARY_PATH= and COMPILER_PATH= lines are
 * kept too (the driver's default search dirs). Appends one strvec per
 * command to exp->commands and sets exp->linker_command to the last
 * collect2/ld one (-1 if none).
 */
void lk_expansion_parse(const char *text, struct lk_expansion *exp);

/*
 * One run of a driver's -###, the same for the shim (beside the link, in
 * the link's environment) and the analyzer (--run-driver, with filtered
 * words): started, then finished into a parsed expansion.
 */
struct lk_expansion_query {
	struct lk_buf out;		/* stdout and stderr, at most 4 MiB */
	struct lk_runcmd cmd;
	struct lk_runcmd_job job;
};

/*
 * Start `driver` with `argv` (argv[0] as the driver sees it, then "-###"
 * and the link's words), in `cwd` (NULL: ours) with `envp` (NULL: ours),
 * killed `timeout_ms` after the finish begins to wait. Returns 0, or -1 if
 * it did not start (finishing it is harmless).
 */
int lk_expansion_start(struct lk_expansion_query *q, const char *driver,
		       const char *const *argv, const char *cwd, char *const envp[],
		       int timeout_ms);

/*
 * lk_expansion_start without the start: q->cmd is ready for the caller to
 * start into q->job (the analyzer starts it in its sandbox).
 */
void lk_expansion_prepare(struct lk_expansion_query *q, const char *driver,
			  const char *const *argv, const char *cwd, char *const envp[],
			  int timeout_ms);

/*
 * Wait for a started query and parse what it printed into `exp` (done,
 * exit_status, commands). Returns its exit status (128+N for a signal), or
 * -1 if it did not run or timed out: `exp` is left untouched then.
 */
int lk_expansion_finish(struct lk_expansion_query *q, struct lk_expansion *exp);

/* Free what lk_expansion_parse() and the shim filled in. */
void lk_expansion_release(struct lk_expansion *exp);

#endif
