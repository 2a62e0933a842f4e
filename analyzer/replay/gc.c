/*
 * Section garbage collection as bfd does it (bfd/elflink.c:
 * bfd_elf_gc_sections, _bfd_elf_gc_mark, _bfd_elf_gc_mark_extra_sections,
 * elf_gc_sweep), over the regular objects the replay loaded:
 * - roots: the KEEP sections of the default linker script (.init, .fini,
 *   .preinit_array, .init_array*, .fini_array*, .ctors*, .dtors*, .jcr,
 *   .gnu.attributes, .eh_frame), notes outside groups, SHF_GNU_RETAIN
 *   sections, and those the replay names with lk_gc_keep() because of
 *   symbols: the entry, -u and the like (_bfd_elf_gc_keep), and exported or
 *   DSO-referenced definitions (bfd_elf_gc_mark_dynamic_ref_symbol);
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
#include "elf.h"
#include "linkscope/vec.h"

/* Compact: a line like llvm's has millions of sections and relocations. */
struct gsec {
	uint32_t first_edge, nedges;
	signed int group : 24;	/* index in the input's groups, or -1 */
	unsigned int keep : 1, marked : 1, duplicate : 1, alloc : 1, note : 1, counted : 1, is_group : 1;
	unsigned int linked : 1;	/* SHF_LINK_ORDER: in the input's links */
};

/* An edge: a local section, or (GLOBAL set) an index in the input's syms. */
#define GLOBAL 0x80000000u

struct ggroup {
	uint32_t section;	/* the SHT_GROUP section */
	uint32_t first, n;	/* its members in `members` */
};

struct glink {
	uint32_t section, to;	/* SHF_LINK_ORDER: `section` stays when `to` does */
};

struct gname {
	uint32_t section;
	const char *name;	/* a section named like a C identifier (for __start_/__stop_) */
};

struct gin {
	long input;
	uint32_t nsec, nsyms, ngroups, nnames, nlinks;
	struct gsec *secs;
	uint32_t *edges;
	void **syms;		/* the global symbols this input references, each once */
	struct ggroup *groups;
	uint32_t *members;
	struct gname *names;
	struct glink *links;
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

	if (n[0] != '.' || !n[1] || !strchr("ifpcdjge", n[1]))
		return 0;	/* most sections: .text.*, .rodata.*, .bss.* */
	for (const char *const *e = exact; *e; e++)
		if (!strcmp(n, *e))
			return 1;
	for (const char *const *p = prefix; *p; p++)
		if (!strncmp(n, *p, strlen(*p)))
			return 1;
	return 0;
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

/*
 * 1 when `sig` was loaded before; else it is recorded now. `stable`: sig
 * outlives the collector (a name in the replay's table), else it is copied.
 */
static int comdat_seen(struct lk_gc *gc, const char *sig, int stable)
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
	gc->comdats.slots[i] = stable ? sig : lk_arena_strdup(&gc->arena, sig);
	gc->comdats.nr++;
	return 0;
}

static void add_groups(struct lk_gc *gc, struct gin *in, const struct lk_elf_gc *s,
		       void *const *syms, size_t nsyms)
{
	int32_t *index = lk_xmalloc((s->nsections + 1) * sizeof(*index));	/* group section -> its group */
	uint32_t n = 0;

	for (size_t g = 0; g < s->nsections; g++) {
		index[g] = -1;
		/* (gsec.group has 24 bits: an object with more groups keeps the rest ungrouped) */
		if ((s->sections[g].signature || s->sections[g].comdat) && in->ngroups < (1u << 23) - 1)
			index[g] = (int32_t)in->ngroups++;
	}
	in->groups = lk_arena_alloc(&gc->arena, (in->ngroups + 1) * sizeof(*in->groups));
	for (size_t i = 0; i < s->nsections; i++) {
		long g = s->sections[i].group;

		if (g >= 0 && (size_t)g < s->nsections && index[g] >= 0) {
			in->groups[index[g]].n++;
			n++;
		}
	}
	in->members = lk_arena_alloc(&gc->arena, (n + 1) * sizeof(*in->members));
	n = 0;
	for (size_t g = 0; g < s->nsections; g++) {
		if (index[g] < 0)
			continue;
		in->groups[index[g]].section = (uint32_t)g;
		in->groups[index[g]].first = n;
		n += in->groups[index[g]].n;
		in->groups[index[g]].n = 0;
		in->secs[g].is_group = 1;
		in->secs[g].group = index[g];	/* a group section: its own group */
	}
	for (size_t i = 0; i < s->nsections; i++) {
		long g = s->sections[i].group;
		struct ggroup *grp;

		if (g < 0 || (size_t)g >= s->nsections || index[g] < 0)
			continue;
		grp = &in->groups[index[g]];
		in->members[grp->first + grp->n++] = (uint32_t)i;
		in->secs[i].group = index[g];
	}
	for (size_t g = 0; g < s->nsections; g++) {
		const struct lk_elf_gc_section *x = &s->sections[g];
		/* A global signature is a name in the replay's table: no copy (C++ has thousands). */
		void *sym = x->signature_index < nsyms ? syms[x->signature_index] : NULL;
		const struct ggroup *grp;

		if (index[g] < 0 || !x->comdat || !x->signature ||
		    !comdat_seen(gc, sym ? gc->host.name(gc->host.ctx, sym) : x->signature, sym != NULL))
			continue;
		grp = &in->groups[index[g]];
		for (uint32_t k = 0; k < grp->n; k++)
			in->secs[in->members[grp->first + k]].duplicate = 1;
	}
	free(index);
}

/*
 * The edges by section (a counting sort: relocations come grouped by
 * section already, .eh_frame's FDE edges do not), each target once per
 * section, globals as indexes in in->syms.
 */
static void add_edges(struct lk_gc *gc, struct gin *in, const struct lk_elf_gc *s,
		      void *const *syms, size_t nsyms)
{
	size_t nn = (s->nnames > nsyms ? s->nnames : nsyms) + 1;
	/* symbol index -> index in in->syms + 1, for the globals the replay knows */
	uint32_t *compact = lk_xcalloc(nn, sizeof(*compact));
	/* the last section that needed a symbol / a local section, + 1: drops repeats */
	uint32_t *sym_seen = lk_xcalloc(nn, sizeof(*sym_seen));
	uint32_t *sec_seen = lk_xcalloc(s->nsections + 1, sizeof(*sec_seen));
	uint32_t *fill = lk_xcalloc(s->nsections + 1, sizeof(*fill));
	size_t total = 0;

	for (size_t i = 0; i < s->edges.nr; i++) {
		const struct lk_elf_gc_edge *x = &s->edges.items[i];

		if (x->symbol < nsyms && syms[x->symbol] && !compact[x->symbol])
			compact[x->symbol] = ++in->nsyms;
	}
	in->syms = lk_arena_alloc(&gc->arena, (in->nsyms + 1) * sizeof(*in->syms));
	for (size_t i = 1; i < nsyms; i++)
		if (compact[i])
			in->syms[compact[i] - 1] = syms[i];
	/* Count the distinct edges of each section, then place them. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < s->edges.nr; i++) {
			const struct lk_elf_gc_edge *x = &s->edges.items[i];
			uint32_t *seen, e;

			if (x->from >= s->nsections || (!x->symbol && x->to >= s->nsections) ||
			    (x->symbol && !compact[x->symbol]))
				continue;
			seen = x->symbol ? &sym_seen[x->symbol] : &sec_seen[x->to];
			if (*seen == x->from + 1)
				continue;
			*seen = x->from + 1;
			e = x->symbol ? GLOBAL | (compact[x->symbol] - 1) : x->to;
			if (!pass)
				in->secs[x->from].nedges++;
			else
				in->edges[in->secs[x->from].first_edge + fill[x->from]++] = e;
		}
		if (pass)
			break;
		for (size_t k = 0; k < s->nsections; k++) {
			in->secs[k].first_edge = (uint32_t)total;
			total += in->secs[k].nedges;
		}
		in->edges = lk_arena_alloc(&gc->arena, (total + 1) * sizeof(*in->edges));
		memset(sym_seen, 0, nn * sizeof(*sym_seen));
		memset(sec_seen, 0, (s->nsections + 1) * sizeof(*sec_seen));
	}
	free(compact);
	free(sym_seen);
	free(sec_seen);
	free(fill);
}

void lk_gc_add(struct lk_gc *gc, long input, const struct lk_elf_gc *s,
	       void *const *syms, size_t nsyms)
{
	struct gin *in;

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
		g->group = -1;
		g->linked = x->linked_to > 0 && (size_t)x->linked_to < s->nsections;
		in->nlinks += g->linked;
		g->keep = x->retain || (x->name && keep_name(x->name)) ||
			  (x->note && x->group < 0 && x->linked_to < 0);
		in->nnames += x->name && lk_elf_start_stop_name(x->name);
	}
	in->links = lk_arena_alloc(&gc->arena, (in->nlinks + 1) * sizeof(*in->links));
	in->nlinks = 0;
	for (size_t i = 0; i < s->nsections; i++) {
		if (!in->secs[i].linked)
			continue;
		in->links[in->nlinks].section = (uint32_t)i;
		in->links[in->nlinks++].to = (uint32_t)s->sections[i].linked_to;
	}
	in->names = lk_arena_alloc(&gc->arena, (in->nnames + 1) * sizeof(*in->names));
	in->nnames = 0;
	for (size_t i = 0; i < s->nsections; i++) {
		if (!s->sections[i].name || !lk_elf_start_stop_name(s->sections[i].name))
			continue;
		in->names[in->nnames].section = (uint32_t)i;
		in->names[in->nnames++].name = lk_arena_strdup(&gc->arena, s->sections[i].name);
	}
	add_groups(gc, in, s, syms, nsyms);
	add_edges(gc, in, s, syms, nsyms);
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
	uint32_t section = 0;
	long d = gc->host.definer(gc->host.ctx, sym, &section);

	if (d >= 0)
		lk_gc_keep(gc, d, section);
}

/* A reference to the linker's __start_X / __stop_X keeps every input section named X. */
static void mark_start_stop(struct lk_gc *gc, const char *x)
{
	for (size_t i = 0; i < gc->start_stop_done.nr; i++)
		if (!strcmp(gc->start_stop_done.items[i], x))
			return;
	lk_strvec_push(&gc->start_stop_done, x);
	for (size_t i = 0; i < gc->ins.nr; i++)
		for (uint32_t k = 0; k < gc->ins.items[i].nnames; k++)
			if (!strcmp(gc->ins.items[i].names[k].name, x))
				mark(gc, i, gc->ins.items[i].names[k].section);
}

static void follow(struct lk_gc *gc, void *sym)
{
	const char *name;
	uint32_t section;

	if (gc->host.definer(gc->host.ctx, sym, &section) >= 0) {
		mark_symbol(gc, sym);
		return;
	}
	name = gc->host.name(gc->host.ctx, sym);
	if (!strncmp(name, "__start_", 8))
		mark_start_stop(gc, name + 8);
	else if (!strncmp(name, "__stop_", 7))
		mark_start_stop(gc, name + 7);
}

static void propagate(struct lk_gc *gc)
{
	while (gc->stack.nr) {
		struct work w = gc->stack.items[--gc->stack.nr];
		const struct gin *in = &gc->ins.items[w.in];
		const struct gsec *s = &in->secs[w.sec];

		if (s->group >= 0) {
			const struct ggroup *g = &in->groups[s->group];

			for (uint32_t k = 0; k < g->n; k++)
				mark(gc, w.in, in->members[g->first + k]);
		}
		for (uint32_t k = 0; k < s->nedges; k++) {
			uint32_t e = in->edges[s->first_edge + k];

			if (e & GLOBAL)
				follow(gc, in->syms[e & ~GLOBAL]);
			else
				mark(gc, w.in, e);
		}
	}
}

void lk_gc_keep(struct lk_gc *gc, long input, uint32_t section)
{
	size_t k;

	if (find_input(gc, input, &k))
		mark(gc, k, section);
}

/* The KEEP sections of the default script, notes outside groups, SHF_GNU_RETAIN. */
static void mark_kept(struct lk_gc *gc)
{
	for (size_t i = 0; i < gc->ins.nr; i++)
		for (uint32_t s = 1; s < gc->ins.items[i].nsec; s++)
			if (gc->ins.items[i].secs[s].keep)
				mark(gc, i, s);
}

/* SHF_LINK_ORDER sections follow the section they are linked to. */
static void mark_linked(struct lk_gc *gc)
{
	int changed = 1;

	while (changed) {
		changed = 0;
		for (size_t i = 0; i < gc->ins.nr; i++) {
			struct gin *in = &gc->ins.items[i];

			for (uint32_t k = 0; k < in->nlinks; k++) {
				uint32_t s = in->links[k].section;

				if (!in->secs[s].marked && in->secs[in->links[k].to].marked) {
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
			int kept = g->marked || (some_kept && !g->alloc && g->group < 0 && !g->linked);

			if (g->counted) {
				const struct ggroup *grp = g->is_group ? &in->groups[g->group] : NULL;
				/* A group section goes with its first member (elf_gc_sweep). */
				int stays = grp ? grp->n && in->secs[in->members[grp->first]].marked : kept;

				gc->total++;
				gc->removed += !stays;
			}
			for (uint32_t k = 0; kept && !g->duplicate && k < g->nedges; k++) {
				uint32_t e = in->edges[g->first_edge + k];

				if (e & GLOBAL)
					gc->host.live(gc->host.ctx, in->syms[e & ~GLOBAL], in->input);
			}
		}
	}
}

void lk_gc_run(struct lk_gc *gc)
{
	mark_kept(gc);
	propagate(gc);
	mark_linked(gc);
	report_live(gc);
}

void lk_gc_counts(const struct lk_gc *gc, size_t *removed, size_t *total)
{
	*removed = gc->removed;
	*total = gc->total;
}

int lk_gc_kept(const struct lk_gc *gc, long input, uint32_t section)
{
	size_t lo = 0, hi = gc->ins.nr;

	/* The inputs come in load order, which is the order of their indexes. */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct gin *in = &gc->ins.items[mid];

		if (in->input == input)
			return section >= in->nsec || (in->secs[section].marked && !in->secs[section].duplicate);
		if (in->input < input)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 1;
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
