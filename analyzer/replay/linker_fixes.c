/*
 * The fixes of lld's and mold's verdicts (lld.c, mold.c), each tried on
 * that linker's own model of the edited line, as fix.c tries GNU ld's on
 * the replay: a word appended (-Wl,--allow-shlib-undefined) or a driver
 * position left out (an option the linker refuses, an archive of another
 * machine). A fix with no edit the replay can make (reorder the archives,
 * edit a linker script) stays untried, and says so.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/vec.h"
#include "overlay.h"
#include "rp.h"

void rp_linker_fix(struct lk_linker_verdict *v, char *text, const char *append, long skip)
{
	struct lk_linker_edit *e;

	lk_strvec_push_owned(&v->fixes, text);
	LK_GROW(v->edits.items, v->edits.nr + 1, v->edits.alloc);
	e = &v->edits.items[v->edits.nr++];
	e->append = append ? lk_xstrdup(append) : NULL;
	e->skip_position = skip;
	e->verified = -1;
}

void rp_linker_fixes_release(struct lk_linker_verdict *v)
{
	for (size_t i = 0; i < v->edits.nr; i++)
		free(v->edits.items[i].append);
	free(v->edits.items);
	memset(&v->edits, 0, sizeof(v->edits));
}

/* Does `linker`'s model link `line` with edit `e`? */
static int links_with(const struct lk_record *rec, const struct lk_line *line, enum lk_linker linker,
		      const struct lk_linker_edit *e)
{
	struct lk_strvec words = LK_STRVEC_INIT;
	struct lk_replay_edit edit = rp_no_edit;
	struct lk_replay lazy, verdicts;
	struct lk_overlay ov;
	const struct lk_line *view = line;
	unsigned mode = linker == LK_LINKER_MOLD ? RP_LLD | RP_MOLD : RP_LLD | (rp_lld_major(rec) > 14 ? 0 : RP_LLD14);
	int ok;

	if (e->append) {
		lk_strvec_push(&words, e->append);
		lk_overlay_open(&ov, rec, line, &words);
		view = &ov.view;
		edit.append = &words;
	}
	edit.skip_position = e->skip_position;
	memset(&lazy, 0, sizeof(lazy));
	memset(&verdicts, 0, sizeof(verdicts));
	rp_replay_core(rec, view, line->items.nr, mode, &edit, &lazy);
	if (linker == LK_LINKER_MOLD)
		rp_mold_verdict(view, &lazy, &verdicts, e->skip_position);
	else
		rp_lld_verdict(rec, view, &lazy, lazy.inputs.nr, &verdicts, e->skip_position);
	ok = verdicts.linkers[linker].success && !verdicts.linkers[linker].unknown;
	lk_replay_release(&verdicts);
	lk_replay_release(&lazy);
	if (e->append)
		lk_overlay_close(&ov);
	lk_strvec_release(&words);
	return ok;
}

void rp_try_linker_fixes(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out)
{
	for (int l = LK_LINKER_LLD; l < LK_LINKER_COUNT; l++) {
		struct lk_linker_verdict *v = &out->linkers[l];

		for (size_t i = 0; i < v->edits.nr && !v->success; i++) {
			struct lk_linker_edit *e = &v->edits.items[i];

			if (e->append || e->skip_position >= 0)
				e->verified = links_with(rec, line, (enum lk_linker)l, e);
		}
	}
}
