/*
 * cputime FILE CMD...: run CMD and write "CPU WALL" to FILE, the user + system seconds
 * of CMD and of every process it started, and the wall seconds until the
 * last of them ended. It is their subreaper (PR_SET_CHILD_SUBREAPER):
 * a process CMD left unreaped (a worker it killed, a server it did not
 * wait for) is reaped here, so its CPU time is counted, which time(1)'s
 * is not (bench/report-failed.sh: the floor of report --failed is the
 * CPU time of single explains, forks included).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	FILE *out;
	pid_t pid;

	if (argc < 3 || prctl(PR_SET_CHILD_SUBREAPER, 1) < 0 || !(out = fopen(argv[1], "w")))
		return 127;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if ((pid = fork()) < 0)
		return 127;
	if (pid == 0) {
		fclose(out);
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	while (wait(NULL) > 0 || errno == EINTR)
		;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	getrusage(RUSAGE_CHILDREN, &ru);
	fprintf(out, "%.3f %.3f\n", seconds(ru.ru_utime) + seconds(ru.ru_stime),
		(double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	return fclose(out) ? 127 : 0;
}
