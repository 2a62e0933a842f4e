/*
 * lk_arena: many small allocations freed together. The replay keeps one
 * per run for its symbol table: hundreds of thousands of names and entries
 * that live exactly as long as the table.
 */
#ifndef LINKSCOPE_ARENA_H
#define LINKSCOPE_ARENA_H

#include <stddef.h>

struct lk_arena {
	struct lk_arena_chunk *chunks;
	size_t used;		/* in the newest chunk */
};

#define LK_ARENA_INIT { NULL, 0 }

/* Zeroed memory, aligned for any object; aborts when out of memory. */
void *lk_arena_alloc(struct lk_arena *a, size_t size);
char *lk_arena_strdup(struct lk_arena *a, const char *s);
/* Free every allocation at once. */
void lk_arena_release(struct lk_arena *a);

#endif
