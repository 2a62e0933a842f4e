/*
 * Symbols -> the replay's symbol table (see symtab.h): names hashed once,
 * entries in an arena, and the precedence of a regular object's symbol
 * over the entry it meets, as bfd ranks them.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/arena.h"
#include "linkscope/banned.h"
#include "linkscope/hash.h"
#include "linkscope/vec.h"
#include "symtab.h"

/* Open addressing; each slot keeps its hash so a probe rarely touches the entry. */
struct slot {
	uint64_t hash;
	struct lk_sym *sym;
};

struct lk_symtab {
	struct slot *slots;
	size_t cap, nr;
	struct lk_arena arena;	/* entries, names and reference lists */
	struct { char **items; size_t nr, alloc; } adopted;	/* buffers of borrowed names (lk_symtab_adopt) */
	/* The entries in the order they were made: what walks the table sees, whatever the hash. */
	struct { struct lk_sym **items; size_t nr, alloc; } order;
};

/* The first capacity, and the load (in tenths) at which the table doubles. */
#define SYMTAB_FIRST_CAP 4096
#define SYMTAB_MAX_LOAD_TENTHS 7

struct lk_symtab *lk_symtab_new(void)
{
	return lk_xcalloc(1, sizeof(struct lk_symtab));
}

void lk_symtab_free(struct lk_symtab *t)
{
	if (!t)
		return;
	free(t->slots);
	lk_arena_release(&t->arena);
	for (size_t i = 0; i < t->adopted.nr; i++)
		free(t->adopted.items[i]);
	free(t->adopted.items);
	free(t->order.items);
	free(t);
}

static struct slot *slot(const struct lk_symtab *t, const char *name, uint64_t h)
{
	size_t i = (size_t)h & (t->cap - 1);

	while (t->slots[i].sym && (t->slots[i].hash != h || strcmp(t->slots[i].sym->name, name)))
		i = (i + 1) & (t->cap - 1);
	return &t->slots[i];
}

struct lk_sym *lk_symtab_lookup(const struct lk_symtab *t, const char *name)
{
	return t && t->cap ? slot(t, name, lk_hash_str(name))->sym : NULL;
}

/*
 * The slot an entry moves to when the table grows: the first free one from
 * its hash, where slot() would stop too (the names in a table differ), but
 * without reading the entry: a fix trial grows the table it inherits, and
 * reading each entry for its name cost more than the rest of the move.
 */
static struct slot *free_slot(const struct lk_symtab *t, uint64_t h)
{
	size_t i = (size_t)h & (t->cap - 1);

	while (t->slots[i].sym)
		i = (i + 1) & (t->cap - 1);
	return &t->slots[i];
}

static void grow(struct lk_symtab *t)
{
	size_t cap = t->cap ? t->cap * 2 : SYMTAB_FIRST_CAP;
	struct slot *old = t->slots;
	size_t old_cap = t->cap;

	t->slots = lk_xcalloc(cap, sizeof(struct slot));
	t->cap = cap;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].sym)
			*free_slot(t, old[i].hash) = old[i];
	free(old);
}

/* The entry `s` (a free slot) made for `name`: copied into the arena, or borrowed. */
static struct lk_sym *make(struct lk_symtab *t, struct slot *s, const char *name, uint64_t h, int borrow)
{
	s->hash = h;
	s->sym = lk_arena_alloc(&t->arena, sizeof(*s->sym));
	s->sym->name = borrow ? name : lk_arena_strdup(&t->arena, name);
	s->sym->def_input = s->sym->first_ref = s->sym->first_dyn_ref = -1;
	s->sym->armap_item = s->sym->armap_k = -1;
	s->sym->refs_tail = &s->sym->refs;
	t->nr++;
	LK_GROW(t->order.items, t->order.nr + 1, t->order.alloc);
	t->order.items[t->order.nr++] = s->sym;
	return s->sym;
}

void lk_symtab_reserve(struct lk_symtab *t, size_t n)
{
	while ((t->nr + n + 1) * 10 >= t->cap * SYMTAB_MAX_LOAD_TENTHS)
		grow(t);
}

struct lk_sym *lk_symtab_intern(struct lk_symtab *t, const char *name)
{
	uint64_t h = lk_hash_str(name);
	struct slot *s;

	lk_symtab_reserve(t, 1);
	s = slot(t, name, h);
	return s->sym ? s->sym : make(t, s, name, h, 0);
}

/*
 * How far ahead lk_symtab_intern_all asks for a name's slot, and for the
 * name of the entry in it: a table of the LLVM line's 130,000 names is
 * megabytes, and each name met is a miss on its slot and one on the
 * entry's name, which strcmp() then waits for (a fifth of that replay).
 */
#define PREFETCH_SLOT 16
#define PREFETCH_NAME 8

void lk_symtab_intern_all(struct lk_symtab *t, const char *const *names, const uint64_t *hashes, size_t n,
			  struct lk_sym **out, int borrow)
{
	uint64_t *mine = hashes ? NULL : lk_xmalloc((n ? n : 1) * sizeof(*mine));
	const uint64_t *h = hashes ? hashes : mine;

	for (size_t i = 0; mine && i < n; i++)
		mine[i] = lk_hash_str(names[i]);
	lk_symtab_reserve(t, n);
	for (size_t i = 0; i < n; i++) {
		struct slot *s;

		if (i + PREFETCH_SLOT < n)
			__builtin_prefetch(&t->slots[h[i + PREFETCH_SLOT] & (t->cap - 1)]);
		if (i + PREFETCH_NAME < n) {
			const struct slot *ahead = &t->slots[h[i + PREFETCH_NAME] & (t->cap - 1)];

			if (ahead->sym && ahead->hash == h[i + PREFETCH_NAME])
				__builtin_prefetch(ahead->sym->name);
		}
		s = slot(t, names[i], h[i]);
		out[i] = s->sym ? s->sym : make(t, s, names[i], h[i], borrow);
	}
	free(mine);
}

void lk_symtab_adopt(struct lk_symtab *t, char *buffer)
{
	LK_GROW(t->adopted.items, t->adopted.nr + 1, t->adopted.alloc);
	t->adopted.items[t->adopted.nr++] = buffer;
}

const char *lk_symtab_strdup(struct lk_symtab *t, const char *s)
{
	return lk_arena_strdup(&t->arena, s);
}

struct lk_sym *lk_symtab_next(const struct lk_symtab *t, size_t *cursor)
{
	return t && *cursor < t->order.nr ? t->order.items[(*cursor)++] : NULL;
}

enum lk_sym_event lk_symtab_add_regular(struct lk_symtab *t, struct lk_sym *s,
					const struct lk_elf_sym *y, long input, unsigned rules)
{
	if (y->defined && s->defined && !s->dynamic && !s->weak_def && !y->weak &&
	    !y->common && !s->mergeable && !y->mergeable && !(rules & LK_RULE_ALLOW_MULTIPLE))
		return LK_SYM_MULTIPLE;
	if (y->defined) {
		/* A regular definition overrides a shared one and a weak one. */
		if (s->defined && !s->dynamic && !(s->weak_def && !y->weak))
			return LK_SYM_KEPT;
		s->defined = 1;
		s->dynamic = 0;
		s->needed_only = 0;
		s->weak_def = y->weak || y->common;
		s->common = y->common;
		s->mergeable = y->mergeable;
		s->def_input = input;
		s->def_section = y->section;
		s->def_value = y->value;
		s->def_hidden = y->local_vis;
		s->def_typed = !y->notype && !y->tls;
		s->version = NULL;
		return LK_SYM_DEFINED;
	}
	if ((rules & LK_RULE_UNREF) && s->unref)
		return LK_SYM_UNREF_SKIPPED;
	{
		struct lk_symref *ref = lk_arena_alloc(&t->arena, sizeof(*ref));

		ref->input = input;
		*s->refs_tail = ref;
		s->refs_tail = &ref->next;
		s->nrefs++;
	}
	if (!y->weak) {
		s->ref_regular_strong = 1;
		if (s->first_ref < 0)
			s->first_ref = input;
	}
	return LK_SYM_REFERENCED;
}
