/*
 * linkscope: the analyzer's command line.
 *
 * Stage: records -> answers. `list` reads the records; `show` builds the
 * line model (line.c, resolve.c, warn.c) and prints it (show.c);
 * `explain`, `why` and `report` replay it (replay.c) and report
 * (report.c); `diff`, `check`, `report --failed`, `prune` and `index` are
 * in their own files. The command line is parsed by cli.c, from its
 * table of commands and options; main() runs what it parsed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <errno.h>
#include <malloc.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/err.h"
#include "linkscope/file.h"
#include "linkscope/record.h"
#include "line.h"
#include "linkscope/vec.h"
#include "replay.h"
#include "report.h"
#include "diff.h"
#include "explain.h"
#include "fix.h"
#include "srcline.h"
#include "indexcmd.h"
#include "resolve.h"
#include "warn.h"
#include "show.h"
#include "summary.h"
#include "failcache.h"
#include "recdir.h"
#include "probe.h"
#include "check.h"
#include "certainty.h"
#include "fragility.h"
#include "linkscope/private.h"
#include "linkscope/prune.h"
#include "linkscope/jsonw.h"
#include "linkscope/suggest.h"
#include "cli.h"
#include "color.h"
#include "symtab.h"
#include "bundle.h"
#include "records.h"
#include "provider.h"
#include "linkscope/runcmd.h"
#include "whatif.h"
#include "fingerprint.h"
#include "linkscope/runcmd.h"

static int cmd_list(const struct lk_options *opt);
static int cmd_show(const struct lk_options *opt);
static int cmd_replay(const struct lk_options *opt);
static int cmd_report(const struct lk_options *opt);
static int cmd_diff(const struct lk_options *opt);
static int cmd_prune(const struct lk_options *opt);
static int cmd_check(const struct lk_options *opt);
static int cmd_bundle(const struct lk_options *opt);
static int cmd_whatif(const struct lk_options *opt);

/* What runs each command cli.c parsed (index parses its own options; help is cli.c's). */
static int (*const runs[LK_CMD_NR])(const struct lk_options *opt) = {
	[LK_CMD_LIST] = cmd_list, [LK_CMD_SHOW] = cmd_show, [LK_CMD_EXPLAIN] = cmd_replay,
	[LK_CMD_REPORT] = cmd_report, [LK_CMD_WHY] = cmd_replay, [LK_CMD_DIFF] = cmd_diff,
	[LK_CMD_PRUNE] = cmd_prune, [LK_CMD_CHECK] = cmd_check, [LK_CMD_BUNDLE] = cmd_bundle,
	[LK_CMD_WHATIF] = cmd_whatif,
};

/* The default of --jobs: one analysis per CPU online. */
static unsigned cpus_online(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > LK_CLI_JOBS_MAX ? LK_CLI_JOBS_MAX : (unsigned)n;
}

static void outcome(const struct lk_index_entry *e, char *buf, size_t size)
{
	if (e->signal)
		snprintf(buf, size, "signal:%d", e->signal);
	else if (!e->has_exit)
		snprintf(buf, size, "not-run");
	else if (e->exit_status == 0)
		snprintf(buf, size, "ok");
	else
		snprintf(buf, size, "exit:%d", e->exit_status);
}

/* list --format json: the "linkscope-list/1" object of docs/report-format.md. */
static void list_json(FILE *out, const struct lk_recdir *rd)
{
	struct lk_jsonw w = LK_JSONW_INIT;

	lk_jsonw_object(&w);
	lk_jsonw_key(&w, "schema");
	lk_jsonw_str(&w, "linkscope-list/1");
	lk_jsonw_key(&w, "dir");
	lk_jsonw_str(&w, rd->dir);
	lk_jsonw_key(&w, "records");
	lk_jsonw_array(&w);
	for (size_t i = 0; i < rd->entries.nr; i++) {
		const struct lk_index_entry *e = &rd->entries.items[i];
		char result[32], *path = lk_recdir_path(rd, e);

		outcome(e, result, sizeof(result));
		lk_jsonw_object(&w);
		lk_jsonw_key(&w, "id");
		lk_jsonw_str(&w, e->name);
		lk_jsonw_key(&w, "path");
		lk_jsonw_str(&w, path);
		lk_jsonw_key(&w, "start");
		lk_jsonw_str(&w, e->start);
		lk_jsonw_key(&w, "outcome");
		lk_jsonw_str(&w, result);
		lk_jsonw_key(&w, "failed");
		lk_jsonw_bool(&w, lk_recdir_failed(e));
		lk_jsonw_key(&w, "caller");
		lk_jsonw_str(&w, e->caller);
		lk_jsonw_key(&w, "driver");
		lk_jsonw_str(&w, e->driver);
		lk_jsonw_key(&w, "output");
		lk_jsonw_str(&w, e->output);
		lk_jsonw_end(&w);
		free(path);
	}
	lk_jsonw_end(&w);
	lk_jsonw_end(&w);
	fprintf(out, "%s\n", w.out.buf);
	lk_buf_release(&w.out);
}

/* list: every record, newest first, from the directory's index (recdir.c); a failed link's outcome in red. */
static int cmd_list(const struct lk_options *opt)
{
	struct lk_recdir rd;
	struct lk_color c;
	int bad = 0;

	if (lk_recdir_read(opt->dir, &rd, &bad) < 0)
		return 1;
	lk_color_init(&c, stdout);
	if (!strcmp(opt->format, "json"))
		list_json(stdout, &rd);
	for (size_t i = 0; strcmp(opt->format, "json") && i < rd.entries.nr; i++) {
		const struct lk_index_entry *e = &rd.entries.items[i];
		char result[32];

		outcome(e, result, sizeof(result));
		printf("%-27s  %s%-9s%s  %-6s  %-12s  %s  %s/%s.json\n", e->start ? e->start : "?",
		       lk_color(&c, lk_recdir_failed(e) ? LK_C_RED : LK_C_GREEN), result, lk_color(&c, LK_C_RESET),
		       e->caller ? e->caller : "-", e->driver, e->output ? e->output : "a.out", rd.dir, e->name);
	}
	lk_recdir_release(&rd);
	return bad ? 1 : 0;
}

static int cmd_diff(const struct lk_options *opt)
{
	struct lk_record a, b;
	struct lk_line la, lb;
	int rc = 0;

	if (lk_records_load_line_of(opt, opt->record, &a, &la))
		return 1;
	if (lk_records_load_line_of(opt, opt->record_b, &b, &lb)) {
		lk_line_release(&la);
		lk_record_release(&a);
		return 1;
	}
	if (!strcmp(opt->format, "json"))
		rc = lk_diff_json(stdout, &a, &la, &b, &lb);
	else
		lk_diff_print(stdout, &a, &la, &b, &lb, lk_color_wanted(stdout));
	lk_line_release(&lb);
	lk_record_release(&b);
	lk_line_release(&la);
	lk_record_release(&a);
	if (rc)
		fprintf(stderr, "linkscope: cannot write the diff: %s\n", strerror(errno));
	return rc ? 1 : 0;
}

static int cmd_show(const struct lk_options *opt)
{
	struct lk_show_options sopt = { 0, opt->full };
	struct lk_record rec;
	struct lk_line line;
	int rc = 0;

	if (lk_records_load_line(opt, &rec, &line))
		return 1;
	sopt.color = lk_color_wanted(stdout);
	if (!strcmp(opt->format, "json"))
		rc = lk_show_json(stdout, &rec, &line) < 0;
	else
		lk_show_text(stdout, &rec, &line, &sopt);
	lk_line_release(&line);
	lk_record_release(&rec);
	return rc;
}

/*
 * RECORD.json -> RECORD.report.json and RECORD.report.md beside it. Each is
 * written to a new temporary file (mkstemp: O_EXCL, 0600) and renamed over
 * the name, so a symlink planted there is replaced, never followed.
 */
static void write_reports(const struct lk_record *rec, const struct lk_line *line,
			  const struct lk_replay *rp, const struct lk_fixes *fx, const struct lk_report_options *ropt)
{
	static const char *const exts[] = { ".report.json", ".report.md" };
	size_t len = strlen(rec->path);
	struct lk_buf path = LK_BUF_INIT, tmp = LK_BUF_INIT;

	if (len > 5 && !strcmp(rec->path + len - 5, ".json"))
		len -= 5;
	for (int i = 0; i < 2; i++) {
		struct lk_err err = LK_ERR_INIT;
		FILE *fp = NULL;
		int fd, bad;

		lk_buf_reset(&path);
		lk_buf_add(&path, rec->path, len);
		lk_buf_addstr(&path, exts[i]);
		lk_buf_reset(&tmp);
		lk_buf_addf(&tmp, "%s.XXXXXX", path.buf);
		if ((fd = mkstemp(tmp.buf)) < 0 || !(fp = fdopen(fd, "w"))) {
			lk_err_errno(&err, "cannot write '%s'", path.buf);
			fprintf(stderr, "linkscope: %s\n", err.msg);
			if (fd >= 0) {
				close(fd);
				unlink(tmp.buf);
			}
			continue;
		}
		if (i == 0)
			lk_report_json(fp, rec, line, rp, fx, ropt);
		else
			lk_report_md(fp, rec, line, rp, fx, ropt);
		bad = ferror(fp);
		bad |= fclose(fp) != 0;
		if (bad || rename(tmp.buf, path.buf) < 0) {
			lk_err_errno(&err, "cannot write '%s'", path.buf);
			fprintf(stderr, "linkscope: %s\n", err.msg);
			unlink(tmp.buf);
		}
	}
	lk_buf_release(&path);
	lk_buf_release(&tmp);
}

/* why SYMBOL, for a symbol no input mentions: the nearest one that some input does, if one is near. */
static void suggest_symbol(const struct lk_replay *rp, const char *symbol)
{
	struct lk_suggest sg;
	const struct lk_sym *s;
	size_t cursor = 0;
	struct lk_color c;

	lk_color_init(&c, stdout);
	lk_suggest_init(&sg, symbol);
	while ((s = lk_symtab_next(rp->symtab, &cursor)))
		lk_suggest_add(&sg, s->name);
	if (lk_suggest_best(&sg))
		printf("%sdid you mean %s?%s\n", lk_color(&c, LK_C_YELLOW), lk_suggest_best(&sg), lk_color(&c, LK_C_RESET));
}

/* explain, report and why: the replay of the record's line. */
static int print_replay(const struct lk_options *opt, const struct lk_record *rec,
			struct lk_line *line, const struct lk_replay *rp, const struct lk_fixes *fx)
{
	struct lk_report_options ropt = { opt->replay_only, lk_color_wanted(stdout) };
	struct lk_strvec lines = LK_STRVEC_INIT;

	struct lk_facts facts;

	if (!strcmp(opt->command, "why")) {
		lk_explain_why(rp, line, opt->symbol, &lines);
		for (size_t i = 0; i < lines.nr; i++)
			printf("%s\n", lines.items[i]);
		lk_strvec_release(&lines);
		if (!lk_symtab_lookup(rp->symtab, opt->symbol))
			suggest_symbol(rp, opt->symbol);
		/* What the success rests on, for this symbol: only a success rests on anything. */
		if (rp->success) {
			lk_fragility_find(rec, line, rp, &facts);
			lk_fragility_print(stdout, &facts, opt->symbol);
			lk_facts_release(&facts);
		}
		return 0;
	}
	if (!strcmp(opt->format, "text")) {
		lk_report_text(stdout, rec, line, rp, fx, &ropt);
		if (rp->success) {
			/* The facts a success rests on: none under a failure (issue #18, point 5). */
			lk_fragility_find(rec, line, rp, &facts);
			lk_fragility_print(stdout, &facts, NULL);
			lk_facts_release(&facts);
		}
	} else if (!strcmp(opt->format, "json")) {
		if (lk_report_json(stdout, rec, line, rp, fx, &ropt) < 0)
			return 1;
	} else {
		lk_report_md(stdout, rec, line, rp, fx, &ropt);
	}
	/* explain --write-reports: whatever it printed, the two reports beside the record. */
	if (opt->write_reports)
		write_reports(rec, line, rp, fx, &ropt);
	return 0;
}

static int cmd_replay(const struct lk_options *opt)
{
	struct lk_err err = LK_ERR_INIT;
	struct lk_record rec;
	struct lk_line line;
	struct lk_replay rp;
	struct lk_fixes fx = { NULL, 0, NULL };
	int rc, fixes = strcmp(opt->command, "why") != 0;

	if (lk_records_load_line(opt, &rec, &line))
		return 1;
	if (lk_replay_run(&rec, &line, fixes ? LK_REPLAY_SNAPSHOT : 0, &rp, &err) < 0) {
		fprintf(stderr, "linkscope: %s\n", err.msg);
		rc = 1;
	} else {
		lk_explain_diags(&rp, &line);
		if (fixes) {
			lk_explain_causes(&rec, &line, &rp);
			lk_srcline_fill(&rp);
			lk_fix_all(&rec, &line, &rp, &fx);
		}
		for (size_t i = 0; opt->verify_with_linker && i < fx.nr; i++)
			for (size_t k = 0; k < fx.of[i].nr; k++)
				if (fx.of[i].items[k].verified)
					lk_fix_verify_with_linker(&rec, &fx.of[i].items[k], opt->walls);
		rc = print_replay(opt, &rec, &line, &rp, &fx);
	}
	lk_fixes_release(&fx);
	lk_explain_release(&rp);
	lk_replay_release(&rp);
	lk_line_release(&line);
	lk_record_release(&rec);
	return rc;
}

/*
 * report --failed: the failed links of the directory (since a time),
 * summarised once per cause; the analyses in parallel (--jobs), the
 * summary printed from all of them, in the records' order.
 */
static int cmd_report_failed(const struct lk_options *opt)
{
	struct lk_summary_options sopt = { opt->format, opt->dir, opt->since, { opt->run_driver, opt->walls }, 0, 0, 0,
					   NULL };
	struct lk_probe_filter filter = { opt->probes, opt->all, 0, 0 };
	char *root, *real_root;
	struct { struct lk_record *items; size_t nr, alloc; } recs = { NULL, 0, 0 };
	struct lk_summary_parts *parts;
	struct lk_failcache fc;
	struct lk_progress progress;
	struct lk_err err = LK_ERR_INIT;
	struct lk_recdir rd;
	struct lk_strvec said = LK_STRVEC_INIT;
	int64_t since_ns = 0;
	int bad = 0;

	if (opt->since && lk_summary_parse_since(opt->since, (int64_t)time(NULL), &since_ns, &err) < 0) {
		fprintf(stderr, "linkscope: %s\n", err.msg);
		return 2;
	}
	/* No directory: no link ran (the build failed before one), which a CI step reports as such. */
	if (access(opt->dir, F_OK) < 0 && errno == ENOENT)
		memset(&rd, 0, sizeof(rd));
	else if (lk_recdir_read(opt->dir, &rd, &bad) < 0)
		return 1;
	/* Only the failed records are read, newest first. */
	for (size_t i = 0; i < rd.entries.nr; i++) {
		const struct lk_index_entry *e = &rd.entries.items[i];
		char *path;

		if (e->start_ns < since_ns)
			continue;
		sopt.examined++;
		if (!lk_recdir_failed(e))
			continue;
		path = lk_recdir_path(&rd, e);
		LK_GROW(recs.items, recs.nr + 1, recs.alloc);
		if (lk_record_load(path, &recs.items[recs.nr], &err) < 0) {
			fprintf(stderr, "linkscope: %s\n", err.msg);
			sopt.examined--;
			bad++;
		} else {
			lk_records_check_kept(opt, &recs.items[recs.nr++], &said);
		}
		free(path);
	}
	lk_probe_filter(&rd, recs.items, &recs.nr, &filter);
	sopt.probes = filter.probes;
	sopt.superseded = filter.superseded;
	/* The workspace, as the records name it: their cwd is a physical path. */
	root = opt->root ? lk_xstrdup(opt->root) : getenv("GITHUB_WORKSPACE") ?
		lk_xstrdup(getenv("GITHUB_WORKSPACE")) : getcwd(NULL, 0);
	real_root = root ? realpath(root, NULL) : NULL;
	sopt.root = real_root ? real_root : root;
	lk_recdir_release(&rd);
	lk_strvec_release(&said);
	parts = lk_xcalloc(recs.nr ? recs.nr : 1, sizeof(*parts));
	lk_failcache_open(&fc, &sopt.line);
	lk_progress_start(&progress, isatty(2) ? stderr : NULL, "analysing", "links", recs.nr);
	lk_failcache_analyse_all(&fc, recs.items, recs.nr, &sopt.line, opt->jobs ? opt->jobs : cpus_online(),
				 parts, &progress);
	lk_progress_end(&progress);
	lk_failcache_close(&fc);
	lk_summary_print(stdout, recs.items, parts, recs.nr, &sopt);
	for (size_t i = 0; i < recs.nr; i++) {
		lk_summary_parts_release(&parts[i]);
		lk_record_release(&recs.items[i]);
	}
	free(parts);
	free(recs.items);
	free(real_root);
	free(root);
	return bad ? 1 : 0;
}

/* report: the failed links of a directory (--failed), or one record's replay. */
static int cmd_report(const struct lk_options *opt)
{
	return opt->failed ? cmd_report_failed(opt) : cmd_replay(opt);
}

/* One side of check: the record's line, replayed, and its facts. 0, or 1 after saying why. */
static int check_side(const struct lk_options *opt, const char *which, struct lk_record *rec,
		      struct lk_line *line, struct lk_facts *facts)
{
	struct lk_err err = LK_ERR_INIT;
	struct lk_replay rp;

	if (lk_records_load_line_of(opt, which, rec, line))
		return 1;
	if (lk_replay_run(rec, line, 0, &rp, &err) < 0) {
		fprintf(stderr, "linkscope: %s\n", err.msg);
		lk_line_release(line);
		lk_record_release(rec);
		return 1;
	}
	lk_fragility_find(rec, line, &rp, facts);
	if (!facts->unknown) {
		char *disagreement = lk_certainty_disagreement(rec, line, &rp, NULL);

		if (disagreement) {
			/* No verdict from a replay that misreads the line: the record's outcome stands. */
			int linkers[LK_LINKER_COUNT];

			memcpy(linkers, facts->linkers, sizeof(linkers));
			lk_facts_release(facts);
			memcpy(facts->linkers, linkers, sizeof(linkers));
			facts->unknown = disagreement;
		}
	}
	lk_replay_release(&rp);
	return 0;
}

/* check of one RECORD (against the baseline's side, or NULL): the verdict's exit status, 0 or 1. */
static int check_one(const struct lk_options *opt, const char *which, const struct lk_check_side *bside,
		     const struct lk_check_options *copt, size_t *printed)
{
	struct lk_record rec;
	struct lk_line line;
	struct lk_facts facts;
	struct lk_check_side cur;
	int rc;

	if (check_side(opt, which, &rec, &line, &facts))
		return 1;
	cur = (struct lk_check_side){ rec.path, line.flavor, &facts };
	/* Between verdicts: a comma in a JSON array, a blank line otherwise. */
	if ((*printed)++)
		fputs(strcmp(copt->format, "json") ? "\n" : ",\n", stdout);
	rc = lk_check_print(stdout, &cur, bside, copt);
	lk_facts_release(&facts);
	lk_line_release(&line);
	lk_record_release(&rec);
	return rc;
}

/*
 * check RECORD...: each verdict in turn (in JSON, an array of them when
 * there are several); 1 when any fails, or cannot be read.
 */
static int cmd_check(const struct lk_options *opt)
{
	struct lk_check_options copt = { opt->format, LK_STRVEC_INIT, opt->linkers, lk_color_wanted(stdout) };
	struct lk_record base;
	struct lk_line bline;
	struct lk_facts bfacts;
	struct lk_check_side bside;
	int rc = 0, json_array = !strcmp(opt->format, "json") && opt->records.nr > 1;
	size_t printed = 0;

	copt.accept = opt->accept;	/* borrowed: --accept and --accept-file's lines (cli.c) */
	if (opt->baseline && check_side(opt, opt->baseline, &base, &bline, &bfacts))
		return 1;
	if (opt->baseline)
		bside = (struct lk_check_side){ base.path, bline.flavor, &bfacts };
	if (json_array)
		fputs("[\n", stdout);
	for (size_t i = 0; i < opt->records.nr; i++)
		rc |= check_one(opt, opt->records.items[i], opt->baseline ? &bside : NULL, &copt, &printed);
	if (json_array)
		fputs("]\n", stdout);
	if (opt->baseline) {
		lk_facts_release(&bfacts);
		lk_line_release(&bline);
		lk_record_release(&base);
	}
	return rc;
}

/* bundle's summary line: text, or the "linkscope-bundle/1" object (docs/bundle-format.md). */
static void bundle_summary(FILE *out, const struct lk_options *opt, const struct lk_bundle_summary *sum)
{
	struct lk_jsonw w = LK_JSONW_INIT;

	if (strcmp(opt->format, "json")) {
		fprintf(out, "wrote '%s': the record, %zu kept copies and %zu inputs (%zu contents, %llu bytes, %llu compressed)\n",
			opt->output, sum->kept, sum->inputs, sum->blobs, (unsigned long long)sum->bytes,
			(unsigned long long)sum->compressed);
		for (size_t i = 0; i < sum->absent.nr; i++)
			fprintf(out, "not carried: '%s': the link read it, and it is not on this machine\n", sum->absent.items[i]);
		return;
	}
	lk_jsonw_object(&w);
	lk_jsonw_key(&w, "schema");
	lk_jsonw_str(&w, "linkscope-bundle/1");
	lk_jsonw_key(&w, "bundle");
	lk_jsonw_str(&w, opt->output);
	lk_jsonw_key(&w, "kept");
	lk_jsonw_int(&w, (int64_t)sum->kept);
	lk_jsonw_key(&w, "inputs");
	lk_jsonw_int(&w, (int64_t)sum->inputs);
	lk_jsonw_key(&w, "contents");
	lk_jsonw_int(&w, (int64_t)sum->blobs);
	lk_jsonw_key(&w, "bytes");
	lk_jsonw_int(&w, (int64_t)sum->bytes);
	lk_jsonw_key(&w, "compressed");
	lk_jsonw_int(&w, (int64_t)sum->compressed);
	lk_jsonw_key(&w, "absent");
	lk_jsonw_array(&w);
	for (size_t i = 0; i < sum->absent.nr; i++)
		lk_jsonw_str(&w, sum->absent.items[i]);
	lk_jsonw_end(&w);
	lk_jsonw_end(&w);
	fprintf(out, "%s\n", w.out.buf);
	lk_buf_release(&w.out);
}

/* bundle RECORD -o FILE [--inputs]: the record, its kept copies and its inputs, in one file (bundle.h). */
static int cmd_bundle(const struct lk_options *opt)
{
	struct lk_line_options lopt = { opt->run_driver, opt->walls };
	struct lk_bundle_summary sum;
	struct lk_err err = LK_ERR_INIT;
	struct lk_buf text = LK_BUF_INIT;
	struct lk_record rec;
	struct lk_line line;
	int rc;

	if (lk_records_open(opt, opt->record, &rec, &text))
		return 1;
	if (lk_line_build(&rec, &lopt, &line, &err) < 0) {
		fprintf(stderr, "linkscope: %s\n", err.msg);
		lk_record_release(&rec);
		lk_buf_release(&text);
		return 1;
	}
	lk_resolve_line(&rec, &line);
	rc = lk_bundle_write(&rec, &line, text.buf, text.len, opt->output, opt->inputs, &sum, &err);
	if (rc < 0)
		fprintf(stderr, "linkscope: %s\n", err.msg);
	else
		bundle_summary(stdout, opt, &sum);
	lk_bundle_summary_release(&sum);
	lk_line_release(&line);
	lk_record_release(&rec);
	lk_buf_release(&text);
	return rc < 0 ? 1 : 0;
}

/* A bound as a link takes it: the variable when set, else the default (prune.h). */
/* whatif BASELINE --cargo DIR ...: the next link predicted; its exit status is the prediction's (whatif.h). */
static int cmd_whatif(const struct lk_options *opt)
{
	struct lk_whatif_options wopt = { opt->record, opt->change_source + 2, opt->change_path, opt->target, opt->profile,
					  opt->format, opt->linkers, opt->root, { opt->run_driver, opt->walls },
					  lk_color_wanted(stdout) };
	struct lk_record base, next;
	struct lk_line line;
	int rc;

	if (!strcmp(wopt.source, "line"))
		wopt.source = "make";
	if (!wopt.root)
		wopt.root = getenv("GITHUB_WORKSPACE");
	struct stat st;
	char *picked = NULL;

	/* BASELINE as a record directory: the newest good link of the target there. */
	if (strcmp(opt->record, "-") && stat(opt->record, &st) == 0 && S_ISDIR(st.st_mode)) {
		struct lk_err err = LK_ERR_INIT;

		if (!(picked = lk_whatif_pick_baseline(opt->record, opt->target, &err))) {
			fprintf(stderr, "linkscope: %s\n", err.msg);
			return LK_WHATIF_USAGE;
		}
	}
	rc = lk_records_load_twice(opt, picked ? picked : opt->record, &base, &next);
	free(picked);
	if (rc)
		return LK_WHATIF_USAGE;
	if (lk_records_build_line(opt, &base, &line)) {
		lk_record_release(&next);
		return LK_WHATIF_USAGE;
	}
	rc = lk_whatif(&base, &line, &next, &wopt);
	lk_line_release(&line);
	lk_record_release(&next);
	lk_record_release(&base);
	return rc;
}

static const char *bound_of(const char *var, const char *dflt)
{
	const char *v = getenv(var);

	return v && *v ? v : dflt;
}

/*
 * prune: to the bounds given, else to those a link would prune to
 * (LINKSCOPE_MAX_SIZE, LINKSCOPE_MAX_AGE, else the defaults).
 */
static int cmd_prune(const struct lk_options *opt)
{
	int given = opt->max_size || opt->max_age;
	const char *size = given ? opt->max_size : bound_of("LINKSCOPE_MAX_SIZE", LK_PRUNE_DEFAULT_MAX_SIZE);
	const char *age = given ? opt->max_age : bound_of("LINKSCOPE_MAX_AGE", LK_PRUNE_DEFAULT_MAX_AGE);
	struct lk_prune_limits lim = { 0, 0, opt->dry_run, 0 };
	struct lk_prune_result res;
	struct lk_err err = LK_ERR_INIT;

	if ((size && lk_prune_parse_size(size, &lim.max_size, &err) < 0) ||
	    (age && lk_prune_parse_age(age, &lim.max_age_s, &err) < 0)) {
		fprintf(stderr, "linkscope: %s\n", err.msg);
		return 2;
	}
	if (!lim.max_size && !lim.max_age_s) {
		fprintf(stderr, "linkscope: 'prune' has no bound: LINKSCOPE_MAX_SIZE and LINKSCOPE_MAX_AGE are 0 (off); give --max-size or --max-age\n");
		return 2;
	}
	if (lk_prune(opt->dir, &lim, (int64_t)time(NULL), &res, &err) < 0) {
		fprintf(stderr, "linkscope: %s\n", err.msg);
		return 1;
	}
	printf("%s %zu of %zu records and %zu of %zu blobs (%zu other files) in %s: %lld bytes before, %lld after\n",
	       opt->dry_run ? "would remove" : "removed", res.records_removed, res.records, res.blobs_removed,
	       res.blobs, res.other_removed, opt->dir, (long long)res.bytes_before, (long long)res.bytes_after);
	return 0;
}

/*
 * The linker's answers about itself (ld --print-sysroot, ld --verbose:
 * resolve.c) kept in the cache dir for the next analysis (runcmd.h): on
 * this VM the two spawns were 10-25 ms of every analysis, a sixth of the
 * LLVM line's report. The dir is private as the cache's must be.
 */
static void keep_answers(void)
{
	char *cache = lk_provider_cache_dir();
	struct lk_buf dir = LK_BUF_INIT;
	struct stat st;

	if (!cache)
		return;
	lk_buf_addf(&dir, "%s/answers", cache);
	mkdir(dir.buf, 0700);
	if (lstat(dir.buf, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() && !(st.st_mode & 077))
		lk_runcmd_keep_in(dir.buf);
	lk_buf_release(&dir);
	free(cache);
}

int main(int argc, char **argv)
{
	struct lk_options opt;
	struct lk_walls walls = { { 0 } };
	struct lk_strvec shown = LK_STRVEC_INIT;
	FILE *mem = NULL, *real_stdout = NULL;
	char *note, *text = NULL;
	size_t len = 0;
	int rc;

	/*
	 * Each object and archive member is read whole into a buffer freed
	 * after it (elf_image.c): 1,862 of up to a few MB on the llvm line.
	 * glibc would map and unmap the large ones and give the heap's top
	 * back to the kernel between them, so each buffer's pages were
	 * touched for the first time again (4,500 more page faults a
	 * replay, 11-16 us each on the reference VM); kept, they are reused.
	 * The peak is the same (docs/bench.md, "Reading the inputs").
	 */
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 128 << 20);
	/*
	 * One heap for both threads (the replay's helper, ahead.c): what the
	 * helper reads, the scan frees, and with an arena of its own that
	 * memory went back to the helper's heap while the scan's grew, 5-9 MB
	 * more at the peak on the llvm line, varying run to run.
	 */
	mallopt(M_ARENA_MAX, 1);
	rc = lk_cli_parse(argc, argv, &opt);
	if (rc == 0 && opt.cmd == LK_CMD_INDEX) {
		lk_cli_release(&opt);
		return lk_index_main(argc - 1, argv + 1);
	}
	if (rc) {
		lk_cli_release(&opt);
		return rc < 0 ? 2 : 0;
	}
	opt.walls = &walls;
	keep_answers();
	/* A bundle's analysis names its copies as the link named the files: collected, then put back. */
	if (lk_records_name_a_bundle(&opt) && (mem = open_memstream(&text, &len))) {
		real_stdout = stdout;
		stdout = mem;
		opt.shown = &shown;
	}
	rc = runs[opt.cmd](&opt);
	if (real_stdout) {
		stdout = real_stdout;
		if (fclose(mem) == 0)
			lk_records_put_names_back(stdout, text, len, &shown);
		free(text);
	}
	lk_strvec_release(&shown);
	if ((note = lk_walls_note(&walls)))
		fprintf(stderr, "linkscope: note: %s\n", note);
	free(note);
	lk_cli_release(&opt);
	return rc;
}
