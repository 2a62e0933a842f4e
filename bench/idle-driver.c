/*
 * idle-driver: a stand-in for the driver that does nothing for as long as
 * the trivial link takes here (15 ms), then succeeds. Timed through the
 * spawn floor and through the shim, it shows the shim's own cost without
 * the real driver's noise (the real link's p90 is ms, this one's tenths),
 * and with the CPU as idle after the wait as a real link leaves it.
 * With IDLE_STAMP set, it writes there when its main began and when it
 * returns (CLOCK_MONOTONIC ns), for bench/segments.c.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000000 + t.tv_nsec;
}

int main(void)
{
	long long start = now_ns();
	struct timespec t = { 0, 15000000 };
	const char *stamp = getenv("IDLE_STAMP");
	char line[64];
	int fd, n;

	nanosleep(&t, NULL);
	if (!stamp)
		return 0;
	fd = open(stamp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	n = snprintf(line, sizeof(line), "%lld %lld\n", start, now_ns());
	if (fd < 0 || write(fd, line, (size_t)n) != n)
		return 1;
	return close(fd) < 0;
}
