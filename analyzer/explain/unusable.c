/*
 * Inputs ld cannot use, explained (wrong-machine, bitcode-without-plugin,
 * script-syntax-error, truncated-input, unrecognized-input): the input
 * and what is wrong with it, as the line model (model/usable.c) and the
 * replay (replay/unusable.c) found it, and the fixes. None is an edit of
 * the line the replay can try (a rebuild, a corrected script, another
 * linker), so each is said (struct lk_fix.stated), never "verified"; and
 * no trial of another fix can pass while the input stays on the line.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "elf.h"
#include "fix.h"
#include "unusable.h"

int lk_unusable_kind(enum lk_diag_kind kind)
{
	return kind == LK_DIAG_WRONG_MACHINE || kind == LK_DIAG_BITCODE || kind == LK_DIAG_SCRIPT_SYNTAX ||
	       kind == LK_DIAG_TRUNCATED || kind == LK_DIAG_UNRECOGNIZED;
}

static void say(struct lk_diag *d, struct lk_buf *b)
{
	lk_strvec_push_owned(&d->explanation, lk_buf_detach(b));
}

static const struct lk_line_item *item_of(const struct lk_line *line, const struct lk_diag *d)
{
	if (d->item < 0 || (size_t)d->item >= line->items.nr)
		LK_BUG("an unusable-input diagnostic names no input of the line");
	return &line->items.items[d->item];
}

void lk_unusable_explain(const struct lk_line *line, struct lk_diag *d)
{
	const struct lk_line_item *it = item_of(line, d);
	struct lk_buf b = LK_BUF_INIT;

	lk_buf_addstr(&b, d->problem);
	say(d, &b);
	if (it->parent >= 0) {
		lk_buf_addf(&b, "it is named by the linker script %s", line->items.items[it->parent].path);
		say(d, &b);
	}
	lk_buf_addf(&b, "ld stops there (\"error adding symbols\"): the link fails whatever the other inputs define");
	say(d, &b);
}

/* A fix outside the line, said: `needs` is what would have to be true for it to work. */
static void stated(struct lk_diag *d, enum lk_edit_kind kind, const char *input, const char *needs,
		   struct lk_buf *description)
{
	lk_fix_stated(d, kind, input, needs, description->buf);
	lk_buf_reset(description);
}

void lk_unusable_fixes(const struct lk_record *rec, const struct lk_line *line, const struct lk_replay *out,
		       struct lk_diag *d)
{
	const struct lk_line_item *it = item_of(line, d);
	const char *file = it->path ? it->path : it->word;
	struct lk_buf b = LK_BUF_INIT;

	switch (d->kind) {
	case LK_DIAG_WRONG_MACHINE:
		lk_buf_addf(&b, "rebuild %s%s%s%s for %s (with that machine's compiler), or take it off the line",
			    d->member ? "member " : "'", d->member ? d->member : file, d->member ? " of " : "'",
			    d->member ? file : "", lk_elf_machine_name(line->machine));
		stated(d, LK_EDIT_KIND_REBUILD, file, "a compiler for the link's machine, and the input's sources", &b);
		break;
	case LK_DIAG_BITCODE:
		lk_buf_addstr(&b, "link with lld, which reads LLVM bitcode: add -fuse-ld=lld");
		{
			/* An edit of the line, but of another linker's reading: stated, with its argv. */
			struct lk_edit e = { LK_EDIT_KIND_INSERT, (long)rec->args.nr, -1, LK_STRVEC_INIT, NULL, NULL,
					     lk_xstrdup("lld installed, and the bitcode of an LLVM that lld reads"), 1 };

			lk_strvec_push(&e.words, "-fuse-ld=lld");
			lk_fix_offer(rec, line, out, d, &e, b.buf);
			lk_buf_reset(&b);
		}
		lk_buf_addf(&b, "or rebuild '%s' without link-time optimisation: clang -fno-lto -c (a real object GNU ld reads)",
			    file);
		stated(d, LK_EDIT_KIND_REBUILD, file, "the object's sources, and a compiler that makes real objects", &b);
		break;
	case LK_DIAG_SCRIPT_SYNTAX:
		lk_buf_addf(&b, "correct the linker script '%s' where ld stops; no edit of the link line fixes it while it is on the line",
			    file);
		stated(d, LK_EDIT_KIND_OUTSIDE, file, "the script's author's intent: what it should say", &b);
		break;
	case LK_DIAG_TRUNCATED:
		lk_buf_addf(&b, "rebuild '%s%s%s' (an interrupted build or copy leaves a file cut short)",
			    file, d->member ? "' member '" : "", d->member ? d->member : "");
		stated(d, LK_EDIT_KIND_REBUILD, file, "the input's sources, or an intact copy", &b);
		break;
	case LK_DIAG_UNRECOGNIZED:
		lk_buf_addf(&b, "take '%s' off the line, or put there the object or library it stands for", file);
		stated(d, LK_EDIT_KIND_OUTSIDE, file, "the object or library the file stands for", &b);
		break;
	default:
		break;
	}
	lk_buf_release(&b);
}
