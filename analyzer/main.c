/*
 * linkscope: the analyzer's command line.
 *
 * Stage: records -> answers. `list` reads the records; `show` builds the
 * line model (line.c, resolve.c, warn.c) and prints it (show.c);
 * `explain`, `why` and `report` replay it (replay.c) and report
 * (report.c); `diff`, `check`, `report --failed`, `prune` and `index` are
 * in their own files. The commands are a table, as in git.c: one row per
 * form, and the usage text is made from it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
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
#include "fragility.h"
#include "linkscope/private.h"
#include "linkscope/prune.h"

#ifndef LINKSCOPE_VERSION
#define LINKSCOPE_VERSION "0.1.0"
#endif

struct lk_options {
	const char *command;
	const char *record;	/* RECORD: a path, "last" or "last-failed" */
	char *dir;		/* owned */
	int json, full, run_driver, replay_only, write_reports, verify_with_linker;
	const char *format;	/* report: json, markdown, text */
	const char *symbol;	/* why */
	const char *record_b;	/* diff */
	int failed;		/* report --failed */
	const char *since;	/* report --failed --since */
	unsigned jobs;		/* report --failed -j: analyses at once (0: one per CPU online) */
	int probes, all;	/* report --failed: keep the probes, the superseded failures (probe.h) */
	const char *root;	/* report --failed --root: annotations' paths are relative to it */
	const char *max_size, *max_age;	/* prune */
	int dry_run;		/* prune */
	const char *baseline;	/* check */
	struct lk_strvec accept;	/* check: KIND:SYMBOL */
	const char *accept_file;	/* check */
	unsigned linkers;	/* check --linkers: 1 << enum lk_linker of each that must link */
	struct lk_walls *walls;		/* what the driver's runs went without (sandbox.h): main's, said once */
	int dir_shared;			/* LINKSCOPE_DIR_SHARED=1: kept copies from a dir not the user's alone */
};

static int cmd_list(const struct lk_options *opt);
static int cmd_show(const struct lk_options *opt);
static int cmd_replay(const struct lk_options *opt);
static int cmd_report(const struct lk_options *opt);
static int cmd_diff(const struct lk_options *opt);
static int cmd_prune(const struct lk_options *opt);
static int cmd_check(const struct lk_options *opt);

/*
 * The subcommands, one row per form, in the order of linkscope(1)'s
 * SYNOPSIS (report has two forms). A command either runs on the parsed
 * options (`run`) or parses its own (`main`, given argv from its name on).
 */
static const struct command {
	const char *name;
	int (*run)(const struct lk_options *opt);
	int (*main)(int argc, char **argv);
	const char *usage;	/* after "linkscope "; continuation lines are indented to match */
} commands[] = {
	{ "list", cmd_list, NULL, "list [--dir DIR]" },
	{ "show", cmd_show, NULL, "show [--json] [--full] [--run-driver] [--dir DIR] RECORD" },
	{ "explain", cmd_replay, NULL,
	  "explain [--replay-only] [--run-driver] [--verify-with-linker] [--write-reports]\n"
	  "                         [--dir DIR] RECORD" },
	{ "report", cmd_report, NULL,
	  "report --format json|markdown|text [--replay-only] [--run-driver]\n"
	  "                        [--verify-with-linker] [--dir DIR] RECORD" },
	{ "why", cmd_replay, NULL, "why [--run-driver] [--dir DIR] RECORD SYMBOL" },
	{ "diff", cmd_diff, NULL, "diff [--json] [--run-driver] [--dir DIR] RECORD_A RECORD_B" },
	{ "report", cmd_report, NULL,
	  "report --failed [--since TIME] [--format text|json|markdown|github] [-j N]\n"
	  "                        [--probes] [--all] [--root DIR] [--dir DIR]" },
	{ "prune", cmd_prune, NULL, "prune [--max-size SIZE] [--max-age AGE] [--dry-run] [--dir DIR]" },
	{ "index", NULL, lk_index_main, "index [--cache-dir DIR] DIR..." },
	{ "check", cmd_check, NULL,
	  "check [--baseline RECORD] [--accept KIND:SYMBOL]... [--accept-file FILE]\n"
	  "                       [--linkers bfd,lld,mold] [--format text|json|markdown] [--dir DIR] RECORD" },
};

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(*commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void usage(FILE *out)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(*commands); i++)
		fprintf(out, "%s linkscope %s\n", i ? "      " : "usage:", commands[i].usage);
	fputs("       linkscope --version\n"
	      "RECORD is a record file, or 'last' or 'last-failed' in the record\n"
	      "directory: --dir, else LINKSCOPE_DIR, else the default (see linkscope(1)).\n", out);
}

/* --jobs N: 1 to JOBS_MAX analyses at once. */
#define JOBS_MAX 1024

static int parse_jobs(const char *s, unsigned *jobs)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (!*s || *end || errno || n < 1 || n > JOBS_MAX) {
		fprintf(stderr, "linkscope: '--jobs' takes a number of processes from 1 to %d, not '%s'\n",
			JOBS_MAX, s);
		return -1;
	}
	*jobs = (unsigned)n;
	return 0;
}

/* The default of --jobs: one analysis per CPU online. */
static unsigned cpus_online(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > JOBS_MAX ? JOBS_MAX : (unsigned)n;
}

static int parse_options(int argc, char **argv, struct lk_options *opt)
{
	memset(opt, 0, sizeof(*opt));
	if (argc < 2) {
		usage(stderr);
		return -1;
	}
	opt->command = argv[1];
	if (!find_command(opt->command)) {
		fprintf(stderr, "linkscope: unknown command '%s'\n", opt->command);
		usage(stderr);
		return -1;
	}
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--dir") && i + 1 < argc) {
			free(opt->dir);
			opt->dir = lk_xstrdup(argv[++i]);
		} else if (!strncmp(argv[i], "--dir=", 6)) {
			free(opt->dir);
			opt->dir = lk_xstrdup(argv[i] + 6);
		} else if ((!strcmp(opt->command, "show") || !strcmp(opt->command, "diff")) && !strcmp(argv[i], "--json")) {
			opt->json = 1;
		} else if (!strcmp(opt->command, "show") && !strcmp(argv[i], "--full")) {
			opt->full = 1;
		} else if (!strcmp(opt->command, "show") && !strcmp(argv[i], "--no-driver")) {
			opt->run_driver = 0;	/* the default now; kept for old scripts */
		} else if (strcmp(opt->command, "list") && !strcmp(argv[i], "--run-driver")) {
			opt->run_driver = 1;
		} else if (!strcmp(opt->command, "explain") && !strcmp(argv[i], "--write-reports")) {
			opt->write_reports = 1;
		} else if (!strcmp(argv[i], "--verify-with-linker") &&
			   (!strcmp(opt->command, "explain") || !strcmp(opt->command, "report"))) {
			opt->verify_with_linker = 1;
		} else if (!strcmp(argv[i], "--replay-only") &&
			   (!strcmp(opt->command, "explain") || !strcmp(opt->command, "report"))) {
			opt->replay_only = 1;
		} else if (!strcmp(opt->command, "check") && !strcmp(argv[i], "--baseline") && i + 1 < argc) {
			opt->baseline = argv[++i];
		} else if (!strcmp(opt->command, "check") && !strcmp(argv[i], "--accept") && i + 1 < argc) {
			lk_strvec_push(&opt->accept, argv[++i]);
		} else if (!strcmp(opt->command, "check") && !strcmp(argv[i], "--linkers") && i + 1 < argc) {
			struct lk_err err = LK_ERR_INIT;

			if (lk_check_parse_linkers(argv[++i], &opt->linkers, &err) < 0) {
				fprintf(stderr, "linkscope: %s\n", err.msg);
				return -1;
			}
		} else if (!strcmp(opt->command, "check") && !strcmp(argv[i], "--accept-file") && i + 1 < argc) {
			opt->accept_file = argv[++i];
		} else if (!strcmp(opt->command, "check") && !strcmp(argv[i], "--format") && i + 1 < argc) {
			opt->format = argv[++i];
		} else if (!strcmp(opt->command, "report") && !strcmp(argv[i], "--format") && i + 1 < argc) {
			opt->format = argv[++i];
		} else if (!strcmp(opt->command, "report") && !strncmp(argv[i], "--format=", 9)) {
			opt->format = argv[i] + 9;
		} else if (!strcmp(opt->command, "report") && !strcmp(argv[i], "--failed")) {
			opt->failed = 1;
		} else if (!strcmp(opt->command, "report") && (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--jobs")) &&
			   i + 1 < argc) {
			if (parse_jobs(argv[++i], &opt->jobs) < 0)
				return -1;
		} else if (!strcmp(opt->command, "report") && !strncmp(argv[i], "--jobs=", 7)) {
			if (parse_jobs(argv[i] + 7, &opt->jobs) < 0)
				return -1;
		} else if (!strcmp(opt->command, "report") && !strncmp(argv[i], "-j", 2) && argv[i][2]) {
			/* -jN, as make takes it */
			if (parse_jobs(argv[i] + 2, &opt->jobs) < 0)
				return -1;
		} else if (!strcmp(opt->command, "report") && !strcmp(argv[i], "--since") && i + 1 < argc) {
			opt->since = argv[++i];
		} else if (!strcmp(opt->command, "report") && !strcmp(argv[i], "--probes")) {
			opt->probes = 1;
		} else if (!strcmp(opt->command, "report") && !strcmp(argv[i], "--all")) {
			opt->all = 1;
		} else if (!strcmp(opt->command, "report") && !strcmp(argv[i], "--root") && i + 1 < argc) {
			opt->root = argv[++i];
		} else if (!strcmp(opt->command, "prune") && !strcmp(argv[i], "--max-size") && i + 1 < argc) {
			opt->max_size = argv[++i];
		} else if (!strcmp(opt->command, "prune") && !strcmp(argv[i], "--max-age") && i + 1 < argc) {
			opt->max_age = argv[++i];
		} else if (!strcmp(opt->command, "prune") && !strcmp(argv[i], "--dry-run")) {
			opt->dry_run = 1;
		} else if (strcmp(opt->command, "list") && strcmp(opt->command, "prune") && !opt->failed &&
			   argv[i][0] != '-' && !opt->record) {
			opt->record = argv[i];
		} else if (!strcmp(opt->command, "why") && argv[i][0] != '-' && !opt->symbol) {
			opt->symbol = argv[i];
		} else if (!strcmp(opt->command, "diff") && argv[i][0] != '-' && !opt->record_b) {
			opt->record_b = argv[i];
		} else {
			fprintf(stderr, "linkscope: unknown option '%s' for '%s'\n",
				argv[i], opt->command);
			return -1;
		}
	}
	if (!opt->dir)
		opt->dir = lk_record_dir(getenv("LINKSCOPE_DIR"));
	opt->dir_shared = getenv(LK_PRIVATE_SHARED_VAR) && !strcmp(getenv(LK_PRIVATE_SHARED_VAR), "1");
	if ((opt->failed || !strcmp(opt->command, "check")) && !opt->format)
		opt->format = "text";
	if (!strcmp(opt->command, "check") && strcmp(opt->format, "text") && strcmp(opt->format, "json") &&
	    strcmp(opt->format, "markdown")) {
		fprintf(stderr, "linkscope: 'check' takes --format text, json or markdown\n");
		return -1;
	}
	if (opt->since && !opt->failed) {
		fprintf(stderr, "linkscope: --since goes with 'report --failed'\n");
		return -1;
	}
	if ((opt->jobs || opt->probes || opt->all || opt->root) && !opt->failed) {
		fprintf(stderr, "linkscope: %s goes with 'report --failed'\n", opt->jobs ? "--jobs" :
			opt->probes ? "--probes" : opt->all ? "--all" : "--root");
		return -1;
	}
	if (strcmp(opt->command, "list") && strcmp(opt->command, "prune") && !opt->failed && !opt->record) {
		fprintf(stderr, "linkscope: '%s' needs a RECORD (a path, 'last' or 'last-failed')\n", opt->command);
		return -1;
	}
	if (!strcmp(opt->command, "diff") && !opt->record_b) {
		fprintf(stderr, "linkscope: 'diff' needs two RECORDs\n");
		return -1;
	}
	if (!strcmp(opt->command, "why") && !opt->symbol) {
		fprintf(stderr, "linkscope: 'why' needs a SYMBOL after the RECORD\n");
		return -1;
	}
	if (!strcmp(opt->command, "report") &&
	    (!opt->format || (strcmp(opt->format, "json") && strcmp(opt->format, "markdown") &&
			      strcmp(opt->format, "text") && (!opt->failed || strcmp(opt->format, "github"))))) {
		fprintf(stderr, "linkscope: 'report' needs --format json, markdown or text%s\n",
			opt->failed ? " (or github)" : "");
		return -1;
	}
	if (opt->accept_file) {
		struct lk_err err = LK_ERR_INIT;

		if (lk_check_read_accept_file(opt->accept_file, &opt->accept, &err) < 0) {
			fprintf(stderr, "linkscope: %s\n", err.msg);
			return -1;
		}
	}
	return 0;
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

/* list: every record, newest first, from the directory's index (recdir.c). */
static int cmd_list(const struct lk_options *opt)
{
	struct lk_recdir rd;
	int bad = 0;

	if (lk_recdir_read(opt->dir, &rd, &bad) < 0)
		return 1;
	for (size_t i = 0; i < rd.entries.nr; i++) {
		const struct lk_index_entry *e = &rd.entries.items[i];
		char result[32];

		outcome(e, result, sizeof(result));
		printf("%-27s  %-9s  %-6s  %-12s  %s  %s/%s.json\n", e->start ? e->start : "?",
		       result, e->caller ? e->caller : "-", e->driver,
		       e->output ? e->output : "a.out", rd.dir, e->name);
	}
	lk_recdir_release(&rd);
	return bad ? 1 : 0;
}

/* RECORD as a path: itself, or the newest (failed) record of the directory. */
static char *record_path(const struct lk_options *opt)
{
	struct lk_recdir rd;
	char *path = NULL;
	int bad = 0, want_failed;

	if (strcmp(opt->record, "last") && strcmp(opt->record, "last-failed"))
		return lk_xstrdup(opt->record);
	want_failed = !strcmp(opt->record, "last-failed");
	if (lk_recdir_read(opt->dir, &rd, &bad) < 0)
		return NULL;
	for (size_t i = 0; !path && i < rd.entries.nr; i++)
		if (!want_failed || lk_recdir_failed(&rd.entries.items[i]))
			path = lk_recdir_path(&rd, &rd.entries.items[i]);
	lk_recdir_release(&rd);
	if (!path)
		fprintf(stderr, "linkscope: no %srecord in '%s'\n", want_failed ? "failed " : "", opt->dir);
	return path;
}

/*
 * Keep from `rec` only the kept copies that are the user's and hold what
 * their names say (common/private.c), saying once on stderr why any other
 * is not used. `said` (may be NULL: this record alone) holds what was said
 * already for other records of this run.
 */
static void check_kept(const struct lk_options *opt, struct lk_record *rec, struct lk_strvec *said)
{
	struct lk_strvec own = LK_STRVEC_INIT, *notes = said ? said : &own;
	size_t before = notes->nr;

	lk_private_check_kept(rec, opt->dir_shared, notes);
	for (size_t i = before; i < notes->nr; i++)
		fprintf(stderr, "linkscope: %s\n", notes->items[i]);
	lk_strvec_release(&own);
}

/* Load RECORD (`which`: a path, "last" or "last-failed") and build its line model; 0, or 1 after saying why. */
static int load_line_of(const struct lk_options *opt, const char *which, struct lk_record *rec,
			struct lk_line *line)
{
	struct lk_line_options lopt = { opt->run_driver, opt->walls };
	struct lk_err err = LK_ERR_INIT;
	struct lk_options o = *opt;
	char *path;

	o.record = which;
	path = record_path(&o);

	if (!path)
		return 1;
	if (lk_record_load(path, rec, &err) < 0) {
		fprintf(stderr, "linkscope: %s\n", err.msg);
		free(path);
		return 1;
	}
	free(path);
	check_kept(opt, rec, NULL);
	if (lk_line_build(rec, &lopt, line, &err) < 0) {
		fprintf(stderr, "linkscope: %s\n", err.msg);
		lk_record_release(rec);
		return 1;
	}
	lk_resolve_line(rec, line);
	lk_warn_line(rec, line);
	return 0;
}

static int load_line(const struct lk_options *opt, struct lk_record *rec, struct lk_line *line)
{
	return load_line_of(opt, opt->record, rec, line);
}

static int cmd_diff(const struct lk_options *opt)
{
	struct lk_record a, b;
	struct lk_line la, lb;
	int rc = 0;

	if (load_line_of(opt, opt->record, &a, &la))
		return 1;
	if (load_line_of(opt, opt->record_b, &b, &lb)) {
		lk_line_release(&la);
		lk_record_release(&a);
		return 1;
	}
	if (opt->json)
		rc = lk_diff_json(stdout, &a, &la, &b, &lb);
	else
		lk_diff_print(stdout, &a, &la, &b, &lb);
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

	if (load_line(opt, &rec, &line))
		return 1;
	sopt.color = isatty(1) && !getenv("NO_COLOR");
	if (opt->json)
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

/* explain, report and why: the replay of the record's line. */
static int print_replay(const struct lk_options *opt, const struct lk_record *rec,
			struct lk_line *line, const struct lk_replay *rp, const struct lk_fixes *fx)
{
	struct lk_report_options ropt = { opt->replay_only };
	struct lk_strvec lines = LK_STRVEC_INIT;

	struct lk_facts facts;

	if (!strcmp(opt->command, "why")) {
		lk_explain_why(rp, line, opt->symbol, &lines);
		for (size_t i = 0; i < lines.nr; i++)
			printf("%s\n", lines.items[i]);
		lk_strvec_release(&lines);
		/* What the success rests on, for this symbol: only a success rests on anything. */
		if (rp->success) {
			lk_fragility_find(rec, line, rp, &facts);
			lk_fragility_print(stdout, &facts, opt->symbol);
			lk_facts_release(&facts);
		}
		return 0;
	}
	if (!strcmp(opt->command, "explain") || !strcmp(opt->format, "text")) {
		lk_report_text(stdout, rec, line, rp, fx, &ropt);
		if (rp->success) {
			/* The facts a success rests on: none under a failure (issue #18, point 5). */
			lk_fragility_find(rec, line, rp, &facts);
			lk_fragility_print(stdout, &facts, NULL);
			lk_facts_release(&facts);
		}
		if (opt->write_reports)
			write_reports(rec, line, rp, fx, &ropt);
		return 0;
	}
	if (!strcmp(opt->format, "json"))
		return lk_report_json(stdout, rec, line, rp, fx, &ropt) < 0;
	lk_report_md(stdout, rec, line, rp, fx, &ropt);
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

	if (load_line(opt, &rec, &line))
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
			check_kept(opt, &recs.items[recs.nr++], &said);
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

	if (load_line_of(opt, which, rec, line))
		return 1;
	if (lk_replay_run(rec, line, 0, &rp, &err) < 0) {
		fprintf(stderr, "linkscope: %s\n", err.msg);
		lk_line_release(line);
		lk_record_release(rec);
		return 1;
	}
	lk_fragility_find(rec, line, &rp, facts);
	lk_replay_release(&rp);
	return 0;
}

static int cmd_check(const struct lk_options *opt)
{
	struct lk_check_options copt = { opt->format, LK_STRVEC_INIT, opt->linkers };
	struct lk_record rec, base;
	struct lk_line line, bline;
	struct lk_facts facts, bfacts;
	struct lk_check_side cur, bside;
	int rc;

	copt.accept = opt->accept;	/* borrowed: --accept and --accept-file's lines (parse_options) */
	if (check_side(opt, opt->record, &rec, &line, &facts))
		return 1;
	cur = (struct lk_check_side){ rec.path, line.flavor, &facts };
	if (opt->baseline && check_side(opt, opt->baseline, &base, &bline, &bfacts)) {
		rc = 1;
	} else {
		if (opt->baseline)
			bside = (struct lk_check_side){ base.path, bline.flavor, &bfacts };
		rc = lk_check_print(stdout, &cur, opt->baseline ? &bside : NULL, &copt);
		if (opt->baseline) {
			lk_facts_release(&bfacts);
			lk_line_release(&bline);
			lk_record_release(&base);
		}
	}
	lk_facts_release(&facts);
	lk_line_release(&line);
	lk_record_release(&rec);
	return rc;
}

/* A bound as a link takes it: the variable when set, else the default (prune.h). */
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

int main(int argc, char **argv)
{
	const struct command *cmd;
	struct lk_options opt;
	struct lk_walls walls = { { 0 } };
	char *note;
	int rc;

	if (argc == 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
		printf("linkscope %s\n", LINKSCOPE_VERSION);
		return 0;
	}
	if (argc >= 2 && (cmd = find_command(argv[1])) && cmd->main)
		return cmd->main(argc - 1, argv + 1);
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	if (parse_options(argc, argv, &opt) < 0) {
		free(opt.dir);
		lk_strvec_release(&opt.accept);
		return 2;
	}
	/* parse_options() accepted only a command of the table. */
	opt.walls = &walls;
	rc = find_command(opt.command)->run(&opt);
	if ((note = lk_walls_note(&walls)))
		fprintf(stderr, "linkscope: note: %s\n", note);
	free(note);
	free(opt.dir);
	lk_strvec_release(&opt.accept);
	return rc;
}
