/*
 * Failed links -> causes -> one summary (see summary.h).
 *
 * Each failed record is replayed as `explain` replays it; each diagnostic
 * is a cause, keyed by its kind, symbol, version and the library that
 * defines it (its name normalised, normalize.c), so that the same missing
 * symbol in ten test binaries of a crate is one section listing ten links,
 * each with the input that references it there. A
 * failed link the replay cannot explain is said to be so, never guessed at.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/json.h"
#include "linkscope/prune.h"
#include "replay.h"
#include "linkscope/vec.h"
#include "explain.h"
#include "fix.h"
#include "normalize.h"
#include "resolve.h"
#include "warn.h"
#include "md.h"
#include "report.h"
#include "certainty.h"
#include "fingerprint.h"
#include "srcline.h"
#include "where/where.h"
#include "summary.h"

struct link_ref {
	const char *record;	/* borrowed from the records */
	const char *output;
	int exit_status;
	char *referenced_by;	/* owned: where this link references the symbol, or NULL */
};

struct cause {
	char *key;
	char *kind, *symbol, *version;	/* symbol and version may be NULL */
	char *defined_in;		/* the defining library, or NULL */
	char *referenced_by;		/* of the first link: "member m of a.a at 13", or NULL */
	char *src_file;			/* of the first link: its first reference's source file, or NULL */
	long src_line;
	struct lk_strvec explanation;	/* of the first link with this cause */
	struct lk_summary_fixes fixes;
	struct { struct link_ref *items; size_t nr, alloc; } links;
};

struct causes {
	struct cause *items;
	size_t nr, alloc;
	size_t shown;		/* items[0..shown): the causes; the rest, after them, make one note (is_note) */
};

static char *dup_or_null(const char *s)
{
	return s ? lk_xstrdup(s) : NULL;
}

/* A copy of `f` at the end of `fixes`. */
static void push_fix(struct lk_summary_fixes *fixes, const struct lk_summary_fix *f)
{
	struct lk_summary_fix *n;

	LK_GROW(fixes->items, fixes->nr + 1, fixes->alloc);
	n = &fixes->items[fixes->nr++];
	n->description = lk_xstrdup(f->description);
	n->verified = f->verified;
	n->stated = f->stated;
	n->where = dup_or_null(f->where);
	n->file = dup_or_null(f->file);
	n->line = f->line;
}

static void fixes_release(struct lk_summary_fixes *fixes)
{
	for (size_t k = 0; k < fixes->nr; k++) {
		free(fixes->items[k].description);
		free(fixes->items[k].where);
		free(fixes->items[k].file);
	}
	free(fixes->items);
}

static struct lk_summary_part *new_part(struct lk_summary_parts *parts, const char *key, const char *kind)
{
	struct lk_summary_part *p;

	LK_GROW(parts->items, parts->nr + 1, parts->alloc);
	p = &parts->items[parts->nr++];
	memset(p, 0, sizeof(*p));
	p->key = lk_xstrdup(key);
	p->kind = lk_xstrdup(kind);
	return p;
}

/* The line to look at: the first reference of `d` with DWARF, as `explain` lists them (srcline.h). */
static void src_of(struct lk_summary_part *p, const struct lk_diag *d)
{
	for (size_t k = 0; d->ref_lines && k < d->ref_lines->nr && !p->src_file; k++)
		if (d->ref_lines->items[k].pos.file) {
			p->src_file = lk_xstrdup(d->ref_lines->items[k].pos.file);
			p->src_line = d->ref_lines->items[k].pos.line;
		}
}

/*
 * The replay's notes a cause carries: the count of sections --gc-sections
 * collects is left out (it is on every line built with it, Rust's all,
 * and `explain` has it); a note of what the collection changed stays.
 */
static void push_notes(struct lk_summary_part *p, const struct lk_strvec *notes)
{
	for (size_t i = 0; notes && i < notes->nr; i++)
		if (!lk_replay_gc_noise(notes, i))
			lk_strvec_push(&p->explanation, notes->items[i]);
}

/* A cause with no diagnostic behind it: the line could not be modelled, or the replay links. */
static void add_plain(struct lk_summary_parts *parts, const char *kind, const char *why,
		      const struct lk_strvec *notes)
{
	struct lk_summary_part *p = new_part(parts, kind, kind);

	lk_strvec_push(&p->explanation, why);
	push_notes(p, notes);
}

/*
 * lld's or mold's own reason where the replay has no diagnostic (GNU ld's
 * rules link the line): one cause per reason, with no symbol and no fix,
 * as `explain` says it.
 */
static void add_rule(struct lk_summary_parts *parts, const struct lk_replay *rp, const char *why)
{
	struct lk_buf key = LK_BUF_INIT;
	struct lk_summary_part *p;

	lk_buf_addf(&key, "linker-rule|%s", why);
	p = new_part(parts, key.buf, "linker-rule");
	lk_buf_release(&key);
	lk_strvec_push(&p->explanation, why);
	push_notes(p, &rp->notes);
}

static void add_diag(struct lk_summary_parts *parts, const struct lk_line *line,
		     const struct lk_replay *rp, const struct lk_diag *d, const struct lk_fix_list *fl)
{
	struct lk_buf key = LK_BUF_INIT, ref = LK_BUF_INIT;
	const char *def = d->def_input >= 0 ? rp->inputs.items[d->def_input].path : NULL;
	char *def_n = def ? lk_norm_name(lk_norm_base(def)) : NULL;
	struct lk_summary_part *p;

	if (d->ref_input >= 0)
		lk_explain_site_text(rp, line, d->ref_input, &ref);
	/* The same symbol missing the same way: one cause, whichever input asks for it. */
	lk_buf_addf(&key, "%s|%s|%s|%s", lk_diag_kind_name(d->kind), d->symbol,
		    d->version ? d->version : "", def_n ? def_n : "");
	p = new_part(parts, key.buf, lk_diag_kind_name(d->kind));
	p->symbol = lk_xstrdup(d->symbol);
	p->version = dup_or_null(d->version);
	p->defined_in = dup_or_null(def);
	p->referenced_by = ref.len ? lk_xstrdup(ref.buf) : NULL;
	for (size_t k = 0; k < d->explanation.nr; k++)
		lk_strvec_push(&p->explanation, d->explanation.items[k]);
	src_of(p, d);
	for (size_t k = 0; k < fl->nr; k++) {
		const struct lk_fix *f = &fl->items[k];
		struct lk_summary_fix sf = { f->description, f->verified, f->stated, NULL, NULL, 0 };

		/* The where the fix stage found (fix/where/): reused, never worked out again. */
		if (f->where) {
			sf.where = f->where->sentence;
			sf.file = f->where->file;
			sf.line = f->where->line;
		}
		push_fix(&p->fixes, &sf);
	}
	free(def_n);
	lk_buf_release(&key);
	lk_buf_release(&ref);
}

/* The first input on the line that has changed since the link (its fingerprint), or NULL. */
static const char *changed_input(const struct lk_record *rec, const struct lk_line *line)
{
	for (size_t i = 0; i < line->items.nr; i++)
		if (line->items.items[i].path && lk_fingerprint_changed(rec, &line->items.items[i]))
			return line->items.items[i].path;
	return NULL;
}

void lk_summary_analyse(const struct lk_record *rec, const struct lk_line_options *lopt, unsigned replay_flags,
			struct lk_summary_parts *parts)
{
	struct lk_err err = LK_ERR_INIT;
	struct lk_line line;
	struct lk_replay rp;
	struct lk_fixes fixes;
	const struct lk_linker_verdict *own;
	int predicted;

	memset(parts, 0, sizeof(*parts));
	if (lk_line_build(rec, lopt, &line, &err) < 0) {
		add_plain(parts, "not-analysed", err.msg, NULL);
		return;
	}
	lk_resolve_line(rec, &line);
	lk_warn_line(rec, &line);
	if (lk_replay_run(rec, &line, LK_REPLAY_SNAPSHOT | replay_flags, &rp, &err) < 0) {
		add_plain(parts, "not-analysed", err.msg, NULL);
		lk_line_release(&line);
		return;
	}
	lk_explain_diags(&rp, &line);
	lk_explain_causes(rec, &line, &rp);
	lk_srcline_fill(&rp);	/* the references' file:line, as `explain` has them */
	lk_fix_all(rec, &line, &rp, &fixes);
	own = &rp.linkers[lk_linker_of_flavor(line.flavor)];
	predicted = own->success;
	if (line.unknown.nr) {
		/* Something needed was not run (docs/security.md): no cause is guessed. */
		add_plain(parts, "unknown", line.unknown.items[0], &rp.notes);
		predicted = 1;
	} else if (predicted && changed_input(rec, &line)) {
		/* It links as the files are now: the build ran again since, and this link tells nothing of it. */
		struct lk_buf why = LK_BUF_INIT;

		lk_buf_addf(&why, "'%s' " LK_CERTAINTY_CHANGED ", and with the files as they are now the line links",
			    changed_input(rec, &line));
		add_plain(parts, "inputs-changed", why.buf, &rp.notes);
		lk_buf_release(&why);
	} else if (predicted)
		add_plain(parts, "not-explained",
			  "the replay predicts that this line links: the cause is outside what linkscope models (the linker's own message is in the record)",
			  &rp.notes);
	else if (rp.unknown)
		/*
		 * The replay's failure is no prediction (analyzer/replay/certainty.c): no
		 * cause to name. Inputs changed since: the build ran again, and this
		 * earlier link tells nothing of it (one note, not a cause).
		 */
		add_plain(parts, strstr(rp.unknown, LK_CERTAINTY_CHANGED) ? "inputs-changed" : "unknown", rp.unknown,
			  &rp.notes);
	else if (rp.diags.nr)
		/*
		 * As `explain` says it (lk_report_text): the replay's diagnostics
		 * and their fixes, whichever linker the line names; lld's or mold's
		 * own reasons stand for the failure only when the replay has none.
		 */
		for (size_t i = 0; i < rp.diags.nr; i++)
			add_diag(parts, &line, &rp, &rp.diags.items[i], lk_fixes_of(&fixes, i));
	else if (own->why.nr)
		for (size_t i = 0; i < own->why.nr; i++)
			add_rule(parts, &rp, own->why.items[i]);
	else
		add_plain(parts, "other", "the replay predicts a failure with no symbol diagnostic", &rp.notes);
	lk_fixes_release(&fixes);
	lk_explain_release(&rp);
	lk_replay_release(&rp);
	lk_line_release(&line);
}

void lk_summary_not_analysed(struct lk_summary_parts *parts, const char *why)
{
	add_plain(parts, "not-analysed", why, NULL);
}

void lk_summary_parts_release(struct lk_summary_parts *parts)
{
	for (size_t i = 0; i < parts->nr; i++) {
		struct lk_summary_part *p = &parts->items[i];

		free(p->key);
		free(p->kind);
		free(p->symbol);
		free(p->version);
		free(p->defined_in);
		free(p->referenced_by);
		free(p->src_file);
		lk_strvec_release(&p->explanation);
		fixes_release(&p->fixes);
	}
	free(parts->items);
	memset(parts, 0, sizeof(*parts));
}

static struct cause *cause_for(struct causes *cs, const char *key, const char *kind, int *fresh)
{
	struct cause *c;

	for (size_t i = 0; i < cs->nr; i++)
		if (!strcmp(cs->items[i].key, key)) {
			*fresh = 0;
			return &cs->items[i];
		}
	LK_GROW(cs->items, cs->nr + 1, cs->alloc);
	c = &cs->items[cs->nr++];
	memset(c, 0, sizeof(*c));
	c->key = lk_xstrdup(key);
	c->kind = lk_xstrdup(kind);
	*fresh = 1;
	return c;
}

static void add_link(struct cause *c, const struct lk_record *rec, const char *referenced_by)
{
	LK_GROW(c->links.items, c->links.nr + 1, c->links.alloc);
	c->links.items[c->links.nr].referenced_by = dup_or_null(referenced_by);
	c->links.items[c->links.nr].record = rec->path;
	c->links.items[c->links.nr].output = rec->output ? rec->output : "a.out";
	c->links.items[c->links.nr].exit_status = rec->has_exit ? rec->exit_status : -1;
	c->links.nr++;
}

/* One link's part into its cause: the first link with a cause tells it, each adds itself. */
static void merge(struct causes *cs, const struct lk_record *rec, const struct lk_summary_part *p)
{
	int fresh;
	struct cause *c = cause_for(cs, p->key, p->kind, &fresh);

	if (fresh) {
		c->symbol = dup_or_null(p->symbol);
		c->version = dup_or_null(p->version);
		c->defined_in = dup_or_null(p->defined_in);
		c->referenced_by = dup_or_null(p->referenced_by);
		c->src_file = dup_or_null(p->src_file);
		c->src_line = p->src_line;
		for (size_t k = 0; k < p->explanation.nr; k++)
			lk_strvec_push(&c->explanation, p->explanation.items[k]);
		for (size_t k = 0; k < p->fixes.nr; k++)
			push_fix(&c->fixes, &p->fixes.items[k]);
	}
	add_link(c, rec, p->referenced_by);
}

/* A failed link whose inputs changed since it ran: said in one note, not a cause of this build. */
static int is_note(const struct cause *c)
{
	return !strcmp(c->kind, "inputs-changed");
}

static int most_links_first(const void *a, const void *b)
{
	const struct cause *x = a, *y = b;

	if (is_note(x) != is_note(y))
		return is_note(x) ? 1 : -1;
	if (x->links.nr != y->links.nr)
		return x->links.nr < y->links.nr ? 1 : -1;
	return strcmp(x->key, y->key);
}

/* "2 failed links read inputs that have changed since they ran ...", or nothing. */
static void changed_note(struct lk_buf *b, const struct causes *cs)
{
	size_t n = 0;

	for (size_t i = 0; i < cs->nr; i++)
		if (is_note(&cs->items[i]))
			n += cs->items[i].links.nr;
	if (n)
		lk_buf_addf(b, "%zu failed link%s read inputs that have changed since %s ran (a rebuild since?), so %s nothing of the build as it is: not counted among the causes",
			    n, n == 1 ? "" : "s", n == 1 ? "it" : "they", n == 1 ? "it tells" : "they tell");
}

static void title(const struct cause *c, struct lk_buf *b)
{
	lk_buf_addstr(b, c->kind);
	if (c->symbol)
		lk_buf_addf(b, ": %s%s%s", c->symbol, c->version ? "@@" : "", c->version ? c->version : "");
}

/* The fix an annotation points at: the first verified one with a build file, else the first with one. */
static const struct lk_summary_fix *fix_with_file(const struct cause *c)
{
	for (int want_verified = 1; want_verified >= 0; want_verified--)
		for (size_t k = 0; k < c->fixes.nr; k++)
			if (c->fixes.items[k].file && (c->fixes.items[k].verified || !want_verified))
				return &c->fixes.items[k];
	return NULL;
}

/* "3 probes and 1 superseded failure left out (--probes, --all)", or nothing. */
static void left_out(struct lk_buf *b, const struct lk_summary_options *opt)
{
	if (!opt->probes && !opt->superseded)
		return;
	if (opt->probes)
		lk_buf_addf(b, "%zu probe%s (--probes)", opt->probes, opt->probes == 1 ? "" : "s");
	if (opt->superseded)
		lk_buf_addf(b, "%s%zu failure%s superseded by a later successful link (--all)", opt->probes ? " and " : "",
			    opt->superseded, opt->superseded == 1 ? "" : "s");
	lk_buf_addstr(b, " left out");
}

static void print_text(FILE *out, const struct causes *cs, size_t failed, const struct lk_summary_options *opt)
{
	struct lk_buf t = LK_BUF_INIT;

	left_out(&t, opt);
	fprintf(out, "linkscope: %zu failed link%s of %zu record%s in %s%s%s: %zu cause%s%s%s\n", failed,
		failed == 1 ? "" : "s", opt->examined, opt->examined == 1 ? "" : "s", opt->dir,
		opt->since ? " since " : "", opt->since ? opt->since : "", cs->shown, cs->shown == 1 ? "" : "s",
		t.len ? "; " : "", t.buf);
	lk_buf_reset(&t);
	changed_note(&t, cs);
	if (t.len)
		fprintf(out, "note: %s\n", t.buf);
	for (size_t i = 0; i < cs->shown; i++) {
		const struct cause *c = &cs->items[i];

		lk_buf_reset(&t);
		title(c, &t);
		fprintf(out, "\n%zu. %s (%zu link%s)\n", i + 1, t.buf, c->links.nr, c->links.nr == 1 ? "" : "s");
		if (c->referenced_by)
			fprintf(out, "   referenced by %s\n", c->referenced_by);
		if (c->src_file)
			fprintf(out, "   referenced at %s:%ld\n", c->src_file, c->src_line);
		if (c->defined_in)
			fprintf(out, "   defined in %s\n", c->defined_in);
		for (size_t k = 0; k < c->explanation.nr; k++)
			fprintf(out, "   - %s\n", c->explanation.items[k]);
		for (size_t k = 0; k < c->fixes.nr; k++) {
			const struct lk_summary_fix *f = &c->fixes.items[k];

			fprintf(out, "   fix %s: %s\n", f->verified ? "(verified by replay)" :
				f->stated ? "(stated, not tried by the replay)" : "(does not fix it)", f->description);
			if (f->where)
				fprintf(out, "     where: %s\n", f->where);
		}
		for (size_t k = 0; k < c->links.nr; k++) {
			const struct link_ref *l = &c->links.items[k];

			fprintf(out, "   link: %s (exit %d), record %s\n", l->output, l->exit_status, l->record);
			if (l->referenced_by && k)
				fprintf(out, "         referenced there by %s\n", l->referenced_by);
		}
	}
	lk_buf_release(&t);
}

/* "file:line" as one code span. */
static void md_file_line(FILE *out, const char *file, long line)
{
	struct lk_buf b = LK_BUF_INIT;

	lk_buf_addf(&b, "%s:%ld", file, line);
	lk_md_code(out, b.buf, 0);
	lk_buf_release(&b);
}

/* Everything from a record or a symbol in a code span or escaped (md.h): GitHub renders it as written. */
static void print_markdown(FILE *out, const struct causes *cs, size_t failed, const struct lk_summary_options *opt)
{
	struct lk_buf t = LK_BUF_INIT;

	fprintf(out, "## linkscope: %zu failed link%s, %zu cause%s\n\n", failed, failed == 1 ? "" : "s",
		cs->shown, cs->shown == 1 ? "" : "s");
	fprintf(out, "%zu record%s read in ", opt->examined, opt->examined == 1 ? "" : "s");
	lk_md_code(out, opt->dir, 0);
	if (opt->since) {
		fputs(" since ", out);
		lk_md_code(out, opt->since, 0);
	}
	left_out(&t, opt);
	if (t.len)
		fputs("; ", out);
	lk_md_text(out, t.buf, 0);
	fputs(".\n", out);
	lk_buf_reset(&t);
	changed_note(&t, cs);
	if (t.len) {
		fputs("\n**Note:** ", out);
		lk_md_text(out, t.buf, 0);
		fputs(".\n", out);
	}
	for (size_t i = 0; i < cs->shown; i++) {
		const struct cause *c = &cs->items[i];

		lk_buf_reset(&t);
		title(c, &t);
		fprintf(out, "\n### %zu. ", i + 1);
		lk_md_code(out, t.buf, 0);
		fprintf(out, " (%zu link%s)\n\n", c->links.nr, c->links.nr == 1 ? "" : "s");
		if (c->referenced_by) {
			fputs("- **referenced by** ", out);
			lk_md_code(out, c->referenced_by, 0);
			fputs("\n", out);
		}
		if (c->src_file) {
			fputs("- **referenced at** ", out);
			md_file_line(out, c->src_file, c->src_line);
			fputs("\n", out);
		}
		if (c->defined_in) {
			fputs("- **defined in** ", out);
			lk_md_code(out, c->defined_in, 0);
			fputs("\n", out);
		}
		for (size_t k = 0; k < c->explanation.nr; k++) {
			fputs("- ", out);
			lk_md_text(out, c->explanation.items[k], 0);
			fputs("\n", out);
		}
		if (c->fixes.nr)
			fprintf(out, "\n| fix | where | verified by replay |\n|---|---|---|\n");
		for (size_t k = 0; k < c->fixes.nr; k++) {
			const struct lk_summary_fix *f = &c->fixes.items[k];

			fputs("| ", out);
			lk_md_text(out, f->description, LK_MD_CELL);
			fputs(" | ", out);
			if (f->file && f->line > 0) {
				md_file_line(out, f->file, f->line);
				fputs(": ", out);
			}
			lk_md_text(out, f->where, LK_MD_CELL);
			fprintf(out, " | %s |\n", f->verified ? "yes" : "no");
		}
		fprintf(out, "\n<details><summary>links (%zu)</summary>\n\n| output | exit | referenced by | record |\n|---|---|---|---|\n",
			c->links.nr);
		for (size_t k = 0; k < c->links.nr; k++) {
			fputs("| ", out);
			lk_md_code(out, c->links.items[k].output, LK_MD_CELL);
			fprintf(out, " | %d | ", c->links.items[k].exit_status);
			lk_md_text(out, c->links.items[k].referenced_by, LK_MD_CELL);
			fputs(" | ", out);
			lk_md_code(out, c->links.items[k].record, LK_MD_CELL);
			fputs(" |\n", out);
		}
		fprintf(out, "\n</details>\n");
	}
	lk_buf_release(&t);
}

/*
 * `path` relative to `root`, as GitHub wants an annotation's file= (it
 * attaches it to the diff only then), or NULL when it is not under it.
 */
static const char *under_root(const char *path, const char *root)
{
	size_t n = root ? strlen(root) : 0;

	while (n > 1 && root[n - 1] == '/')
		n--;
	if (!n || path[0] != '/' || strncmp(path, root, n))
		return NULL;
	if (n == 1)
		return path + 1;
	return path[n] == '/' && path[n + 1] ? path + n + 1 : NULL;
}

/*
 * An absolute path with its "." and "dir/.." taken out by their names
 * (DWARF names meson's sources "BUILD/../main.c"), as GitHub matches an
 * annotation's file against the diff's; malloc'd.
 */
static char *lexical_clean(const char *path)
{
	struct lk_buf b = LK_BUF_INIT;
	const char *p = path;

	while (*p) {
		const char *end = strchr(p, '/');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n == 2 && !strncmp(p, "..", 2)) {
			while (b.len && b.buf[b.len - 1] != '/')
				b.buf[--b.len] = '\0';
			if (b.len > 1)
				b.buf[--b.len] = '\0';
		} else if (n && !(n == 1 && *p == '.')) {
			if (!b.len || b.buf[b.len - 1] != '/')
				lk_buf_addch(&b, '/');
			lk_buf_add(&b, p, n);
		}
		p += n + (end != NULL);
	}
	if (!b.len)
		lk_buf_addch(&b, '/');
	return lk_buf_detach(&b);
}

/* file= and line= of a cause: the build-file line its fix edits, else its reference's source line. */
static void gh_location(struct lk_buf *line, const struct cause *c, const char *root)
{
	const struct lk_summary_fix *f = fix_with_file(c);
	char *path = f ? lexical_clean(f->file) : NULL;
	const char *file = path ? under_root(path, root) : NULL;
	long at = f ? f->line : 0;

	if (!file && c->src_file && c->src_file[0] == '/') {
		free(path);
		path = lexical_clean(c->src_file);
		file = under_root(path, root);
		at = c->src_line;
	}
	if (file) {
		lk_buf_addstr(line, "file=");
		lk_gh_escape(line, file, 1);
		if (at > 0)
			lk_buf_addf(line, ",line=%ld", at);
		lk_buf_addstr(line, ",");
	}
	free(path);
}

static void print_github(FILE *out, const struct causes *cs, const struct lk_summary_options *opt)
{
	struct lk_buf line = LK_BUF_INIT, t = LK_BUF_INIT, msg = LK_BUF_INIT;

	changed_note(&msg, cs);
	if (msg.len) {
		lk_gh_escape(&line, msg.buf, 0);
		fprintf(out, "::notice title=linkscope%%3A inputs changed since the link::%s\n", line.buf);
	}
	for (size_t i = 0; i < cs->shown; i++) {
		const struct cause *c = &cs->items[i];

		lk_buf_reset(&line);
		lk_buf_reset(&t);
		lk_buf_reset(&msg);
		lk_buf_addstr(&t, "linkscope: ");
		title(c, &t);
		lk_buf_addf(&t, " (%zu link%s)", c->links.nr, c->links.nr == 1 ? "" : "s");
		for (size_t k = 0; k < c->explanation.nr; k++)
			lk_buf_addf(&msg, "%s. ", c->explanation.items[k]);
		if (c->src_file)
			lk_buf_addf(&msg, "Referenced at %s:%ld. ", c->src_file, c->src_line);
		for (size_t k = 0; k < c->fixes.nr; k++)
			if (c->fixes.items[k].verified) {
				lk_buf_addf(&msg, "Fix (verified by replay): %s. ", c->fixes.items[k].description);
				if (c->fixes.items[k].where)
					lk_buf_addf(&msg, "Where: %s. ", c->fixes.items[k].where);
				break;
			}
		lk_buf_addstr(&msg, "Links:");
		for (size_t k = 0; k < c->links.nr; k++)
			lk_buf_addf(&msg, " %s", c->links.items[k].output);
		lk_buf_addstr(&line, "::error ");
		gh_location(&line, c, opt->root);
		lk_buf_addstr(&line, "title=");
		lk_gh_escape(&line, t.buf, 1);
		lk_buf_addstr(&line, "::");
		lk_gh_escape(&line, msg.buf, 0);
		fprintf(out, "%s\n", line.buf);
	}
	lk_buf_release(&line);
	lk_buf_release(&t);
	lk_buf_release(&msg);
}

static json_t *fix_json(const struct lk_summary_fix *f)
{
	json_t *where = f->where ? json_pack("{s:o, s:o, s:o}", "sentence", lk_json_str(f->where),
					     "file", lk_json_str(f->file),
					     "line", f->line > 0 ? json_integer(f->line) : json_null()) : json_null();

	return json_pack("{s:o, s:b, s:o}", "description", lk_json_str(f->description), "verified", f->verified,
			 "where", where);
}

static void print_json(FILE *out, const struct causes *cs, size_t failed, const struct lk_summary_options *opt)
{
	json_t *arr = json_array(), *root;

	for (size_t i = 0; i < cs->nr; i++) {
		const struct cause *c = &cs->items[i];
		json_t *links = json_array(), *fixes = json_array(), *expl = json_array(), *o;

		for (size_t k = 0; k < c->links.nr; k++)
			json_array_append_new(links, json_pack("{s:o, s:o, s:i, s:o}", "record", lk_json_str(c->links.items[k].record),
							       "output", lk_json_str(c->links.items[k].output),
							       "exit_status", c->links.items[k].exit_status,
							       "referenced_by", lk_json_str(c->links.items[k].referenced_by)));
		for (size_t k = 0; k < c->fixes.nr; k++)
			json_array_append_new(fixes, fix_json(&c->fixes.items[k]));
		for (size_t k = 0; k < c->explanation.nr; k++)
			json_array_append_new(expl, lk_json_str(c->explanation.items[k]));
		o = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "kind", lk_json_str(c->kind),
			      "symbol", lk_json_str(c->symbol), "version", lk_json_str(c->version),
			      "defined_in", lk_json_str(c->defined_in), "referenced_by", lk_json_str(c->referenced_by),
			      "explanation", expl, "fixes", fixes, "links", links);
		json_object_set_new(o, "referenced_at", c->src_file ? json_pack("{s:o, s:I}", "file", lk_json_str(c->src_file),
										 "line", (json_int_t)c->src_line) : json_null());
		json_array_append_new(arr, o);
	}
	root = json_pack("{s:s, s:o, s:o, s:I, s:I, s:o}", "schema", "linkscope-summary/1", "dir", lk_json_str(opt->dir),
			 "since", lk_json_str(opt->since), "records", (json_int_t)opt->examined,
			 "failed", (json_int_t)failed, "causes", arr);
	json_object_set_new(root, "left_out", json_pack("{s:I, s:I}", "probes", (json_int_t)opt->probes,
							 "superseded", (json_int_t)opt->superseded));
	json_dumpf(root, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
}

/* The same words: the same link run again (a configure's conftest is many links of one output). */
static int same_args(const struct lk_record *a, const struct lk_record *b)
{
	if (a->args.nr != b->args.nr)
		return 0;
	for (size_t k = 0; k < a->args.nr; k++)
		if (strcmp(a->args.items[k].text, b->args.items[k].text))
			return 0;
	return 1;
}

/*
 * Is failed[i] an output that a newer failed record (one before it: they
 * come newest first) already tells of? The output counts once, by its
 * latest link.
 */
static int failed_again(const struct lk_record *failed, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (failed[i].output && failed[j].output && !strcmp(failed[i].output, failed[j].output) &&
		    failed[i].cwd && failed[j].cwd && !strcmp(failed[i].cwd, failed[j].cwd) && same_args(&failed[i], &failed[j]))
			return 1;
	return 0;
}

void lk_summary_print(FILE *out, const struct lk_record *failed, const struct lk_summary_parts *parts,
		      size_t nr, const struct lk_summary_options *opt)
{
	struct causes cs = { NULL, 0, 0, 0 };
	size_t counted = 0;

	for (size_t i = 0; i < nr; i++) {
		if (failed_again(failed, i))
			continue;
		counted++;
		for (size_t k = 0; k < parts[i].nr; k++)
			merge(&cs, &failed[i], &parts[i].items[k]);
	}
	if (cs.nr)
		qsort(cs.items, cs.nr, sizeof(*cs.items), most_links_first);
	while (cs.shown < cs.nr && !is_note(&cs.items[cs.shown]))
		cs.shown++;
	if (!strcmp(opt->format, "json"))
		print_json(out, &cs, counted, opt);
	else if (!strcmp(opt->format, "markdown"))
		print_markdown(out, &cs, counted, opt);
	else if (!strcmp(opt->format, "github"))
		print_github(out, &cs, opt);
	else
		print_text(out, &cs, counted, opt);
	for (size_t i = 0; i < cs.nr; i++) {
		struct cause *c = &cs.items[i];

		free(c->key);
		free(c->kind);
		free(c->symbol);
		free(c->version);
		free(c->defined_in);
		free(c->referenced_by);
		free(c->src_file);
		lk_strvec_release(&c->explanation);
		fixes_release(&c->fixes);
		for (size_t k = 0; k < c->links.nr; k++)
			free(c->links.items[k].referenced_by);
		free(c->links.items);
	}
	free(cs.items);
}

int lk_summary_parse_since(const char *s, int64_t now_s, int64_t *ns, struct lk_err *err)
{
	static const char *const formats[] = { "%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S",
					       "%Y-%m-%dT%H:%MZ", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d", NULL };
	int64_t age;
	struct lk_err ignored = LK_ERR_INIT;

	if (s[0] == '@') {
		char *end;
		long long v = strtoll(s + 1, &end, 10);

		if (end != s + 1 && !*end) {
			*ns = (int64_t)v * 1000000000;
			return 0;
		}
	} else if (lk_prune_parse_age(s, &age, &ignored) == 0) {
		*ns = (now_s - age) * 1000000000;
		return 0;
	}
	for (const char *const *f = formats; *f; f++) {
		struct tm tm;
		const char *end;

		memset(&tm, 0, sizeof(tm));
		end = strptime(s, *f, &tm);
		if (end && !*end) {
			*ns = (int64_t)timegm(&tm) * 1000000000;
			return 0;
		}
	}
	return lk_err_set(err, LK_E_USAGE,
			  "'%s' is not a time (2026-11-30T14:00:00Z, 2026-11-30, @UNIX-SECONDS, or an age such as 2h)", s);
}
