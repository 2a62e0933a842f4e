#ifndef LINKSCOPE_HASH_H
#define LINKSCOPE_HASH_H

#include <stdint.h>
#include <string.h>

/*
 * The hash of a name for the analyzer's open-addressing tables (the
 * replay's symbol table, the provider cache's table), 8 bytes at a time:
 * FNV-1a's byte at a time cost a quarter of the provider cache's build and
 * a fifth of the LLVM line's replay (482,000 names, 35 MB; issue #30).
 * Each step is a bijection of the state for a given word, so names of one
 * length never collide in 64 bits; murmur3's fmix64 finishes it, as the
 * tables index by the low bits. Words are read in the machine's byte order:
 * the provider cache's file says which, and keeps these values.
 */
static inline uint64_t lk_hash_bytes(const char *s, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ len, w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, len);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 32;
	return h;
}

static inline uint64_t lk_hash_str(const char *s)
{
	return lk_hash_bytes(s, strlen(s));
}

#endif
