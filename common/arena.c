/* lk_arena: bump allocation in 1 MiB chunks, freed together. */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/arena.h"
#include "linkscope/banned.h"
#include "linkscope/vec.h"

#define CHUNK ((size_t)1 << 20)

struct lk_arena_chunk {
	struct lk_arena_chunk *next;
	size_t size;
	alignas(max_align_t) unsigned char data[];
};

void *lk_arena_alloc(struct lk_arena *a, size_t size)
{
	size_t align = alignof(max_align_t);
	size_t need = (size + align - 1) & ~(align - 1);
	struct lk_arena_chunk *c = a->chunks;
	void *p;

	if (!c || a->used + need > c->size) {
		size_t csize = need > CHUNK ? need : CHUNK;

		c = lk_xmalloc(sizeof(*c) + csize);
		c->size = csize;
		c->next = a->chunks;
		a->chunks = c;
		a->used = 0;
	}
	p = c->data + a->used;
	a->used += need;
	memset(p, 0, size);
	return p;
}

char *lk_arena_strdup(struct lk_arena *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = lk_arena_alloc(a, n);

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
