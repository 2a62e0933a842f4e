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
 * The shim reads stdin before the driver starts, at most the keep bound
 * (LINKSCOPE_KEEP_MAX) and one byte more. A regular file is then put back
 * where it was (lseek) and the driver reads it itself. Anything else (a
 * pipe, a terminal) cannot be read twice: a child of ours writes what was
 * read, then the rest as it comes, into a pipe that is the driver's stdin.
 * Past the bound nothing is kept (the record says so); the bytes reach the
 * driver all the same.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

/* Up to `max` bytes of fd 0 into s->bytes; s->eof when it ended before. */
static void read_bounded(struct lk_stdin_source *s, size_t max)
{
	char buf[65536];

	while (s->bytes.len < max) {
		size_t want = max - s->bytes.len < sizeof(buf) ? max - s->bytes.len : sizeof(buf);
		ssize_t n = read(0, buf, want);

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
		lk_buf_add(&s->bytes, buf, (size_t)n);
	}
}

/* The child: what was read, then the rest of our stdin, into the driver's. */
static _Noreturn void pump(const struct lk_stdin_source *s, int out)
{
	char buf[65536];
	ssize_t n;

	if (lk_fd_write_all(out, s->bytes.buf, s->bytes.len) < 0)
		_exit(1);
	while (!s->eof && (n = read(0, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || lk_fd_write_all(out, buf, (size_t)n) < 0)
			_exit(1);
	}
	_exit(0);
}

/* Fd 0 becomes a pipe that a child of ours fills. 0, or -1 (stdin unchanged: what was read is lost). */
static int start_pump(struct lk_stdin_source *s)
{
	int p[2];

	if (pipe(p) < 0)
		return -1;
	s->pump = fork();
	if (s->pump < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (s->pump == 0) {
		close(p[0]);
		/* The driver gone, what it did not read is nobody's: end on EPIPE, quietly. */
		signal(SIGPIPE, SIG_DFL);
		pump(s, p[1]);
	}
	close(p[1]);
	if (dup2(p[0], 0) < 0)
		return -1;
	close(p[0]);
	return 0;
}

int lk_stdin_take(struct lk_stdin_source *s, const struct lk_argv_info *info, int64_t bound)
{
	struct stat st;
	off_t start;

	memset(s, 0, sizeof(*s));
	lk_buf_init(&s->bytes);
	s->pump = -1;
	if (!stdin_compiled(info) || fstat(0, &st) < 0)
		return 0;
	s->wanted = 1;
	start = S_ISREG(st.st_mode) ? lseek(0, 0, SEEK_CUR) : -1;
	read_bounded(s, bound < 0 ? 0 : (size_t)bound + 1);
	s->over = s->bytes.len > (size_t)bound;
	if (start >= 0 && lseek(0, start, SEEK_SET) == start)
		return 0;
	if ((s->bytes.len || !s->eof) && start_pump(s) < 0)
		return -1;
	return 0;
}

void lk_stdin_end(struct lk_stdin_source *s)
{
	int fd;

	if (s->pump <= 0)
		return;
	/* The driver has exited: it reads no more, and a pump waiting on a terminal must not hold the build. */
	kill(s->pump, SIGKILL);
	while (waitpid(s->pump, NULL, 0) < 0 && errno == EINTR)
		;
	s->pump = -1;
	if ((fd = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0) {
		dup2(fd, 0);
		close(fd);
	}
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
	if (s->over || s->read_errno) {
		if (s->over)
			lk_buf_addf(&why, "no copy kept of the source read from stdin: over %lld bytes, the limit (LINKSCOPE_KEEP_MAX)",
				    (long long)limits->max_file);
		else
			lk_buf_addf(&why, "no copy kept of the source read from stdin: %s", strerror(s->read_errno));
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
