/*
 * record-floor: the least a wrapper that records can cost, as the shim
 * records: the spawn floor (bench/spawn-floor.c) plus a record's temp file
 * made while the driver runs, then, after the wait, 4.6 KB written into it
 * (a trivial link's record), the rename, and one index line appended.
 * Nothing is read, hashed, kept or rendered. RF_DIR is the directory.
 * Timed beside the shim by bench/shim-overhead.sh: what is left between
 * the two is the shim's own work; what is between this and the spawn
 * floor, any recorder's on this machine's file system.
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	static char record[4664];
	char tmp[512], final[512], index[512];
	const char *dir = getenv("RF_DIR");
	pid_t pid;
	int status, fd, ifd;

	if (argc < 2 || !dir || posix_spawnp(&pid, argv[1], NULL, NULL, argv + 1, environ))
		return 127;
	snprintf(tmp, sizeof(tmp), "%s/.%ld.json.tmp", dir, (long)pid);
	snprintf(final, sizeof(final), "%s/%ld.json", dir, (long)pid);
	snprintf(index, sizeof(index), "%s/records.index", dir);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	memset(record, ' ', sizeof(record));
	if (waitpid(pid, &status, 0) < 0)
		return 127;
	if (fd >= 0 && write(fd, record, sizeof(record)) == (ssize_t)sizeof(record) && close(fd) == 0)
		rename(tmp, final);
	ifd = open(index, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (ifd >= 0) {
		if (write(ifd, record, 200) < 0)
			perror(index);
		close(ifd);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
