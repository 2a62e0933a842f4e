/* libFuzzer target: a provider index cache file (it is input: anyone's disk, any state). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	long n = lk_provider_cache_parse((const char *)data, size, "/usr/lib");

	/* Each entry takes a line of at least "f x 0 0 s 0 0 0\n". */
	if (n > (long)(size / 16) + 1)
		abort();
	return 0;
}
