/*
 * Explained diagnostics -> fixes (see fix.h): the stage's entry, the one
 * way a fix is offered (an edit of edit.h, tried, judged), the direct
 * edit of each diagnostic (libc read again, an archive moved or grouped,
 * a duplicate removed), and the order fixes are offered in: the edit a
 * person makes at the cause first, the workarounds after.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "explain.h"
#include "fix_parts.h"
#include "reloc_explain.h"
#include "unusable.h"
#include "where/where.h"

struct lk_fix_list *lk_fixer_list(const struct lk_fixer *fx, const struct lk_diag *d)
{
	size_t i = (size_t)(d - fx->rp->diags.items);

	if (d < fx->rp->diags.items || i >= fx->out->nr)
		LK_BUG("a fix for a diagnostic that is not the replay's");
	return &fx->out->of[i];
}

static struct lk_fix *new_fix(const struct lk_fixer *fx, const struct lk_diag *d, const char *description)
{
	struct lk_fix_list *l = lk_fixer_list(fx, d);
	struct lk_fix *f;

	LK_GROW(l->items, l->nr + 1, l->alloc);
	f = &l->items[l->nr++];
	memset(f, 0, sizeof(*f));
	f->description = lk_xstrdup(description);
	f->position = -1;
	return f;
}

/* Verified when it links; partial when it fails but none of d's symbols is left in `remaining`. */
static void judge(struct lk_fix *f, const struct lk_diag *d, int ok, const struct lk_strvec *remaining)
{
	f->verified = ok == 1;
	if (ok == 1)
		return;
	for (size_t i = 0; i < remaining->nr; i++) {
		const char *sym = strchr(remaining->items[i], ' ');

		sym = sym ? sym + 1 : remaining->items[i];
		if (!strcmp(sym, d->symbol))
			return;
		for (size_t k = 0; k < d->symbols.nr; k++)
			if (!strcmp(sym, d->symbols.items[k]))
				return;
	}
	f->partial = remaining->nr > 0;
	for (size_t i = 0; f->partial && i < remaining->nr; i++)
		lk_strvec_push(&f->remaining, remaining->items[i]);
}

/* Today's fields of a line edit (fix.h): the words it puts on the line and where. */
static void contract_fields(const struct lk_record *rec, struct lk_fix *f)
{
	const struct lk_edit *e = &f->edit;

	switch (e->kind) {
	case LK_EDIT_KIND_INSERT:
	case LK_EDIT_KIND_DRIVER:
		for (size_t i = 0; i < e->words.nr; i++)
			lk_strvec_push(&f->args, e->words.items[i]);
		f->position = e->kind == LK_EDIT_KIND_DRIVER ? (long)rec->args.nr : e->position;
		break;
	case LK_EDIT_KIND_REPLACE:
	case LK_EDIT_KIND_REMOVE:
		for (size_t i = 0; i < e->words.nr; i++)
			lk_strvec_push(&f->args, e->words.items[i]);
		f->position = e->position;
		f->replaces = 1;
		break;
	case LK_EDIT_KIND_MOVE:
		/* Its new place: the word again at the end (`edit` says it leaves its old one). */
		lk_strvec_push(&f->args, rec->args.items[e->position].text);
		f->position = (long)rec->args.nr;
		break;
	case LK_EDIT_KIND_GROUP:
		lk_strvec_push(&f->args, "-Wl,--start-group");
		f->position = e->position;
		break;
	default:
		break;
	}
}

struct lk_fix *lk_fix_offer(const struct lk_fixer *fx, const struct lk_diag *d, struct lk_edit *edit,
			    const char *description)
{
	struct lk_strvec left = LK_STRVEC_INIT;
	struct lk_fix *f = new_fix(fx, d, description);
	int ok;

	f->edit = *edit;
	memset(edit, 0, sizeof(*edit));
	if (f->edit.kind == LK_EDIT_KIND_DRIVER)
		f->driver = lk_xstrdup(f->edit.driver);
	contract_fields(fx->rec, f);
	lk_edit_argv(fx->rec, &f->edit, &f->argv);
	if (fx->foresee) {
		lk_edit_expect(fx->rp, fx->rec, fx->line, &f->edit);
		f->verified = 1;
		return f;
	}
	ok = lk_edit_try(fx->rp, fx->rec, fx->line, &f->edit, &left);
	if (ok == LK_EDIT_REJECTED)
		lk_strvec_push(&f->remaining, left.items[0]);	/* neither verified nor partial: why */
	else if (ok < 0)
		f->stated = 1;
	else
		judge(f, d, ok, &left);
	lk_strvec_release(&left);
	return f;
}

struct lk_fix *lk_fix_try_append(const struct lk_fixer *fx, const struct lk_diag *d, const char *word,
				 const char *description)
{
	struct lk_edit e = { LK_EDIT_KIND_INSERT, (long)fx->rec->args.nr, -1, LK_STRVEC_INIT, NULL, NULL, NULL, 0 };

	lk_strvec_push(&e.words, word);
	return lk_fix_offer(fx, d, &e, description);
}

struct lk_fix *lk_fix_stated(const struct lk_fixer *fx, const struct lk_diag *d, enum lk_edit_kind kind,
			     const char *input, const char *needs, const char *description)
{
	struct lk_fix *f = new_fix(fx, d, description);

	f->edit.kind = kind;
	f->edit.position = f->edit.to = -1;
	f->edit.input = input ? lk_xstrdup(input) : NULL;
	f->edit.needs = needs ? lk_xstrdup(needs) : NULL;
	f->stated = 1;
	return f;
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

/* A DSO missing from the line: libc read again (at the cause), or the library that defines it by its path. */
static void fix_dso_missing(const struct lk_fixer *fx, const struct lk_diag *d)
{
	const struct lk_record *rec = fx->rec;
	const struct lk_line *line = fx->line;
	struct lk_buf desc = LK_BUF_INIT;
	int again_works;

	lk_buf_addstr(&desc, "append -lc after ");
	last_user_arg(rec, line, &desc);
	lk_buf_addstr(&desc, ", so that libc is read again after the inputs that need it");
	again_works = lk_fix_try_append(fx, d, "-lc", desc.buf)->verified;
	lk_buf_reset(&desc);
	if (d->def_input >= 0) {
		const char *path = fx->rp->inputs.items[d->def_input].path;

		lk_buf_addf(&desc, "append %s, the library that defines %s", path, d->symbol);
		lk_fix_try_append(fx, d, path, desc.buf)->workaround = again_works;
	}
	lk_buf_release(&desc);
}

/* The top-level item of the driver's argv that reads `path` by one word of its own, or NULL. */
static const struct lk_line_item *own_word(const struct lk_record *rec, const struct lk_line *line, const char *path)
{
	const struct lk_line_item *found = NULL;

	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];

		if (it->parent >= 0 || !it->path || strcmp(it->path, path))
			continue;
		if (found || it->position < 1 || (size_t)it->position >= rec->args.nr ||
		    strcmp(rec->args.items[it->position].text, it->word))
			return NULL;	/* read twice, or not by a word of its own: no single word to move */
		found = it;
	}
	return found;
}

const struct lk_line_item *lk_fix_last_reference(const struct lk_fixer *fx, const struct lk_diag *d)
{
	const struct lk_replay *out = fx->rp;
	const struct lk_line *line = fx->line;
	const struct lk_line_item *last = NULL;

	for (size_t i = 0; i < d->refs.nr; i++) {
		long item = out->inputs.items[d->refs.items[i]].item;

		while (item >= 0 && line->items.items[item].parent >= 0)
			item = line->items.items[item].parent;
		if (item >= 0 && (!last || line->items.items[item].position > last->position))
			last = &line->items.items[item];
	}
	return last;
}

/*
 * An archive that defines it but was read too early: moved after the
 * references (its words at the end), or, when archives need each other,
 * the archives grouped; read again at the end is the workaround.
 */
static void fix_ordering(const struct lk_fixer *fx, const struct lk_diag *d)
{
	const struct lk_record *rec = fx->rec;
	const struct lk_line *line = fx->line;
	struct lk_buf desc = LK_BUF_INIT;
	const char *script = script_of(line, d->defined_path);
	const struct lk_line_item *it = script ? NULL : own_word(rec, line, d->defined_path);
	const struct lk_line_item *ref = lk_fix_last_reference(fx, d);
	struct lk_fix_list *fixes = lk_fixer_list(fx, d);
	char *path = lk_xstrdup(d->defined_path);
	const char *them = d->symbols.nr > 1 ? "them" : d->symbol;
	int fixed = 0;

	if (script) {
		lk_buf_addf(&desc, "append %s after ", script);
		last_user_arg(rec, line, &desc);
		lk_buf_addf(&desc, ", so that %s (in its linker script) is read again, after the reference",
			    path);
		lk_fix_try_append(fx, d, script, desc.buf);
		goto done;
	}
	if (it) {
		struct lk_edit e = { LK_EDIT_KIND_MOVE, it->position, -1, LK_STRVEC_INIT, NULL, NULL, NULL, 0 };

		lk_strvec_push(&e.words, it->word);	/* the word that moves */

		lk_buf_addf(&desc, "move %s (at %ld) to the end of the line, after the inputs that reference %s (%s)",
			    it->word, it->position, them,
			    it->info.kind == LK_FILE_SHARED ?
			    "under --as-needed ld keeps a shared object only when an input read before it references it" :
			    "ld reads an archive once, left to right");
		fixed = lk_fix_offer(fx, d, &e, desc.buf)->verified;
		lk_buf_reset(&desc);
		if (!fixed && ref && ref->position > it->position && (ref->info.kind == LK_FILE_ARCHIVE || ref->info.kind == LK_FILE_THIN_ARCHIVE)) {
			struct lk_edit g = { LK_EDIT_KIND_GROUP, it->position, ref->position, LK_STRVEC_INIT,
					     NULL, NULL, NULL, 0 };

			lk_buf_addf(&desc, "group %s (at %ld) .. %s (at %ld): wrap them in -Wl,--start-group and -Wl,--end-group, so that ld reads these archives until nothing new is pulled (they need each other)",
				    it->word, it->position, ref->word, ref->position);
			fixed = lk_fix_offer(fx, d, &g, desc.buf)->verified;
			lk_buf_reset(&desc);
			if (fixed) {
				/* The move that did not link is not the fix: the group is. */
				lk_fix_release(&fixes->items[fixes->nr - 2]);
				fixes->items[fixes->nr - 2] = fixes->items[fixes->nr - 1];
				fixes->nr--;
			}
		}
	}
	lk_buf_addf(&desc, "append %s again, after the reference (it defines %s)", path, them);
	lk_fix_try_append(fx, d, path, desc.buf)->workaround = fixed;
done:
	free(path);
	lk_buf_release(&desc);
}

/* A multiple definition from two objects of one source: the second copy removed from the line. */
static void fix_duplicate(const struct lk_fixer *fx, const struct lk_diag *d)
{
	const struct lk_replay *out = fx->rp;
	const struct lk_rinput *again = &out->inputs.items[d->ref_input];
	const struct lk_line_item *it;
	struct lk_edit e = { LK_EDIT_KIND_REMOVE, -1, -1, LK_STRVEC_INIT, NULL, NULL, NULL, 0 };
	struct lk_buf desc = LK_BUF_INIT;

	if (!d->cause || strcmp(d->cause->kind, "duplicate-source") || again->member || again->item < 0)
		return;
	it = own_word(fx->rec, fx->line, again->path);
	if (!it)
		return;
	e.position = it->position;
	for (size_t i = 0; i < (size_t)(d - out->diags.items); i++) {
		const struct lk_fix_list *o = &fx->out->of[i];

		/* One trial per copy removed: the same pair defines many symbols. */
		for (size_t k = 0; k < o->nr; k++)
			if (o->items[k].edit.kind == LK_EDIT_KIND_REMOVE && o->items[k].edit.position == e.position &&
			    !o->items[k].verified)
				return;
	}
	lk_buf_addf(&desc, "remove %s (at %ld) from the line: a second copy of %s, compiled from the same source as %s",
		    it->word, it->position, d->symbol, out->inputs.items[d->def_input].path);
	lk_fix_offer(fx, d, &e, desc.buf);
	lk_buf_release(&desc);
}

/*
 * One archive loaded whole twice because the line's --whole-archive is
 * never closed (multidef.c: the driver's -lgcc read under it): close it
 * after the line's own words, before the driver's libraries.
 */
static void fix_whole_archive(const struct lk_fixer *fx, const struct lk_diag *d)
{
	struct lk_edit e = { LK_EDIT_KIND_INSERT, -1, -1, LK_STRVEC_INIT, NULL, NULL, NULL, 0 };
	struct lk_buf desc = LK_BUF_INIT;
	const struct lk_line_item *last = NULL;

	if (!d->cause || strcmp(d->cause->kind, "whole-archive-unclosed"))
		return;
	/* Right after the line's last input read whole: the archives meant to be. */
	for (size_t i = 0; i < fx->line->items.nr; i++) {
		const struct lk_line_item *it = &fx->line->items.items[i];

		if ((it->kind == LK_ITEM_FILE || it->kind == LK_ITEM_LIB) && it->position >= 0 &&
		    (it->state & LK_ST_WHOLE_ARCHIVE))
			last = it;
	}
	if (!last)
		return;
	e.position = last->position + 1;
	lk_strvec_push(&e.words, "-Wl,--no-whole-archive");
	lk_buf_addf(&desc, "close --whole-archive: add -Wl,--no-whole-archive after %s (at %ld), the last input meant to be loaded whole, so that the driver's libraries (-lgcc, -lc) are read as archives again, each member only when needed",
		    last->word, last->position);
	lk_fix_offer(fx, d, &e, desc.buf);
	lk_buf_release(&desc);
}

/*
 * The program's own _start against the driver's start file (multidef.c):
 * -nostartfiles, an edit of the line the replay cannot try, since it
 * changes what the driver adds (its -### view is the line as it was).
 */
static void fix_start_file(const struct lk_fixer *fx, const struct lk_diag *d)
{
	struct lk_edit e = { LK_EDIT_KIND_INSERT, (long)fx->rec->args.nr, -1, LK_STRVEC_INIT, NULL, NULL,
			     NULL, 1 };

	if (!d->cause || strcmp(d->cause->kind, "start-file"))
		return;
	lk_strvec_push(&e.words, "-nostartfiles");
	e.needs = lk_xstrdup("the driver's start files dropped: the program's own _start sets up what they did (the stack, argc and argv, exit)");
	lk_fix_offer(fx, d, &e, "link with -nostartfiles: the driver then adds no start file, and the program's own _start is the entry");
}

/* Each diagnostic's direct fixes, in the order of the diagnostics. */
static void propose(const struct lk_fixer *fx)
{
	for (size_t i = 0; i < fx->rp->diags.nr; i++) {
		const struct lk_diag *d = &fx->rp->diags.items[i];

		lk_fix_runtime(fx, d);
		if (d->kind == LK_DIAG_UNDEFINED && !d->defined_path && !d->provider)
			lk_fix_near_misses(fx, d);
		else if (d->kind == LK_DIAG_DSO_MISSING)
			fix_dso_missing(fx, d);
		else if (d->kind == LK_DIAG_UNDEFINED && d->defined_path)
			fix_ordering(fx, d);
		else if (d->kind == LK_DIAG_MULTIPLE && d->ref_input >= 0 && d->def_input >= 0) {
			fix_duplicate(fx, d);
			fix_whole_archive(fx, d);
			fix_start_file(fx, d);
		}
		else if (d->kind == LK_DIAG_NOT_FOUND || d->kind == LK_DIAG_INCOMPATIBLE)
			lk_fix_not_found(fx, d);
		else if (lk_unusable_kind(d->kind))
			lk_fix_unusable(fx, d);
	}
	for (size_t i = 0; i < fx->rp->diags.nr; i++)
		if (lk_explain_reloc_kind(fx->rp->diags.items[i].kind))
			lk_fix_reloc(fx, &fx->rp->diags.items[i]);
}

/* The first fix of `l` that links, or NULL. */
static const struct lk_fix *first_verified(const struct lk_fix_list *l)
{
	for (size_t k = 0; k < l->nr; k++)
		if (l->items[k].verified)
			return &l->items[k];
	return NULL;
}

/*
 * The input ld could not use whose own fix links the line alone (-llibz
 * not found: "replace -llibz with -lz"; a library of another machine
 * skipped), with its diagnostic in *cause; NULL when none.
 */
static const struct lk_fix *input_fix_that_links(const struct lk_fixer *fx, const struct lk_diag **cause)
{
	for (size_t i = 0; i < fx->rp->diags.nr; i++) {
		const struct lk_diag *e = &fx->rp->diags.items[i];
		const struct lk_fix *f;

		if ((e->kind == LK_DIAG_NOT_FOUND || e->kind == LK_DIAG_INCOMPATIBLE || lk_unusable_kind(e->kind)) &&
		    (f = first_verified(&fx->out->of[i])) && lk_edit_on_line(&f->edit)) {
			*cause = e;
			return f;
		}
	}
	return NULL;
}

/*
 * An undefined symbol that no fix of its own links, on a line where an
 * input ld could not use has a fix that does: that input is the cause
 * (what -lz finds defines the symbol ld looked for in -llibz), and its
 * fix is the symbol's first too. Taking each cause's first fix then
 * makes one edit, not that one and an -lz appended beside it.
 */
static void adopt_input_fixes(const struct lk_fixer *fx)
{
	for (size_t i = 0; i < fx->rp->diags.nr; i++) {
		const struct lk_diag *d = &fx->rp->diags.items[i], *cause = NULL;
		const struct lk_fix *f;
		struct lk_edit e;
		struct lk_buf desc = LK_BUF_INIT;

		if (d->kind != LK_DIAG_UNDEFINED || first_verified(&fx->out->of[i]) ||
		    !(f = input_fix_that_links(fx, &cause)))
			continue;
		e = f->edit;
		memset(&e.words, 0, sizeof(e.words));
		for (size_t k = 0; k < f->edit.words.nr; k++)
			lk_strvec_push(&e.words, f->edit.words.items[k]);
		e.driver = f->edit.driver ? lk_xstrdup(f->edit.driver) : NULL;
		e.input = f->edit.input ? lk_xstrdup(f->edit.input) : NULL;
		e.needs = f->edit.needs ? lk_xstrdup(f->edit.needs) : NULL;
		lk_buf_addf(&desc, "%s: ld could not use %s, the input this edit puts right (%s below), and with it the line links: %s %s defined then",
			    f->description, cause->symbol, lk_diag_kind_name(cause->kind), d->symbol,
			    d->symbols.nr > 1 ? "and the others are" : "is");
		lk_fix_offer(fx, d, &e, desc.buf);
		lk_buf_release(&desc);
	}
}

/*
 * One fix first: those at the cause that work (verified, or stated as
 * rebuilds are), then the workarounds that work, then the partial ones;
 * each side in the order proposed.
 */
static int rank(const struct lk_fix *f)
{
	return !(f->verified || f->stated) ? 2 : f->workaround;
}

static void cause_first(struct lk_fix_list *l)
{
	struct lk_fix *sorted = lk_xcalloc(l->nr + 1, sizeof(*sorted));
	size_t n = 0;

	for (int pass = 0; pass < 3; pass++)
		for (size_t k = 0; k < l->nr; k++)
			if (rank(&l->items[k]) == pass)
				sorted[n++] = l->items[k];
	if (l->nr)
		memcpy(l->items, sorted, l->nr * sizeof(*sorted));
	free(sorted);
}

/*
 * The trials the stage will ask for, handed to the snapshot's server
 * first so that they run together (trial.h): a dry run of the proposals
 * in which every trial is taken to link, its fixes thrown away. A trial
 * foreseen wrongly costs time, never an outcome: each ask gets the answer
 * to its own words, and one not foreseen is sent when it is asked.
 */
static void foresee(const struct lk_record *rec, const struct lk_line *line, const struct lk_replay *rp)
{
	struct lk_fixes dry = { NULL, 0, NULL };
	struct lk_fixer fx = { rec, line, rp, &dry, 1 };

	dry.nr = rp->diags.nr;
	dry.of = lk_xcalloc(dry.nr + 1, sizeof(*dry.of));
	propose(&fx);
	lk_fix_providers(&fx);
	lk_fixes_release(&dry);
}

void lk_fix_all(const struct lk_record *rec, const struct lk_line *line, const struct lk_replay *rp,
		struct lk_fixes *out)
{
	struct lk_fixer fx = { rec, line, rp, out, 0 };

	memset(out, 0, sizeof(*out));
	/* No fixes for a failure that is no prediction: they would fix the analysis, not the link. */
	if (rp->unknown)
		return;
	if (rp->trials)
		foresee(rec, line, rp);
	out->nr = rp->diags.nr;
	out->of = lk_xcalloc(out->nr + 1, sizeof(*out->of));
	propose(&fx);
	lk_fix_providers(&fx);
	adopt_input_fixes(&fx);
	for (size_t i = 0; i < out->nr; i++)
		cause_first(&out->of[i]);
	lk_where_fixes(rec, line, rp, out);
}

const struct lk_fix_list *lk_fixes_of(const struct lk_fixes *fx, size_t i)
{
	static const struct lk_fix_list none = { NULL, 0, 0 };

	return i < fx->nr ? &fx->of[i] : &none;
}

void lk_fixes_release(struct lk_fixes *fx)
{
	for (size_t i = 0; i < fx->nr; i++) {
		for (size_t k = 0; k < fx->of[i].nr; k++)
			lk_fix_release(&fx->of[i].items[k]);
		free(fx->of[i].items);
	}
	free(fx->of);
	if (fx->whole) {
		lk_fix_release(fx->whole);
		free(fx->whole);
	}
	memset(fx, 0, sizeof(*fx));
}

void lk_fix_release(struct lk_fix *f)
{
	free(f->description);
	free(f->linker_said);
	free(f->driver);
	lk_edit_release(&f->edit);
	lk_strvec_release(&f->argv);
	lk_strvec_release(&f->args);
	lk_strvec_release(&f->remaining);
	lk_strvec_release(&f->build_script);
	lk_where_free(f->where);
	memset(f, 0, sizeof(*f));
}
