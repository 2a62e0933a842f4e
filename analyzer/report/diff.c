/*
 * Two lines -> their differences by meaning, and what decides between
 * their outcomes.
 *
 * 1. Alignment. Each argument is compared by meaning (normalize.c: the
 *    record's cwd and build root, crate hashes, rustc's temporary
 *    directory, the target's architecture), and two input files with the
 *    same content (SHA-256 of a kept copy, or of the file now) are the same
 *    input whatever their names; then a longest common subsequence. The
 *    driver's own additions (crt files, default -L dirs and libraries, from
 *    the line model) are compared apart.
 * 2. The argv. When the outcomes differ, each argument only in B is tried
 *    on A's line (appended) and each one only in A is tried removed from
 *    it; the replay says which single edit turns A's outcome into B's.
 * 3. Past the argv. When no single argument decides (or there is none),
 *    the failing line's diagnostics are compared with what the other
 *    line's inputs reference and define: either the other line's
 *    counterpart of the referencing input does not reference the symbol at
 *    all, or, in the other line, an earlier reference made the definition
 *    available (kept an --as-needed library, pulled an archive member) and
 *    the failing line has no such reference; that reference is named, and
 *    checked by replaying the other line without it.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "color.h"
#include "diff.h"
#include "linkscope/argv.h"
#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/file.h"
#include "replay.h"
#include "linkscope/rustc.h"
#include "linkscope/sha256.h"
#include "linkscope/vec.h"
#include "normalize.h"

/* The differences tried alone on A, at most: each costs a replay. */
#define DECIDING_MAX_TRIED 64

/* One argument of a line, by meaning. */
struct darg {
	char *key;		/* lk_norm_arg() */
	const char *file;	/* an input file it names (borrowed), or NULL */
	const char *kept_sha;	/* the kept copy's SHA-256 (borrowed from the record), or NULL */
	int hashed;		/* sha is computed (or cannot be) */
	int named_there;	/* the other line has an argument of the same key: matched by name, never hashed */
	char sha[65];		/* "" when unknown */
};

struct dline {
	const struct lk_record *rec;
	struct lk_line *line;
	struct lk_norm norm;
	struct darg *args;	/* [0] unused: the driver */
	size_t nr;
	char *matched;		/* per argument: 1 matched, 2 output name (never tried) */
	size_t by_content;	/* matched only because the content is the same */
};

static const char *kept_sha_of(const struct lk_record *rec, const char *path)
{
	for (size_t i = 0; i < rec->kept.nr; i++) {
		const char *blob = rec->kept.items[i].blob;

		if (!strcmp(rec->kept.items[i].path, path) && blob && !strncmp(blob, "blobs/", 6))
			return blob + 6;
	}
	return NULL;
}

static void dline_init(struct dline *d, const struct lk_record *rec, struct lk_line *line)
{
	struct lk_argv_info info;

	memset(d, 0, sizeof(*d));
	d->rec = rec;
	d->line = line;
	d->nr = rec->args.nr;
	lk_norm_init(&d->norm, rec);
	d->args = lk_xcalloc(d->nr + 1, sizeof(*d->args));
	d->matched = lk_xcalloc(d->nr + 1, 1);
	for (size_t i = 1; i < d->nr; i++)
		d->args[i].key = lk_norm_arg(&d->norm, rec->args.items[i].text);
	lk_argv_classify(&rec->args, &info);
	for (size_t k = 0; k < info.inputs.nr; k++) {
		struct darg *a = info.inputs.items[k].index < d->nr ? &d->args[info.inputs.items[k].index] : NULL;

		if (a && info.inputs.items[k].path) {
			a->file = rec->args.items[info.inputs.items[k].index].text;
			a->kept_sha = kept_sha_of(rec, info.inputs.items[k].path);
		}
	}
	if (info.output >= 0 && (size_t)info.output < d->nr)
		d->matched[info.output] = 2;
	lk_argv_info_release(&info);
}

static void dline_release(struct dline *d)
{
	for (size_t i = 0; i < d->nr; i++)
		free(d->args[i].key);
	free(d->args);
	free(d->matched);
	lk_norm_release(&d->norm);
}

/* The SHA-256 of an input: its kept copy's, else the file's now (relative to the record's cwd). */
static const char *content(const struct dline *d, struct darg *a)
{
	if (a->kept_sha)
		return a->kept_sha;
	if (!a->hashed) {
		struct lk_buf path = LK_BUF_INIT;
		struct lk_sha256 ctx;
		char buf[65536];
		ssize_t n;
		int fd;

		a->hashed = 1;
		if (a->file[0] != '/' && d->rec->cwd)
			lk_buf_addf(&path, "%s/", d->rec->cwd);
		lk_buf_addstr(&path, a->file);
		fd = lk_file_open_regular(path.buf, NULL);
		lk_buf_release(&path);
		if (fd < 0)
			return NULL;
		lk_sha256_init(&ctx);
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			lk_sha256_update(&ctx, buf, (size_t)n);
		close(fd);
		if (n == 0)
			lk_sha256_final_hex(&ctx, a->sha);
	}
	return a->sha[0] ? a->sha : NULL;
}

/* Same meaning: the same normalised text, or two input files with the same content. */
static int same(const struct dline *x, size_t i, const struct dline *y, size_t j, int *by_content)
{
	const char *cx, *cy;

	*by_content = 0;
	if (!strcmp(x->args[i].key, y->args[j].key))
		return 1;
	/* Content matches what names do not: an input named in both lines is not read to be hashed. */
	if (!x->args[i].file || !y->args[j].file || x->args[i].named_there || y->args[j].named_there)
		return 0;
	cx = content(x, &x->args[i]);
	cy = cx ? content(y, &y->args[j]) : NULL;
	*by_content = cx && cy && !strcmp(cx, cy);
	return *by_content;
}

static void align(struct dline *a, struct dline *b)
{
	size_t n = a->nr, m = b->nr;
	unsigned *t = lk_xcalloc((n + 1) * (m + 1), sizeof(*t));
	char *eq = lk_xcalloc((n + 1) * (m + 1), 1);
	int bc;

	for (size_t i = 1; i < n; i++)
		for (size_t j = 1; j < m; j++)
			if (!strcmp(a->args[i].key, b->args[j].key))
				a->args[i].named_there = b->args[j].named_there = 1;

	for (size_t i = n; i-- > 1;)
		for (size_t j = m; j-- > 1;) {
			eq[i * (m + 1) + j] = (char)same(a, i, b, j, &bc) ? (char)(1 + bc) : 0;
			t[i * (m + 1) + j] = eq[i * (m + 1) + j] ? t[(i + 1) * (m + 1) + j + 1] + 1 :
				t[(i + 1) * (m + 1) + j] > t[i * (m + 1) + j + 1] ?
				t[(i + 1) * (m + 1) + j] : t[i * (m + 1) + j + 1];
		}
	for (size_t i = 1, j = 1; i < n && j < m;) {
		if (eq[i * (m + 1) + j]) {
			if (eq[i * (m + 1) + j] == 2)
				a->by_content++;
			if (!a->matched[i])
				a->matched[i] = 1;
			if (!b->matched[j])
				b->matched[j] = 1;
			i++;
			j++;
		} else if (t[(i + 1) * (m + 1) + j] >= t[i * (m + 1) + j + 1]) {
			i++;
		} else {
			j++;
		}
	}
	free(eq);
	free(t);
}

/* The words the driver added to the linker's line (position -1, top level), normalised. */
static void driver_words(const struct dline *d, struct lk_strvec *out)
{
	for (size_t i = 0; i < d->line->items.nr; i++) {
		const struct lk_line_item *it = &d->line->items.items[i];

		if (it->position < 0 && it->parent < 0 && it->kind != LK_ITEM_OPTION)
			lk_strvec_push_owned(out, lk_norm_arg(&d->norm, it->path ? it->path : it->word));
	}
}

static int in_vec(const struct lk_strvec *v, const char *s)
{
	for (size_t i = 0; i < v->nr; i++)
		if (!strcmp(v->items[i], s))
			return 1;
	return 0;
}

static size_t print_driver_part(FILE *out, const struct dline *a, const struct dline *b)
{
	struct lk_strvec wa = LK_STRVEC_INIT, wb = LK_STRVEC_INIT;
	size_t shown = 0;

	driver_words(a, &wa);
	driver_words(b, &wb);
	for (size_t i = 0; i < wa.nr; i++)
		if (!in_vec(&wb, wa.items[i]))
			fprintf(out, "%s- A driver %s\n", shown++ ? "" : "\nthe driver's own additions (not in the argv):\n", wa.items[i]);
	for (size_t i = 0; i < wb.nr; i++)
		if (!in_vec(&wa, wb.items[i]))
			fprintf(out, "%s+ B driver %s\n", shown++ ? "" : "\nthe driver's own additions (not in the argv):\n", wb.items[i]);
	lk_strvec_release(&wa);
	lk_strvec_release(&wb);
	return shown;
}

/* ---- past the argv: what the inputs reference and define ---- */

/* An input by meaning: its normalised path, and the member. */
static char *input_key(const struct dline *d, const struct lk_replay *rp, long input)
{
	const struct lk_rinput *in = &rp->inputs.items[input];
	struct lk_buf b = LK_BUF_INIT;
	char *path = lk_norm_arg(&d->norm, lk_norm_original(d->rec, in->path));

	lk_buf_addf(&b, "%s(%s)", path, in->member ? in->member : "");
	free(path);
	return lk_buf_detach(&b);
}

static void site(const struct dline *d, const struct lk_replay *rp, long input, struct lk_buf *b)
{
	const struct lk_line *line = d->line;
	const struct lk_rinput *in = &rp->inputs.items[input];
	const struct lk_line_item *it = in->item >= 0 ? &line->items.items[in->item] : NULL;
	const char *name = lk_norm_base(lk_norm_original(d->rec, in->path));

	if (in->member)
		lk_buf_addf(b, "member %s of %s", in->member, name);
	else
		lk_buf_addstr(b, name);
	if (it && it->parent >= 0)
		lk_buf_addf(b, " (in %s's %s at %ld)", line->items.items[it->parent].word,
			    it->as_needed_script ? "AS_NEEDED" : it->script_group ? "GROUP" : "INPUT",
			    line->items.items[it->parent].position);
	else if (it && it->position >= 0)
		lk_buf_addf(b, " at %ld", it->position);
	else if (it)
		lk_buf_addstr(b, " (added by the driver)");
	else
		lk_buf_addstr(b, " (through DT_NEEDED)");
}

/* Does an input of `d` with key `key` reference `symbol`? */
static int references(const struct dline *d, const struct lk_replay *rp, const char *key, const char *symbol)
{
	struct lk_input_list refs = { NULL, 0, 0 };
	int hit = 0;

	lk_replay_refs(rp, symbol, &refs);
	for (size_t i = 0; i < refs.nr && !hit; i++) {
		char *k = input_key(d, rp, refs.items[i]);

		hit = !strcmp(k, key);
		free(k);
	}
	free(refs.items);
	return hit;
}

struct find_sym {
	const char *name;
	struct lk_symbol_view view;
	int found;
};

static void match_symbol(void *ctx, const struct lk_symbol_view *s)
{
	struct find_sym *f = ctx;

	if (!strcmp(s->name, f->name)) {
		f->view = *s;
		f->found = 1;
	}
}

/*
 * Why `symbol`, failing in F as diagnostic `d`, is fine in S. Prints one
 * sentence naming the deciding reference; returns 1 when it found one.
 */
static int deciding_reference(FILE *out, const char *fname, struct dline *f, const struct lk_replay *frp,
			      const struct lk_diag *d, const char *sname, struct dline *s,
			      const struct lk_replay *srp)
{
	struct find_sym fs = { d->symbol, { NULL, 0, 0, -1, -1 }, 0 };
	struct lk_buf b = LK_BUF_INIT;
	char *rkey = d->ref_input >= 0 ? input_key(f, frp, d->ref_input) : NULL;
	const struct lk_rinput *def;
	struct lk_strvec keepers = LK_STRVEC_INIT;
	struct lk_input_list early = { NULL, 0, 0 };
	const char *keeper = NULL;
	int found = 0;

	lk_replay_each_symbol(srp, match_symbol, &fs);
	if (rkey && !references(s, srp, rkey, d->symbol)) {
		/* (i) S's counterpart does not ask for the symbol at all. */
		site(f, frp, d->ref_input, &b);
		fprintf(out, "  %s's %s references %s; %s's does not%s, so %s never needs it\n", fname, b.buf,
			d->symbol, sname, fs.found ? "" : " (no input of it mentions the symbol)", sname);
		found = 1;
		goto out;
	}
	if (!fs.found || !fs.view.defined || fs.view.def_input < 0)
		goto out;
	def = &srp->inputs.items[fs.view.def_input];
	/* (ii) In S the definition was made available by an earlier reference. */
	if (def->dso)
		for (size_t i = 0; i < def->kept_for.nr; i++)
			lk_strvec_push(&keepers, def->kept_for.items[i]);
	else if (def->member && def->pulled_for)
		lk_strvec_push(&keepers, def->pulled_for);
	for (size_t i = 0; i < keepers.nr && !keeper; i++) {
		early.nr = 0;
		lk_replay_refs(srp, keepers.items[i], &early);
		if (early.nr && early.items[0] < fs.view.def_input)
			keeper = keepers.items[i];
	}
	if (keeper) {
		char *ekey = input_key(s, srp, early.items[0]);
		struct lk_buf esite = LK_BUF_INIT, dsite = LK_BUF_INIT, fsite = LK_BUF_INIT;
		struct lk_replay_edit edit = { -1, 0, &keepers, def->item, NULL, 0, 0, 0 };
		struct lk_replay cf;
		int f_has = references(f, frp, ekey, keeper);

		site(s, srp, early.items[0], &esite);
		site(s, srp, fs.view.def_input, &dsite);
		if (d->ref_input >= 0)
			site(f, frp, d->ref_input, &fsite);
		fprintf(out, "  %s's %s references %s before %s, which %s %s; %s's %s not, so in %s %s and %s fails with %s %s\n",
			sname, esite.buf, keeper, dsite.buf, def->dso ? "is kept (--as-needed) for it and defines" : "is pulled for it and defines",
			d->symbol, fname, f_has ? "inputs do too but" : "inputs do", fname,
			def->dso ? "that library is dropped" : "that member is not pulled",
			fsite.len ? fsite.buf : "the link", lk_diag_kind_name(d->kind), d->symbol);
		if (def->item >= 0) {
			lk_replay_edited(s->rec, s->line, &edit, &cf);
			fprintf(out, "    checked: %s without that reference %s (replayed)\n", sname,
				cf.success ? "still links: it is not the whole story" : "fails the same way");
			lk_replay_release(&cf);
		}
		free(ekey);
		lk_buf_release(&esite);
		lk_buf_release(&dsite);
		lk_buf_release(&fsite);
		found = 1;
	}
out:
	free(rkey);
	free(early.items);
	lk_strvec_release(&keepers);
	lk_buf_release(&b);
	return found;
}

static void past_the_argv(FILE *out, struct dline *a, struct dline *b, int ok_a,
			  const struct lk_replay *rpa, const struct lk_replay *rpb)
{
	struct lk_err err = LK_ERR_INIT;
	struct lk_replay ra, rb;
	struct dline *f = ok_a ? b : a, *s = ok_a ? a : b;
	const char *fname = ok_a ? "B" : "A", *sname = ok_a ? "A" : "B";
	size_t named = 0;

	if (!rpa)
		lk_replay_run(a->rec, a->line, 0, &ra, &err);
	if (!rpb)
		lk_replay_run(b->rec, b->line, 0, &rb, &err);
	if (!rpa)
		rpa = &ra;
	if (!rpb)
		rpb = &rb;
	const struct lk_replay *frp = ok_a ? rpb : rpa, *srp = ok_a ? rpa : rpb;
	fprintf(out, "\nwhat the inputs reference and define decides (%s fails, %s links):\n", fname, sname);
	for (size_t i = 0; i < frp->diags.nr; i++)
		named += deciding_reference(out, fname, f, frp, &frp->diags.items[i], sname, s, srp);
	if (!named)
		fprintf(out, "  no single reference explains it\n");
	if (rpa == &ra)
		lk_replay_release(&ra);
	if (rpb == &rb)
		lk_replay_release(&rb);
}

/* The crate a codegen unit belongs to: "lk_plain-d2b00e51bd656611" of ".../lk_plain-d2b00e51bd656611.x.y.rcgu.o". */
static size_t cgu_crate(const char *arg, const char **crate)
{
	const char *base = lk_norm_base(arg), *dot = strchr(base, '.');
	size_t n = strlen(arg);

	if (!dot || n < 7 || strcmp(arg + n - 7, ".rcgu.o"))
		return 0;
	*crate = base;
	return (size_t)(dot - base);
}

/*
 * The arguments of `d` with no partner, one a line; a run of codegen
 * units of one crate (a test binary has dozens) is one line.
 */
static size_t print_unmatched(FILE *out, const struct dline *d, char sign, char side, const struct lk_color *c)
{
	const char *on = lk_color(c, sign == '-' ? LK_C_RED : LK_C_GREEN), *off = lk_color(c, LK_C_RESET);
	const struct lk_record *rec = d->rec;
	size_t shown = 0;

	for (size_t i = 1; i < d->nr; i++) {
		const char *crate = NULL, *next = NULL;
		size_t len, j = i;

		if (d->matched[i])
			continue;
		shown++;
		len = cgu_crate(rec->args.items[i].text, &crate);
		while (len && j + 1 < d->nr && !d->matched[j + 1] &&
		       cgu_crate(rec->args.items[j + 1].text, &next) == len && !strncmp(next, crate, len))
			j++;
		if (j > i + 1) {
			fprintf(out, "%s%c %c %3zu..%zu  %-16s %zu codegen units of %.*s%s\n", on, sign, side, i, j,
				lk_prov_name(rec->prov[i]), j - i + 1, (int)len, crate, off);
			i = j;
			continue;
		}
		fprintf(out, "%s%c %c %3zu  %-16s %s%s\n", on, sign, side, i, lk_prov_name(rec->prov[i]),
			rec->args.items[i].text, off);
	}
	return shown;
}

void lk_diff_print(FILE *out, const struct lk_record *ra, struct lk_line *la,
		   const struct lk_record *rb, struct lk_line *lb, int color)
{
	lk_diff_print_replayed(out, ra, la, NULL, rb, lb, NULL, color);
}

void lk_diff_print_replayed(FILE *out, const struct lk_record *ra, struct lk_line *la, const struct lk_replay *rpa,
			    const struct lk_record *rb, struct lk_line *lb, const struct lk_replay *rpb, int color)
{
	struct lk_color c = { color };

	struct dline a, b;
	int ok_a = rpa ? rpa->success : lk_replay_outcome(ra, la, NULL, -1);
	int ok_b = rpb ? rpb->success : lk_replay_outcome(rb, lb, NULL, -1);
	size_t tried = 0, deciding = 0, shown = 0;

	dline_init(&a, ra, la);
	dline_init(&b, rb, lb);
	align(&a, &b);
	fprintf(out, "A %s\n  %s under GNU ld's rules (the real linker: %s)\n", ra->path,
		la->unknown.nr ? "outcome unknown" : ok_a ? "links" : "fails",
		ra->has_exit ? (ra->exit_status ? "failed" : "linked") : "not run");
	fprintf(out, "B %s\n  %s under GNU ld's rules (the real linker: %s)\n\n", rb->path,
		lb->unknown.nr ? "outcome unknown" : ok_b ? "links" : "fails",
		rb->has_exit ? (rb->exit_status ? "failed" : "linked") : "not run");
	lk_diff_linkers_text_replayed(out, ra, la, rpa, rb, lb, rpb);
	fprintf(out, "compared by meaning: paths relative to each record's cwd and build root, crate hashes,\n"
		"temporary names and the target's architecture normalised%s\n",
		a.by_content ? "; inputs with the same content matched whatever their names" : "");
	if (a.by_content)
		fprintf(out, "  %zu input%s matched by content\n", a.by_content, a.by_content == 1 ? "" : "s");
	{
		char *oa = ra->output ? lk_norm_arg(&a.norm, ra->output) : NULL;
		char *ob = rb->output ? lk_norm_arg(&b.norm, rb->output) : NULL;

		if (oa && ob && strcmp(oa, ob))
			fprintf(out, "  output: A %s, B %s\n", ra->output, rb->output);
		free(oa);
		free(ob);
	}
	if (strcmp(ra->args.items[0].text, rb->args.items[0].text))
		fprintf(out, "  driver: A %s, B %s\n", ra->args.items[0].text, rb->args.items[0].text);
	shown += print_unmatched(out, &a, '-', 'A', &c);
	shown += print_unmatched(out, &b, '+', 'B', &c);
	if (!shown)
		fprintf(out, "no difference in the arguments\n");
	print_driver_part(out, &a, &b);
	if (la->unknown.nr || lb->unknown.nr) {
		/* No verdict on a model that lacks what was not run (docs/security.md). */
		fprintf(out, "\nwhich difference decides the outcome is unknown:\n");
		for (size_t i = 0; i < la->unknown.nr; i++)
			fprintf(out, "  A: %s\n", la->unknown.items[i]);
		for (size_t i = 0; i < lb->unknown.nr; i++)
			fprintf(out, "  B: %s\n", lb->unknown.items[i]);
		goto out;
	}
	if (ok_a == ok_b) {
		fprintf(out, "\nboth %s: no difference changes the outcome\n", ok_a ? "link" : "fail");
		goto out;
	}
	if (shown)
		fprintf(out, "\nwhich difference turns A's outcome into B's (each tried alone on A):\n");
	for (size_t j = 1; j < b.nr && tried < DECIDING_MAX_TRIED; j++) {
		if (b.matched[j])
			continue;
		tried++;
		if (lk_replay_outcome(ra, la, rb->args.items[j].text, -1) == ok_b) {
			fprintf(out, "  adding %s (B %zu) makes A %s\n", rb->args.items[j].text, j, ok_b ? "link" : "fail");
			deciding++;
		}
	}
	for (size_t i = 1; i < a.nr && tried < DECIDING_MAX_TRIED; i++) {
		if (a.matched[i])
			continue;
		tried++;
		if (lk_replay_outcome(ra, la, NULL, (long)i) == ok_b) {
			fprintf(out, "  removing %s (A %zu) makes A %s\n", ra->args.items[i].text, i, ok_b ? "link" : "fail");
			deciding++;
		}
	}
	if (!deciding) {
		if (shown)
			fprintf(out, "  no single difference does\n");
		past_the_argv(out, &a, &b, ok_a, rpa, rpb);
	}
out:
	dline_release(&a);
	dline_release(&b);
}
