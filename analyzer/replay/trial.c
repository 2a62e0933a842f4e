/*
 * Resolution -> fix trials, from a snapshot (see trial.h).
 *
 * fork() is the snapshot: the symbol table, the open archives and the
 * line model are copied on write, so a trial neither re-reads the inputs
 * before the snapshot nor disturbs the parent's state. Nothing is
 * executed: the server and its workers are the analyzer itself.
 * Messages on the socket: a 4-byte length, then NUL-separated words. A
 * request's first word is its id, then the trial's words; the server
 * forks a worker per request at once, up to one per CPU online (more
 * wait their turn), each with a socket of its own for its reply, and
 * passes each reply on as it comes: the id, "1" (links), "0" (fails) or
 * "-1" (the worker died without a reply), then what is left. The parent
 * matches answers to requests by id, so they may come in any order.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/file.h"
#include "linkscope/runcmd.h"
#include "linkscope/vec.h"
#include "trial.h"

#define MESSAGE_MAX (64u << 20)

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
	rc = lk_fd_send_all(fd, &len, sizeof(len)) < 0 || lk_fd_send_all(fd, b.buf ? b.buf : "", b.len) < 0 ? -1 : 0;
	lk_buf_release(&b);
	return rc;
}

int lk_trial_recv_words(int fd, struct lk_strvec *words)
{
	uint32_t len;
	char *buf;

	if (lk_fd_read_all(fd, &len, sizeof(len)) < 0 || len > MESSAGE_MAX)
		return -1;
	buf = lk_xmalloc((size_t)len + 1);
	if (lk_fd_read_all(fd, buf, len) < 0) {
		free(buf);
		return -1;
	}
	buf[len] = '\0';
	for (char *p = buf; p < buf + len; p += strlen(p) + 1)
		lk_strvec_push(words, p);
	free(buf);
	return 0;
}

/* A trial the server was sent and has not started: its id (the reply's first word) and words. */
struct request {
	char *id;
	struct lk_strvec words;
};

/* A worker running, and the request it answers. */
struct running {
	pid_t pid;
	int fd;			/* the server's end of the worker's reply socket */
	char *id;
};

struct server {
	int fd;			/* the socket to the parent */
	long cpus;		/* workers run together, at most */
	struct { struct request *items; size_t nr, alloc; } queue;
	struct { struct running *items; size_t nr, alloc; } running;
};

/* The parent asks for no more: the workers' answers are wanted by no one. */
static _Noreturn void server_exit(struct server *st)
{
	for (size_t i = 0; i < st->running.nr; i++)
		kill(st->running.items[i].pid, SIGKILL);
	for (size_t i = 0; i < st->running.nr; i++)
		lk_runcmd_reap(st->running.items[i].pid, NULL);
	_exit(0);
}

/* The answer to request `id`, to the parent: the worker's reply, or "-1" when it died without one. */
static void answer(struct server *st, const char *id, struct lk_strvec *reply)
{
	if (!reply->nr)
		lk_strvec_push(reply, "-1");
	if (lk_trial_send_words(st->fd, id, reply) < 0)
		server_exit(st);
}

/*
 * The first request of the queue, in a worker of its own. Returns 1 in the
 * worker (its request in `words`, srv->fd its reply socket), 0 in the server.
 */
static int start_worker(struct server *st, struct lk_trial_server *srv, struct lk_strvec *words)
{
	struct request req = st->queue.items[0];
	pid_t server = getpid(), pid;
	int sv[2];

	memmove(st->queue.items, st->queue.items + 1, --st->queue.nr * sizeof(*st->queue.items));
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		pid = -1;
	} else if ((pid = fork()) < 0) {
		close(sv[0]);
		close(sv[1]);
	}
	if (pid == 0) {
		close(st->fd);
		close(sv[0]);
		for (size_t i = 0; i < st->running.nr; i++)
			close(st->running.items[i].fd);
		/* A worker whose server is gone has no one to answer. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != server)
			_exit(1);
		srv->worker = 1;
		srv->fd = sv[1];
		*words = req.words;
		return 1;
	}
	lk_strvec_release(&req.words);
	if (pid < 0) {
		struct lk_strvec none = LK_STRVEC_INIT;

		answer(st, req.id, &none);
		lk_strvec_release(&none);
		free(req.id);
		return 0;
	}
	close(sv[1]);
	LK_GROW(st->running.items, st->running.nr + 1, st->running.alloc);
	st->running.items[st->running.nr++] = (struct running){ pid, sv[0], req.id };
	return 0;
}

/* Worker `i` replied or died: its answer to the parent, the worker reaped. */
static void finish_worker(struct server *st, size_t i)
{
	struct running w = st->running.items[i];
	struct lk_strvec reply = LK_STRVEC_INIT;

	st->running.items[i] = st->running.items[--st->running.nr];
	if (lk_trial_recv_words(w.fd, &reply) < 0 || !reply.nr)
		lk_strvec_release(&reply);
	close(w.fd);
	lk_runcmd_reap(w.pid, NULL);
	answer(st, w.id, &reply);
	lk_strvec_release(&reply);
	free(w.id);
}

/* A request from the parent, queued; the server stops at the end of the socket. */
static void take_request(struct server *st)
{
	struct lk_strvec msg = LK_STRVEC_INIT;
	struct request req;

	if (lk_trial_recv_words(st->fd, &msg) < 0 || !msg.nr)
		server_exit(st);
	req.id = lk_xstrdup(msg.items[0]);
	memset(&req.words, 0, sizeof(req.words));
	for (size_t i = 1; i < msg.nr; i++)
		lk_strvec_push(&req.words, msg.items[i]);
	lk_strvec_release(&msg);
	LK_GROW(st->queue.items, st->queue.nr + 1, st->queue.alloc);
	st->queue.items[st->queue.nr++] = req;
}

/*
 * The server's loop: each request in a worker of its own as soon as fewer
 * than `cpus` run, each reply passed on to the parent with the request's
 * id, until the parent closes the socket. Returns only in a worker, with
 * its request in `words`.
 */
static void serve(int fd, struct lk_trial_server *srv, struct lk_strvec *words)
{
	struct server st = { fd, sysconf(_SC_NPROCESSORS_ONLN), { NULL, 0, 0 }, { NULL, 0, 0 } };
	struct pollfd *fds = NULL;
	size_t fds_alloc = 0;

	if (st.cpus < 1)
		st.cpus = 1;
	for (;;) {
		while (st.queue.nr && st.running.nr < (size_t)st.cpus)
			if (start_worker(&st, srv, words))
				return;
		LK_GROW(fds, st.running.nr + 1, fds_alloc);
		fds[0] = (struct pollfd){ st.fd, POLLIN, 0 };
		for (size_t i = 0; i < st.running.nr; i++)
			fds[i + 1] = (struct pollfd){ st.running.items[i].fd, POLLIN, 0 };
		if (poll(fds, st.running.nr + 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			server_exit(&st);
		}
		/* Replies first, from the last: finishing one moves the last into its place, one already looked at. */
		for (size_t i = st.running.nr; i-- > 0;)
			if (fds[i + 1].revents)
				finish_worker(&st, i);
		if (fds[0].revents)
			take_request(&st);
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

static void push_all(struct lk_strvec *out, const struct lk_strvec *words, size_t from)
{
	for (size_t i = from; i < words->nr; i++)
		lk_strvec_push(out, words->items[i]);
}

/* The trial of `words` sent to the server: its index in srv->sent, or -1 (the server is gone). */
static long send_trial(struct lk_trial_server *srv, const struct lk_strvec *words)
{
	struct lk_buf id = LK_BUF_INIT;
	struct lk_trial_sent *t;
	int rc;

	lk_buf_addf(&id, "%lu", srv->next_id);
	rc = lk_trial_send_words(srv->fd, id.buf, words);
	lk_buf_release(&id);
	if (rc < 0) {
		lk_trial_stop(srv);
		return -1;
	}
	LK_GROW(srv->sent.items, srv->sent.nr + 1, srv->sent.alloc);
	t = &srv->sent.items[srv->sent.nr];
	memset(t, 0, sizeof(*t));
	t->id = srv->next_id++;
	push_all(&t->words, words, 0);
	return (long)srv->sent.nr++;
}

/* One answer from the server, kept with its trial; -1 when the server is gone or the answer is no trial's. */
static int receive_answer(struct lk_trial_server *srv)
{
	struct lk_strvec msg = LK_STRVEC_INIT;
	unsigned long id;
	char *end;

	if (lk_trial_recv_words(srv->fd, &msg) < 0 || msg.nr < 2)
		goto bad;
	id = strtoul(msg.items[0], &end, 10);
	for (size_t i = 0; !*end && i < srv->sent.nr; i++) {
		struct lk_trial_sent *t = &srv->sent.items[i];

		if (t->id == id && !t->answered) {
			t->answered = 1;
			push_all(&t->reply, &msg, 1);
			lk_strvec_release(&msg);
			return 0;
		}
	}
bad:
	lk_strvec_release(&msg);
	return -1;
}

void lk_trial_expect(struct lk_trial_server *srv, const struct lk_strvec *words)
{
	if (srv->fd >= 0)
		send_trial(srv, words);
}

int lk_trial_ask(struct lk_trial_server *srv, const struct lk_strvec *words, struct lk_strvec *remaining)
{
	struct lk_trial_sent *t;
	long at = -1;
	int rc;

	if (srv->fd < 0)
		return -1;
	for (size_t i = 0; at < 0 && i < srv->sent.nr; i++)
		if (lk_strvec_equal(&srv->sent.items[i].words, words))
			at = (long)i;
	if (at < 0 && (at = send_trial(srv, words)) < 0)
		return -1;
	while (!srv->sent.items[at].answered)
		if (receive_answer(srv) < 0) {
			lk_trial_stop(srv);
			return -1;
		}
	t = &srv->sent.items[at];
	rc = !strcmp(t->reply.items[0], "1") ? 1 : !strcmp(t->reply.items[0], "0") ? 0 : -1;
	if (rc >= 0 && remaining)
		push_all(remaining, &t->reply, 1);
	lk_strvec_release(&t->words);
	lk_strvec_release(&t->reply);
	memmove(t, t + 1, (srv->sent.nr - (size_t)at - 1) * sizeof(*t));
	srv->sent.nr--;
	return rc;
}

void lk_trial_stop(struct lk_trial_server *srv)
{
	if (srv->fd >= 0)
		close(srv->fd);
	srv->fd = -1;
	if (srv->pid > 0)
		lk_runcmd_reap(srv->pid, NULL);
	srv->pid = 0;
	for (size_t i = 0; i < srv->sent.nr; i++) {
		lk_strvec_release(&srv->sent.items[i].words);
		lk_strvec_release(&srv->sent.items[i].reply);
	}
	free(srv->sent.items);
	memset(&srv->sent, 0, sizeof(srv->sent));
}
