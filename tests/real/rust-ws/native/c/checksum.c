#include <math.h>
#include <stddef.h>

/* Adler-like checksum; sqrt makes the link need libm's symbol. */
unsigned long native_checksum(const unsigned char *p, size_t n)
{
	unsigned long a = 1, b = 0;

	for (size_t i = 0; i < n; i++) {
		a = (a + p[i]) % 65521;
		b = (b + a) % 65521;
	}
	return (b << 16) | a | (unsigned long)sqrt((double)n) << 40;
}
