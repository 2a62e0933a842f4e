/*
 * pairtime: paired wall-clock timing of two commands.
 *
 * usage: pairtime RUNS -- COMMAND-A... -- COMMAND-B...
 *
 * Runs A and B alternately RUNS times (after 5 warm-up pairs), so drift in
 * the machine's load hits both alike, and prints the median of each, their
 * ratio, and the median and 90th percentile of the per-pair difference B-A.
 * Both commands must succeed every time. Output goes to /dev/null.
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

static double run_ms(char **argv)
{
	posix_spawn_file_actions_t fa;
	struct timespec t0, t1;
	int status;
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ)) {
		fprintf(stderr, "pairtime: cannot run '%s'\n", argv[0]);
		exit(1);
	}
	waitpid(pid, &status, 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	posix_spawn_file_actions_destroy(&fa);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "pairtime: '%s' failed\n", argv[0]);
		exit(1);
	}
	return (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double quantile(double *v, int n, double q)
{
	qsort(v, (size_t)n, sizeof(*v), cmp);
	return v[(int)(q * (n - 1) + 0.5)];
}

int main(int argc, char **argv)
{
	char **a, **b;
	double *ta, *tb, *diff;
	int runs, i, sep = 0;

	if (argc < 6 || strcmp(argv[2], "--"))
		goto usage;
	runs = atoi(argv[1]);
	for (i = 3; i < argc; i++)
		if (!strcmp(argv[i], "--"))
			sep = i;
	if (runs < 1 || !sep || sep == 3 || sep == argc - 1)
		goto usage;
	argv[sep] = NULL;
	a = argv + 3;
	b = argv + sep + 1;
	ta = calloc((size_t)runs, sizeof(double));
	tb = calloc((size_t)runs, sizeof(double));
	diff = calloc((size_t)runs, sizeof(double));
	for (i = 0; i < 5; i++) {
		run_ms(a);
		run_ms(b);
	}
	for (i = 0; i < runs; i++) {
		ta[i] = run_ms(a);
		tb[i] = run_ms(b);
		diff[i] = tb[i] - ta[i];
	}
	{
		double ma = quantile(ta, runs, 0.5), mb = quantile(tb, runs, 0.5);
		double md = quantile(diff, runs, 0.5), p90 = quantile(diff, runs, 0.9);

		printf("runs %d  A median %.3f ms  B median %.3f ms  ratio B/A %.3f  "
		       "paired B-A median %.3f ms  p90 %.3f ms\n", runs, ma, mb, mb / ma, md, p90);
	}
	free(ta);
	free(tb);
	free(diff);
	return 0;
usage:
	fprintf(stderr, "usage: pairtime RUNS -- COMMAND-A... -- COMMAND-B...\n");
	return 2;
}
