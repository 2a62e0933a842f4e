/*
 * Diagnostics -> causes (see cause.h).
 *
 * Takes the replay's per-symbol undefined-symbol diagnostics and gives one
 * diagnostic per cause. The cause of a symbol is, in this order: an
 * archive on the line that defines it but was read before the reference
 * (d->defined_path, from the replay); the best library off the line that
 * defines it (provider.c: rank, then dir order, then a shared object
 * before an archive, as -l would choose); or nothing found, and then the
 * input that references it. A group is keyed by that cause alone: one
 * library added once fixes every reference to it, so 108 std:: symbols
 * referenced from 60 archives are one diagnostic with one fix.
 *
 * The fixes of each cause are the fix stage's (analyzer/fix/), which
 * takes these groups read-only.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "demangle.h"
#include "provider.h"
#include "linkscope/vec.h"
#include "cause.h"
#include "explain.h"
#include "nearmiss.h"
#include "resolve.h"
#include "symtab.h"

#define LOOKED_IN_SHOWN 8	/* dirs named in a sentence; JSON keeps all */
#define SYMBOLS_SHOWN 5


static void say(struct lk_diag *d, struct lk_buf *b)
{
	lk_strvec_push_owned(&d->explanation, lk_buf_detach(b));
}

/* "a, b, c and 18 more", demangled where that helps a reader. */
static void list_symbols(struct lk_buf *b, const struct lk_strvec *syms)
{
	for (size_t i = 0; i < syms->nr && i < SYMBOLS_SHOWN; i++) {
		char *human = lk_demangle(syms->items[i]);

		lk_buf_addf(b, "%s%s", i ? ", " : "", human ? human : syms->items[i]);
		free(human);
	}
	if (syms->nr > SYMBOLS_SHOWN)
		lk_buf_addf(b, " and %zu more", syms->nr - SYMBOLS_SHOWN);
}

static long ref_item(const struct lk_replay *out, const struct lk_diag *d)
{
	return d->ref_input >= 0 ? out->inputs.items[d->ref_input].item : -1;
}

/* ---- grouping ---- */

struct group {
	char *key;		/* "ordering PATH", "provider PATH", "none ITEM" */
	size_t first;		/* the diagnostic that stands for the group */
	long provider;		/* index file, or -1 */
};

/*
 * The undefined names in order, and an index of them sorted by name (then
 * place), so that a group finds its symbols' places by binary search:
 * a scan of all the names per group's symbol was quadratic (issue #29:
 * 200,000 undefined symbols took 48 CPU s).
 */
struct name_at {
	const char *name;
	size_t i;
};

static int name_at_cmp(const void *a, const void *b)
{
	const struct name_at *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* The place of `name` among the `n` sorted ones: its first (last: 0) or its last (last: 1); n when none. */
static size_t name_place(const struct name_at *by, size_t n, const char *name, int last)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(by[mid].name, name);

		if (c < 0 || (last && c == 0))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (last)
		return lo && !strcmp(by[lo - 1].name, name) ? by[lo - 1].i : n;
	return lo < n && !strcmp(by[lo].name, name) ? by[lo].i : n;
}

/* The groups by key (open addressing, g + 1; 0 empty): one lookup per diagnostic, not a scan of the groups. */
struct group_slots {
	size_t *slots;
	size_t mask;
};

static size_t key_hash(const char *s)
{
	size_t h = 1469598103934665603u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

/* The slot of `key`: where its group is, or the empty one where it goes. */
static size_t *group_slot(const struct group_slots *gs, const struct group *groups, const char *key)
{
	size_t at = key_hash(key) & gs->mask;

	while (gs->slots[at] && strcmp(groups[gs->slots[at] - 1].key, key))
		at = (at + 1) & gs->mask;
	return &gs->slots[at];
}

static void merge_into(struct lk_diag *into, struct lk_diag *from)
{
	lk_strvec_push(&into->symbols, from->symbol);
	for (size_t i = 0; i < from->refs.nr; i++) {
		size_t k;

		for (k = 0; k < into->refs.nr && into->refs.items[k] != from->refs.items[i]; k++)
			;
		if (k == into->refs.nr) {
			LK_GROW(into->refs.items, into->refs.nr + 1, into->refs.alloc);
			into->refs.items[into->refs.nr++] = from->refs.items[i];
		}
	}
}

/* "member x.o of liba.a at 3 references zlibVersion, compressBound" per referencing line item. */
static void explain_references(const struct lk_replay *out, const struct lk_line *line, struct lk_diag *d)
{
	struct { long *items; size_t nr, alloc; } items = { NULL, 0, 0 };
	struct lk_buf b = LK_BUF_INIT;
	const struct lk_sym *sym;

	for (size_t i = 0; i < d->refs.nr; i++) {
		long item = out->inputs.items[d->refs.items[i]].item;
		size_t k;

		for (k = 0; k < items.nr && items.items[k] != item; k++)
			;
		if (k == items.nr) {
			LK_GROW(items.items, items.nr + 1, items.alloc);
			items.items[items.nr++] = item;
		}
	}
	for (size_t i = 0; i < items.nr && i < 3; i++) {
		const struct lk_line_item *it = items.items[i] >= 0 ? &line->items.items[items.items[i]] : NULL;

		lk_buf_addf(&b, "%s", it && it->path ? it->path : "an input added by the driver");
		if (it && it->position >= 0)
			lk_buf_addf(&b, " at %ld", it->position);
		if (i)
			lk_buf_addstr(&b, " references some of them too");
		else if (d->symbols.nr == 1 && (sym = lk_symtab_lookup(out->symtab, d->symbol)) && sym->discarded_def)
			lk_buf_addf(&b, " references %s, which no input on the line defines in a section ld keeps", d->symbol);
		else if (d->symbols.nr == 1)
			lk_buf_addf(&b, " references %s, which no input on the line defines", d->symbol);
		else
			lk_buf_addf(&b, " references these %zu symbols, which no input on the line defines",
				    d->symbols.nr);
		say(d, &b);
	}
	if (items.nr > 3) {
		lk_buf_addf(&b, "%zu inputs reference them in all", items.nr);
		say(d, &b);
	}
	free(items.items);
	lk_buf_release(&b);
}

static const char *rank_reason(enum lk_provider_rank rank)
{
	switch (rank) {
	case LK_RANK_BESIDE_INPUTS: return "it sits with the line's own inputs";
	case LK_RANK_L_DIR: return "it is in a -L dir of the line";
	case LK_RANK_SYSTEM: return "it is in a dir the toolchain searches";
	}
	return "";
}

/* The chosen provider, and the others that define the group's first symbol (best first). */
static void explain_provider(const struct lk_provider_index *ix, struct lk_diag *d, long provider, long alt0)
{
	const struct lk_provider_file *f = &ix->files.items[provider];
	const struct lk_provider_dir *dir = &ix->dirs.items[f->dir];
	struct lk_buf b = LK_BUF_INIT;

	d->provider = lk_provider_path(ix, provider);
	d->provider_package = lk_provider_package(d->provider, ix->cache_dir);
	lk_buf_addf(&b, "%s%s%s%s defines %s: found in %s (%s), not on the line", d->provider,
		    d->provider_package ? " (Debian package " : "", d->provider_package ? d->provider_package : "",
		    d->provider_package ? ")" : "", d->symbols.nr == 1 ? "it" : "them", dir->path, dir->why);
	say(d, &b);
	if (d->alternatives.nr && alt0 >= 0) {
		lk_buf_addstr(&b, "also defined by ");
		for (size_t i = 0; i < d->alternatives.nr && i < 3; i++)
			lk_buf_addf(&b, "%s%s", i ? ", " : "", d->alternatives.items[i]);
		if (d->alternatives.nr > 3)
			lk_buf_addf(&b, " and %zu more", d->alternatives.nr - 3);
		lk_buf_addf(&b, "; %s is chosen: %s", lk_path_base(d->provider),
			    strcmp(dir->why, "the build tree") ? rank_reason(dir->rank) :
			    "it is in the build tree around the line's inputs");
		if (ix->dirs.items[ix->files.items[alt0].dir].rank > dir->rank)
			lk_buf_addstr(&b, ", which comes before the dirs of the others");
		else if (ix->files.items[alt0].dir == f->dir && f->shared && !ix->files.items[alt0].shared)
			lk_buf_addstr(&b, ", and -l takes the shared object before the archive of the same dir");
		else
			lk_buf_addstr(&b, ", and its dir comes first in the search order");
		say(d, &b);
	}
	lk_buf_release(&b);
}

/* `set_aside`: libraries that are no fix define some of them (said before). */
static void explain_nothing(const struct lk_provider_index *ix, struct lk_diag *d, int set_aside)
{
	struct lk_buf b = LK_BUF_INIT;

	for (size_t i = 0; i < ix->dirs.nr; i++)
		lk_strvec_push(&d->looked_in, ix->dirs.items[i].path);
	lk_buf_addf(&b, "no library %sdefines %s in the %zu dirs searched (", set_aside ? "that is a fix " : "",
		    d->symbols.nr == 1 ? "it" : "them", ix->dirs.nr);
	for (size_t i = 0; i < ix->dirs.nr && i < LOOKED_IN_SHOWN; i++)
		lk_buf_addf(&b, "%s%s", i ? ", " : "", ix->dirs.items[i].path);
	if (ix->dirs.nr > LOOKED_IN_SHOWN)
		lk_buf_addf(&b, " and %zu more", ix->dirs.nr - LOOKED_IN_SHOWN);
	lk_buf_addstr(&b, "): the line's inputs' dirs and build tree, its -L dirs, ld's search dirs, ld.so.conf and the toolchain's runtime dirs");
	say(d, &b);
	lk_buf_release(&b);
}

static int lable_name(const char *name)
{
	size_t n = strlen(name);

	return !strncmp(name, "lib", 3) && ((n > 3 && !strcmp(name + n - 3, ".so")) || (n > 2 && !strcmp(name + n - 2, ".a")));
}

static int same_file(const struct lk_provider_index *ix, long a, long b)
{
	char *pa = lk_provider_path(ix, a), *pb = lk_provider_path(ix, b);
	char ra[PATH_MAX], rb[PATH_MAX];
	int same = realpath(pa, ra) && realpath(pb, rb) && !strcmp(ra, rb);

	free(pa);
	free(pb);
	return same;
}

/*
 * One provider per symbol, chosen so the fewest libraries explain the
 * failure: repeatedly, the file that defines the most symbols not yet
 * explained (ties: the better ranked, hits are best first; then, for the
 * same file under two names, the one -l can name). The chosen file goes
 * first in each symbol's hit list, which keeps its alternatives after it.
 */
static void choose_providers(const struct lk_provider_index *ix, long **hits, size_t n)
{
	size_t *count = lk_xcalloc(ix->files.nr + 1, sizeof(size_t));
	char *done = lk_xcalloc(n + 1, 1);

	for (;;) {
		long best = -1;

		memset(count, 0, (ix->files.nr + 1) * sizeof(size_t));
		for (size_t i = 0; i < n; i++)
			for (long *p = hits[i]; !done[i] && *p >= 0; p++)
				count[*p]++;
		/* Ties go to the better ranked: walk each symbol's hits in their (best first) order. */
		for (size_t i = 0; i < n; i++)
			for (long *p = hits[i]; !done[i] && *p >= 0; p++)
				if (best < 0 || count[*p] > count[best])
					best = *p;
		if (best < 0)
			break;
		for (size_t i = 0; i < n; i++)
			for (long *p = hits[i]; !done[i] && *p >= 0; p++)
				if (count[*p] == count[best] && *p != best && lable_name(ix->files.items[*p].name) &&
				    !lable_name(ix->files.items[best].name) && same_file(ix, *p, best))
					best = *p;
		for (size_t i = 0; i < n; i++) {
			long *p;

			if (done[i])
				continue;
			for (p = hits[i]; *p >= 0 && *p != best; p++)
				;
			if (*p < 0)
				continue;
			/* move it to the front */
			for (; p > hits[i]; p--)
				p[0] = p[-1];
			hits[i][0] = best;
			done[i] = 1;
		}
	}
	free(count);
	free(done);
}

/*
 * Was `sym` what a slim GCC LTO member of the line was pulled for? Its
 * archive's map names it (ar wrote it through GCC's plugin), so the
 * archive is no provider "not on the line": it is on the line, and what
 * defines the symbol is IR that only the plugin reads (nearmiss.c says so).
 */
static int pulled_slim_lto(const struct lk_replay *out, const char *sym)
{
	for (size_t i = 0; i < out->inputs.nr; i++)
		if (out->inputs.items[i].gcc_lto && out->inputs.items[i].pulled_for &&
		    !strcmp(out->inputs.items[i].pulled_for, sym))
			return 1;
	return 0;
}

void lk_cause_group(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out)
{
	struct lk_provider_index ix;
	struct { struct group *items; size_t nr, alloc; } groups = { NULL, 0, 0 };
	const char **names;
	long **hits, **aside;
	size_t n = 0, *group_of;
	struct name_at *by_name;
	struct group_slots gs;
	char *cache;

	for (size_t i = 0; i < out->diags.nr; i++)
		if (out->diags.items[i].kind == LK_DIAG_UNDEFINED && !out->diags.items[i].defined_path)
			n++;
	names = lk_xcalloc(n + 1, sizeof(*names));
	hits = lk_xcalloc(n + 1, sizeof(*hits));
	aside = lk_xcalloc(n + 1, sizeof(*aside));
	n = 0;
	for (size_t i = 0; i < out->diags.nr; i++)
		if (out->diags.items[i].kind == LK_DIAG_UNDEFINED && !out->diags.items[i].defined_path)
			names[n++] = out->diags.items[i].symbol;
	memset(&ix, 0, sizeof(ix));
	if (n) {
		cache = lk_provider_cache_dir();
		lk_provider_index_build(&ix, rec, line, cache);
		free(cache);
		ix.static_only = (lk_line_state_at_end(line) & LK_ST_STATIC) != 0;
		lk_provider_lookup(&ix, names, n, hits);
		lk_provider_rank_filter(&ix, names, n, hits, aside);
		for (size_t i = 0; i < ix.notes.nr; i++)
			lk_strvec_push(&out->notes, ix.notes.items[i]);
	}
	choose_providers(&ix, hits, n);
	by_name = lk_xcalloc(n + 1, sizeof(*by_name));
	for (size_t i = 0; i < n; i++)
		by_name[i] = (struct name_at){ names[i], i };
	qsort(by_name, n, sizeof(*by_name), name_at_cmp);
	for (gs.mask = 1; gs.mask < 2 * out->diags.nr; gs.mask <<= 1)
		;
	gs.slots = lk_xcalloc(gs.mask, sizeof(*gs.slots));
	gs.mask--;
	group_of = lk_xcalloc(out->diags.nr + 1, sizeof(size_t));
	for (size_t i = 0, h = 0; i < out->diags.nr; i++) {
		struct lk_diag *d = &out->diags.items[i];
		struct lk_buf key = LK_BUF_INIT;
		long provider = -1;
		size_t g, *slot;

		group_of[i] = (size_t)-1;
		if (d->kind != LK_DIAG_UNDEFINED)
			continue;
		if (d->defined_path) {
			lk_buf_addf(&key, "ordering %s", d->defined_path);
		} else {
			provider = pulled_slim_lto(out, d->symbol) ? -1 : hits[h][0];
			h++;
			if (provider >= 0)
				lk_buf_addf(&key, "provider %ld", provider);
			else
				lk_buf_addf(&key, "none %ld", ref_item(out, d));
		}
		slot = group_slot(&gs, groups.items, key.buf);
		g = *slot ? *slot - 1 : groups.nr;
		if (g == groups.nr) {
			*slot = g + 1;
			LK_GROW(groups.items, groups.nr + 1, groups.alloc);
			groups.items[g].key = lk_buf_detach(&key);
			groups.items[g].first = i;
			groups.items[g].provider = provider;
			groups.nr++;
			lk_strvec_push(&d->symbols, d->symbol);
		} else {
			merge_into(&out->diags.items[groups.items[g].first], d);
		}
		lk_buf_release(&key);
		group_of[i] = g;
	}
	/* The explanations of the groups, then the merged diagnostics go. */
	for (size_t g = 0; g < groups.nr; g++) {
		struct lk_diag *d = &out->diags.items[groups.items[g].first];

		if (d->defined_path) {
			if (d->symbols.nr > 1) {
				struct lk_buf b = LK_BUF_INIT;

				lk_buf_addf(&b, "%zu symbols have this cause: ", d->symbols.nr);
				list_symbols(&b, &d->symbols);
				say(d, &b);
			}
			continue;
		}
		lk_strvec_release(&d->explanation);
		explain_references(out, line, d);
		if (groups.items[g].provider >= 0) {
			/* The alternatives: files defining every symbol of the group, after the chosen one. */
			/* (the last of the name's places, as a scan that kept each match took) */
			size_t first_hit = name_place(by_name, n, d->symbol, 1);

			if (first_hit == n)
				first_hit = 0;
			for (long *p = hits[first_hit] + 1; *p >= 0; p++) {
				char *path = lk_provider_path(&ix, *p);

				lk_strvec_push_owned(&d->alternatives, path);
			}
			/* Those set aside (provider_rank.c) come last: no fix, but they define them too. */
			for (long *p = aside[first_hit]; *p >= 0; p++)
				lk_strvec_push_owned(&d->alternatives, lk_provider_path(&ix, *p));
			explain_provider(&ix, d, groups.items[g].provider,
					 hits[first_hit][1] >= 0 ? hits[first_hit][1] : aside[first_hit][0]);
		} else {
			size_t said = 0;

			for (size_t k = 0; k < d->symbols.nr && said < 3; k++) {
				size_t i = name_place(by_name, n, d->symbols.items[k], 0);

				if (i < n)
					said += lk_provider_say_set_aside(&ix, &d->explanation, names[i], aside[i]);
			}
			explain_nothing(&ix, d, said > 0);
		}
	}
	{
		size_t w = 0;

		for (size_t i = 0; i < out->diags.nr; i++) {
			size_t g = group_of[i];

			if (g != (size_t)-1 && groups.items[g].first != i) {
				lk_explain_diag_release(&out->diags.items[i]);
				lk_diag_release(&out->diags.items[i]);
				continue;
			}
			out->diags.items[w++] = out->diags.items[i];
		}
		out->diags.nr = w;
	}
	lk_nearmiss_find(rec, line, out, &ix);
	for (size_t g = 0; g < groups.nr; g++)
		free(groups.items[g].key);
	free(groups.items);
	for (size_t i = 0; i < n; i++) {
		free(hits[i]);
		free(aside[i]);
	}
	free(hits);
	free(aside);
	free(names);
	free(by_name);
	free(gs.slots);
	free(group_of);
	lk_provider_index_release(&ix);
}
