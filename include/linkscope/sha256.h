/* SHA-256, to name kept input copies by content (FIPS 180-4). */
#ifndef LINKSCOPE_SHA256_H
#define LINKSCOPE_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct lk_sha256 {
	uint32_t state[8];
	uint64_t bytes;
	unsigned char block[64];
	size_t fill;
};

void lk_sha256_init(struct lk_sha256 *ctx);
void lk_sha256_update(struct lk_sha256 *ctx, const void *data, size_t len);
/* Write the digest as 64 lower-case hex digits and a NUL into hex[65]. */
void lk_sha256_final_hex(struct lk_sha256 *ctx, char hex[65]);
/* Do the first 64 characters of `s` read as such a digest (a kept copy's name)? */
int lk_sha256_is_hex(const char *s);

#endif
