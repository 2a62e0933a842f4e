/* Errors: library code fills a struct lk_err and returns -1; only main() prints. */
#ifndef LINKSCOPE_ERR_H
#define LINKSCOPE_ERR_H

enum lk_errcode {
	LK_E_NONE = 0,
	LK_E_IO,	/* a system call failed; errno-derived text */
	LK_E_FORMAT,	/* an input is not what it claims to be */
	LK_E_VERSION,	/* an input is from a newer schema */
	LK_E_USAGE,	/* the caller asked for something impossible */
	LK_E_RECURSION,	/* the shim would run itself */
	LK_E_NOTFOUND,	/* a program or file does not exist */
};

struct lk_err {
	enum lk_errcode code;
	char msg[512];
};

#define LK_ERR_INIT { LK_E_NONE, "" }

/* Set the error (printf-style) and return -1, so callers can `return lk_err_set(...)`. */
int lk_err_set(struct lk_err *err, enum lk_errcode code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Like lk_err_set, appending ": strerror(errno)" taken before formatting. */
int lk_err_errno(struct lk_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Abort with file:line for a broken invariant. */
#define LK_BUG(msg) lk_bug(__FILE__, __LINE__, (msg))
_Noreturn void lk_bug(const char *file, int line, const char *msg);

#endif
