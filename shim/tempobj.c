/*
 * The objects a link call compiles: caught before the driver deletes them.
 *
 * `cc -O2 prog.c libutil.a -lm -o prog` compiles prog.c into a temporary
 * object in TMPDIR, links it and deletes it: the line's main is in a file
 * that is gone before the record is written. Compiling the source again at
 * analysis time means running a compiler on a record's say-so. Instead the
 * driver gets a private TMPDIR (a new directory inside the one it had, so
 * the same file system and the same space), and a thread watches it with
 * inotify: each object the assembler closes is hard-linked under another
 * name at once, so the driver's own unlink leaves a copy. Nothing is
 * compiled twice; the link sees the same compiler, arguments and files,
 * only its temporary names live one directory deeper. The driver compiles
 * its sources in order, one object each, so the n-th object is the n-th
 * source's. What the driver leaves in its private TMPDIR (a compiler
 * wrapper's log, a plugin's files, the temporaries of a driver killed by
 * SIGKILL) is moved to the TMPDIR it would have used without the shim, and
 * the private one is always removed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "keep.h"
#include "tempobj.h"
#include "linkscope/banned.h"
#include "linkscope/runcmd.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"

static int is_object_name(const char *name)
{
	size_t n = strlen(name);

	return n > 2 && !strcmp(name + n - 2, ".o") && strncmp(name, "lk-kept-", 8);
}

/* Hard-link a closed object as lk-kept-N.o; the driver's unlink then leaves it. */
static void catch_object(struct lk_tempobj *t, const char *name)
{
	struct lk_buf from = LK_BUF_INIT, to = LK_BUF_INIT;

	if (t->caught.nr >= t->want)
		return;	/* later objects are lto-wrapper's, not the sources' */
	/* The assembler may close its output more than once: one name, one object. */
	for (size_t i = 0; i < t->names.nr; i++)
		if (!strcmp(t->names.items[i], name))
			return;
	lk_strvec_push(&t->names, name);
	lk_buf_addf(&from, "%s/%s", t->dir, name);
	lk_buf_addf(&to, "%s/lk-kept-%zu.o", t->dir, t->caught.nr);
	if (link(from.buf, to.buf) == 0)
		lk_strvec_push_owned(&t->caught, lk_buf_detach(&to));
	lk_buf_release(&from);
	lk_buf_release(&to);
}

static int drain(struct lk_tempobj *t)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n = read(t->ifd, buf, sizeof(buf));

	if (n <= 0)
		return n < 0 && errno == EAGAIN ? 0 : -1;
	for (char *p = buf; p < buf + n;) {
		const struct inotify_event *ev = (const struct inotify_event *)p;

		if (ev->len && (ev->mask & IN_CLOSE_WRITE) && is_object_name(ev->name))
			catch_object(t, ev->name);
		p += sizeof(*ev) + ev->len;
	}
	return 1;
}

static void *watch(void *arg)
{
	struct lk_tempobj *t = arg;

	for (;;) {
		struct pollfd pfd[2] = { { t->ifd, POLLIN, 0 }, { t->stop, POLLIN, 0 } };

		if (poll(pfd, 2, -1) < 0 && errno != EINTR)
			break;
		if (pfd[0].revents && drain(t) < 0)
			break;
		if (pfd[1].revents) {
			while (drain(t) > 0)
				;
			break;
		}
	}
	return NULL;
}

/* The watcher with every signal blocked: SIGCHLD and the forwarded ones are the run's (shim/run.c). */
static int start_thread(struct lk_tempobj *t)
{
	sigset_t all, old;
	int rc;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&t->thread, NULL, watch, t);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int lk_tempobj_start(struct lk_tempobj *t, size_t want)
{
	memset(t, 0, sizeof(*t));
	t->ifd = t->stop = -1;
	t->want = want < LK_TEMPOBJ_MAX ? want : LK_TEMPOBJ_MAX;
	if (!(t->dir = lk_scratch_dir("lk-objs")))
		return -1;
	t->ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	t->stop = eventfd(0, EFD_CLOEXEC);
	if (t->ifd < 0 || t->stop < 0 || inotify_add_watch(t->ifd, t->dir, IN_CLOSE_WRITE) < 0 ||
	    start_thread(t) != 0) {
		lk_tempobj_finish(t);
		return -1;
	}
	t->running = 1;
	t->old_tmpdir = getenv("TMPDIR") ? lk_xstrdup(getenv("TMPDIR")) : NULL;
	setenv("TMPDIR", t->dir, 1);
	t->tmpdir_set = 1;
	return 0;
}

void lk_tempobj_spawned(struct lk_tempobj *t)
{
	if (!t->tmpdir_set)
		return;
	t->tmpdir_set = 0;
	if (t->old_tmpdir)
		setenv("TMPDIR", t->old_tmpdir, 1);
	else
		unsetenv("TMPDIR");
}

void lk_tempobj_stop(struct lk_tempobj *t)
{
	uint64_t one = 1;

	if (!t->running)
		return;
	if (write(t->stop, &one, sizeof(one)) == (ssize_t)sizeof(one))
		pthread_join(t->thread, NULL);
	else
		pthread_cancel(t->thread);
	t->running = 0;
	lk_tempobj_spawned(t);
}

/* renameat2(RENAME_NOREPLACE), or its equivalent on a file system without it. */
static int rename_noreplace(int from, const char *name, int to, const char *new_name)
{
	struct stat st;

	if (renameat2(from, name, to, new_name, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL)
		return -1;
	if (fstatat(to, new_name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		errno = EEXIST;
		return -1;
	}
	return renameat(from, name, to, new_name);
}

/* `name` into `to` under its own name, or NAME.linkscope-N when that is taken there. */
static void move_entry(int from, const char *name, int to)
{
	struct lk_buf fresh = LK_BUF_INIT;
	int rc = rename_noreplace(from, name, to, name);

	for (unsigned n = 1; rc < 0 && errno == EEXIST && n <= 1000; n++) {
		lk_buf_reset(&fresh);
		lk_buf_addf(&fresh, "%s.linkscope-%u", name, n);
		rc = rename_noreplace(from, name, to, fresh.buf);
	}
	lk_buf_release(&fresh);
}

/*
 * Everything left in the private TMPDIR goes to the directory it was made
 * in (TMPDIR, or /tmp: lk_scratch_dir), the driver's TMPDIR without the
 * shim, and the private one is removed. A rename moves a symbolic link, not
 * what it points to, and a directory with all it holds. The directory is
 * opened once, O_NOFOLLOW: if the driver put something else under its name,
 * nothing is taken from there.
 */
static void remove_private_dir(const char *dir)
{
	const char *slash = strrchr(dir, '/');
	char *parent = lk_xstrndup(dir, slash == dir ? 1 : (size_t)(slash - dir));
	int from = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int to = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	/* What the driver started may still run (a linker outliving a killed driver): a few rounds. */
	for (int round = 0; round < 3 && from >= 0 && to >= 0; round++) {
		DIR *d = fdopendir(dup(from));
		struct dirent *de;

		if (!d)
			break;
		rewinddir(d);	/* the offset is shared with `from`, at the end after a round */
		while ((de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				move_entry(from, de->d_name, to);
		closedir(d);
		if (rmdir(dir) == 0 || errno != ENOTEMPTY)
			break;
	}
	if (from < 0 || to < 0)
		rmdir(dir);
	if (from >= 0)
		close(from);
	if (to >= 0)
		close(to);
	free(parent);
}

void lk_tempobj_finish(struct lk_tempobj *t)
{
	lk_tempobj_stop(t);
	for (size_t i = 0; i < t->caught.nr; i++)
		unlink(t->caught.items[i]);
	if (t->dir)
		remove_private_dir(t->dir);
	if (t->ifd >= 0)
		close(t->ifd);
	if (t->stop >= 0)
		close(t->stop);
	lk_strvec_release(&t->caught);
	lk_strvec_release(&t->names);
	free(t->dir);
	free(t->old_tmpdir);
	memset(t, 0, sizeof(*t));
	t->ifd = t->stop = -1;
}
