/* lk_buf: a growable string, always NUL-terminated. */
#ifndef LINKSCOPE_BUF_H
#define LINKSCOPE_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <sys/stat.h>

struct lk_buf {
	char *buf;	/* never NULL; points at a shared "" until the first append */
	size_t len;
	size_t alloc;	/* 0 while buf is the shared empty string */
};

extern char lk_buf_slop[1];
#define LK_BUF_INIT { lk_buf_slop, 0, 0 }

void lk_buf_init(struct lk_buf *b);
/* Free the contents; the buf is empty and reusable afterwards. */
void lk_buf_release(struct lk_buf *b);
/* Hand the string to the caller (who frees it); the buf becomes empty. */
char *lk_buf_detach(struct lk_buf *b);
void lk_buf_grow(struct lk_buf *b, size_t extra);
void lk_buf_add(struct lk_buf *b, const void *data, size_t len);
void lk_buf_addstr(struct lk_buf *b, const char *s);
void lk_buf_addch(struct lk_buf *b, char c);
void lk_buf_addf(struct lk_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void lk_buf_vaddf(struct lk_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void lk_buf_reset(struct lk_buf *b);

/*
 * Read the whole file at `path` into `b` (appending), if it is a regular
 * file (lk_file_open_regular: a FIFO or a device fails with LK_ENOTREG,
 * never blocks). Returns 0, or -1 with errno set. Files larger than
 * `limit` bytes fail with EFBIG.
 */
int lk_buf_read_file(struct lk_buf *b, const char *path, size_t limit);

/* The same, and the opened file's fstat in `st` (whose it is: the shim's views/ entries). */
int lk_buf_read_file_stat(struct lk_buf *b, const char *path, size_t limit, struct stat *st);

/* The last component of `path` (after its last '/'), borrowed from `path`. */
const char *lk_path_base(const char *path);

#endif
