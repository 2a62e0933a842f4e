/*
 * Inputs ld found and cannot use, in the replay (see replay.c): ld stops
 * at each (ldlang.c's load_symbols: "error adding symbols"), so each is a
 * diagnostic of its own kind that fails the link, whatever the symbols
 * say. The line's inputs were judged by the line model (model/usable.c);
 * an archive's members are judged here when pulled, as bfd judges them
 * only then (elf_link_add_archive_symbols opens a member it needs: one of
 * another machine is "Relocations in generic ELF", then "file in wrong
 * format"); a member cut short is "file truncated". A thin archive's
 * member that is gone or changed since the archive was made cannot be
 * told: the failure is then no prediction (certainty.c).
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "rp.h"

int rp_skipped(const struct rp *r, const struct lk_line_item *it)
{
	return r->edit->skip_position >= 0 && it->position == r->edit->skip_position &&
	       (size_t)(it - r->line->items.items) < r->first_extra;
}

static enum lk_diag_kind kind_of(enum lk_unusable u)
{
	switch (u) {
	case LK_UNUSABLE_WRONG_MACHINE: return LK_DIAG_WRONG_MACHINE;
	case LK_UNUSABLE_BITCODE: return LK_DIAG_BITCODE;
	case LK_UNUSABLE_SCRIPT: return LK_DIAG_SCRIPT_SYNTAX;
	case LK_UNUSABLE_TRUNCATED: return LK_DIAG_TRUNCATED;
	case LK_UNUSABLE_UNRECOGNIZED: return LK_DIAG_UNRECOGNIZED;
	case LK_UNUSABLE_NO_INDEX: return LK_DIAG_NO_INDEX;
	case LK_USABLE: break;
	}
	LK_BUG("a usable input has no diagnostic kind");
}

static struct lk_diag *new_diag(struct rp *r, enum lk_diag_kind kind, long item, const char *member,
				const char *problem)
{
	struct lk_diag *d;

	r->out->success = 0;
	LK_GROW(r->out->diags.items, r->out->diags.nr + 1, r->out->diags.alloc);
	d = &r->out->diags.items[r->out->diags.nr++];
	memset(d, 0, sizeof(*d));
	d->kind = kind;
	d->symbol = lk_xstrdup(item_at(r, item)->word);
	d->ref_input = d->def_input = -1;
	d->item = item;
	d->member = member ? lk_xstrdup(member) : NULL;
	d->problem = lk_xstrdup(problem);
	return d;
}

/*
 * ld stopped at an unusable input ("error adding symbols" is fatal): the
 * undefined symbols and DSOs missing it would have reported after the
 * line were never reached, so they are no diagnostics of this link.
 */
static void stop_there(struct rp *r)
{
	size_t kept = 0;

	for (size_t i = 0; i < r->out->diags.nr; i++) {
		struct lk_diag *d = &r->out->diags.items[i];

		if (d->kind == LK_DIAG_UNDEFINED || d->kind == LK_DIAG_DSO_MISSING)
			lk_diag_release(d);
		else
			r->out->diags.items[kept++] = *d;
	}
	r->out->diags.nr = kept;
}

void rp_unusable_items(struct rp *r)
{
	int stopped = 0;

	for (size_t i = 0; i < r->out->diags.nr; i++)
		stopped |= r->out->diags.items[i].problem != NULL;	/* a pulled member's */
	for (size_t i = 0; i < r->line->items.nr; i++) {
		const struct lk_line_item *it = &r->line->items.items[i];

		if (!it->unusable || rp_skipped(r, it))
			continue;
		/*
		 * lld reads bitcode itself (its verdict then rests on symbols unknown
		 * here); lld and mold read an archive without an index member by
		 * member (archive.c indexes it for them).
		 */
		if ((r->mode & RP_LLD) && (it->unusable == LK_UNUSABLE_BITCODE || it->unusable == LK_UNUSABLE_NO_INDEX))
			continue;
		new_diag(r, kind_of(it->unusable), (long)i, NULL, it->unusable_why);
		stopped = 1;
	}
	if (stopped)
		stop_there(r);
}

int rp_member_unusable(struct rp *r, long item, const char *member, const char *pulled_for,
		       const struct lk_elf_syms *syms)
{
	const struct lk_line_item *it = item_at(r, item);
	struct lk_buf why = LK_BUF_INIT;

	if (!r->line->machine || !syms->machine || syms->machine == r->line->machine)
		return 0;
	lk_buf_addf(&why, "'%s(%s)', pulled in%s%s, is an object for %s (e_machine %d), and the link is for %s: \"file in wrong format\"",
		    it->path, member, pulled_for ? " for " : "", pulled_for ? pulled_for : "",
		    lk_elf_machine_name(syms->machine), syms->machine, lk_elf_machine_name(r->line->machine));
	new_diag(r, LK_DIAG_WRONG_MACHINE, item, member, why.buf);
	lk_buf_release(&why);
	return 1;
}

void rp_member_unreadable(struct rp *r, long item, const struct lk_err *err)
{
	const struct lk_line_item *it = item_at(r, item);

	rp_note(r, "%s", err->msg);
	if (strstr(err->msg, ": truncated")) {
		new_diag(r, LK_DIAG_TRUNCATED, item, NULL, err->msg);
	} else if (it->info.kind == LK_FILE_THIN_ARCHIVE) {
		for (size_t i = 0; i < r->out->untold.nr; i++)
			if (!strcmp(r->out->untold.items[i], err->msg))
				return;
		lk_strvec_push(&r->out->untold, err->msg);
	}
}
