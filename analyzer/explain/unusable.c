/*
 * Inputs ld cannot use, explained (wrong-machine, bitcode-without-plugin,
 * script-syntax-error, truncated-input, unrecognized-input): the input
 * and what is wrong with it, as the line model (model/usable.c) and the
 * replay (replay/unusable.c) found it. Their fixes (analyzer/fix/) are
 * stated: none is an edit of the line the replay can try, and no trial of
 * another fix can pass while the input stays on the line.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "elf.h"
#include "unusable.h"

int lk_unusable_kind(enum lk_diag_kind kind)
{
	return kind == LK_DIAG_WRONG_MACHINE || kind == LK_DIAG_BITCODE || kind == LK_DIAG_SCRIPT_SYNTAX ||
	       kind == LK_DIAG_TRUNCATED || kind == LK_DIAG_UNRECOGNIZED || kind == LK_DIAG_NO_INDEX;
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
