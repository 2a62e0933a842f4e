/*
 * A source the driver compiles from stdin (`cc -xc - -o x < src.c`),
 * kept as conftest.c is kept.
 *
 * Stage: argv -> record (the shim). Takes the line (an input "-" under
 * -x) and fd 0; gives the bytes, kept in blobs/ as the record's copy of
 * "-" (reason "stdin-source"), and the driver the same bytes on its stdin.
 * Without the copy the driver's temporary object of it names a source
 * nobody can read again: 63 links of a Debian rebuild were unknown
 * (issue #33 point 4).
 *
 * The driver starts first and reads stdin as it would without the shim:
 * nothing is read before it runs, so a stdin that stays silent (`sleep 25
 * | cc -xc - --no-such-option`, a terminal) holds nothing up, and the
 * outcome, output and timing are the driver's (issue #41 point 5). A
 * regular file is the driver's fd 0 as it is; the shim reads its copy
 * with pread from where the driver started, after the link. Anything else
 * (a pipe, a terminal) cannot be read twice: fd 0 of the driver is a pipe
 * that a thread of ours fills with what our stdin gives, as it comes,
 * keeping a copy of the first bytes. When the driver has ended, the relay
 * stops; the copy is whole only if stdin ended while it ran. Past the
 * bound (LINKSCOPE_KEEP_MAX) nothing is kept (the record says so); the
 * bytes reach the driver all the same.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "keep.h"
#include "stdinsrc.h"
#include "linkscope/argv.h"
#include "linkscope/banned.h"
#include "linkscope/file.h"
#include "linkscope/vec.h"

static int stdin_compiled(const struct lk_argv_info *info)
{
	for (size_t i = 0; i < info->inputs.nr; i++)
		if (info->inputs.items[i].kind == LK_IN_STDIN && lk_argv_compiles(&info->inputs.items[i]))
			return 1;
	return 0;
}

/* The first bytes of what passes, into the copy: at most the bound and one byte more. */
static void copy_some(struct lk_stdin_source *s, const char *buf, size_t n)
{
	size_t room = s->bytes.len < s->keep ? s->keep - s->bytes.len : 0;

	lk_buf_add(&s->bytes, buf, n < room ? n : room);
}

/* Wait until `fd` is ready for `events`, or the stop: 1 ready, 0 stopped (or poll failed). */
static int ready(const struct lk_stdin_source *s, int fd, short events)
{
	for (;;) {
		struct pollfd pfd[2] = { { fd, events, 0 }, { s->stop, POLLIN, 0 } };

		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return 0;
		}
		if (pfd[1].revents)
			return 0;
		if (pfd[0].revents)
			return 1;
	}
}

/* All of buf to the driver's pipe; -1 when it is gone (EPIPE) or we are stopped. */
static int relay_write(struct lk_stdin_source *s, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(s->relay, buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN) {
			if (!ready(s, s->relay, POLLOUT))
				return -1;
			continue;
		}
		if (w < 0)
			return -1;
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The relay: our stdin to the driver's, until it ends, the driver goes, or lk_stdin_end stops it. */
static void *relay(void *arg)
{
	struct lk_stdin_source *s = arg;
	char buf[65536];

	while (ready(s, s->ours, POLLIN)) {
		ssize_t n = read(s->ours, buf, sizeof(buf));

		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0) {
			s->read_errno = errno;
			break;
		}
		if (n == 0) {
			/* Said before the driver can see the end: once it has, the copy is whole. */
			s->eof = 1;
			break;
		}
		copy_some(s, buf, (size_t)n);
		if (relay_write(s, buf, (size_t)n) < 0)
			break;
	}
	close(s->relay);
	s->relay = -1;
	return NULL;
}

/* The relay with every signal blocked: SIGCHLD and the forwarded ones are the run's (shim/run.c), SIGPIPE an EPIPE. */
static int start_relay(struct lk_stdin_source *s)
{
	sigset_t all, old;
	int rc;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&s->thread, NULL, relay, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/* fd 0 becomes a pipe the relay fills; our stdin is kept as s->ours. 0, or -1 with fd 0 as it was. */
static int make_relay(struct lk_stdin_source *s)
{
	int p[2];

	if ((s->stop = eventfd(0, EFD_CLOEXEC)) < 0)
		return -1;
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	s->relay = p[1];
	/* The driver gets the read end as its fd 0, and neither our stdin nor the write end. */
	if (fcntl(p[1], F_SETFL, O_NONBLOCK) < 0 || (s->ours = fcntl(0, F_DUPFD_CLOEXEC, 3)) < 0 ||
	    dup2(p[0], 0) < 0) {
		close(p[0]);
		return -1;
	}
	close(p[0]);
	if (start_relay(s) != 0)
		return -1;
	s->running = 1;
	return 0;
}

void lk_stdin_take(struct lk_stdin_source *s, const struct lk_argv_info *info, int64_t bound)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	lk_buf_init(&s->bytes);
	s->start = -1;
	s->ours = s->relay = s->stop = -1;
	if (!stdin_compiled(info) || fstat(0, &st) < 0)
		return;
	s->wanted = 1;
	s->keep = bound < 0 ? 1 : (size_t)bound + 1;
	if (S_ISREG(st.st_mode) && (s->start = lseek(0, 0, SEEK_CUR)) >= 0)
		return;
	if (make_relay(s) < 0) {
		/* The driver reads our stdin itself: all of it, and we keep none. */
		s->read_errno = errno;
		lk_stdin_end(s);
	}
}

/* A regular file, from where the driver started: its copy. */
static void read_file_copy(struct lk_stdin_source *s)
{
	char buf[65536];
	off_t at = s->start;

	while (s->bytes.len < s->keep) {
		ssize_t n = pread(0, buf, sizeof(buf), at);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			s->read_errno = errno;
			return;
		}
		if (n == 0) {
			s->eof = 1;
			return;
		}
		copy_some(s, buf, (size_t)n);
		at += n;
	}
}

void lk_stdin_end(struct lk_stdin_source *s)
{
	uint64_t one = 1;

	if (!s->wanted)
		return;	/* nothing taken: fd 0 was never ours to change */
	if (s->running) {
		/* The driver has exited: it reads no more, and a stdin that stays silent must not hold the build. */
		if (write(s->stop, &one, sizeof(one)) == (ssize_t)sizeof(one))
			pthread_join(s->thread, NULL);
		else
			pthread_cancel(s->thread);
		s->running = 0;
	}
	if (s->relay >= 0)
		close(s->relay);
	if (s->ours >= 0) {
		dup2(s->ours, 0);
		close(s->ours);
	}
	if (s->stop >= 0)
		close(s->stop);
	s->ours = s->relay = s->stop = -1;
}

void lk_stdin_keep(struct lk_stdin_source *s, struct lk_record_draft *rec, const char *dir,
		   const struct lk_keep_limits *limits, struct lk_strvec *warnings)
{
	struct lk_buf tmp = LK_BUF_INIT, why = LK_BUF_INIT;
	struct lk_err err = LK_ERR_INIT;
	int64_t used = 0;
	int fd;

	if (!s->wanted)
		return;
	if (s->start >= 0 && !s->read_errno)
		read_file_copy(s);
	if (s->bytes.len > (size_t)limits->max_file)
		lk_buf_addf(&why, "no copy kept of the source read from stdin: over %lld bytes, the limit (LINKSCOPE_KEEP_MAX)",
			    (long long)limits->max_file);
	else if (s->read_errno)
		lk_buf_addf(&why, "no copy kept of the source read from stdin: %s", strerror(s->read_errno));
	else if (!s->eof)
		lk_buf_addstr(&why, "no copy kept of the source read from stdin: it had not ended when the driver did");
	if (why.len) {
		lk_strvec_push(warnings, why.buf);
		lk_buf_release(&why);
		return;
	}
	/* lk_keep_file copies from a file: a private one of ours in the record dir, gone after. */
	lk_buf_addf(&tmp, "%s/.stdin-%ld.tmp", dir, (long)getpid());
	fd = open(tmp.buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || lk_fd_write_all(fd, s->bytes.buf, s->bytes.len) < 0) {
		lk_err_errno(&err, "cannot keep a copy of the source read from stdin: '%s'", tmp.buf);
		lk_strvec_push(warnings, err.msg);
	} else if (lk_keep_file(rec, dir, tmp.buf, "stdin-source", limits, &used, &err) < 0) {
		lk_strvec_push(warnings, err.msg);
	} else {
		/* Recorded under the name the line gives it. */
		free(rec->kept.items[rec->kept.nr - 1].path);
		rec->kept.items[rec->kept.nr - 1].path = lk_xstrdup("-");
	}
	if (fd >= 0) {
		close(fd);
		unlink(tmp.buf);
	}
	lk_buf_release(&tmp);
}

void lk_stdin_release(struct lk_stdin_source *s)
{
	lk_buf_release(&s->bytes);
}
