/*
 * lk_arena: bump allocation in chunks, freed together. The first chunk is
 * small (an archive member's names are a few kilobytes) and each next one
 * twice the last, up to 1 MiB (a symbol table's hundreds of thousands).
 */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/arena.h"
#include "linkscope/banned.h"
#include "linkscope/vec.h"

#define FIRST_CHUNK ((size_t)4 << 10)
#define MAX_CHUNK ((size_t)1 << 20)

struct lk_arena_chunk {
	struct lk_arena_chunk *next;
	size_t size;
	alignas(max_align_t) unsigned char data[];
};

/* `size` bytes, not zeroed, at `align` (a power of two). */
static void *bump(struct lk_arena *a, size_t size, size_t align)
{
	struct lk_arena_chunk *c = a->chunks;
	size_t at = (a->used + align - 1) & ~(align - 1);
	void *p;

	if (!c || at + size > c->size) {
		size_t csize = c ? (c->size < MAX_CHUNK ? c->size * 2 : MAX_CHUNK) : FIRST_CHUNK;

		if (csize < size)
			csize = size;
		c = lk_xmalloc(sizeof(*c) + csize);
		c->size = csize;
		c->next = a->chunks;
		a->chunks = c;
		at = 0;
	}
	p = c->data + at;
	a->used = at + size;
	return p;
}

void *lk_arena_alloc(struct lk_arena *a, size_t size)
{
	void *p = bump(a, size, alignof(max_align_t));

	memset(p, 0, size);
	return p;
}

char *lk_arena_strdup(struct lk_arena *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = bump(a, n, 1);

	memcpy(p, s, n);
	return p;
}

void lk_arena_release(struct lk_arena *a)
{
	while (a->chunks) {
		struct lk_arena_chunk *next = a->chunks->next;

		free(a->chunks);
		a->chunks = next;
	}
	a->used = 0;
}
