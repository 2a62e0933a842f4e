/*
 * `linkscope whatif`: the next link, predicted before it runs.
 *
 * Takes: the baseline's record (read-only) and its line, a second load of
 * that record to become the prediction's, and a source of the change
 * (source.h). Gives: the predicted link as a record of its own (the
 * source's argv, the driver's additions made again from the baseline's
 * -### expansion, no outcome, the baseline's kept copies for inputs that
 * are gone), run through the stages as `explain` runs a record; the
 * verdict per linker, what changed by meaning, and what the prediction
 * read from the baseline or cannot see. An input the build makes and has
 * not made yet is no failure: the verdict is then "cannot tell".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "linkscope/argv.h"
#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/json.h"
#include "linkscope/rustc.h"
#include "linkscope/vec.h"
#include "diff.h"
#include "driver_words.h"
#include "certainty.h"
#include "explain.h"
#include "fix.h"
#include "md.h"
#include "replay.h"
#include "report.h"
#include "resolve.h"
#include "source.h"
#include "srcline.h"
#include "summary.h"
#include "warn.h"
#include "whatif.h"

void lk_whatif_line_release(struct lk_whatif_line *l)
{
	lk_strvec_release(&l->argv);
	free(l->cwd);
	free(l->manifest_dir);
	free(l->read);
	lk_strvec_release(&l->said);
	lk_strvec_release(&l->cannot_see);
	lk_strvec_release(&l->unknown);
}

static int read_source(const struct lk_record *base, const struct lk_whatif_options *opt,
		       struct lk_whatif_line *wl, struct lk_err *err)
{
	if (!strcmp(opt->source, "cargo"))
		return lk_whatif_from_cargo(base, opt->source_path, opt->target, opt->profile, wl, err);
	if (!strcmp(opt->source, "cmake"))
		return lk_whatif_from_cmake(base, opt->source_path, opt->target, wl, err);
	if (!strcmp(opt->source, "make"))
		return lk_whatif_from_make(base, opt->source_path, opt->target, wl, err);
	return lk_whatif_from_argv_file(base, opt->source_path, wl, err);
}

/* ---- the prediction's record ---- */

static void set_args(struct lk_record *next, const struct lk_strvec *argv)
{
	lk_args_release(&next->args);
	memset(&next->args, 0, sizeof(next->args));
	LK_GROW(next->args.items, argv->nr, next->args.alloc);
	for (size_t i = 0; i < argv->nr; i++) {
		next->args.items[i].text = lk_xstrdup(argv->items[i]);
		next->args.items[i].argv_index = i;
		next->args.items[i].rsp = -1;
	}
	next->args.nr = argv->nr;
	lk_strvec_release(&next->rspfiles);
}

/* Who wrote each word: rustc's marks, with the source's run of link args as the caller's. */
static void set_provenance(struct lk_record *next, const struct lk_whatif_line *wl)
{
	struct lk_rustc_caller caller;
	struct lk_provenance prov;

	memset(&caller, 0, sizeof(caller));
	caller.is_rustc = next->caller_is_rustc && wl->link_args_start >= 0;
	for (long i = wl->link_args_start; caller.is_rustc && i < wl->link_args_end; i++)
		lk_strvec_push(&caller.link_args, wl->argv.items[i]);
	lk_rustc_provenance(&next->args, &caller, &prov);
	free(next->prov);
	next->prov = prov.items;
	prov.items = NULL;
	free(next->prov_method);
	next->prov_method = lk_xstrdup(prov.method);
	next->link_args_start = prov.link_args_start;
	next->link_args_end = prov.link_args_end;
	lk_strvec_release(&next->caller_link_args);
	next->caller_link_args = caller.link_args;
	caller.link_args = (struct lk_strvec)LK_STRVEC_INIT;
	lk_provenance_release(&prov);
	lk_rustc_caller_release(&caller);
}

static void set_output(struct lk_record *next)
{
	free(next->output);
	next->output = NULL;
	for (size_t i = 1; i < next->args.nr; i++) {
		const char *a = next->args.items[i].text;

		if (!strcmp(a, "-o") && i + 1 < next->args.nr)
			next->output = lk_xstrdup(next->args.items[i + 1].text);
		else if (!strncmp(a, "-o", 2) && a[2])
			next->output = lk_xstrdup(a + 2);
	}
}

/* The recorded variable `name` of `next` set to `value` (added when the baseline's record lacks it). */
static void set_env(struct lk_record *next, const char *name, const char *value)
{
	for (size_t i = 0; i < next->env.nr; i++)
		if (!strcmp(next->env.items[i].name, name)) {
			free(next->env.items[i].value);
			next->env.items[i].value = lk_xstrdup(value);
			return;
		}
	LK_GROW(next->env.items, next->env.nr + 1, next->env.alloc);
	next->env.items[next->env.nr].name = lk_xstrdup(name);
	next->env.items[next->env.nr++].value = lk_xstrdup(value);
}

/*
 * `next` (a load of the baseline's record) made the predicted link's: the
 * source's argv, no outcome, no fingerprints (what is on disk now is what
 * the link would read; the kept copies stand in only for what is gone),
 * and the driver's additions made again from the baseline's expansion.
 */
static void make_record(const struct lk_record *base, const struct lk_whatif_line *wl, struct lk_record *next,
			int run_driver, struct lk_strvec *unknown)
{
	struct lk_strvec linker = LK_STRVEC_INIT;
	struct lk_buf why = LK_BUF_INIT, path = LK_BUF_INIT;

	set_args(next, &wl->argv);
	set_provenance(next, wl);
	set_output(next);
	if (wl->cwd) {
		free(next->cwd);
		next->cwd = lk_xstrdup(wl->cwd);
	}
	/* The fixes' "where" reads the package's build.rs and its output in this tree, not in the baseline's. */
	if (wl->manifest_dir)
		set_env(next, "CARGO_MANIFEST_DIR", wl->manifest_dir);
	if (!strcmp(wl->source, "cargo") && wl->read && lk_str_ends_with(wl->read, "/output")) {
		lk_buf_add(&path, wl->read, strlen(wl->read) - strlen("output"));
		lk_buf_addstr(&path, "out");
		set_env(next, "OUT_DIR", path.buf);
		lk_buf_reset(&path);
	}
	next->has_exit = 0;
	next->exit_status = 0;
	next->signal = 0;
	free(next->stderr_text);
	next->stderr_text = NULL;
	for (size_t i = 0; i < next->seen.nr; i++)
		free(next->seen.items[i].path);
	next->seen.nr = 0;
	if (lk_driver_expand_again(base, &next->args, &linker, &why) < 0) {
		/* --run-driver: the line model runs this machine's driver -### instead (trust.c's limits) */
		lk_buf_addf(&path, "the driver's additions to the new line are not known: %s", why.buf);
		if (!run_driver)
			lk_strvec_push(unknown, path.buf);
		lk_strvec_release(&linker);
		linker = (struct lk_strvec)LK_STRVEC_INIT;
		next->has_expansion = 0;
	}
	lk_strvec_release(&next->linker_argv);
	next->linker_argv = linker;
	lk_buf_reset(&path);
	lk_buf_addf(&path, "the next link (%s: %s)", wl->source, wl->read ? wl->read : "?");
	free(next->path);
	next->path = lk_buf_detach(&path);
	lk_buf_release(&why);
}

/*
 * The sources the new line compiles itself are read as the objects the
 * baseline's call made of them (kept by the shim): one changed since the
 * baseline is not seen, and said so, naming it.
 */
static void compiled_sources(const struct lk_record *base, const struct lk_record *next, struct lk_strvec *cannot_see)
{
	struct lk_argv_info info;
	struct lk_buf path = LK_BUF_INIT, why = LK_BUF_INIT;

	lk_argv_classify(&next->args, &info);
	for (size_t i = 0; i < info.inputs.nr; i++) {
		const struct lk_argv_input *in = &info.inputs.items[i];
		struct stat st;

		if (!lk_argv_compiles(in))
			continue;
		lk_buf_reset(&path);
		if (in->path[0] != '/' && next->cwd)
			lk_buf_addf(&path, "%s/", next->cwd);
		lk_buf_addstr(&path, in->path);
		if (stat(path.buf, &st) < 0 || (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec <= base->start_ns)
			continue;
		lk_buf_reset(&why);
		lk_buf_addf(&why, "'%s' changed since the baseline: the link call compiles it, and the prediction reads the object the baseline's call made of it",
			    in->path);
		lk_strvec_push(cannot_see, why.buf);
	}
	lk_argv_info_release(&info);
	lk_buf_release(&path);
	lk_buf_release(&why);
}

/* ---- inputs the build has not made yet ---- */

static int is_system_path(const char *p)
{
	static const char *const roots[] = { "/usr/", "/lib/", "/lib64/", "/lib32/", "/opt/", "/etc/" };

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++)
		if (lk_str_starts_with(p, roots[i]))
			return 1;
	return 0;
}

/* The baseline's item of the same linker word, found, or NULL. */
static const struct lk_line_item *baseline_item(const struct lk_line *base_line, const char *word)
{
	for (size_t i = 0; i < base_line->items.nr; i++) {
		const struct lk_line_item *it = &base_line->items.items[i];

		if (it->parent < 0 && it->word && !strcmp(it->word, word) && it->info.kind != LK_FILE_MISSING)
			return it;
	}
	return NULL;
}

/*
 * A file the line names that is not there, and not in a system dir: the
 * build makes it (an object not compiled yet, a library target not
 * archived yet). The link cannot be told without it; a -l the baseline
 * found in such a dir likewise.
 */
static void not_built_yet(const struct lk_line *line, const struct lk_line *base_line, struct lk_strvec *why)
{
	struct lk_buf b = LK_BUF_INIT;

	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i], *was;

		if (it->parent >= 0 || it->info.kind != LK_FILE_MISSING)
			continue;
		lk_buf_reset(&b);
		if (it->kind == LK_ITEM_FILE && it->path && !is_system_path(it->path))
			lk_buf_addf(&b, "'%s' is not there: the build makes it and has not yet, and the baseline kept no copy of it",
				    it->path);
		else if (it->kind == LK_ITEM_LIB && (was = baseline_item(base_line, it->word)) && was->path &&
			 !is_system_path(was->path))
			lk_buf_addf(&b, "%s is not found: the baseline found it at '%s', which the build makes and has not yet",
				    it->word, was->path);
		if (b.len)
			lk_strvec_push(why, b.buf);
	}
	lk_buf_release(&b);
}

/* The inputs read from the baseline's kept copies, or made by its build (rustc's objects and rlibs). */
static void baseline_inputs(const struct lk_record *next, const struct lk_line *line, struct lk_strvec *out)
{
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];
		int kept = it->note && strstr(it->note, "kept with the record");
		int rustc = it->position >= 0 && (size_t)it->position < next->args.nr && next->prov &&
			    (next->prov[it->position] == LK_PROV_RUSTC_OBJECT ||
			     (next->prov[it->position] == LK_PROV_RUSTC_RLIB && it->path && !is_system_path(it->path) &&
			      !strstr(it->path, "/rustlib/")));

		if (it->parent < 0 && (kept || rustc))
			lk_strvec_push(out, it->word);
	}
}

/* ---- the verdict ---- */

struct verdict {
	enum lk_whatif_status status;
	enum lk_linker own;
	int success[LK_LINKER_COUNT], known[LK_LINKER_COUNT];
	struct lk_strvec cannot_tell;	/* the reasons of a "cannot tell" */
	struct lk_strvec from_baseline;
};

/*
 * `base_disagrees`: why the baseline's own replay disagrees with its real
 * link, reading the inputs that link read, or NULL. The model misreads that
 * line, so it cannot predict the next one under the same linker's rules:
 * that linker's verdict is unknown.
 */
static void decide(const struct lk_record *next, const struct lk_line *line, const struct lk_replay *rp,
		   const char *base_disagrees, unsigned required, struct verdict *v)
{
	int line_unknown = line->unknown.nr || rp->unknown || (rp->success && rp->unmodelled);

	v->own = lk_linker_of_flavor(next->linker_flavor);
	for (int l = 0; l < LK_LINKER_COUNT; l++) {
		v->success[l] = l == LK_LINKER_BFD ? rp->success : rp->linkers[l].success;
		v->known[l] = !line_unknown && (l == LK_LINKER_BFD || !rp->linkers[l].unknown);
	}
	for (size_t i = 0; i < line->unknown.nr; i++)
		lk_strvec_push(&v->cannot_tell, line->unknown.items[i]);
	if (rp->unknown)
		lk_strvec_push(&v->cannot_tell, rp->unknown);
	if (rp->success && rp->unmodelled)
		lk_strvec_push(&v->cannot_tell, rp->unmodelled);
	if (!v->known[v->own] && rp->linkers[v->own].unknown)
		lk_strvec_push(&v->cannot_tell, rp->linkers[v->own].unknown);
	if (base_disagrees) {
		struct lk_buf why = LK_BUF_INIT;

		lk_buf_addf(&why, "the baseline: %s", base_disagrees);
		v->known[v->own] = 0;
		lk_strvec_push_owned(&v->cannot_tell, lk_buf_detach(&why));
	}
	required |= 1u << v->own;
	v->status = LK_WHATIF_LINKS;
	for (int l = 0; l < LK_LINKER_COUNT; l++) {
		if (!(required & (1u << l)))
			continue;
		if (v->known[l] && !v->success[l]) {
			v->status = LK_WHATIF_FAILS;
			break;
		}
		if (!v->known[l])
			v->status = LK_WHATIF_CANNOT_TELL;
	}
	if (v->cannot_tell.nr && v->status == LK_WHATIF_LINKS)
		v->status = LK_WHATIF_CANNOT_TELL;
}

static const char *status_word(enum lk_whatif_status s)
{
	return s == LK_WHATIF_LINKS ? "success" : s == LK_WHATIF_FAILS ? "failure" : "unknown";
}

static const char *linker_word(const struct verdict *v, int l)
{
	return !v->known[l] ? "unknown" : v->success[l] ? "success" : "failure";
}

static const char *baseline_outcome(const struct lk_record *base)
{
	if (!base->has_exit)
		return base->signal ? "killed" : "unknown";
	return base->exit_status == 0 ? "success" : "failure";
}

/* ---- the outputs ---- */

struct run {
	const struct lk_record *base;
	struct lk_line *base_line;
	const struct lk_replay *base_rp;	/* the baseline's replay, or NULL */
	const struct lk_record *next;
	struct lk_line *line;
	const struct lk_replay *rp;
	const struct lk_fixes *fx;
	const struct lk_whatif_line *wl;
	const struct lk_whatif_options *opt;
	struct verdict *v;
};

static void print_list(FILE *out, const char *title, const struct lk_strvec *v, int md)
{
	if (!v->nr)
		return;
	fprintf(out, md ? "\n**%s**\n\n" : "%s\n", title);
	for (size_t i = 0; i < v->nr; i++) {
		fputs(md ? "- " : "  - ", out);
		if (md)
			lk_report_md_cell(out, v->items[i]);
		else
			fputs(v->items[i], out);
		fputc('\n', out);
	}
}

static void print_head(FILE *out, const struct run *r, int md)
{
	static const char *const says[] = { "links", "fails", "", "cannot tell" };
	const struct verdict *v = r->v;

	const char *name = r->next->output ? lk_path_base(r->next->output) : "?";
	const char *read = r->wl->read ? r->wl->read : "?";

	if (!md) {
		fprintf(out, "whatif: the next link of %s %s\n", name, says[v->status]);
		fprintf(out, "  source: %s %s\n", r->wl->source, read);
		fprintf(out, "  baseline: %s (%s)\n", r->opt->baseline, baseline_outcome(r->base));
	} else {
		/* Every name from the record or the build in a code span (md.h). */
		fputs("## linkscope whatif: the next link of ", out);
		lk_md_code(out, name, 0);
		fprintf(out, " %s\n\n- source: %s ", says[v->status], r->wl->source);
		lk_md_code(out, read, 0);
		fputs("\n- baseline: ", out);
		lk_md_code(out, r->opt->baseline, 0);
		fprintf(out, " (%s)\n", baseline_outcome(r->base));
	}
	fprintf(out, md ? "- predicted: GNU ld %s, lld %s, mold %s; the line's own linker is %s\n"
			: "  predicted: GNU ld %s, lld %s, mold %s; the line's own linker is %s\n",
		linker_word(v, LK_LINKER_BFD), linker_word(v, LK_LINKER_LLD), linker_word(v, LK_LINKER_MOLD),
		lk_linker_name(v->own));
	print_list(out, "cannot tell, because:", &v->cannot_tell, md);
}

/* The baseline's inputs, folded past a few: a Rust line has a codegen unit per module (JSON lists them all). */
static void print_from_baseline(FILE *out, const struct lk_strvec *v, int md)
{
	struct lk_strvec head = LK_STRVEC_INIT;
	struct lk_buf more = LK_BUF_INIT;

	for (size_t i = 0; i < v->nr && i < 3; i++)
		lk_strvec_push(&head, v->items[i]);
	if (v->nr > 3) {
		lk_buf_addf(&more, "and %zu more (--format json lists them)", v->nr - 3);
		lk_strvec_push(&head, more.buf);
	}
	print_list(out, "read from the baseline (not made again by this job):", &head, md);
	lk_strvec_release(&head);
	lk_buf_release(&more);
}

static void print_tail(FILE *out, const struct run *r, int md)
{
	print_from_baseline(out, &r->v->from_baseline, md);
	print_list(out, "said:", &r->wl->said, md);
	print_list(out, "what this prediction cannot see:", &r->wl->cannot_see, md);
}

static void print_text(FILE *out, const struct run *r)
{
	struct lk_report_options ropt = { 1, r->opt->color };

	print_head(out, r, 0);
	fprintf(out, "\nwhat changed against the baseline, by meaning:\n");
	lk_diff_print_replayed(out, r->base, r->base_line, r->base_rp, r->next, r->line, r->rp, r->opt->color);
	if (r->v->status != LK_WHATIF_CANNOT_TELL) {
		fputc('\n', out);
		lk_report_text(out, r->next, r->line, r->rp, r->fx, &ropt);
	}
	fputc('\n', out);
	print_tail(out, r, 0);
}

static void print_markdown(FILE *out, const struct run *r)
{
	struct lk_report_options ropt = { 1, 0 };

	print_head(out, r, 1);
	if (r->v->status != LK_WHATIF_CANNOT_TELL) {
		fputc('\n', out);
		lk_report_md(out, r->next, r->line, r->rp, r->fx, &ropt);
	}
	print_tail(out, r, 1);
}

/* What a printer of another stage wrote to a FILE, read back as JSON. */
static json_t *captured_json(int (*print)(FILE *, const struct run *), const struct run *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	json_t *j = NULL;

	if (mem && print(mem, r) == 0 && fclose(mem) == 0)
		j = json_loadb(text, len, 0, NULL);
	else if (mem)
		fclose(mem);
	free(text);
	return j ? j : json_null();
}

static int print_report_json(FILE *out, const struct run *r)
{
	struct lk_report_options ropt = { 1, 0 };

	return lk_report_json(out, r->next, r->line, r->rp, r->fx, &ropt) < 0 ? -1 : 0;
}

static int print_diff_json(FILE *out, const struct run *r)
{
	return lk_diff_json_replayed(out, r->base, r->base_line, r->base_rp, r->next, r->line, r->rp);
}

static json_t *strings(const struct lk_strvec *v)
{
	json_t *a = json_array();

	for (size_t i = 0; i < v->nr; i++)
		json_array_append_new(a, lk_json_str(v->items[i]));
	return a;
}

static int print_json(FILE *out, const struct run *r)
{
	json_t *root = json_object(), *pred = json_object(), *linkers = json_object();
	const struct verdict *v = r->v;
	int rc;

	json_object_set_new(root, "schema", json_string("linkscope-whatif/1"));
	json_object_set_new(root, "baseline", json_pack("{s:o,s:o,s:s}", "record", lk_json_str(r->opt->baseline),
							 "output", lk_json_str(r->base->output),
							 "outcome", baseline_outcome(r->base)));
	json_object_set_new(root, "change", json_pack("{s:s,s:o,s:o}", "source", r->wl->source,
						       "read", lk_json_str(r->wl->read),
						       "argv", strings(&r->wl->argv)));
	for (int l = 0; l < LK_LINKER_COUNT; l++)
		json_object_set_new(linkers, lk_linker_name(l), json_string(linker_word(v, l)));
	json_object_set_new(pred, "outcome", json_string(status_word(v->status)));
	json_object_set_new(pred, "exit_status", json_integer(v->status));
	json_object_set_new(pred, "linker", json_string(lk_linker_name(v->own)));
	json_object_set_new(pred, "linkers", linkers);
	json_object_set_new(pred, "cannot_tell_because", strings(&v->cannot_tell));
	json_object_set_new(root, "predicted", pred);
	json_object_set_new(root, "from_baseline", strings(&v->from_baseline));
	json_object_set_new(root, "said", strings(&r->wl->said));
	json_object_set_new(root, "cannot_see", strings(&r->wl->cannot_see));
	json_object_set_new(root, "diff", captured_json(print_diff_json, r));
	json_object_set_new(root, "report", captured_json(print_report_json, r));
	rc = json_dumpf(root, out, JSON_INDENT(1) | JSON_SORT_KEYS);
	fputc('\n', out);
	json_decref(root);
	return rc;
}

/* GitHub annotations: report --failed's, of this one link, when it would fail; else one line. */
static void print_github(FILE *out, const struct run *r)
{
	const char *name = r->next->output ? lk_path_base(r->next->output) : "the target";
	struct lk_buf said = LK_BUF_INIT;

	if (r->v->status == LK_WHATIF_FAILS) {
		struct lk_summary_options sopt = { "github", NULL, NULL, r->opt->line, 1, 0, 0, r->opt->root };
		struct lk_summary_parts parts = { NULL, 0, 0 };

		lk_summary_analyse(r->next, &r->opt->line, 0, &parts);
		lk_summary_print(out, r->next, &parts, 1, &sopt);
		lk_summary_parts_release(&parts);
		return;
	}
	lk_gh_escape(&said, name, 0);
	if (r->v->status == LK_WHATIF_LINKS) {
		fprintf(out, "::notice title=linkscope whatif::the link of %s is predicted to succeed\n", said.buf);
	} else {
		lk_buf_addstr(&said, " links cannot be told: ");
		lk_gh_escape(&said, r->v->cannot_tell.nr ? r->v->cannot_tell.items[0] : "see the report", 0);
		fprintf(out, "::warning title=linkscope whatif::whether %s\n", said.buf);
	}
	lk_buf_release(&said);
}

/* ---- the command ---- */

static void release_verdict(struct verdict *v)
{
	lk_strvec_release(&v->cannot_tell);
	lk_strvec_release(&v->from_baseline);
}

int lk_whatif(const struct lk_record *base, struct lk_line *base_line, struct lk_record *next,
	      const struct lk_whatif_options *opt)
{
	struct lk_whatif_line wl = LK_WHATIF_LINE_INIT;
	struct lk_err err = LK_ERR_INIT;
	struct verdict v;
	struct lk_line line;
	struct lk_replay rp, brp;
	char *base_disagrees = NULL;
	int misread = 0;
	struct lk_fixes fx = { NULL, 0, NULL };
	struct lk_strvec unknown = LK_STRVEC_INIT;
	struct run r = { base, base_line, NULL, next, &line, &rp, &fx, &wl, opt, &v };
	int status;

	memset(&v, 0, sizeof(v));
	if (read_source(base, opt, &wl, &err) < 0) {
		fprintf(stderr, "linkscope: %s\n", err.msg);
		lk_whatif_line_release(&wl);
		return LK_WHATIF_USAGE;
	}
	make_record(base, &wl, next, opt->line.run_driver, &unknown);
	compiled_sources(base, next, &wl.cannot_see);
	if (lk_line_build(next, &opt->line, &line, &err) < 0) {
		fprintf(stderr, "linkscope: %s\n", err.msg);
		lk_whatif_line_release(&wl);
		lk_strvec_release(&unknown);
		return LK_WHATIF_CANNOT_TELL;
	}
	lk_resolve_line(next, &line);
	lk_warn_line(next, &line);
	for (size_t i = 0; i < wl.unknown.nr; i++)
		lk_strvec_push(&line.unknown, wl.unknown.items[i]);
	for (size_t i = 0; i < unknown.nr; i++)
		lk_strvec_push(&line.unknown, unknown.items[i]);
	not_built_yet(&line, base_line, &line.unknown);
	if (lk_replay_run(next, &line, LK_REPLAY_SNAPSHOT, &rp, &err) < 0) {
		fprintf(stderr, "linkscope: %s\n", err.msg);
		status = LK_WHATIF_CANNOT_TELL;
		goto out_line;
	}
	lk_explain_diags(&rp, &line);
	lk_explain_causes(next, &line, &rp);
	lk_srcline_fill(&rp);
	lk_fix_all(next, &line, &rp, &fx);
	/* The baseline replayed once, for the verdict and the comparison (report/diff.c would replay it for each of its parts). */
	if (lk_replay_run(base, base_line, 0, &brp, &err) == 0) {
		r.base_rp = &brp;
		base_disagrees = lk_certainty_disagreement(base, base_line, &brp, &misread);
		/* Inputs rebuilt since the baseline's link say nothing of the model: this job's line is read as it is now. */
		if (!misread) {
			free(base_disagrees);
			base_disagrees = NULL;
		}
	}
	decide(next, &line, &rp, base_disagrees, opt->linkers, &v);
	free(base_disagrees);
	baseline_inputs(next, &line, &v.from_baseline);
	if (!strcmp(opt->format, "json"))
		print_json(stdout, &r);
	else if (!strcmp(opt->format, "markdown"))
		print_markdown(stdout, &r);
	else if (!strcmp(opt->format, "github"))
		print_github(stdout, &r);
	else
		print_text(stdout, &r);
	status = v.status;
	if (r.base_rp)
		lk_replay_release(&brp);
	lk_fixes_release(&fx);
	lk_explain_release(&rp);
	lk_replay_release(&rp);
	release_verdict(&v);
out_line:
	lk_line_release(&line);
	lk_whatif_line_release(&wl);
	lk_strvec_release(&unknown);
	return status;
}
