/*
 * Archives in the replay (see replay.c), as bfd/elflink.c's
 * elf_link_add_archive_symbols scans them: once where they stand, a
 * member pulled when its armap names a symbol that is undefined and
 * strongly referenced, repeatedly until nothing new is pulled;
 * --whole-archive pulls every member; a common symbol pulls a member only
 * when it defines the symbol as global data
 * (elf_link_is_defined_archive_symbol).
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/vec.h"
#include "ahead.h"
#include "rp.h"

/*
 * lld and mold read an archive without a symbol index member by member
 * (lld takes each member as a lazy object, as between --start-lib and
 * --end-lib; mold reads every member): the index ranlib would write, made
 * from the members' definitions, stands in for it. GNU ld refuses such an
 * archive (model/usable.c).
 */
static void index_members(struct rp *r, struct open_archive *a)
{
	for (size_t m = 0; m < a->ar.members.nr; m++) {
		struct lk_elf_syms syms = { 0 };
		struct lk_err err = LK_ERR_INIT;
		char *name = NULL;

		if (lk_elf_archive_member(&a->ar, a->ar.members.items[m], &name, &syms, &err) == 0) {
			for (size_t k = 0; k < syms.nr; k++) {
				if (!syms.items[k].defined)
					continue;
				LK_GROW(a->ar.armap.items, a->ar.armap.nr + 1, a->ar.armap.alloc);
				a->ar.armap.items[a->ar.armap.nr].name = lk_symtab_strdup(r->tab, syms.items[k].name);
				a->ar.armap.items[a->ar.armap.nr++].offset = a->ar.members.items[m];
			}
		}
		free(name);
		lk_elf_syms_release(&syms);
	}
}

/*
 * Hash each armap name once; the scans then only test flags. The entries
 * borrow their names from the index's string table, which the table keeps
 * (the LLVM line: 130,000 names, 10 MB not copied).
 */
static void intern_armap(struct rp *r, struct open_archive *a)
{
	const char **names = lk_xmalloc((a->ar.armap.nr + 1) * sizeof(*names));

	for (size_t k = 0; k < a->ar.armap.nr; k++)
		names[k] = a->ar.armap.items[k].name;
	a->armap_syms = lk_xcalloc(a->ar.armap.nr + 1, sizeof(*a->armap_syms));
	lk_symtab_intern_all(r->tab, names, NULL, a->ar.armap.nr, a->armap_syms, 1);
	free(names);
	if (a->ar.armap_names) {
		lk_symtab_adopt(r->tab, a->ar.armap_names);
		a->ar.armap_names = NULL;
	}
	for (size_t k = 0; k < a->ar.armap.nr; k++)
		if (a->armap_syms[k]->armap_item < 0) {
			a->armap_syms[k]->armap_item = a->item;
			a->armap_syms[k]->armap_k = (long)k;
		}
}

static struct open_archive *archive_of(struct rp *r, long item)
{
	struct open_archive *a;
	struct lk_err err = LK_ERR_INIT;

	/* By item, not by a search of the open archives: that was quadratic on long lines. */
	if ((size_t)item < r->archive_slot.nr && r->archive_slot.items[item])
		return &r->archives.items[r->archive_slot.items[item] - 1];
	if ((size_t)item >= r->archive_slot.nr) {
		LK_GROW(r->archive_slot.items, (size_t)item + 1, r->archive_slot.alloc);
		memset(r->archive_slot.items + r->archive_slot.nr, 0,
		       ((size_t)item + 1 - r->archive_slot.nr) * sizeof(long));
		r->archive_slot.nr = (size_t)item + 1;
	}
	LK_GROW(r->archives.items, r->archives.nr + 1, r->archives.alloc);
	r->archive_slot.items[item] = (long)r->archives.nr + 1;
	a = &r->archives.items[r->archives.nr++];
	memset(a, 0, sizeof(*a));
	a->item = item;
	a->inputs_before = r->out->inputs.nr;
	a->ok = lk_elf_archive_open(item_at(r, item)->path, &a->ar, &err) == 0;
	if (!a->ok) {
		rp_note(r, "%s", err.msg);
		return a;
	}
	if (!a->ar.has_index)
		rp_lld_part(r);	/* lld reads it member by member */
	if (!a->ar.has_index && (r->mode & RP_LLD))
		index_members(r, a);
	a->pulled = lk_xcalloc(a->ar.members.nr + 1, 1);
	intern_armap(r, a);
	return a;
}

static long member_index(const struct open_archive *a, size_t offset)
{
	size_t lo = 0, hi = a->ar.members.nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (a->ar.members.items[mid] == offset)
			return (long)mid;
		if (a->ar.members.items[mid] < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* A slim GCC LTO object: GCC's IR only, its ELF symbol table a lone __gnu_lto_slim common. */
static int gcc_slim_lto(const struct lk_elf_syms *syms)
{
	for (size_t i = 0; i < syms->nr; i++)
		if (!strcmp(syms->items[i].name, "__gnu_lto_slim"))
			return 1;
	return 0;
}

/*
 * A pulled member that is a slim GCC LTO object: GNU ld and mold read its
 * IR through GCC's LTO plugin when the line loads it (gcc passes -plugin),
 * which the replay does not model, so a failure is no prediction then
 * (certainty.c); lld reads no symbol from it, which the explanation says.
 */
static void lto_member(struct rp *r, const struct open_archive *a, const char *member)
{
	struct lk_buf b = LK_BUF_INIT;
	int plugin = 0;

	for (size_t i = 0; i < r->line->items.nr && !plugin; i++) {
		const struct lk_line_item *it = &r->line->items.items[i];

		plugin = it->kind == LK_ITEM_OPTION && (!strcmp(it->word, "-plugin") || !strcmp(it->word, "--plugin")) &&
			 it->value && strstr(it->value, "lto_plugin");
	}
	if ((r->mode & RP_LLD) && !(r->mode & RP_MOLD)) {
		rp_note(r, "'%s(%s)' is a GCC LTO object (GCC's IR only, no machine code): lld reads no symbol from it, where GNU ld and mold read it through GCC's LTO plugin; build it without -flto, or with -ffat-lto-objects, for lld",
			a->ar.path, member);
	} else if (plugin) {
		lk_buf_addf(&b, "'%s(%s)' is a GCC LTO object, read through GCC's LTO plugin: link-time optimisation is not modelled, so what it defines is unknown",
			    a->ar.path, member);
		for (size_t i = 0; i < r->out->untold_plugin.nr; i++)
			if (!strcmp(r->out->untold_plugin.items[i], b.buf))
				goto out;
		lk_strvec_push(&r->out->untold_plugin, b.buf);
	}
out:
	lk_buf_release(&b);
}

/* Member m joins the link (pulled for `why`, or NULL: --whole-archive), read ahead as `job` (or NULL). */
static int pull(struct rp *r, struct open_archive *a, long m, const char *why, struct rp_ahead_job *job)
{
	struct lk_elf_syms syms = { 0 };
	struct lk_err err = LK_ERR_INIT;
	char *name = NULL;
	struct lk_elf_gc sections;
	struct rp_reloc_filter filter;
	long input;

	a->pulled[m] = 1;
	rp_relocs_reader(r, &sections, &filter);
	if (!(job && rp_ahead_take(job, &filter, &name, &syms, &sections)) &&
	    lk_elf_archive_member_gc(&a->ar, a->ar.members.items[m], &name, &syms, &sections, &err) < 0) {
		rp_member_unreadable(r, a->item, &err);
		free(name);
		return 0;
	}
	if (rp_member_unusable(r, a->item, name, why, &syms)) {
		lk_elf_syms_release(&syms);
		lk_elf_gc_release(&sections);
		free(name);
		return 0;
	}
	if (gcc_slim_lto(&syms))
		lto_member(r, a, name);
	input = rp_add_input(r, a->item, a->ar.path, name, 0);
	r->out->inputs.items[input].gcc_lto = gcc_slim_lto(&syms);
	r->out->inputs.items[input].member_offset = a->ar.members.items[m];
	if (why)
		r->out->inputs.items[input].pulled_for = lk_xstrdup(why);
	rp_join_regular(r, input, &syms, &sections);
	free(name);
	return 1;
}

/* How a member must define a common's name to be taken for it. */
enum common_taker {
	TAKER_DATA,	/* GNU ld: global data, not another common, not a function (elflink.c elf_link_is_defined_archive_symbol) */
	TAKER_GLOBAL,	/* lld 14: any STB_GLOBAL definition but a common (InputFiles.cpp isNonCommonDef) */
	TAKER_ANY,	/* mold 1.10: any definition but a common, a weak one too (its rank beats a common's) */
};

/* Does member m define the common armap name k as `taker` needs? */
static int member_defines_data(struct open_archive *a, size_t k, long m, enum common_taker taker)
{
	struct lk_elf_syms syms = { 0 };
	struct lk_err err = LK_ERR_INIT;
	char *name = NULL;
	int data = 0;

	if (!a->common_checked)
		a->common_checked = lk_xcalloc(a->ar.armap.nr + 1, 1);
	if (a->common_checked[k])
		return 0;
	if (lk_elf_archive_member(&a->ar, a->ar.members.items[m], &name, &syms, &err) == 0)
		for (size_t i = 0; i < syms.nr && !data; i++)
			data = (taker == TAKER_DATA ? syms.items[i].data_def :
				taker == TAKER_GLOBAL ? syms.items[i].defined && !syms.items[i].common && !syms.items[i].weak :
							syms.items[i].defined && !syms.items[i].common) &&
			       !strcmp(syms.items[i].name, a->ar.armap.items[k].name);
	lk_elf_syms_release(&syms);
	free(name);
	a->common_checked[k] = !data;
	return data;
}

/*
 * May the common symbol `s` take an archive member here? GNU ld: yes
 * (a member defining it as data). lld 14 (--fortran-common, its default):
 * an archive read after the common, a member defining it any way but as
 * another common; a newer lld: never; mold 1.10: any archive on the line.
 */
static int common_fetches(struct rp *r, const struct lk_sym *s)
{
	rp_lld_part(r);
	if (!(r->mode & RP_LLD)) {
		rp_answer_differs(r);	/* lld's and mold's commons take members their own ways */
		return 1;
	}
	rp_mold_part(r);
	r->commons_met_archives = 1;
	if (r->mode & RP_MOLD)
		return 1;
	return (r->mode & RP_LLD14) && !r->rescanning && s->armap_item >= 0;
}

/*
 * Is the archive item read whole? Its state says so, unless an edit closed
 * --whole-archive after an earlier item (lk_replay_edit.close_whole_after)
 * and the line did not turn it on again since.
 */
static int read_whole(const struct rp *r, long item)
{
	const struct lk_line_item *it = item_at(r, item);
	long on = it->since[__builtin_ctz(LK_ST_WHOLE_ARCHIVE)];

	if (!(it->state & LK_ST_WHOLE_ARCHIVE) || r->edit->close_whole_after <= 0)
		return (it->state & LK_ST_WHOLE_ARCHIVE) != 0;
	for (long i = 0; i < item; i++)
		if (item_at(r, i)->position == r->edit->close_whole_after && item_at(r, i)->parent < 0)
			return on > i;
	return 1;
}

/* The archive scan that runs now: what rp_ask_ahead() asks for more of. */
struct rp_scanning {
	long item;
	size_t archive;		/* in r->archives */
	struct rp_ahead_job **jobs;	/* per member: read ahead, or NULL */
	struct lk_elf_gc reader;
	struct rp_reloc_filter filter;
};

static void ask_member(struct rp_scanning *sc, struct open_archive *a, size_t k)
{
	size_t offset = a->ar.armap.items[k].offset;
	long m = member_index(a, offset);

	if (m >= 0 && !a->pulled[m] && !sc->jobs[m])
		sc->jobs[m] = rp_ahead_queue(&a->ar, (size_t)m, k, &sc->reader, &sc->filter);
}

/*
 * The members the next pass of the scan will pull, as far as the table
 * says when it starts (every member not pulled yet, for --whole-archive),
 * asked to be read ahead (ahead.h); the first is left to the scan, which
 * pulls it at once while the helper reads the next.
 */
static void ask_ahead(const struct rp *r, struct rp_scanning *sc, struct open_archive *a, int whole)
{
	int first = 1;

	for (size_t m = 0; whole && m < a->ar.members.nr; m++)
		if (!a->pulled[m] && !sc->jobs[m])
			sc->jobs[m] = rp_ahead_queue(&a->ar, m, m, &sc->reader, &sc->filter);
	for (size_t k = 0; !whole && k < a->ar.armap.nr; k++) {
		const struct lk_sym *s = a->armap_syms[k];

		if (s->defined || !(s->ref_regular_strong || s->ref_dynamic_strong) ||
		    ((r->mode & RP_LLD) && s->armap_item != sc->item))
			continue;
		if (first) {
			long m = member_index(a, a->ar.armap.items[k].offset);

			first = m < 0 || a->pulled[m];
			continue;
		}
		ask_member(sc, a, k);
	}
}

/*
 * A member joined the link with a strong reference to `s`, still
 * undefined: if the archive being scanned names it first, its member is
 * likely the scan's next pull, in this pass or the next (a fifth of the
 * LLVM line's pulls are found so).
 */
void rp_ask_ahead(struct rp *r, const struct lk_sym *s)
{
	struct rp_scanning *sc = r->scanning;
	struct open_archive *a;

	if (!sc || s->armap_item != sc->item || s->armap_k < 0)
		return;
	a = &r->archives.items[sc->archive];
	ask_member(sc, a, (size_t)s->armap_k);
}

/* The archive's passes as ld makes them: each pulls what the armap asks for, until one pulls nothing. */
static int scan_passes(struct rp *r, struct rp_scanning *sc, struct open_archive *a, long item)
{
	struct rp_ahead_job **jobs = sc->jobs;
	int pulled = 0, again = 1;

	while (again) {
		again = 0;
		if (jobs)
			ask_ahead(r, sc, a, 0);
		for (size_t k = 0; k < a->ar.armap.nr; k++) {
			const struct lk_elf_armap_entry *e = &a->ar.armap.items[k];
			struct lk_sym *s = a->armap_syms[k];
			long m;

			if (s->defined ? !s->common || s->dynamic || !common_fetches(r, s) :
					 !(s->ref_regular_strong || s->ref_dynamic_strong))
				continue;
			/* GNU ld takes it here, lld from the archive that named it first: lld's replay parts (lld_part.c). */
			if (s->armap_item != item && r->lld_part && (m = member_index(a, e->offset)) >= 0 && !a->pulled[m])
				rp_lld_part(r);
			/* lld: the first archive on the line that names the symbol gives it, wherever it stands. */
			if ((r->mode & RP_LLD) && s->armap_item != item && !(s->defined && (r->mode & RP_LLD14)))
				continue;
			m = member_index(a, e->offset);
			if (m < 0 || a->pulled[m])
				continue;
			if (s->defined && !member_defines_data(a, k, m, !(r->mode & RP_LLD) ? TAKER_DATA :
								    (r->mode & RP_MOLD) ? TAKER_ANY : TAKER_GLOBAL))
				continue;
			rp_answer_pull(r, s, item);
			if (jobs)
				rp_ahead_cursor(k);
			pulled += pull(r, a, m, e->name, jobs ? jobs[m] : NULL);
			again = 1;
		}
	}
	return pulled;
}

/* One scan of an archive as ld does it; returns how many members it pulled. */
int rp_scan_archive(struct rp *r, long item)
{
	struct open_archive *a = archive_of(r, item);
	struct rp_scanning sc = { item, (size_t)(a - r->archives.items), NULL, { 0 }, { 0 } };
	int pulled = 0;

	if (!a->ok)
		return 0;
	if (rp_ahead_enabled()) {
		sc.jobs = lk_xcalloc(a->ar.members.nr + 1, sizeof(*sc.jobs));
		rp_relocs_reader(r, &sc.reader, &sc.filter);
		r->scanning = &sc;
	}
	if (read_whole(r, item)) {
		if (sc.jobs)
			ask_ahead(r, &sc, a, 1);
		for (size_t m = 0; m < a->ar.members.nr; m++)
			if (!a->pulled[m]) {
				if (sc.jobs)
					rp_ahead_cursor(m);
				pulled += pull(r, a, (long)m, NULL, sc.jobs ? sc.jobs[m] : NULL);
			}
	} else {
		pulled = scan_passes(r, &sc, a, item);
	}
	if (sc.jobs) {
		r->scanning = NULL;
		rp_ahead_drop();
		free(sc.jobs);
	}
	return pulled;
}
