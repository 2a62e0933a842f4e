/*
 * The replay's reading order (see replay.c): the line's items one by one
 * as ld/ldlang.c's open_input_bfds and load_symbols read them, a
 * --start-group rescanned as a whole until a pass pulls nothing
 * (ldlang.c's lang_group_statement handling), a regular object's symbols
 * added as bfd/elflink.c's elf_link_add_object_symbols adds them (those of
 * a COMDAT group whose signature an earlier input loaded dropped first, as
 * ldlang.c's section_already_linked drops the group), and the words an
 * edit appended read after the user's last input, where the fix trials'
 * snapshot is taken.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/vec.h"
#include "gc.h"
#include "overlay.h"
#include "rp.h"
#include "trial.h"

/* ld: "multiple definition of `x'; first defined here", once per symbol. */
static void multiple_definition(struct rp *r, struct lk_sym *s, long second)
{
	struct lk_diag *d;

	if (s->diagnosed)
		return;
	s->diagnosed = 1;
	d = rp_new_diag(r, LK_DIAG_MULTIPLE, s);
	d->def_input = s->def_input;
	d->ref_input = second;
}

/*
 * The object's COMDAT groups that a group of the same signature loaded
 * earlier makes ld discard (ldlang.c's section_already_linked, before the
 * object's symbols are added; lld and mold keep the first group too):
 * discarded[k] for group k (1-based), or NULL when none is.
 */
static unsigned char *discarded_groups(struct rp *r, long input, const struct lk_elf_syms *syms)
{
	unsigned char *discarded = NULL;
	struct lk_sym **groups;

	if (!syms->groups.nr)
		return NULL;
	if (!r->comdats)
		r->comdats = lk_symtab_new();
	groups = lk_xmalloc(syms->groups.nr * sizeof(*groups));
	lk_symtab_intern_all(r->comdats, (const char *const *)syms->groups.items, NULL, syms->groups.nr, groups, 0);
	for (size_t k = 0; k < syms->groups.nr; k++) {
		struct lk_sym *g = groups[k];

		if (!g->defined) {
			g->defined = 1;
			g->def_input = input;
			continue;
		}
		if (!discarded)
			discarded = lk_xcalloc(syms->groups.nr + 1, 1);
		discarded[k + 1] = 1;
	}
	free(groups);
	return discarded;
}

/* The entries of the symbols of `syms`, made where missing: into `seen`, or a new array. */
static struct lk_sym **interned(struct rp *r, const struct lk_elf_syms *syms, struct lk_sym **seen)
{
	const char **names = lk_xmalloc((syms->nr + 1) * sizeof(*names));
	uint64_t *hashes = lk_xmalloc((syms->nr + 1) * sizeof(*hashes));
	struct lk_sym **entries = seen ? seen : lk_xmalloc((syms->nr + 1) * sizeof(*entries));

	for (size_t i = 0; i < syms->nr; i++) {
		names[i] = syms->items[i].name;
		hashes[i] = syms->items[i].hash;
	}
	lk_symtab_intern_all(r->tab, names, hashes, syms->nr, entries, 0);
	free(names);
	free(hashes);
	return entries;
}

/* A regular object (or archive member) joins the link; seen[i] (if not NULL) gets the entry of symbol i. */
static void add_regular(struct rp *r, long input, const struct lk_elf_syms *syms, struct lk_sym **seen)
{
	unsigned char *discarded = discarded_groups(r, input, syms);
	struct lk_sym **entries = interned(r, syms, seen);

	for (size_t i = 0; i < syms->start_stop.nr; i++)
		lk_strvec_push(&r->start_stop, syms->start_stop.items[i]);
	for (size_t i = 0; i < syms->nr; i++) {
		const struct lk_elf_sym *y = &syms->items[i];
		struct lk_sym *s = entries[i];
		if (discarded && y->group && discarded[y->group]) {
			/*
			 * bfd: "Symbols from discarded section are undefined" (lld
			 * too): no definition. Nor a reference the replay counts: the
			 * relocations that would use it went with the group.
			 */
			if (!s->discarded_def) {
				const char *sig = syms->groups.items[y->group - 1];

				s->discarded_def = 1;
				s->discarded_input = input;
				s->discarded_kept = lk_symtab_lookup(r->comdats, sig)->def_input;
				s->discarded_group = lk_symtab_strdup(r->tab, sig);
			}
			continue;
		}
		rp_decide_common(r, s, y, input);
		switch (lk_symtab_add_regular(r->tab, s, y, input, r->rules)) {
		case LK_SYM_MULTIPLE:
			multiple_definition(r, s, input);
			break;
		case LK_SYM_DEFINED:
			if (y->common && s->armap_item >= 0)
				rp_lld_part(r);	/* lld's commons take members their own way */
			/* lld, mold: a common where an archive read earlier names the symbol (archive.c). */
			if (y->common && s->armap_item >= 0 && (r->mode & RP_LLD)) {
				rp_mold_part(r);
				r->commons_met_archives = 1;
				r->lazy_pending = (r->mode & RP_MOLD) != 0;
			} else if (y->common && s->armap_item >= 0) {
				rp_answer_differs(r);
			}
			break;
		case LK_SYM_REFERENCED:
			if (!y->weak && s->defined && s->dynamic && r->asleep.nr)
				rp_mold_wake(r, s->def_input);
			if (strchr(y->name, '@'))
				r->versioned_refs = 1;
			if (!s->defined && s->armap_item >= 0)
				r->lazy_pending = 1;
			if (!y->weak)
				rp_answer_ref(r, s);
			if (!y->weak && !s->defined)
				rp_ask_ahead(r, s);
			break;
		default:
			break;
		}
	}
	free(discarded);
	if (entries != seen)
		free(entries);
}

/* The symbols (and under --gc-sections the sections) of a regular input read from disk join the link. */
void rp_join_regular(struct rp *r, long input, struct lk_elf_syms *syms, struct lk_elf_gc *sections)
{
	struct lk_sym **seen = lk_xcalloc(syms->nr + 1, sizeof(*seen));

	add_regular(r, input, syms, seen);
	rp_decide_input(r, input, sections);
	rp_relocs_add(r, input, syms, seen, sections);
	if (r->gc)
		rp_gc_add(r, input, syms, seen, sections);
	lk_elf_gc_release(sections);
	free(seen);
	lk_elf_syms_release(syms);
}

static void read_object(struct rp *r, long item)
{
	const struct lk_line_item *it = item_at(r, item);
	struct lk_elf_syms syms = { 0 };
	struct lk_err err = LK_ERR_INIT;
	struct lk_elf_gc sections;
	struct rp_reloc_filter filter;

	/* Sections are read only for inputs that join the link; relocations as r->sections_want says. */
	rp_relocs_reader(r, &sections, &filter);
	if (lk_elf_read_syms_gc(it->path, &syms, &sections, &err) < 0) {
		rp_note(r, "%s", err.msg);
		return;
	}
	rp_join_regular(r, rp_add_input(r, item, it->path, NULL, 0), &syms, &sections);
}

static void read_children(struct rp *r, long item);

static void read_item(struct rp *r, long item)
{
	const struct lk_line_item *it = item_at(r, item);

	if (item == r->edit->unref_until_item)
		r->rules &= ~(unsigned)LK_RULE_UNREF;

	if (it->kind != LK_ITEM_FILE && it->kind != LK_ITEM_LIB)
		return;
	switch (it->info.kind) {
	case LK_FILE_OBJECT:
		read_object(r, item);
		break;
	case LK_FILE_ARCHIVE:
	case LK_FILE_THIN_ARCHIVE:
	case LK_FILE_RLIB:
		rp_scan_archive(r, item);
		break;
	case LK_FILE_SHARED:
		rp_read_dso_item(r, item, 0);
		break;
	case LK_FILE_TEXT:
		read_children(r, item);
		break;
	case LK_FILE_MISSING:
		/* The line model reports these; ld stops at them. */
		break;
	default:
		/* What ld cannot use is a diagnostic (unusable.c); an empty file is an empty script to ld. */
		if (!it->unusable && !(it->info.problem && !strcmp(it->info.problem, "empty file")))
			rp_note(r, "'%s' (%s) is not replayed", it->path ? it->path : it->word,
				lk_file_kind_name(it->info.kind));
	}
}

/*
 * One rescan of an item of a group: an archive, an --as-needed shared
 * object dropped so far (ldlang.c: "Likewise reload --as-needed shared
 * libs"), or a linker script, whose inputs (as -lc's and -lm's GROUP and
 * AS_NEEDED ones) ld walks again as statements of the outer group.
 * Returns how many inputs joined the link.
 */
static int rescan_item(struct rp *r, long item)
{
	const struct lk_line_item *it = item_at(r, item);
	int pulled = 0;

	if (it->info.kind == LK_FILE_ARCHIVE || it->info.kind == LK_FILE_THIN_ARCHIVE ||
	    it->info.kind == LK_FILE_RLIB)
		return rp_scan_archive(r, item);
	if (it->info.kind == LK_FILE_SHARED && (it->state & LK_ST_AS_NEEDED))
		return rp_read_dso_item(r, item, DSO_RELOAD);
	if (it->info.kind != LK_FILE_TEXT)
		return 0;
	for (size_t k = 0; k < r->line->items.nr; k++)
		if (r->line->items.items[k].parent == item)
			pulled += rescan_item(r, (long)k);
	return pulled;
}

/* Rescan a group until a whole pass adds nothing. */
static void rescan_group(struct rp *r, const long *members, size_t n)
{
	int pulled = 1, outer = r->rescanning;

	r->rescanning = 1;
	while (pulled) {
		pulled = 0;
		for (size_t i = 0; i < n; i++)
			pulled += rescan_item(r, members[i]);
	}
	r->rescanning = outer;
}

static void read_children(struct rp *r, long item)
{
	struct { long *items; size_t nr, alloc; } group = { NULL, 0, 0 };
	const struct lk_line *line = r->line;

	for (size_t k = 0; k < line->items.nr; k++) {
		if (line->items.items[k].parent != item)
			continue;
		read_item(r, (long)k);
		if (line->items.items[k].script_group) {
			LK_GROW(group.items, group.nr + 1, group.alloc);
			group.items[group.nr++] = (long)k;
		}
	}
	rescan_group(r, group.items, group.nr);
	free(group.items);
}

static int is_extra(const struct rp *r, size_t i)
{
	return i >= r->first_extra;
}

/* The top-level items an edit appended, in order. */
static void read_extras(struct rp *r)
{
	for (size_t i = r->first_extra; i < r->line->items.nr; i++)
		if (r->line->items.items[i].parent < 0)
			read_item(r, (long)i);
}

/*
 * The fix-trial snapshot (trial.c): returns at once in the analyzer; in a
 * trial worker, after reading the trial's arguments (resolved in an
 * overlay of the line, which the worker keeps until it exits), so the
 * worker replays the rest of the line as the original would have.
 */
static void take_checkpoint(struct rp *r)
{
	struct lk_trial_server *srv = lk_xcalloc(1, sizeof(*srv));
	struct lk_strvec words = LK_STRVEC_INIT;
	struct lk_overlay *ov;
	size_t first;

	r->mode &= ~(unsigned)RP_SNAPSHOT;
	lk_trial_start(srv, &words);
	r->out->trials = srv;
	if (!srv->worker)
		return;
	r->mode |= RP_WORKER;
	rp_lld_unarm(r);	/* a trial is GNU ld's replay alone */
	ov = lk_xcalloc(1, sizeof(*ov));
	lk_overlay_open(ov, r->rec, r->line, &words);
	first = r->line->items.nr;
	r->line = &ov->view;
	for (size_t i = first; i < r->line->items.nr; i++)
		if (r->line->items.items[i].parent < 0)
			read_item(r, (long)i);
	lk_strvec_release(&words);
}

/*
 * lld's lazy symbols (InputFiles.cpp, Symbol::resolve): an archive read
 * earlier gives a member to a reference as soon as it is made; the archive
 * that gives it is the first on the line whose armap names the symbol
 * (archive.c).
 */
void rp_fetch_lazy(struct rp *r)
{
	struct { long *items; size_t nr, alloc; } all = { NULL, 0, 0 };

	r->lazy_pending = 0;
	for (size_t i = 0; i < r->archives.nr; i++) {
		LK_GROW(all.items, all.nr + 1, all.alloc);
		all.items[all.nr++] = r->archives.items[i].item;
	}
	rescan_group(r, all.items, all.nr);
	free(all.items);
}

/* A group edit's range starts at `it` (an input of the driver's argv, not one the edit appended). */
static int in_range_start(const struct rp *r, const struct lk_line_item *it)
{
	return (r->edit->flags & LK_EDIT_GROUP_RANGE) && it->position >= r->edit->group_from &&
	       it->position <= r->edit->group_to && (size_t)(it - r->line->items.items) < r->first_extra &&
	       (it->kind == LK_ITEM_FILE || it->kind == LK_ITEM_LIB);
}

/* The top-level items in reading order, with groups rescanned at their end. */
void rp_read_line(struct rp *r)
{
	const struct lk_line *line = r->line;
	struct { long *items; size_t nr, alloc; } group = { NULL, 0, 0 };
	long last_user = -1;
	int in_group = 0, in_place_read = 0, in_range = 0;
	size_t nr = line->items.nr;	/* a fix trial worker's overlay adds items: they are read at the snapshot */

	for (size_t i = 0; i < nr; i++)
		if (line->items.items[i].parent < 0 && line->items.items[i].position >= 0 && !is_extra(r, i))
			last_user = (long)i;
	for (size_t i = 0; i < nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];

		if (it->parent >= 0 || is_extra(r, i))
			continue;
		if (in_range && (it->position < r->edit->group_from || it->position > r->edit->group_to)) {
			/* The end of a group edit's range: rescanned as -Wl,--end-group there would be. */
			rescan_group(r, group.items, group.nr);
			in_group = in_range = 0;
		}
		if (!in_group && in_range_start(r, it)) {
			in_group = in_range = 1;
			group.nr = 0;
		}
		if (rp_skipped(r, it)) {
			/* A word replaced: its replacement is read where it stood, once. */
			if ((r->edit->flags & LK_EDIT_IN_PLACE) && !in_place_read) {
				in_place_read = 1;
				read_extras(r);
			}
			continue;
		}
		if ((it->kind == LK_ITEM_GROUP_START || it->kind == LK_ITEM_GROUP_END) &&
		    (r->edit->flags & LK_EDIT_NO_GROUPS)) {
			continue;
		} else if (it->kind == LK_ITEM_GROUP_START) {
			in_group = 1;
			group.nr = 0;
		} else if (it->kind == LK_ITEM_GROUP_END && in_group) {
			rescan_group(r, group.items, group.nr);
			in_group = 0;
		} else {
			read_item(r, (long)i);
			if (!(r->mode & RP_LLD))
				rp_answer_checkpoint(r);	/* where lld fetches, lld's replay may part (lld_part.c) */
			if ((r->mode & RP_LLD) && r->lazy_pending)
				rp_fetch_lazy(r);
			if (in_group) {
				LK_GROW(group.items, group.nr + 1, group.alloc);
				group.items[group.nr++] = (long)i;
			}
		}
		if ((long)i == last_user) {
			if (!(r->edit->flags & LK_EDIT_IN_PLACE))
				read_extras(r);
			if (r->mode & RP_SNAPSHOT)
				take_checkpoint(r);
		}
	}
	if (in_group)
		rescan_group(r, group.items, group.nr);
	free(group.items);
	rp_lld_part(r);	/* the end of the line at the latest: lld's last fetch, its checks */
	if (r->mode & RP_LLD)
		rp_fetch_lazy(r);	/* an archive anywhere on the line satisfies a reference from anywhere */
	else
		rp_answer_checkpoint(r);
}
