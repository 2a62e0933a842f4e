#ifndef LINKSCOPE_HASH_H
#define LINKSCOPE_HASH_H

#include <stdint.h>

/*
 * The hash of a NUL-terminated name for the analyzer's open-addressing
 * tables (symbol table, provider search): FNV-1a, whose low bits mix
 * poorly while the tables index by them, finished with murmur3's fmix64.
 */
static inline uint64_t lk_hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

#endif
