/*
 * A pool of forked workers (see pool.h).
 *
 * One socket pair per worker. The caller writes an item's number (8
 * bytes); the worker does it and writes the answer's length (8 bytes)
 * and the answer, then waits for the next number; the end of its socket
 * is its end. A worker has one item at a time, so neither side ever
 * waits on a full socket while the other waits on it: the caller reads
 * a worker's whole answer once poll() says it has begun, and the worker
 * writes it at once.
 *
 * A worker is forked and never exec's: it runs a function of ours on the
 * caller's state, copied by the fork (the records loaded, the caches), and
 * answers through its socket, which a program run by common/runcmd.c (the
 * one way to run a program) could not. Its end is waited for there too
 * (lk_runcmd_reap).
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/file.h"
#include "linkscope/err.h"
#include "linkscope/pool.h"
#include "linkscope/runcmd.h"
#include "linkscope/vec.h"

/* An answer past this is no answer of ours (it would be a broken worker's). */
#define ANSWER_MAX ((uint64_t)256 << 20)

struct worker {
	pid_t pid;		/* 0: none (not started, or gone) */
	int fd;			/* the caller's end of its socket */
	size_t item;
	int busy;		/* `item` given and not answered */
};

/* A worker's life: the items it is sent, each answered, until its socket ends. */
static _Noreturn void serve(const struct lk_pool_task *t, int fd)
{
	struct lk_buf out = LK_BUF_INIT;
	uint64_t i, len;

	while (lk_fd_read_all(fd, &i, sizeof(i)) == 0 && i < t->nr) {
		lk_buf_reset(&out);
		t->work(t->ctx, (size_t)i, &out);
		len = out.len;
		if (lk_fd_send_all(fd, &len, sizeof(len)) < 0 || lk_fd_send_all(fd, out.buf, out.len) < 0)
			break;
	}
	lk_buf_release(&out);
	/* _exit: the caller's atexit handlers and stdio buffers are the caller's. */
	_exit(0);
}

/* Worker `k` forked; -1 if it cannot be. */
static int start(const struct lk_pool_task *t, struct worker *ws, size_t nws, size_t k)
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	fflush(NULL);	/* nothing buffered is written twice */
	if ((pid = fork()) < 0) {
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	if (pid == 0) {
		/* The other workers' sockets are the caller's: their ends must end with it. */
		for (size_t o = 0; o < nws; o++)
			if (ws[o].pid > 0)
				close(ws[o].fd);
		close(sv[0]);
		serve(t, sv[1]);
	}
	close(sv[1]);
	ws[k] = (struct worker){ pid, sv[0], 0, 0 };
	return 0;
}

/* Worker `k` gone: its socket closed and it reaped; how it ended into `why` (may be NULL). */
static void stop(struct worker *w, struct lk_buf *why)
{
	int status = 0;

	close(w->fd);
	lk_runcmd_reap(w->pid, &status);
	if (why && WIFSIGNALED(status))
		lk_buf_addf(why, "its worker process was killed by signal %d", WTERMSIG(status));
	else if (why)
		lk_buf_addf(why, "its worker process exited with status %d without an answer",
			    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	*w = (struct worker){ 0, -1, 0, 0 };
}

/* Item i, here. */
static void here(const struct lk_pool_task *t, size_t i)
{
	struct lk_buf out = LK_BUF_INIT;

	t->work(t->ctx, i, &out);
	t->done(t->ctx, i, &out, NULL);
	lk_buf_release(&out);
}

/* A busy worker's answer (or its end): to `done`. */
static void collect(const struct lk_pool_task *t, struct worker *w)
{
	struct lk_buf answer = LK_BUF_INIT, why = LK_BUF_INIT;
	size_t item = w->item;
	uint64_t len;

	w->busy = 0;
	if (lk_fd_read_all(w->fd, &len, sizeof(len)) == 0 && len <= ANSWER_MAX) {
		lk_buf_grow(&answer, (size_t)len);
		if (lk_fd_read_all(w->fd, answer.buf, (size_t)len) == 0) {
			answer.len = (size_t)len;
			answer.buf[len] = '\0';
			t->done(t->ctx, item, &answer, NULL);
			lk_buf_release(&answer);
			return;
		}
	}
	lk_buf_release(&answer);
	stop(w, &why);
	t->done(t->ctx, item, NULL, why.buf);
	lk_buf_release(&why);
}

/* Give each idle worker the next item (forking it first if it has none): how many are busy. */
static size_t hand_out(const struct lk_pool_task *t, struct worker *ws, size_t nws, size_t *next, int *can_fork)
{
	size_t busy = 0;

	for (size_t k = 0; k < nws; k++) {
		uint64_t i = *next;
		int fresh = 0;

		if (!ws[k].busy && *next < t->nr && !ws[k].pid && *can_fork) {
			if (start(t, ws, nws, k) < 0)
				*can_fork = 0;
			fresh = 1;
		}
		if (!ws[k].busy && *next < t->nr && ws[k].pid) {
			if (lk_fd_send_all(ws[k].fd, &i, sizeof(i)) == 0) {
				ws[k].item = (*next)++;
				ws[k].busy = 1;
			} else {
				/* Gone while idle; one that cannot take its first item means forking is no use. */
				stop(&ws[k], NULL);
				if (fresh)
					*can_fork = 0;
			}
		}
		busy += ws[k].busy;
	}
	return busy;
}

void lk_pool_run(const struct lk_pool_task *t)
{
	size_t nws = t->workers < t->nr ? t->workers : t->nr, next = 0, left = t->nr;
	struct pollfd *fds;
	struct worker *ws;
	int can_fork = 1;

	if (nws <= 1) {
		for (size_t i = 0; i < t->nr; i++)
			here(t, i);
		return;
	}
	ws = lk_xcalloc(nws, sizeof(*ws));
	fds = lk_xcalloc(nws, sizeof(*fds));
	for (size_t k = 0; k < nws; k++)
		ws[k].fd = -1;
	while (left) {
		size_t busy = hand_out(t, ws, nws, &next, &can_fork);

		if (!busy) {
			/* No worker at all: the next item here. */
			here(t, next++);
			left--;
			continue;
		}
		for (size_t k = 0; k < nws; k++)
			fds[k] = (struct pollfd){ ws[k].busy ? ws[k].fd : -1, POLLIN, 0 };
		if (poll(fds, nws, -1) < 0) {
			if (errno != EINTR)
				LK_BUG("poll on the workers' sockets failed");
			continue;
		}
		for (size_t k = 0; k < nws; k++)
			if (ws[k].busy && fds[k].revents) {
				collect(t, &ws[k]);
				left--;
			}
	}
	for (size_t k = 0; k < nws; k++)
		if (ws[k].pid)
			stop(&ws[k], NULL);
	free(fds);
	free(ws);
}
