/*
 * The read set (readset.h): the C library's calls that look at files,
 * wrapped (ld --wrap=open,...: the Makefile's ANALYZER_WRAP), note the
 * file they named while a read set is being taken, with its fingerprint
 * at that moment, and then do what they always do.
 *
 * `taking` is the one variable of the program: a wrapped libc call has no
 * argument of ours to find the read set by. It is set only around one
 * analysis (failcache.c), and the wrappers keep errno as the call left it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/runcmd.h"
#include "linkscope/sha256.h"
#include "linkscope/vec.h"
#include "readset.h"

int __real_open(const char *path, int flags, ...);
int __real___open_2(const char *path, int flags);
int __real_openat(int dfd, const char *path, int flags, ...);
int __real___openat_2(int dfd, const char *path, int flags);
FILE *__real_fopen(const char *path, const char *mode);
int __real_stat(const char *path, struct stat *st);
int __real_lstat(const char *path, struct stat *st);
int __real_fstatat(int dfd, const char *path, struct stat *st, int flags);
int __real_access(const char *path, int mode);
DIR *__real_opendir(const char *path);
char *__real_realpath(const char *path, char *resolved);
char *__real___realpath_chk(const char *path, char *resolved, size_t len);
int __real_glob(const char *pattern, int flags, int (*errfunc)(const char *, int), glob_t *g);
char *__real_getenv(const char *name);
char *__real_mkdtemp(char *tmpl);
int __real_mkstemp(char *tmpl);
int __real_lk_runcmd(const struct lk_runcmd *cmd, struct lk_runcmd_result *res);
int __real_lk_runcmd_start(const struct lk_runcmd *cmd, struct lk_runcmd_job *job);

static struct lk_readset *taking;
/* lk_readset_watch's page: the file this process opened last, or NULL. */
static char *watching;
static size_t watching_size;

void lk_readset_watch(char *page, size_t size)
{
	watching = size ? page : NULL;
	watching_size = size;
}

/* A file opened: its name on the watched page, cut to fit. */
static void opened(const char *path, int ok)
{
	size_t n;

	if (!watching || !ok || !path)
		return;
	n = strnlen(path, watching_size - 1);
	memcpy(watching, path, n);
	watching[n] = '\0';
}

void lk_readset_start(struct lk_readset *rs, const char *skip_dir)
{
	if (skip_dir)
		lk_strvec_push(&rs->skip, skip_dir);
	lk_strvec_push(&rs->skip, "/proc/");
	lk_strvec_push(&rs->skip, "/dev/");
	lk_strvec_push(&rs->skip, "/sys/");
	taking = rs;
}

void lk_readset_stop(void)
{
	taking = NULL;
}

void lk_readset_release(struct lk_readset *rs)
{
	for (size_t i = 0; i < rs->reads.nr; i++)
		free(rs->reads.items[i].path);
	free(rs->reads.items);
	for (size_t i = 0; i < rs->env.nr; i++) {
		free(rs->env.items[i].name);
		free(rs->env.items[i].value);
	}
	free(rs->env.items);
	lk_strvec_release(&rs->skip);
	free(rs->slots);
	memset(rs, 0, sizeof(*rs));
}

/* `r` as `st` shows it (NULL: absent). */
static void take_from(struct lk_read *r, const struct stat *st)
{
	r->exists = st != NULL;
	r->dev = r->ino = 0;
	r->mode = 0;
	r->size = r->mtime_ns = r->ctime_ns = 0;
	if (!st)
		return;
	r->dev = (uint64_t)st->st_dev;
	r->ino = (uint64_t)st->st_ino;
	r->mode = (uint32_t)st->st_mode;
	r->size = (int64_t)st->st_size;
	r->mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
	r->ctime_ns = (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec;
}

void lk_read_take(struct lk_read *r)
{
	struct stat st;
	int rc = r->how == LK_READ_LSTAT ? __real_lstat(r->path, &st) : __real_stat(r->path, &st);

	take_from(r, rc == 0 ? &st : NULL);
}

int lk_read_unchanged(const struct lk_read *r)
{
	struct lk_read now = *r;

	lk_read_take(&now);
	return now.exists == r->exists && now.dev == r->dev && now.ino == r->ino &&
	       now.mode == r->mode && now.size == r->size && now.mtime_ns == r->mtime_ns &&
	       now.ctime_ns == r->ctime_ns;
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void lk_environ_hash(char hex[65])
{
	extern char **environ;
	struct lk_sha256 ctx;
	size_t n = 0;
	char **sorted;

	while (environ && environ[n])
		n++;
	sorted = lk_xcalloc(n + 1, sizeof(*sorted));
	memcpy(sorted, environ, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), by_string);
	lk_sha256_init(&ctx);
	for (size_t i = 0; i < n; i++)
		lk_sha256_update(&ctx, sorted[i], strlen(sorted[i]) + 1);
	lk_sha256_final_hex(&ctx, hex);
	free(sorted);
}

static size_t hash_of(const char *path, enum lk_read_how how)
{
	size_t h = 1469598103934665603u ^ (size_t)how;

	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		h = (h ^ *p) * 1099511628211u;
	return h;
}

/* The slot of (path, how): where it is, or the empty one where it goes. */
static size_t *slot_of(struct lk_readset *rs, const char *path, enum lk_read_how how)
{
	size_t i = hash_of(path, how) & (rs->nslots - 1);

	for (;; i = (i + 1) & (rs->nslots - 1)) {
		const struct lk_read *r;

		if (!rs->slots[i])
			return &rs->slots[i];
		r = &rs->reads.items[rs->slots[i] - 1];
		if (r->how == how && !strcmp(r->path, path))
			return &rs->slots[i];
	}
}

static void rehash(struct lk_readset *rs)
{
	free(rs->slots);
	rs->nslots = rs->nslots ? rs->nslots * 2 : 256;
	rs->slots = lk_xcalloc(rs->nslots, sizeof(*rs->slots));
	for (size_t i = 0; i < rs->reads.nr; i++)
		*slot_of(rs, rs->reads.items[i].path, rs->reads.items[i].how) = i + 1;
}

static int skipped(const struct lk_readset *rs, const char *path)
{
	for (size_t i = 0; i < rs->skip.nr; i++) {
		size_t n = strlen(rs->skip.items[i]);

		if (!strncmp(path, rs->skip.items[i], n) &&
		    (rs->skip.items[i][n - 1] == '/' || !path[n] || path[n] == '/'))
			return 1;
	}
	return 0;
}

/* `path` (relative to `dfd`) made absolute, into `out`. */
static void absolute(int dfd, const char *path, struct lk_buf *out)
{
	char dir[4096], link[64];
	ssize_t n;

	if (path[0] != '/') {
		if (dfd == AT_FDCWD) {
			if (getcwd(dir, sizeof(dir)))
				lk_buf_addf(out, "%s/", dir);
		} else {
			snprintf(link, sizeof(link), "/proc/self/fd/%d", dfd);
			if ((n = readlink(link, dir, sizeof(dir) - 1)) > 0) {
				dir[n] = '\0';
				lk_buf_addf(out, "%s/", dir);
			}
		}
	}
	lk_buf_addstr(out, path);
}

/*
 * `path` (relative to `dfd`) looked at `how`; `seen` (may be NULL) is what
 * the call itself found there, a stat of the same kind that succeeded:
 * taken as the fingerprint rather than a second stat, which report
 * --failed's analyses paid for every name they looked at (single explains,
 * taking no read set, never did).
 */
static void note_at(int dfd, const char *path, enum lk_read_how how, const struct stat *seen)
{
	struct lk_readset *rs = taking;
	struct lk_buf abs = LK_BUF_INIT;
	struct lk_read *r;
	size_t *slot;
	int e = errno;

	if (!rs || !path || !*path)
		return;
	absolute(dfd, path, &abs);
	if (!skipped(rs, abs.buf)) {
		if (2 * (rs->reads.nr + 1) > rs->nslots)
			rehash(rs);
		slot = slot_of(rs, abs.buf, how);
		if (!*slot) {
			LK_GROW(rs->reads.items, rs->reads.nr + 1, rs->reads.alloc);
			r = &rs->reads.items[rs->reads.nr];
			r->path = lk_buf_detach(&abs);
			r->how = how;
			if (seen)
				take_from(r, seen);
			else
				lk_read_take(r);
			*slot = ++rs->reads.nr;
		}
	}
	lk_buf_release(&abs);
	errno = e;
}

static void note(const char *path, enum lk_read_how how)
{
	note_at(AT_FDCWD, path, how, NULL);
}

static int has_mode(int flags)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE;
}

int __wrap_open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	int fd;

	if (has_mode(flags)) {
		va_list ap;

		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	fd = __real_open(path, flags, mode);
	note(path, LK_READ_STAT);
	opened(path, fd >= 0);
	return fd;
}

int __wrap___open_2(const char *path, int flags)
{
	int fd = __real___open_2(path, flags);

	note(path, LK_READ_STAT);
	opened(path, fd >= 0);
	return fd;
}

int __wrap_openat(int dfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	int fd;

	if (has_mode(flags)) {
		va_list ap;

		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	fd = __real_openat(dfd, path, flags, mode);
	note_at(dfd, path, (flags & O_NOFOLLOW) ? LK_READ_LSTAT : LK_READ_STAT, NULL);
	opened(path, fd >= 0);
	return fd;
}

int __wrap___openat_2(int dfd, const char *path, int flags)
{
	int fd = __real___openat_2(dfd, path, flags);

	note_at(dfd, path, (flags & O_NOFOLLOW) ? LK_READ_LSTAT : LK_READ_STAT, NULL);
	opened(path, fd >= 0);
	return fd;
}

FILE *__wrap_fopen(const char *path, const char *mode)
{
	FILE *f = __real_fopen(path, mode);

	note(path, LK_READ_STAT);
	opened(path, f != NULL);
	return f;
}

int __wrap_stat(const char *path, struct stat *st)
{
	int rc = __real_stat(path, st);

	note_at(AT_FDCWD, path, LK_READ_STAT, rc == 0 ? st : NULL);
	return rc;
}

int __wrap_lstat(const char *path, struct stat *st)
{
	int rc = __real_lstat(path, st);

	note_at(AT_FDCWD, path, LK_READ_LSTAT, rc == 0 ? st : NULL);
	return rc;
}

int __wrap_fstatat(int dfd, const char *path, struct stat *st, int flags)
{
	int rc = __real_fstatat(dfd, path, st, flags);

	/* AT_EMPTY_PATH with "": the descriptor itself, opened (and taken) before. */
	note_at(dfd, path, (flags & AT_SYMLINK_NOFOLLOW) ? LK_READ_LSTAT : LK_READ_STAT,
		rc == 0 && !(flags & ~AT_SYMLINK_NOFOLLOW) ? st : NULL);
	return rc;
}

int __wrap_access(const char *path, int mode)
{
	int rc = __real_access(path, mode);

	note(path, LK_READ_STAT);
	return rc;
}

DIR *__wrap_opendir(const char *path)
{
	DIR *d = __real_opendir(path);

	note(path, LK_READ_STAT);
	return d;
}

char *__wrap_realpath(const char *path, char *resolved)
{
	char *r = __real_realpath(path, resolved);

	note(path, LK_READ_STAT);
	return r;
}

char *__wrap___realpath_chk(const char *path, char *resolved, size_t len)
{
	char *r = __real___realpath_chk(path, resolved, len);

	note(path, LK_READ_STAT);
	return r;
}

/* A pattern's matches, and the directory it lists (up to its first wildcard): a new match changes its mtime. */
int __wrap_glob(const char *pattern, int flags, int (*errfunc)(const char *, int), glob_t *g)
{
	int rc = __real_glob(pattern, flags, errfunc, g);
	const char *wild = strpbrk(pattern, "*?[");

	if (taking && wild) {
		int e = errno;
		char *dir = lk_xstrndup(pattern, (size_t)(wild - pattern));
		char *slash = strrchr(dir, '/');

		if (slash) {
			slash[1] = '\0';
			note(dir, LK_READ_STAT);
		}
		free(dir);
		errno = e;
	}
	for (size_t i = 0; taking && rc == 0 && i < g->gl_pathc; i++)
		note(g->gl_pathv[i], LK_READ_STAT);
	return rc;
}

char *__wrap_getenv(const char *name)
{
	char *v = __real_getenv(name);
	struct lk_readset *rs = taking;

	if (!rs)
		return v;
	for (size_t i = 0; i < rs->env.nr; i++)
		if (!strcmp(rs->env.items[i].name, name))
			return v;
	LK_GROW(rs->env.items, rs->env.nr + 1, rs->env.alloc);
	rs->env.items[rs->env.nr].name = lk_xstrdup(name);
	rs->env.items[rs->env.nr++].value = v ? lk_xstrdup(v) : NULL;
	return v;
}

/* The analysis's own scratch: what it writes there and reads back is its own doing. */
char *__wrap_mkdtemp(char *tmpl)
{
	char *dir = __real_mkdtemp(tmpl);

	if (taking && dir)
		lk_strvec_push(&taking->skip, dir);
	return dir;
}

int __wrap_mkstemp(char *tmpl)
{
	int fd = __real_mkstemp(tmpl);

	if (taking && fd >= 0)
		lk_strvec_push(&taking->skip, tmpl);
	return fd;
}

/* A program run: itself, and our environment when it gets it. */
static void note_program(const struct lk_runcmd *cmd)
{
	if (!taking)
		return;
	note(cmd->path, LK_READ_PROGRAM);
	if (!cmd->envp && !taking->environ_hash[0])
		lk_environ_hash(taking->environ_hash);
}

int __wrap_lk_runcmd(const struct lk_runcmd *cmd, struct lk_runcmd_result *res)
{
	note_program(cmd);
	return __real_lk_runcmd(cmd, res);
}

int __wrap_lk_runcmd_start(const struct lk_runcmd *cmd, struct lk_runcmd_job *job)
{
	note_program(cmd);
	return __real_lk_runcmd_start(cmd, job);
}
