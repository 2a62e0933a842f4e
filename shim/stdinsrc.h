/* A source compiled from stdin, kept, and forwarded to the driver byte for byte (stdinsrc.c). */
#ifndef SHIM_STDINSRC_H
#define SHIM_STDINSRC_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#include "keep.h"
#include "linkscope/argv.h"
#include "linkscope/buf.h"
#include "linkscope/record.h"
#include "linkscope/strvec.h"

struct lk_stdin_source {
	int wanted;		/* the line compiles "-" */
	size_t keep;		/* the copy's bound and one byte: more is over it */
	struct lk_buf bytes;	/* the copy: the first `keep` bytes */
	int eof;		/* stdin ended within the copy's reach, before the driver did */
	int read_errno;		/* reading stopped on this error, or the relay could not be made */
	off_t start;		/* a regular file: where the driver started reading it; else -1 */
	int ours, relay;	/* a pipe's relay: our stdin, the driver's pipe's write end; or -1 */
	int stop;		/* the eventfd that ends the relay, or -1 */
	pthread_t thread;
	int running;		/* the relay thread runs */
};

/*
 * Before the driver is spawned, reading nothing: when the line compiles
 * "-", note where a regular file's driver starts reading; for anything
 * else make fd 0 a pipe a thread of ours fills from our stdin while the
 * driver runs, keeping a copy of the first `bound` + 1 bytes. When the
 * relay cannot be made, the driver reads our stdin itself and no copy is
 * kept. Release with lk_stdin_release.
 */
void lk_stdin_take(struct lk_stdin_source *s, const struct lk_argv_info *info, int64_t bound);

/* After the driver exited: the relay stopped, fd 0 our stdin again. */
void lk_stdin_end(struct lk_stdin_source *s);

/*
 * After lk_stdin_end: the bytes kept in `dir`/blobs/ as rec->kept's copy
 * of "-" (reason "stdin-source"); over the bound, unread, or not ended
 * when the driver ended, a line in `warnings` says that no copy was kept.
 */
void lk_stdin_keep(struct lk_stdin_source *s, struct lk_record_draft *rec, const char *dir,
		   const struct lk_keep_limits *limits, struct lk_strvec *warnings);

void lk_stdin_release(struct lk_stdin_source *s);

#endif
