/*
 * Opening the files a record names, without blocking, and only regular
 * ones, and writing the files linkscope keeps, atomically (see file.h).
 * No linker behaviour is modelled here.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linkscope/file.h"

int lk_file_open_regular(const char *path, struct stat *st)
{
	struct stat own;
	int fd;

	if (!st)
		st = &own;
	/* Opening some devices does something (a watchdog starts): not even that. */
	if (stat(path, st) < 0)
		return -1;
	if (!S_ISREG(st->st_mode)) {
		errno = LK_ENOTREG;
		return -1;
	}
	/* The file may change between the two looks: O_NONBLOCK, and look again. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, st) < 0) {
		int saved = errno;

		close(fd);
		errno = saved;
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		errno = LK_ENOTREG;
		return -1;
	}
	return fd;
}

ssize_t lk_file_read_head(const char *path, void *buf, size_t size)
{
	int fd = lk_file_open_regular(path, NULL);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size);
	close(fd);
	return n;
}

const char *lk_file_strerror(int e)
{
	return e == LK_ENOTREG ? "not a regular file" : strerror(e);
}

const char *lk_file_not_regular(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0 || S_ISREG(st.st_mode))
		return NULL;
	if (S_ISFIFO(st.st_mode))
		return "a FIFO";
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
		return "a device";
	if (S_ISSOCK(st.st_mode))
		return "a socket";
	if (S_ISDIR(st.st_mode))
		return "a directory";
	return "not a file";
}

int lk_fd_write_all(int fd, const void *data, size_t n)
{
	const char *p = data;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w == 0)
			errno = ENOSPC;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int lk_fd_send_all(int fd, const void *data, size_t n)
{
	const char *p = data;

	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int lk_fd_read_all(int fd, void *data, size_t n)
{
	char *p = data;

	while (n) {
		ssize_t r = read(fd, p, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

int lk_file_create_new(const char *tmp, struct lk_err *err)
{
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);

	if (fd < 0)
		return lk_err_errno(err, "cannot create '%s'", tmp);
	fchmod(fd, 0600);
	return fd;
}

int lk_file_finish_new(int fd, const char *tmp, const char *path, const void *data, size_t len,
		       struct lk_err *err)
{
	if (lk_fd_write_all(fd, data, len) < 0) {
		lk_err_errno(err, "cannot write '%s'", tmp);
		close(fd);
		unlink(tmp);
		return -1;
	}
	if (close(fd) < 0) {
		lk_err_errno(err, "cannot write '%s'", tmp);
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path) < 0) {
		lk_err_errno(err, "cannot rename '%s'", tmp);
		unlink(tmp);
		return -1;
	}
	return 0;
}

int lk_file_write_new(const char *tmp, const char *path, const void *data, size_t len,
		      struct lk_err *err)
{
	int fd = lk_file_create_new(tmp, err);

	return fd < 0 ? -1 : lk_file_finish_new(fd, tmp, path, data, len, err);
}
