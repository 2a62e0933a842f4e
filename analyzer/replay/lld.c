/*
 * The cross-linker verdict of a replay (see replay.c): the line under
 * lld's rules (lld/ELF/Driver.cpp rejects --copy-dt-needed-entries as an
 * unknown option; lld/ELF/InputFiles.cpp's lazy archive members can be
 * pulled from anywhere on the line; no --as-needed undo, no DT_NEEDED
 * loading), decided without a second replay when the first one's outcome
 * settles it.
 */
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "rp.h"

static int copies_dt_needed(const struct lk_line *line)
{
	for (size_t i = 0; i < line->items.nr; i++)
		if (line->items.items[i].state & LK_ST_COPY_DT_NEEDED)
			return 1;
	return 0;
}

/* lld and mold reject GNU ld's --copy-dt-needed-entries (and --add-needed) as unknown options. */
static const struct lk_line_item *lld_rejects(const struct lk_line *line)
{
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];

		if (it->ld_option == LK_LD_COPY_DT_NEEDED)
			return it;
	}
	return NULL;
}

/*
 * Does a regular object reference, strongly, a symbol that no input on
 * the line defines at all (no armap names it, no shared object read
 * defines it, not even one --as-needed dropped)? Then lld's rules, which
 * read a superset of GNU ld's inputs, fail the link as well.
 */
static int undefined_everywhere(const struct lk_replay *out)
{
	const struct lk_sym *s;
	size_t cursor = 0;

	while ((s = lk_symtab_next(out->symtab, &cursor))) {
		if (!s->defined && s->ref_regular_strong && s->armap_item < 0 && !s->dropped_def &&
		    !rp_linker_defined(s->name)) {
			for (size_t k = 0; k < out->diags.nr; k++)
				if (out->diags.items[k].kind == LK_DIAG_UNDEFINED && !strcmp(out->diags.items[k].symbol, s->name))
					return 1;
		}
	}
	return 0;
}

void rp_lld_verdict(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out)
{
	const struct lk_line_item *rejected;
	struct lk_replay lld;

	if ((rejected = lld_rejects(line))) {
		struct lk_buf n = LK_BUF_INIT;

		lk_buf_addf(&n, "lld and mold reject %s (at %ld) as an unknown option: with them (rustc's default rust-lld too) this line fails before reading any input",
			    rejected->word, rejected->position);
		lk_strvec_push_owned(&out->notes, lk_buf_detach(&n));
		out->lld_success = 0;
	} else if (out->success && !copies_dt_needed(line)) {
		/*
		 * lld's rules read every archive member and shared object GNU
		 * ld's do; only libraries reached through DT_NEEDED, which lld
		 * never loads, could make a difference, and without
		 * --copy-dt-needed-entries GNU ld refuses to bind regular
		 * references to those anyway. So the link succeeds under both.
		 */
		out->lld_success = 1;
	} else if (undefined_everywhere(out)) {
		/* lld reads a superset of what GNU ld read; a symbol no input defines stays undefined. */
		out->lld_success = 0;
	} else {
		memset(&lld, 0, sizeof(lld));
		rp_replay_core(rec, line, line->items.nr, RP_LLD, &rp_no_edit, &lld);
		out->lld_success = lld.success;
		lk_replay_release(&lld);
	}
}
