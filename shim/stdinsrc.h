/* A source compiled from stdin, kept, and forwarded to the driver byte for byte (stdinsrc.c). */
#ifndef SHIM_STDINSRC_H
#define SHIM_STDINSRC_H

#include <stdint.h>
#include <sys/types.h>

#include "keep.h"
#include "linkscope/argv.h"
#include "linkscope/buf.h"
#include "linkscope/record.h"
#include "linkscope/strvec.h"

struct lk_stdin_source {
	int wanted;		/* the line compiles "-" */
	struct lk_buf bytes;	/* what was read: all of it unless `over` */
	int eof;		/* stdin ended within what was read */
	int over;		/* longer than the bound: forwarded, not kept */
	int read_errno;		/* reading stopped on this error */
	pid_t pump;		/* the child that feeds the driver's stdin, or -1 */
};

/*
 * Before the driver is spawned: when the line compiles "-", read fd 0 (at
 * most `bound` + 1 bytes) and leave it so that the driver reads the same
 * bytes (a regular file put back; else fd 0 made a pipe a child of ours
 * fills). Returns 0, or -1 when what was read could not be forwarded.
 * Release with lk_stdin_release.
 */
int lk_stdin_take(struct lk_stdin_source *s, const struct lk_argv_info *info, int64_t bound);

/* After the driver exited: the feeding child stopped and reaped, fd 0 /dev/null. */
void lk_stdin_end(struct lk_stdin_source *s);

/*
 * The bytes kept in `dir`/blobs/ as rec->kept's copy of "-" (reason
 * "stdin-source"); over the bound or unread, a line in `warnings` says
 * that no copy was kept.
 */
void lk_stdin_keep(struct lk_stdin_source *s, struct lk_record_draft *rec, const char *dir,
		   const struct lk_keep_limits *limits, struct lk_strvec *warnings);

void lk_stdin_release(struct lk_stdin_source *s);

#endif
