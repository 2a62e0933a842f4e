/*
 * Basics: growable arrays, strings, string vectors and errors, shared by the
 * shim and the analyzer. No linker behaviour is modelled here.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linkscope/buf.h"
#include "linkscope/err.h"
#include "linkscope/file.h"
#include "linkscope/strvec.h"
#include "linkscope/vec.h"

char lk_buf_slop[1];

static _Noreturn void die_oom(void)
{
	static const char msg[] = "linkscope: out of memory\n";
	/* Nothing sensible is left to do; say so without allocating. */
	if (write(2, msg, sizeof(msg) - 1) < 0)
		abort();
	abort();
}

void *lk_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		die_oom();
	return p;
}

void *lk_xcalloc(size_t nr, size_t size)
{
	void *p = calloc(nr ? nr : 1, size ? size : 1);
	if (!p)
		die_oom();
	return p;
}

char *lk_xstrdup(const char *s)
{
	char *p = strdup(s);
	if (!p)
		die_oom();
	return p;
}

char *lk_xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);
	if (!p)
		die_oom();
	return p;
}

int lk_str_starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

int lk_str_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !memcmp(s + n - m, suffix, m);
}

int lk_str_in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return 1;
	return 0;
}

void *lk_vec_grow(void *items, size_t need, size_t *alloc, size_t item_size)
{
	size_t nalloc;
	void *p;

	if (need <= *alloc)
		return items;
	nalloc = *alloc < 8 ? 8 : *alloc;
	while (nalloc < need) {
		if (nalloc > SIZE_MAX / 2)
			die_oom();
		nalloc *= 2;
	}
	if (nalloc > SIZE_MAX / item_size)
		die_oom();
	p = realloc(items, nalloc * item_size);
	if (!p)
		die_oom();
	*alloc = nalloc;
	return p;
}

void lk_buf_init(struct lk_buf *b)
{
	b->buf = lk_buf_slop;
	b->len = 0;
	b->alloc = 0;
}

void lk_buf_release(struct lk_buf *b)
{
	if (b->alloc)
		free(b->buf);
	lk_buf_init(b);
}

char *lk_buf_detach(struct lk_buf *b)
{
	char *s = b->alloc ? b->buf : lk_xstrdup("");
	lk_buf_init(b);
	return s;
}

void lk_buf_grow(struct lk_buf *b, size_t extra)
{
	int fresh = !b->alloc;

	if (extra > SIZE_MAX - b->len - 1)
		die_oom();
	if (fresh)
		b->buf = NULL;
	LK_GROW(b->buf, b->len + extra + 1, b->alloc);
	if (fresh)
		b->buf[0] = '\0';
}

void lk_buf_add(struct lk_buf *b, const void *data, size_t len)
{
	lk_buf_grow(b, len);
	memcpy(b->buf + b->len, data, len);
	b->len += len;
	b->buf[b->len] = '\0';
}

void lk_buf_addstr(struct lk_buf *b, const char *s)
{
	lk_buf_add(b, s, strlen(s));
}

void lk_buf_addch(struct lk_buf *b, char c)
{
	lk_buf_add(b, &c, 1);
}

void lk_buf_vaddf(struct lk_buf *b, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	if (n >= 0) {
		lk_buf_grow(b, (size_t)n);
		vsnprintf(b->buf + b->len, (size_t)n + 1, fmt, again);
		b->len += (size_t)n;
	}
	va_end(again);
}

void lk_buf_addf(struct lk_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lk_buf_vaddf(b, fmt, ap);
	va_end(ap);
}

void lk_buf_reset(struct lk_buf *b)
{
	b->len = 0;
	if (b->alloc)
		b->buf[0] = '\0';
}

const char *lk_path_base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

int lk_buf_read_file(struct lk_buf *b, const char *path, size_t limit)
{
	struct stat st;

	return lk_buf_read_file_stat(b, path, limit, &st);
}

int lk_buf_read_file_stat(struct lk_buf *b, const char *path, size_t limit, struct stat *st)
{
	char chunk[65536];
	size_t total = 0;
	ssize_t n;
	int fd = lk_file_open_regular(path, st);

	if (fd < 0)
		return -1;
	/* /proc files say 0: the bound holds on what is read too. */
	if ((uint64_t)st->st_size > limit) {
		close(fd);
		errno = EFBIG;
		return -1;
	}
	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		total += (size_t)n;
		if (total > limit) {
			close(fd);
			errno = EFBIG;
			return -1;
		}
		lk_buf_add(b, chunk, (size_t)n);
	}
	if (n < 0) {
		int saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	close(fd);
	return 0;
}

void lk_strvec_push_owned(struct lk_strvec *v, char *s)
{
	LK_GROW(v->items, v->nr + 2, v->alloc);
	v->items[v->nr++] = s;
	v->items[v->nr] = NULL;
}

void lk_strvec_push(struct lk_strvec *v, const char *s)
{
	lk_strvec_push_owned(v, lk_xstrdup(s));
}

void lk_strvec_release(struct lk_strvec *v)
{
	for (size_t i = 0; i < v->nr; i++)
		free(v->items[i]);
	free(v->items);
	v->items = NULL;
	v->nr = v->alloc = 0;
}

int lk_strvec_equal(const struct lk_strvec *a, const struct lk_strvec *b)
{
	if (a->nr != b->nr)
		return 0;
	for (size_t i = 0; i < a->nr; i++)
		if (strcmp(a->items[i], b->items[i]))
			return 0;
	return 1;
}

int lk_err_set(struct lk_err *err, enum lk_errcode code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int lk_err_errno(struct lk_err *err, const char *fmt, ...)
{
	int saved = errno;
	size_t len;
	va_list ap;

	if (!err)
		return -1;
	err->code = LK_E_IO;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	len = strlen(err->msg);
	snprintf(err->msg + len, sizeof(err->msg) - len, ": %s", lk_file_strerror(saved));
	errno = saved;
	return -1;
}

_Noreturn void lk_bug(const char *file, int line, const char *msg)
{
	fprintf(stderr, "linkscope: BUG at %s:%d: %s\n", file, line, msg);
	abort();
}
