/*
 * Verdicts replayed beside the replay that runs now (see replay.c's
 * lk_replay_run and linker_verdicts), each in a forked process on the
 * other core, sent back on a socket as trial.c's fix trials send theirs:
 * lld's and mold's verdicts beside GNU ld's replay of a line whose link
 * failed, and mold's own replay beside the lld-rules one. The replays read
 * the whole line each and share nothing they change (each has its own
 * table, archives and reader state): fork() gives the child the line model
 * as it is, and the parent goes on. A verdict is the one the same call
 * makes in the parent, field for field; when the child cannot run or its
 * answer does not come, the parent makes it itself. A child's reads are of
 * the line's files, which GNU ld's replay reads too (so the read set of
 * failcache.c has them).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/runcmd.h"
#include "linkscope/vec.h"
#include "rp.h"
#include "trial.h"

/* An optional string as one word: "-" for none, "+text" for text. */
static void push_opt(struct lk_strvec *w, const char *s)
{
	struct lk_buf b = LK_BUF_INIT;

	lk_buf_addf(&b, "%c%s", s ? '+' : '-', s ? s : "");
	lk_strvec_push_owned(w, lk_buf_detach(&b));
}

static void push_long(struct lk_strvec *w, long v)
{
	struct lk_buf b = LK_BUF_INIT;

	lk_buf_addf(&b, "%ld", v);
	lk_strvec_push_owned(w, lk_buf_detach(&b));
}

static void push_list(struct lk_strvec *w, const struct lk_strvec *list)
{
	push_long(w, (long)list->nr);
	for (size_t i = 0; i < list->nr; i++)
		lk_strvec_push(w, list->items[i]);
}

/* The verdict as words: success, version, unknown, why, fixes, then each fix's edit. */
static void verdict_words(const struct lk_linker_verdict *v, struct lk_strvec *w)
{
	push_long(w, v->success);
	push_opt(w, v->version);
	push_opt(w, v->unknown);
	push_list(w, &v->why);
	push_list(w, &v->fixes);
	push_list(w, &v->hazards);
	push_long(w, (long)v->edits.nr);
	for (size_t i = 0; i < v->edits.nr; i++) {
		push_opt(w, v->edits.items[i].append);
		push_long(w, v->edits.items[i].skip_position);
		push_long(w, v->edits.items[i].verified);
	}
}

/* Reading the words back: a cursor that says when the message is short or bad. */
struct reader {
	const struct lk_strvec *w;
	size_t at;
	int bad;
};

static const char *next_word(struct reader *rd)
{
	if (rd->at >= rd->w->nr) {
		rd->bad = 1;
		return "";
	}
	return rd->w->items[rd->at++];
}

static long next_long(struct reader *rd)
{
	const char *s = next_word(rd);
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end)
		rd->bad = 1;
	return v;
}

static char *next_opt(struct reader *rd)
{
	const char *s = next_word(rd);

	if (*s == '+')
		return lk_xstrdup(s + 1);
	if (*s != '-')
		rd->bad = 1;
	return NULL;
}

static void next_list(struct reader *rd, struct lk_strvec *list)
{
	long n = next_long(rd);

	for (long i = 0; i < n && !rd->bad; i++)
		lk_strvec_push(list, next_word(rd));
}

/* One verdict's words into `v` (empty); rd->bad when they are not a whole verdict. */
static void read_verdict(struct reader *rd, struct lk_linker_verdict *v)
{
	long edits;

	v->success = (int)next_long(rd);
	v->version = next_opt(rd);
	v->unknown = next_opt(rd);
	next_list(rd, &v->why);
	next_list(rd, &v->fixes);
	next_list(rd, &v->hazards);
	edits = next_long(rd);
	for (long i = 0; i < edits && !rd->bad; i++) {
		struct lk_linker_edit *e;

		LK_GROW(v->edits.items, v->edits.nr + 1, v->edits.alloc);
		e = &v->edits.items[v->edits.nr++];
		e->append = next_opt(rd);
		e->skip_position = next_long(rd);
		e->verified = (int)next_long(rd);
	}
	if (v->fixes.nr != v->edits.nr)
		rd->bad = 1;
}

static void verdict_release(struct lk_linker_verdict *v)
{
	lk_strvec_release(&v->why);
	lk_strvec_release(&v->fixes);
	lk_strvec_release(&v->hazards);
	free(v->unknown);
	free(v->version);
	rp_linker_fixes_release(v);
	memset(v, 0, sizeof(*v));
}

int rp_beside_fork(struct rp_beside *b, unsigned linkers)
{
	int sv[2];
	pid_t parent;

	memset(b, 0, sizeof(*b));
	b->fd = -1;
	b->linkers = linkers;
	/* On one core the child would only take turns with the parent. */
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return 0;
	fflush(NULL);	/* nothing buffered is written twice */
	parent = getpid();
	b->pid = fork();
	if (b->pid < 0) {
		close(sv[0]);
		close(sv[1]);
		b->pid = 0;
		return 0;
	}
	if (b->pid == 0) {
		close(sv[0]);
		/* Work for a parent that is gone (interrupted) is stopped with it. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
			_exit(1);
		b->fd = sv[1];
		b->child = 1;
		return 1;
	}
	close(sv[1]);
	b->fd = sv[0];
	return 0;
}

void rp_beside_reply(const struct rp_beside *b, const struct lk_replay *out)
{
	struct lk_strvec words = LK_STRVEC_INIT;

	for (int l = 0; l < LK_LINKER_COUNT; l++)
		if (b->linkers & 1u << l)
			verdict_words(&out->linkers[l], &words);
	_exit(lk_trial_send_words(b->fd, NULL, &words) < 0);
}

int rp_beside_start(struct rp_beside *b, rp_verdict_fn fn, unsigned linkers, const struct lk_record *rec,
		    const struct lk_line *line)
{
	if (rp_beside_fork(b, linkers)) {
		struct lk_replay out;

		memset(&out, 0, sizeof(out));
		fn(rec, line, &out);
		rp_beside_reply(b, &out);
	}
	return b->pid != 0;
}

void rp_beside_hold(struct rp_beside *b)
{
	char go;

	b->held = 1;
	if (!b->child)
		return;
	while (read(b->fd, &go, 1) < 0 && errno == EINTR)
		;
}

int rp_beside_finish(struct rp_beside *b, struct lk_replay *out)
{
	struct lk_strvec words = LK_STRVEC_INIT;
	int rc = -1;

	if (!b->pid)
		return -1;
	if ((!b->held || send(b->fd, "", 1, MSG_NOSIGNAL) == 1) && lk_trial_recv_words(b->fd, &words) == 0) {
		struct reader rd = { &words, 0, 0 };

		for (int l = 0; l < LK_LINKER_COUNT; l++)
			if (b->linkers & 1u << l)
				read_verdict(&rd, &out->linkers[l]);
		rc = rd.bad || rd.at != words.nr ? -1 : 0;
		for (int l = 0; l < LK_LINKER_COUNT; l++)
			if (rc < 0 && (b->linkers & 1u << l))
				verdict_release(&out->linkers[l]);
		if (rc == 0 && (b->linkers & 1u << LK_LINKER_LLD))
			out->lld_success = out->linkers[LK_LINKER_LLD].success;
	}
	lk_strvec_release(&words);
	close(b->fd);
	lk_runcmd_reap(b->pid, NULL);
	b->pid = 0;
	b->fd = -1;
	return rc;
}

void rp_beside_cancel(struct rp_beside *b)
{
	if (!b->pid)
		return;
	kill(b->pid, SIGKILL);
	close(b->fd);
	lk_runcmd_reap(b->pid, NULL);
	b->pid = 0;
	b->fd = -1;
}
