/* Growable arrays: the items/nr/alloc trio and one overflow-checked grow macro. */
#ifndef LINKSCOPE_VEC_H
#define LINKSCOPE_VEC_H

#include <stddef.h>

/*
 * Make room for at least `need` items in `items`, whose capacity is `alloc`.
 * Aborts on overflow or out-of-memory: no caller can do better, and a
 * half-grown array is worse than a clean stop.
 */
void *lk_vec_grow(void *items, size_t need, size_t *alloc, size_t item_size);

/*
 * The room already there is tested in line: the replay grows arrays one
 * item at a time, millions of times on a large line (2.1 million calls
 * on the llvm line's --gc-sections replay, 3% of it), nearly all with
 * room to spare.
 */
#define LK_GROW(items, need, alloc) \
	((items) = (size_t)(need) <= (alloc) ? (items) : lk_vec_grow((items), (need), &(alloc), sizeof(*(items))))

/* malloc/calloc/strdup that abort on failure, for the same reason. */
void *lk_xmalloc(size_t size);
void *lk_xcalloc(size_t nr, size_t size);
char *lk_xstrdup(const char *s);
char *lk_xstrndup(const char *s, size_t n);

/* Does `s` start with `prefix`; is `s` one of the NULL-terminated `list`. */
int lk_str_starts_with(const char *s, const char *prefix);
int lk_str_ends_with(const char *s, const char *suffix);
int lk_str_in_list(const char *s, const char *const *list);

#endif
