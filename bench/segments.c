/*
 * segments: where a wrapper's cost falls, before the driver starts or
 * after it ends, with bench/idle-driver.c as the driver.
 *
 * usage: segments RUNS STAMP -- COMMAND-A... -- COMMAND-B...
 *
 * Runs A and B alternately RUNS times (after 5 warm-up pairs), each with
 * IDLE_STAMP=STAMP so that the idle driver says when its main began and
 * when it returned, and prints for each the median of "before" (spawn of
 * the command to the driver's main) and "after" (the driver's return to
 * the command's reaping), and the paired B-A median of each. The two add
 * up to the wrapper's cost; the 15 ms between are the driver's. Short
 * intervals, so a tenth of the real link's noise.
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

struct segs {
	double before, after;
};

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000000 + t.tv_nsec;
}

static struct segs run_once(char **argv, const char *stamp)
{
	posix_spawn_file_actions_t fa;
	long long t0, t1, start, end;
	struct segs s;
	FILE *f;
	int status;
	pid_t pid;

	unlink(stamp);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	t0 = now_ns();
	if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ)) {
		fprintf(stderr, "segments: cannot run '%s'\n", argv[0]);
		exit(1);
	}
	waitpid(pid, &status, 0);
	t1 = now_ns();
	posix_spawn_file_actions_destroy(&fa);
	f = fopen(stamp, "r");
	if (!WIFEXITED(status) || WEXITSTATUS(status) || !f || fscanf(f, "%lld %lld", &start, &end) != 2) {
		fprintf(stderr, "segments: '%s' failed, or its driver left no stamp in '%s'\n", argv[0], stamp);
		exit(1);
	}
	fclose(f);
	s.before = (double)(start - t0) / 1e3;
	s.after = (double)(t1 - end) / 1e3;
	return s;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp);
	return v[n / 2];
}

int main(int argc, char **argv)
{
	double *v[6];
	char **a, **b;
	int runs, i, sep = 0;

	if (argc < 7 || strcmp(argv[3], "--"))
		goto usage;
	runs = atoi(argv[1]);
	for (i = 4; i < argc; i++)
		if (!strcmp(argv[i], "--"))
			sep = i;
	if (runs < 1 || !sep || sep == 4 || sep == argc - 1)
		goto usage;
	argv[sep] = NULL;
	a = argv + 4;
	b = argv + sep + 1;
	setenv("IDLE_STAMP", argv[2], 1);
	for (i = 0; i < 6; i++)
		v[i] = calloc((size_t)runs, sizeof(double));
	for (i = 0; i < 5; i++) {
		run_once(a, argv[2]);
		run_once(b, argv[2]);
	}
	for (i = 0; i < runs; i++) {
		struct segs sa = run_once(a, argv[2]), sb = run_once(b, argv[2]);

		v[0][i] = sa.before, v[1][i] = sb.before, v[2][i] = sb.before - sa.before;
		v[3][i] = sa.after, v[4][i] = sb.after, v[5][i] = sb.after - sa.after;
	}
	printf("runs %d  before the driver: A %.1f us, B %.1f us, paired B-A %+.1f us; "
	       "after it: A %.1f us, B %.1f us, paired B-A %+.1f us\n", runs,
	       median(v[0], runs), median(v[1], runs), median(v[2], runs),
	       median(v[3], runs), median(v[4], runs), median(v[5], runs));
	for (i = 0; i < 6; i++)
		free(v[i]);
	return 0;
usage:
	fprintf(stderr, "usage: segments RUNS STAMP -- COMMAND-A... -- COMMAND-B...\n");
	return 2;
}
