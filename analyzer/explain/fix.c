/*
 * Diagnostics -> fixes (see fix.h): the direct edit for each diagnostic,
 * tried on the replay before it is offered.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "cause.h"
#include "fix.h"
#include "reloc_explain.h"
#include "notfound.h"
#include "unusable.h"
#include "trial.h"
#include "where/where.h"

int lk_fix_trial(const struct lk_replay *r, const struct lk_record *rec, const struct lk_line *line,
		 const struct lk_strvec *words, struct lk_strvec *remaining)
{
	struct lk_replay_edit edit = { -1, 0, NULL, -1, words };
	struct lk_replay trial;
	int ok;

	if (r->trials) {
		ok = lk_trial_ask(r->trials, words, remaining);
		if (ok >= 0)
			return ok;
	}
	/* No snapshot (or it is gone): replay the whole line with the words appended. */
	lk_replay_edited(rec, line, &edit, &trial);
	ok = trial.success;
	if (remaining)
		lk_replay_remaining(&trial, remaining);
	lk_replay_release(&trial);
	return ok;
}

void lk_fix_try_append(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out,
		       struct lk_diag *d, const char *word, const char *description)
{
	struct lk_strvec words = LK_STRVEC_INIT, left = LK_STRVEC_INIT;
	struct lk_fix *f;
	int ok;

	lk_strvec_push(&words, word);
	ok = lk_fix_trial(out, rec, line, &words, &left);
	lk_strvec_release(&words);
	LK_GROW(d->fixes.items, d->fixes.nr + 1, d->fixes.alloc);
	f = &d->fixes.items[d->fixes.nr++];
	memset(f, 0, sizeof(*f));
	f->description = lk_xstrdup(description);
	lk_strvec_push(&f->args, word);
	f->position = (long)rec->args.nr;
	lk_cause_judge(f, d, ok, &left);
	lk_strvec_release(&left);
}

/* "-Wl,--end-group at 56": the last input or group end the driver's argv gave ld. */
static void last_user_arg(const struct lk_record *rec, const struct lk_line *line, struct lk_buf *b)
{
	long last = -1;

	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];

		if (it->parent < 0 && it->position > last &&
		    (it->kind == LK_ITEM_FILE || it->kind == LK_ITEM_LIB || it->kind == LK_ITEM_GROUP_END))
			last = it->position;
	}
	if (last < 0)
		last = (long)rec->args.nr - 1;
	lk_buf_addf(b, "%s at %ld", rec->args.items[last].text, last);
}

/* The -l word of the linker script that brought `path` onto the line ("-lc" for libc_nonshared.a), or NULL. */
static const char *script_of(const struct lk_line *line, const char *path)
{
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];

		if (it->parent >= 0 && it->path && !strcmp(it->path, path)) {
			const struct lk_line_item *p = &line->items.items[it->parent];

			return p->kind == LK_ITEM_LIB ? p->word : NULL;
		}
	}
	return NULL;
}

/* A DSO missing from the line: libc read again, or the library that defines it. */
static void fix_dso_missing(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out,
			    struct lk_diag *d)
{
	struct lk_buf desc = LK_BUF_INIT;

	lk_buf_addstr(&desc, "append -lc after ");
	last_user_arg(rec, line, &desc);
	lk_buf_addstr(&desc, ", so that libc is read again after the inputs that need it");
	lk_fix_try_append(rec, line, out, d, "-lc", desc.buf);
	lk_buf_reset(&desc);
	if (d->def_input >= 0) {
		const char *path = out->inputs.items[d->def_input].path;

		lk_buf_addf(&desc, "append %s, the library that defines %s", path, d->symbol);
		lk_fix_try_append(rec, line, out, d, path, desc.buf);
	}
	lk_buf_release(&desc);
}

/* An archive that defines it but was read too early: read it again at the end. */
static void fix_ordering(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out,
			 struct lk_diag *d)
{
	struct lk_buf desc = LK_BUF_INIT;
	const char *script = script_of(line, d->defined_path);
	char *path = lk_xstrdup(d->defined_path);

	if (script) {
		lk_buf_addf(&desc, "append %s after ", script);
		last_user_arg(rec, line, &desc);
		lk_buf_addf(&desc, ", so that %s (in its linker script) is read again, after the reference",
			    path);
		lk_fix_try_append(rec, line, out, d, script, desc.buf);
	} else {
		lk_buf_addf(&desc, "append %s again, after the reference (it defines %s)", path,
			    d->symbols.nr > 1 ? "them" : d->symbol);
		lk_fix_try_append(rec, line, out, d, path, desc.buf);
	}
	free(path);
	lk_buf_release(&desc);
}

void lk_fix_propose(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out)
{
	for (size_t i = 0; i < out->diags.nr; i++) {
		struct lk_diag *d = &out->diags.items[i];

		if (d->kind == LK_DIAG_DSO_MISSING)
			fix_dso_missing(rec, line, out, d);
		else if (d->kind == LK_DIAG_UNDEFINED && d->defined_path)
			fix_ordering(rec, line, out, d);
		else if (d->kind == LK_DIAG_NOT_FOUND || d->kind == LK_DIAG_INCOMPATIBLE)
			lk_notfound_fixes(rec, line, d);
		else if (lk_unusable_kind(d->kind))
			lk_unusable_fixes(line, d);
	}
	lk_fix_reloc(rec, line, out);
}

void lk_fix_all(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out)
{
	/* No fixes for a failure that is no prediction: they would fix the analysis, not the link. */
	if (out->unknown)
		return;
	lk_cause_group(rec, line, out);
	lk_fix_propose(rec, line, out);
	lk_cause_fixes(rec, line, out);
	lk_where_fixes(rec, line, out);
}

void lk_fix_release(struct lk_fix *f)
{
	free(f->description);
	free(f->linker_said);
	free(f->driver);
	lk_strvec_release(&f->args);
	lk_strvec_release(&f->remaining);
	lk_strvec_release(&f->build_script);
	lk_where_free(f->where);
	memset(f, 0, sizeof(*f));
}
