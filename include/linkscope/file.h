/*
 * Opening a file that a record names, or that sits in a record dir or a
 * cache dir: every file the analyzer reads goes through here. A record may
 * come from someone else's CI run, and a record dir unpacked from a CI
 * artifact keeps FIFOs: opening a FIFO for reading blocks until a writer
 * comes, reading a device (/dev/zero) never ends. So the file is opened
 * without blocking and read only if the opened file is a regular one
 * (fstat on the descriptor: no window between the check and the open).
 */
#ifndef LINKSCOPE_FILE_H
#define LINKSCOPE_FILE_H

#include <stddef.h>
#include <sys/stat.h>

#include "linkscope/err.h"

/* errno after lk_file_open_regular() of a FIFO, device, socket or directory. */
#define LK_ENOTREG 0x4c4b

/*
 * Open `path` read-only (O_NONBLOCK, O_NOCTTY, O_CLOEXEC). Returns the
 * descriptor of a regular file, the caller closes it; else -1 with errno
 * set (LK_ENOTREG when it is no regular file). `st` (may be NULL) gets
 * the opened file's fstat.
 */
int lk_file_open_regular(const char *path, struct stat *st);

/* The first `size` bytes of the regular file `path` into `buf`: how many were read, or -1. */
ssize_t lk_file_read_head(const char *path, void *buf, size_t size);

/*
 * All `n` bytes to `fd` (write(2); send(2) without SIGPIPE for a socket a
 * peer may have closed), or from it (read(2): -1 also at its end before
 * `n`), across EINTR and short transfers: 0, or -1 with errno set.
 */
int lk_fd_write_all(int fd, const void *data, size_t n);
int lk_fd_send_all(int fd, const void *data, size_t n);
int lk_fd_read_all(int fd, void *data, size_t n);

/* strerror(e), and "not a regular file" for LK_ENOTREG. */
const char *lk_file_strerror(int e);

/*
 * What `path` is when it is there and no regular file ("a FIFO", "a
 * device", "a socket", "a directory"), for messages; NULL for a regular
 * file or a missing one (opening it says why).
 */
const char *lk_file_not_regular(const char *path);

/*
 * Write `len` bytes as the file `path`, atomically and private: into a
 * new `tmp` (O_EXCL, O_NOFOLLOW, 0600 whatever the umask), then renamed
 * over `path`, so readers see the old file, the new one, or none. No
 * fsync: a power cut may lose the newest file, never tear it. Returns 0,
 * or -1 with `err` set ("cannot create/write/rename 'TMP'") and `tmp`
 * removed.
 */
int lk_file_write_new(const char *tmp, const char *path, const void *data, size_t len,
		      struct lk_err *err);

/*
 * lk_file_write_new in two steps, for a writer that makes the file before
 * it knows the data (the shim, while the link runs): the empty `tmp`
 * (O_EXCL, O_NOFOLLOW, 0600), an fd or -1 with `err` set; then the data
 * written into it, closed and renamed over `path`, the fd closed and
 * `tmp` removed whatever happens.
 */
int lk_file_create_new(const char *tmp, struct lk_err *err);
int lk_file_finish_new(int fd, const char *tmp, const char *path, const void *data, size_t len,
		       struct lk_err *err);

#endif
