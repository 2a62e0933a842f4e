/*
 * idle-driver: a stand-in for the driver that does nothing for as long as
 * the trivial link takes here (15 ms), then succeeds. Timed through the
 * spawn floor and through the shim, it shows the shim's own cost without
 * the real driver's noise (the real link's p90 is ms, this one's tenths),
 * and with the CPU as idle after the wait as a real link leaves it.
 */
#include <time.h>

int main(void)
{
	struct timespec t = { 0, 15000000 };

	nanosleep(&t, NULL);
	return 0;
}
