/*
 * Section garbage collection as bfd does it (bfd/elflink.c:
 * bfd_elf_gc_sections, _bfd_elf_gc_mark, _bfd_elf_gc_mark_extra_sections,
 * elf_gc_sweep), over the regular objects the replay loaded:
 * - roots: the sections defining the entry symbol and the -u /
 *   --require-defined / --export-dynamic-symbol names (_bfd_elf_gc_keep);
 *   the KEEP sections of the default linker script (.init, .fini,
 *   .preinit_array, .init_array*, .fini_array*, .ctors*, .dtors*, .jcr,
 *   .gnu.attributes, .eh_frame); notes outside groups; SHF_GNU_RETAIN sections; when
 *   the output has dynamic sections, definitions that a shared object
 *   references or that are exported (-shared, -E), unless hidden
 *   (bfd_elf_gc_mark_dynamic_ref_symbol);
 * - edges: relocations, to a local section or to the winning definition of
 *   a global; a reference to an undefined __start_X / __stop_X keeps every
 *   section named X; marking one member of a section group marks the group;
 *   .eh_frame is not followed as a whole: each FDE's other relocations
 *   (LSDA, the CIE's personality) are needs of its function's section;
 * - after marking, SHF_LINK_ORDER sections whose linked-to section stays
 *   stay too, and the non-allocated sections (debug info) of a file stay
 *   when any of its allocated non-note sections does;
 * - a COMDAT group whose signature was already loaded is marked like any
 *   other (ld sweeps before it drops duplicates: --print-gc-sections names
 *   unused copies), but its references do not count: ld keeps the first
 *   copy only.
 * The replay then counts an undefined reference only when a section that
 * stays makes it, as ld's relocation pass does.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gc.h"
#include "linkscope/arena.h"
#include "linkscope/banned.h"
#include "linkscope/vec.h"

struct gsec {
	unsigned keep : 1, marked : 1, duplicate : 1, alloc : 1, note : 1, counted : 1;
	long group, linked_to;
	uint32_t first_edge, nedges;
	uint32_t first_member, nmembers;	/* a group section: its members in `members` */
	const char *start_stop;	/* the name, when __start_NAME could refer to it */
};

struct gedge {
	void *sym;		/* NULL: `to` is a local section */
	uint32_t to;
	uint32_t start_stop;	/* sym is __start_X or __stop_X */
};

struct gdef {
	void *sym;
	uint32_t section;
	uint32_t hidden;
};

struct gin {
	long input;
	uint32_t nsec, nedges, ndefs;
	struct gsec *secs;
	struct gedge *edges;
	struct gdef *defs;	/* sorted by sym */
	uint32_t *members;
};

struct work {
	size_t in;
	uint32_t sec;
};

struct lk_gc {
	struct lk_gc_host host;
	struct { struct gin *items; size_t nr, alloc; } ins;
	struct { struct work *items; size_t nr, alloc; } stack;
	struct { const char **slots; size_t cap, nr; } comdats;	/* signatures loaded: a hash set */
	struct lk_strvec start_stop_done;
	struct lk_arena arena;
	size_t removed, total;
};

/* The sections the default linker script names in KEEP(). */
static int keep_name(const char *n)
{
	static const char *const exact[] = {
		".init", ".fini", ".preinit_array", ".init_array", ".fini_array", ".ctors",
		".dtors", ".jcr", ".gnu.attributes", ".eh_frame", NULL,
	};
	static const char *const prefix[] = { ".init_array.", ".fini_array.", ".ctors.", ".dtors.", NULL };

	for (const char *const *e = exact; *e; e++)
		if (!strcmp(n, *e))
			return 1;
	for (const char *const *p = prefix; *p; p++)
		if (!strncmp(n, *p, strlen(*p)))
			return 1;
	return 0;
}

/* ld defines __start_X/__stop_X only for sections named like C identifiers. */
static int c_identifier(const char *n)
{
	if (!*n || (*n >= '0' && *n <= '9'))
		return 0;
	for (; *n; n++)
		if (!((*n >= 'a' && *n <= 'z') || (*n >= 'A' && *n <= 'Z') || (*n >= '0' && *n <= '9') || *n == '_'))
			return 0;
	return 1;
}

struct lk_gc *lk_gc_new(const struct lk_gc_host *host)
{
	struct lk_gc *gc = lk_xcalloc(1, sizeof(*gc));

	gc->host = *host;
	return gc;
}

/* FNV-1a; the set indexes by its low bits after a final mix. */
static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h ^ (h >> 29);
}

/* 1 when `sig` was loaded before; else it is recorded now. */
static int comdat_seen(struct lk_gc *gc, const char *sig)
{
	size_t i;

	if ((gc->comdats.nr + 1) * 2 >= gc->comdats.cap) {
		size_t cap = gc->comdats.cap ? gc->comdats.cap * 2 : 1024;
		const char **slots = lk_xcalloc(cap, sizeof(*slots));

		for (size_t k = 0; k < gc->comdats.cap; k++) {
			const char *x = gc->comdats.slots[k];

			if (!x)
				continue;
			for (i = hash_str(x) & (cap - 1); slots[i]; i = (i + 1) & (cap - 1))
				;
			slots[i] = x;
		}
		free(gc->comdats.slots);
		gc->comdats.slots = slots;
		gc->comdats.cap = cap;
	}
	for (i = hash_str(sig) & (gc->comdats.cap - 1); gc->comdats.slots[i]; i = (i + 1) & (gc->comdats.cap - 1))
		if (!strcmp(gc->comdats.slots[i], sig))
			return 1;
	gc->comdats.slots[i] = lk_arena_strdup(&gc->arena, sig);
	gc->comdats.nr++;
	return 0;
}

static int cmp_edge(const void *a, const void *b)
{
	const struct lk_elf_gc_edge *x = a, *y = b;

	return x->from < y->from ? -1 : x->from > y->from;
}

static int cmp_def(const void *a, const void *b)
{
	const struct gdef *x = a, *y = b;

	return x->sym < y->sym ? -1 : x->sym > y->sym;
}

static void add_groups(struct lk_gc *gc, struct gin *in, const struct lk_elf_gc *s)
{
	uint32_t n = 0;

	for (size_t i = 0; i < s->nsections; i++)
		n += s->sections[i].group >= 0;
	in->members = lk_arena_alloc(&gc->arena, (n + 1) * sizeof(*in->members));
	n = 0;
	for (size_t g = 0; g < s->nsections; g++) {
		int discard;

		if (!s->sections[g].signature && !s->sections[g].comdat)
			continue;
		in->secs[g].first_member = n;
		for (size_t i = 0; i < s->nsections; i++)
			if (s->sections[i].group == (long)g)
				in->members[n++] = (uint32_t)i;
		in->secs[g].nmembers = n - in->secs[g].first_member;
		discard = s->sections[g].comdat && s->sections[g].signature &&
			  comdat_seen(gc, s->sections[g].signature);
		for (uint32_t k = 0; k < in->secs[g].nmembers && discard; k++)
			in->secs[in->members[in->secs[g].first_member + k]].duplicate = 1;
	}
}

void lk_gc_add(struct lk_gc *gc, long input, const struct lk_elf_gc *s)
{
	struct gin *in;
	struct lk_elf_gc_edge *edges;
	size_t ne = 0;

	LK_GROW(gc->ins.items, gc->ins.nr + 1, gc->ins.alloc);
	in = &gc->ins.items[gc->ins.nr++];
	memset(in, 0, sizeof(*in));
	in->input = input;
	in->nsec = (uint32_t)s->nsections;
	in->secs = lk_arena_alloc(&gc->arena, (s->nsections + 1) * sizeof(*in->secs));
	for (size_t i = 0; i < s->nsections; i++) {
		const struct lk_elf_gc_section *x = &s->sections[i];
		struct gsec *g = &in->secs[i];

		g->alloc = x->alloc;
		g->note = x->note;
		g->counted = x->counted && !x->empty;
		g->group = x->group;
		g->linked_to = x->linked_to;
		g->keep = x->retain || (x->name && keep_name(x->name)) ||
			  (x->note && x->group < 0 && x->linked_to < 0);
		if (x->name && c_identifier(x->name))
			g->start_stop = lk_arena_strdup(&gc->arena, x->name);
	}
	add_groups(gc, in, s);
	/* Edges by section, each target once per section. */
	edges = lk_xmalloc((s->edges.nr + 1) * sizeof(*edges));
	if (s->edges.nr)	/* an object without relocations has no edge array at all */
		memcpy(edges, s->edges.items, s->edges.nr * sizeof(*edges));
	qsort(edges, s->edges.nr, sizeof(*edges), cmp_edge);
	in->edges = lk_arena_alloc(&gc->arena, (s->edges.nr + 1) * sizeof(*in->edges));
	for (size_t i = 0; i < s->edges.nr; i++) {
		const struct lk_elf_gc_edge *x = &edges[i];
		struct gedge e = { NULL, (uint32_t)x->to, 0 };
		struct gsec *from;

		if (x->from >= s->nsections || (!x->symbol && x->to >= s->nsections))
			continue;
		if (x->symbol) {
			e.sym = gc->host.intern(gc->host.ctx, x->symbol);
			e.to = 0;
			e.start_stop = !strncmp(x->symbol, "__start_", 8) || !strncmp(x->symbol, "__stop_", 7);
		}
		from = &in->secs[x->from];
		if (!from->nedges)
			from->first_edge = (uint32_t)ne;
		else if (in->edges[ne - 1].sym == e.sym && in->edges[ne - 1].to == e.to)
			continue;
		in->edges[ne++] = e;
		from->nedges++;
	}
	in->nedges = (uint32_t)ne;
	free(edges);
	in->defs = lk_arena_alloc(&gc->arena, (s->defs.nr + 1) * sizeof(*in->defs));
	for (size_t i = 0; i < s->defs.nr; i++) {
		in->defs[in->ndefs].sym = gc->host.intern(gc->host.ctx, s->defs.items[i].name);
		in->defs[in->ndefs].section = (uint32_t)s->defs.items[i].section;
		in->defs[in->ndefs].hidden = s->defs.items[i].hidden;
		in->ndefs++;
	}
	qsort(in->defs, in->ndefs, sizeof(*in->defs), cmp_def);
}

static struct gin *find_input(struct lk_gc *gc, long input, size_t *index)
{
	size_t lo = 0, hi = gc->ins.nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (gc->ins.items[mid].input == input) {
			*index = mid;
			return &gc->ins.items[mid];
		}
		if (gc->ins.items[mid].input < input)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static uint32_t def_section(const struct gin *in, void *sym)
{
	size_t lo = 0, hi = in->ndefs;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (in->defs[mid].sym == sym)
			return in->defs[mid].section;
		if ((uintptr_t)in->defs[mid].sym < (uintptr_t)sym)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static void mark(struct lk_gc *gc, size_t in, uint32_t sec)
{
	struct gsec *s;

	if (sec == 0 || sec >= gc->ins.items[in].nsec)
		return;
	s = &gc->ins.items[in].secs[sec];
	if (s->marked)
		return;
	s->marked = 1;
	LK_GROW(gc->stack.items, gc->stack.nr + 1, gc->stack.alloc);
	gc->stack.items[gc->stack.nr].in = in;
	gc->stack.items[gc->stack.nr++].sec = sec;
}

/* The section of the winning definition of `sym`, marked. */
static void mark_symbol(struct lk_gc *gc, void *sym)
{
	long d = gc->host.definer(gc->host.ctx, sym);
	size_t k;
	struct gin *in;

	if (d >= 0 && (in = find_input(gc, d, &k)))
		mark(gc, k, def_section(in, sym));
}

/* A reference to the linker's __start_X / __stop_X keeps every input section named X. */
static void mark_start_stop(struct lk_gc *gc, void *sym)
{
	const char *name = gc->host.name(gc->host.ctx, sym);
	const char *x = name + (name[2] == 's' && name[3] == 't' && name[4] == 'a' ? 8 : 7);

	for (size_t i = 0; i < gc->start_stop_done.nr; i++)
		if (!strcmp(gc->start_stop_done.items[i], x))
			return;
	lk_strvec_push(&gc->start_stop_done, x);
	for (size_t i = 0; i < gc->ins.nr; i++)
		for (uint32_t s = 1; s < gc->ins.items[i].nsec; s++)
			if (gc->ins.items[i].secs[s].start_stop && !strcmp(gc->ins.items[i].secs[s].start_stop, x))
				mark(gc, i, s);
}

static void propagate(struct lk_gc *gc)
{
	while (gc->stack.nr) {
		struct work w = gc->stack.items[--gc->stack.nr];
		const struct gin *in = &gc->ins.items[w.in];
		const struct gsec *s = &in->secs[w.sec];

		if (s->group >= 0 && (uint32_t)s->group < in->nsec) {
			const struct gsec *g = &in->secs[s->group];

			for (uint32_t k = 0; k < g->nmembers; k++)
				mark(gc, w.in, in->members[g->first_member + k]);
		}
		for (uint32_t k = 0; k < s->nedges; k++) {
			const struct gedge *e = &in->edges[s->first_edge + k];

			if (!e->sym)
				mark(gc, w.in, e->to);
			else if (e->start_stop && gc->host.definer(gc->host.ctx, e->sym) < 0)
				mark_start_stop(gc, e->sym);
			else
				mark_symbol(gc, e->sym);
		}
	}
}

static void mark_roots(struct lk_gc *gc, const struct lk_gc_roots *roots)
{
	mark_symbol(gc, gc->host.intern(gc->host.ctx, roots->entry));
	for (size_t i = 0; roots->symbols && i < roots->symbols->nr; i++)
		mark_symbol(gc, gc->host.intern(gc->host.ctx, roots->symbols->items[i]));
	for (size_t i = 0; i < gc->ins.nr; i++) {
		struct gin *in = &gc->ins.items[i];

		for (uint32_t s = 1; s < in->nsec; s++)
			if (in->secs[s].keep)
				mark(gc, i, s);
		for (uint32_t d = 0; d < in->ndefs && roots->dynamic; d++) {
			const struct gdef *def = &in->defs[d];

			if (def->hidden || !def->section ||
			    gc->host.definer(gc->host.ctx, def->sym) != in->input)
				continue;
			if (roots->export_all || gc->host.dynamic_ref(gc->host.ctx, def->sym))
				mark(gc, i, def->section);
		}
	}
}

/* SHF_LINK_ORDER sections follow the section they are linked to. */
static void mark_linked(struct lk_gc *gc)
{
	int changed = 1;

	while (changed) {
		changed = 0;
		for (size_t i = 0; i < gc->ins.nr; i++) {
			struct gin *in = &gc->ins.items[i];

			for (uint32_t s = 1; s < in->nsec; s++) {
				long to = in->secs[s].linked_to;

				if (!in->secs[s].marked && to > 0 && (uint32_t)to < in->nsec && in->secs[to].marked) {
					mark(gc, i, s);
					propagate(gc);
					changed = 1;
				}
			}
		}
	}
}

static void report_live(struct lk_gc *gc)
{
	for (size_t i = 0; i < gc->ins.nr; i++) {
		struct gin *in = &gc->ins.items[i];
		int some_kept = 0;

		for (uint32_t s = 1; s < in->nsec; s++)
			some_kept |= in->secs[s].marked && in->secs[s].alloc && !in->secs[s].note;
		for (uint32_t s = 1; s < in->nsec; s++) {
			const struct gsec *g = &in->secs[s];
			/* Debug and other non-allocated sections stay with a file that keeps code or data. */
			int kept = g->marked || (some_kept && !g->alloc && g->group < 0 && g->linked_to < 0);

			if (g->counted) {
				/* A group section goes with its first member (elf_gc_sweep). */
				int stays = g->nmembers ? in->secs[in->members[g->first_member]].marked : kept;

				gc->total++;
				gc->removed += !stays;
			}
			for (uint32_t k = 0; kept && !g->duplicate && k < g->nedges; k++)
				if (in->edges[g->first_edge + k].sym)
					gc->host.live(gc->host.ctx, in->edges[g->first_edge + k].sym, in->input);
		}
	}
}

void lk_gc_run(struct lk_gc *gc, const struct lk_gc_roots *roots)
{
	mark_roots(gc, roots);
	propagate(gc);
	mark_linked(gc);
	report_live(gc);
}

void lk_gc_counts(const struct lk_gc *gc, size_t *removed, size_t *total)
{
	*removed = gc->removed;
	*total = gc->total;
}

int lk_gc_has_section(const struct lk_gc *gc, const char *name)
{
	for (size_t i = 0; i < gc->ins.nr; i++)
		for (uint32_t s = 1; s < gc->ins.items[i].nsec; s++)
			if (gc->ins.items[i].secs[s].start_stop && !strcmp(gc->ins.items[i].secs[s].start_stop, name))
				return 1;
	return 0;
}

void lk_gc_free(struct lk_gc *gc)
{
	if (!gc)
		return;
	free(gc->ins.items);
	free(gc->stack.items);
	free(gc->comdats.slots);
	lk_strvec_release(&gc->start_stop_done);
	lk_arena_release(&gc->arena);
	free(gc);
}
