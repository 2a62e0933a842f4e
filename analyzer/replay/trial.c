/*
 * Resolution -> fix trials, from a snapshot (see trial.h).
 *
 * fork() is the snapshot: the symbol table, the open archives and the
 * line model are copied on write, so a trial neither re-reads the inputs
 * before the snapshot nor disturbs the parent's state. Nothing is
 * executed: the server and its workers are the analyzer itself.
 * Messages on the socket: a 4-byte length, then NUL-separated words; the
 * reply's first word is "1" (links) or "0" (fails), then what is left.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "trial.h"

#define MESSAGE_MAX (64u << 20)

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w = send(fd, c, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

static int read_all(int fd, void *p, size_t n)
{
	char *c = p;

	while (n) {
		ssize_t r = read(fd, c, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		c += r;
		n -= (size_t)r;
	}
	return 0;
}

int lk_trial_send_words(int fd, const char *first, const struct lk_strvec *words)
{
	struct lk_buf b = LK_BUF_INIT;
	uint32_t len;
	int rc;

	if (first)
		lk_buf_add(&b, first, strlen(first) + 1);
	for (size_t i = 0; i < words->nr; i++)
		lk_buf_add(&b, words->items[i], strlen(words->items[i]) + 1);
	len = (uint32_t)b.len;
	rc = write_all(fd, &len, sizeof(len)) < 0 || write_all(fd, b.buf ? b.buf : "", b.len) < 0 ? -1 : 0;
	lk_buf_release(&b);
	return rc;
}

int lk_trial_recv_words(int fd, struct lk_strvec *words)
{
	uint32_t len;
	char *buf;

	if (read_all(fd, &len, sizeof(len)) < 0 || len > MESSAGE_MAX)
		return -1;
	buf = lk_xmalloc((size_t)len + 1);
	if (read_all(fd, buf, len) < 0) {
		free(buf);
		return -1;
	}
	buf[len] = '\0';
	for (char *p = buf; p < buf + len; p += strlen(p) + 1)
		lk_strvec_push(words, p);
	free(buf);
	return 0;
}

/*
 * The server's loop: one worker per request, in turn, until the parent
 * closes the socket. Returns only in a worker, with its request in `words`.
 */
static void serve(int fd, struct lk_trial_server *srv, struct lk_strvec *words)
{
	for (;;) {
		struct lk_strvec req = LK_STRVEC_INIT;
		pid_t pid;
		int status;

		if (lk_trial_recv_words(fd, &req) < 0)
			_exit(0);
		pid = fork();
		if (pid == 0) {
			srv->worker = 1;
			*words = req;
			return;
		}
		lk_strvec_release(&req);
		/* A worker that died without replying: say so, so the parent never waits forever. */
		if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
			struct lk_strvec none = LK_STRVEC_INIT;

			if (lk_trial_send_words(fd, "-1", &none) < 0)
				_exit(0);
		}
	}
}

void lk_trial_start(struct lk_trial_server *srv, struct lk_strvec *words)
{
	int sv[2];
	pid_t pid;

	memset(srv, 0, sizeof(*srv));
	srv->fd = -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return;
	fflush(NULL);	/* nothing buffered is written twice */
	pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return;
	}
	if (pid == 0) {
		close(sv[0]);
		srv->fd = sv[1];
		serve(sv[1], srv, words);
		return;	/* a worker */
	}
	close(sv[1]);
	srv->pid = pid;
	srv->fd = sv[0];
}

void lk_trial_reply(struct lk_trial_server *srv, int success, const struct lk_strvec *remaining)
{
	lk_trial_send_words(srv->fd, success ? "1" : "0", remaining);
	_exit(0);
}

int lk_trial_ask(struct lk_trial_server *srv, const struct lk_strvec *words, struct lk_strvec *remaining)
{
	struct lk_strvec reply = LK_STRVEC_INIT;
	int rc;

	if (srv->fd < 0 || lk_trial_send_words(srv->fd, NULL, words) < 0 || lk_trial_recv_words(srv->fd, &reply) < 0 ||
	    !reply.nr || !strcmp(reply.items[0], "-1")) {
		lk_strvec_release(&reply);
		lk_trial_stop(srv);
		return -1;
	}
	rc = !strcmp(reply.items[0], "1");
	for (size_t i = 1; remaining && i < reply.nr; i++)
		lk_strvec_push(remaining, reply.items[i]);
	lk_strvec_release(&reply);
	return rc;
}

void lk_trial_stop(struct lk_trial_server *srv)
{
	if (srv->fd >= 0)
		close(srv->fd);
	srv->fd = -1;
	if (srv->pid > 0)
		waitpid(srv->pid, NULL, 0);
	srv->pid = 0;
}
