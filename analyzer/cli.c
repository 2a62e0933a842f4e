/*
 * The analyzer's command line: argv -> struct lk_options (cli.h).
 *
 * One table of options and one of commands, as in git.c: each command row
 * names the options it takes (a bit per option), its operands and the
 * formats it can give. Parsing, `linkscope help [CMD]`, `CMD --help`, the
 * usage line of an error and `help --table` (what the tests check the man
 * page and the completion against) are all made from the two tables, so
 * they cannot disagree.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/err.h"
#include "linkscope/private.h"
#include "linkscope/record.h"
#include "linkscope/suggest.h"
#include "linkscope/vec.h"
#include "check.h"
#include "cli.h"

#ifndef LINKSCOPE_VERSION
#error "LINKSCOPE_VERSION comes from the Makefile's VERSION"
#endif

enum opt_id {
	OPT_DIR, OPT_FORMAT, OPT_JSON, OPT_FULL, OPT_RUN_DRIVER, OPT_NO_DRIVER, OPT_REPLAY_ONLY,
	OPT_VERIFY, OPT_WRITE_REPORTS, OPT_FAILED, OPT_SINCE, OPT_JOBS, OPT_MAX_SIZE, OPT_MAX_AGE,
	OPT_DRY_RUN, OPT_CACHE_DIR, OPT_BASELINE, OPT_ACCEPT, OPT_ACCEPT_FILE, OPT_LINKERS, OPT_HELP,
	OPT_PROBES, OPT_ALL, OPT_ROOT, OPT_CARGO, OPT_CMAKE, OPT_LINE, OPT_ARGV_FILE, OPT_TARGET, OPT_PROFILE,
	OPT_OUTPUT, OPT_INPUTS, OPT_NR
};

#define O(id) (1u << (id))

static const struct option {
	enum opt_id id;
	const char *name;	/* --name */
	const char *alias;	/* a short or old spelling, or NULL */
	const char *arg;	/* its value's name, or NULL: a flag */
	int repeat;		/* may be given more than once */
	const char *help;
} options[] = {
	{ OPT_FAILED, "--failed", NULL, NULL, 0, "every failed link of the directory, one section per cause" },
	{ OPT_SINCE, "--since", NULL, "TIME", 0, "only links since TIME (2026-11-30, 2026-11-30T10:00, 2h, 3d)" },
	{ OPT_JOBS, "--jobs", "-j", "N", 0, "N analyses at once (default: one per CPU online)" },
	{ OPT_PROBES, "--probes", NULL, NULL, 0, "keep the build system's probes (conftest, try_compile, ...)" },
	{ OPT_ALL, "--all", NULL, NULL, 0, "keep failures a later link of the same output superseded" },
	{ OPT_ROOT, "--root", NULL, "DIR", 0, "annotation paths relative to DIR (default: GITHUB_WORKSPACE, else .)" },
	{ OPT_CARGO, "--cargo", NULL, "TARGET_DIR", 0, "the build scripts' outputs `cargo check` left in TARGET_DIR" },
	{ OPT_CMAKE, "--cmake", NULL, "BUILD_DIR", 0, "the target's link command in a configured CMake BUILD_DIR" },
	{ OPT_LINE, "--line", NULL, "FILE", 0, "the target's link line in FILE (`make -n` output)" },
	{ OPT_ARGV_FILE, "--argv-file", NULL, "FILE", 0, "the next link's argv, one argument per line" },
	{ OPT_TARGET, "--target", NULL, "NAME", 0, "the target (crate, CMake target, output) when the baseline's is ambiguous" },
	{ OPT_PROFILE, "--profile", NULL, "NAME", 0, "cargo's profile dir (debug, release) when not the baseline's" },
	{ OPT_BASELINE, "--baseline", NULL, "RECORD", 0, "also say what drifted since RECORD" },
	{ OPT_ACCEPT, "--accept", NULL, "KIND:SYMBOL", 1, "accept a known fact (KIND:* every one of a kind)" },
	{ OPT_ACCEPT_FILE, "--accept-file", NULL, "FILE", 0, "the KIND:SYMBOL lines of FILE, # comments" },
	{ OPT_LINKERS, "--linkers", NULL, "bfd,lld,mold", 0, "these linkers must link it too" },
	{ OPT_OUTPUT, "--output", "-o", "FILE", 0, "write the bundle to FILE (0600; replaced whole)" },
	{ OPT_INPUTS, "--inputs", NULL, NULL, 0, "also carry every input the link read, system libraries too" },
	{ OPT_FORMAT, "--format", NULL, "FORMAT", 0, "the output's format" },
	{ OPT_JSON, "--json", NULL, NULL, 0, "the same as --format json" },
	{ OPT_FULL, "--full", NULL, NULL, 0, "every codegen unit and rlib, not folded" },
	{ OPT_NO_DRIVER, "--no-driver", NULL, NULL, 0, "do not run the driver (the default; for old scripts)" },
	{ OPT_REPLAY_ONLY, "--replay-only", NULL, NULL, 0, "ignore the linker's recorded stderr and status" },
	{ OPT_RUN_DRIVER, "--run-driver", NULL, NULL, 0, "run this machine's driver -### for a record without it" },
	{ OPT_VERIFY, "--verify-with-linker", NULL, NULL, 0, "run the real linker on each verified fix" },
	{ OPT_WRITE_REPORTS, "--write-reports", NULL, NULL, 0, "write RECORD.report.json and .report.md beside it" },
	{ OPT_MAX_SIZE, "--max-size", NULL, "SIZE", 0, "remove the oldest records past SIZE (500M, 2G)" },
	{ OPT_MAX_AGE, "--max-age", NULL, "AGE", 0, "remove records older than AGE (30d, 12h)" },
	{ OPT_DRY_RUN, "--dry-run", NULL, NULL, 0, "say what would go, remove nothing" },
	{ OPT_CACHE_DIR, "--cache-dir", NULL, "DIR", 0, "the provider index's cache (default: XDG_CACHE_HOME)" },
	{ OPT_DIR, "--dir", NULL, "DIR", 0, "the record directory (default: LINKSCOPE_DIR)" },
	{ OPT_HELP, "--help", "-h", NULL, 0, "this help" },
};

#define NR(a) (sizeof(a) / sizeof(*(a)))
#define REPLAY_OPTS (O(OPT_RUN_DRIVER) | O(OPT_DIR) | O(OPT_HELP))

static const struct command {
	enum lk_cmd cmd;
	const char *name;
	unsigned opts;		/* O(OPT_x) of each option it takes */
	const char *formats;	/* "text|json": what --format may be, the first the default */
	const char *operands;	/* for the synopsis */
	int min_ops, max_ops;	/* how many operands (max -1: any) */
	const char *summary;
} commands[] = {
	{ LK_CMD_LIST, "list", O(OPT_DIR) | O(OPT_HELP) | O(OPT_FORMAT) | O(OPT_JSON), "text|json", "", 0, 0,
	  "the records, newest first, one line each: its time, outcome, caller, driver, output and id" },
	{ LK_CMD_SHOW, "show", REPLAY_OPTS | O(OPT_FORMAT) | O(OPT_JSON) | O(OPT_FULL) | O(OPT_NO_DRIVER),
	  "text|json", "RECORD", 1, 1, "the annotated link line: each argument, where it came from, what it resolved to" },
	{ LK_CMD_EXPLAIN, "explain", REPLAY_OPTS | O(OPT_FORMAT) | O(OPT_JSON) | O(OPT_REPLAY_ONLY) | O(OPT_VERIFY) |
	  O(OPT_WRITE_REPORTS), "text|json|markdown", "RECORD", 1, 1,
	  "why the link failed (or what its success rests on), with verified fixes" },
	{ LK_CMD_REPORT, "report", REPLAY_OPTS | O(OPT_FORMAT) | O(OPT_JSON) | O(OPT_REPLAY_ONLY) | O(OPT_VERIFY) |
	  O(OPT_FAILED) | O(OPT_SINCE) | O(OPT_JOBS) | O(OPT_PROBES) | O(OPT_ALL) | O(OPT_ROOT),
	  "text|json|markdown|github", "[RECORD]", 0, 1,
	  "the post-mortem report of RECORD; with --failed, of every failed link (github: --failed only)" },
	{ LK_CMD_WHY, "why", REPLAY_OPTS | O(OPT_FORMAT), "text", "RECORD SYMBOL", 2, 2,
	  "where SYMBOL is referenced and defined, and why each archive member was or was not pulled in" },
	{ LK_CMD_DIFF, "diff", REPLAY_OPTS | O(OPT_FORMAT) | O(OPT_JSON), "text|json", "RECORD_A RECORD_B", 2, 2,
	  "what differs between two link lines, by meaning, and which difference changes the outcome" },
	{ LK_CMD_PRUNE, "prune", O(OPT_MAX_SIZE) | O(OPT_MAX_AGE) | O(OPT_DRY_RUN) | O(OPT_DIR) | O(OPT_HELP) |
	  O(OPT_FORMAT), "text", "", 0, 0, "bound the record directory's size and age" },
	{ LK_CMD_INDEX, "index", O(OPT_CACHE_DIR) | O(OPT_HELP), "text", "DIR...", 1, -1,
	  "build the provider index of the libraries in DIR... ahead of time" },
	{ LK_CMD_CHECK, "check", REPLAY_OPTS | O(OPT_FORMAT) | O(OPT_JSON) | O(OPT_BASELINE) | O(OPT_ACCEPT) |
	  O(OPT_ACCEPT_FILE) | O(OPT_LINKERS), "text|json|markdown", "RECORD...", 1, -1,
	  "exit 1 when a link succeeds by accident, fails, or drifted from the baseline" },
	{ LK_CMD_WHATIF, "whatif", REPLAY_OPTS | O(OPT_FORMAT) | O(OPT_JSON) | O(OPT_CARGO) | O(OPT_CMAKE) |
	  O(OPT_LINE) | O(OPT_ARGV_FILE) | O(OPT_TARGET) | O(OPT_PROFILE) | O(OPT_LINKERS) | O(OPT_ROOT),
	  "text|json|markdown|github", "BASELINE", 1, 1,
	  "the next link, predicted from BASELINE (a record of a good link) and a job that does not link: exit 0 links, 1 fails, 3 cannot tell" },
	{ LK_CMD_BUNDLE, "bundle", REPLAY_OPTS | O(OPT_FORMAT) | O(OPT_JSON) | O(OPT_OUTPUT) | O(OPT_INPUTS),
	  "text|json", "RECORD", 1, 1,
	  "one file with the record, its kept copies and (--inputs) its inputs, that every command takes as RECORD" },
	{ LK_CMD_HELP, "help", O(OPT_HELP), "text", "[COMMAND]", 0, 1, "this help, or a command's" },
};

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NR(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* The synopsis of `c`, after "linkscope ". */
static void synopsis(const struct command *c, struct lk_buf *b)
{
	lk_buf_addstr(b, c->name);
	for (size_t i = 0; i < NR(options); i++) {
		const struct option *o = &options[i];

		/* --json and --no-driver are spellings of others; --help goes without saying. */
		if (!(c->opts & O(o->id)) || o->id == OPT_JSON || o->id == OPT_NO_DRIVER || o->id == OPT_HELP)
			continue;
		lk_buf_addf(b, " [%s", o->alias && o->alias[1] != '-' ? o->alias : o->name);
		if (o->id == OPT_FORMAT)
			lk_buf_addf(b, " %s", c->formats);
		else if (o->arg)
			lk_buf_addf(b, " %s", o->arg);
		lk_buf_addf(b, "]%s", o->repeat ? "..." : "");
	}
	if (*c->operands)
		lk_buf_addf(b, " %s", c->operands);
}

static void print_usage_line(FILE *out, const struct command *c)
{
	struct lk_buf b = LK_BUF_INIT;

	synopsis(c, &b);
	fprintf(out, "usage: linkscope %s\n", b.buf);
	lk_buf_release(&b);
}

static const char record_help[] =
	"RECORD is a record file, 'last' or 'last-failed', a record's id as 'list' prints it\n"
	"(or a prefix of it no other id has), or '-' (read from stdin); ids, last and\n"
	"last-failed are looked up in --dir, else LINKSCOPE_DIR, else the default (linkscope(1)).\n"
	"Colours: on a terminal, unless NO_COLOR is set.\n";

static void print_help_all(FILE *out)
{
	fputs("usage: linkscope COMMAND [OPTION]... [ARG]...\n"
	      "       linkscope help [COMMAND]    linkscope COMMAND --help    linkscope --version\n\n"
	      "commands:\n", out);
	for (size_t i = 0; i < NR(commands); i++)
		fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fputc('\n', out);
	fputs(record_help, out);
}

static void print_help(FILE *out, const struct command *c)
{
	print_usage_line(out, c);
	fprintf(out, "\n%s\n\noptions:\n", c->summary);
	for (size_t i = 0; i < NR(options); i++) {
		const struct option *o = &options[i];
		struct lk_buf b = LK_BUF_INIT;

		if (!(c->opts & O(o->id)))
			continue;
		if (o->alias)
			lk_buf_addf(&b, "%s, ", o->alias);
		lk_buf_addstr(&b, o->name);
		if (o->id == OPT_FORMAT)
			lk_buf_addf(&b, " %s", c->formats);
		else if (o->arg)
			lk_buf_addf(&b, " %s", o->arg);
		fprintf(out, "  %-28s %s\n", b.buf, o->help);
		lk_buf_release(&b);
	}
	if (strstr(c->operands, "RECORD"))
		fprintf(out, "\n%s", record_help);
}

/*
 * help --table: one line per command, "COMMAND OPTION...", every spelling;
 * and "formats COMMAND F..." lines. What tests/integ/130-cli.sh checks
 * linkscope(1) and completion/linkscope.bash against.
 */
static void print_table(FILE *out)
{
	for (size_t i = 0; i < NR(commands); i++) {
		const struct command *c = &commands[i];

		fputs(c->name, out);
		for (size_t k = 0; k < NR(options); k++)
			if (c->opts & O(options[k].id))
				fprintf(out, " %s%s%s", options[k].name, options[k].alias ? " " : "",
					options[k].alias ? options[k].alias : "");
		fputc('\n', out);
	}
	for (size_t i = 0; i < NR(commands); i++) {
		char *f = lk_xstrdup(commands[i].formats);

		for (char *p = f; (p = strchr(p, '|')); )
			*p++ = ' ';
		fprintf(out, "formats %s %s\n", commands[i].name, f);
		free(f);
	}
}

/* The end of an "unknown" line: the nearest name, else where the names are. */
static void say_suggestion(const char *best, const char *help_cmd)
{
	if (best)
		fprintf(stderr, "; did you mean '%s'?\n", best);
	else
		fprintf(stderr, "; see 'linkscope help%s%s'\n", help_cmd ? " " : "", help_cmd ? help_cmd : "");
}

static int unknown_command(const char *name)
{
	struct lk_suggest s;

	lk_suggest_init(&s, name);
	for (size_t i = 0; i < NR(commands); i++)
		lk_suggest_add(&s, commands[i].name);
	fprintf(stderr, "linkscope: unknown command '%s'", name);
	say_suggestion(lk_suggest_best(&s), NULL);
	return -1;
}

/* A usage error: one line, the message (printf). -1. */
__attribute__((format(printf, 1, 2)))
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("linkscope: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

static int unknown_option(const struct command *c, const char *arg)
{
	struct lk_suggest s;

	lk_suggest_init(&s, arg);
	for (size_t i = 0; i < NR(options); i++)
		if (c->opts & O(options[i].id))
			lk_suggest_add(&s, options[i].name);
	fprintf(stderr, "linkscope: unknown option '%s' for '%s'", arg, c->name);
	say_suggestion(lk_suggest_best(&s), c->name);
	return -1;
}

/*
 * The option `arg` names for `c`, and its value: from `=VALUE`, `-jN`, or
 * the next argument (*i advanced). NULL after saying why.
 */
static const struct option *match_option(const struct command *c, int argc, char **argv, int *i,
					 const char **value)
{
	const char *arg = argv[*i];
	size_t len = strcspn(arg, "=");

	*value = NULL;
	for (size_t k = 0; k < NR(options); k++) {
		const struct option *o = &options[k];
		int by_name = strlen(o->name) == len && !strncmp(arg, o->name, len);
		int by_alias = o->alias && !strcmp(arg, o->alias);
		int glued = o->alias && o->arg && o->alias[1] != '-' && !strncmp(arg, o->alias, 2) && arg[2];

		if (!(c->opts & O(o->id)) || !(by_name || by_alias || glued))
			continue;
		if (!o->arg) {
			if (arg[len])
				return usage_error("'%s' takes no value", o->name), NULL;
			return o;
		}
		if (by_name && arg[len])
			*value = arg + len + 1;
		else if (glued && !by_alias)
			*value = arg + 2;	/* -j4, as make takes it */
		else if (*i + 1 < argc)
			*value = argv[++*i];
		else
			return usage_error("'%s' needs a value (%s)", o->name, o->arg), NULL;
		return o;
	}
	unknown_option(c, arg);
	return NULL;
}

/* --jobs N: 1 to LK_CLI_JOBS_MAX analyses at once. */
static int parse_jobs(const char *s, unsigned *jobs)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (!*s || *end || errno || n < 1 || n > LK_CLI_JOBS_MAX) {
		fprintf(stderr, "linkscope: '--jobs' takes a number of processes from 1 to %d, not '%s'\n",
			LK_CLI_JOBS_MAX, s);
		return -1;
	}
	*jobs = (unsigned)n;
	return 0;
}

/* Is `f` one of the formats `c` gives ("text|json")? */
static int gives_format(const struct command *c, const char *f)
{
	size_t n = strlen(f);

	for (const char *p = c->formats; *p; p += strcspn(p, "|"), p += *p == '|')
		if (!strncmp(p, f, n) && (p[n] == '|' || !p[n]) && n)
			return 1;
	return 0;
}

/* Set what option `o` (with `value`) says. 0, or -1 after saying why. */
static int set_option(const struct option *o, const char *value, struct lk_options *opt)
{
	struct lk_err err = LK_ERR_INIT;

	switch (o->id) {
	case OPT_DIR:
		free(opt->dir);
		opt->dir = lk_xstrdup(value);
		return 0;
	case OPT_FORMAT:
		opt->format = value;
		return 0;
	case OPT_JSON:
		opt->format = "json";
		return 0;
	case OPT_FULL: opt->full = 1; return 0;
	case OPT_RUN_DRIVER: opt->run_driver = 1; return 0;
	case OPT_NO_DRIVER: opt->run_driver = 0; return 0;
	case OPT_REPLAY_ONLY: opt->replay_only = 1; return 0;
	case OPT_VERIFY: opt->verify_with_linker = 1; return 0;
	case OPT_WRITE_REPORTS: opt->write_reports = 1; return 0;
	case OPT_FAILED: opt->failed = 1; return 0;
	case OPT_SINCE: opt->since = value; return 0;
	case OPT_JOBS: return parse_jobs(value, &opt->jobs);
	case OPT_PROBES: opt->probes = 1; return 0;
	case OPT_ALL: opt->all = 1; return 0;
	case OPT_ROOT: opt->root = value; return 0;
	case OPT_MAX_SIZE: opt->max_size = value; return 0;
	case OPT_MAX_AGE: opt->max_age = value; return 0;
	case OPT_DRY_RUN: opt->dry_run = 1; return 0;
	case OPT_BASELINE: opt->baseline = value; return 0;
	case OPT_OUTPUT: opt->output = value; return 0;
	case OPT_INPUTS: opt->inputs = 1; return 0;
	case OPT_ACCEPT:
		lk_strvec_push(&opt->accept, value);
		return 0;
	case OPT_ACCEPT_FILE:
		if (lk_check_read_accept_file(value, &opt->accept, &err) < 0)
			break;
		return 0;
	case OPT_LINKERS:
		if (lk_check_parse_linkers(value, &opt->linkers, &err) < 0)
			break;
		return 0;
	case OPT_CARGO: case OPT_CMAKE: case OPT_LINE: case OPT_ARGV_FILE:
		if (opt->change_source)
			return usage_error("one source of the change: '%s' and '%s' were both given", opt->change_source, o->name);
		opt->change_source = o->name;
		opt->change_path = value;
		return 0;
	case OPT_TARGET: opt->target = value; return 0;
	case OPT_PROFILE: opt->profile = value; return 0;
	case OPT_CACHE_DIR:	/* index parses its own (indexcmd.c) */
	case OPT_HELP:		/* lk_cli_parse() looks for it first */
	case OPT_NR:
		LK_BUG("an option parsed elsewhere");
	}
	fprintf(stderr, "linkscope: %s\n", err.msg);
	return -1;
}

/* Give the operands their meaning; check what goes together. 0, or -1 after saying why. */
static int finish(const struct command *c, const char **ops, size_t nops, struct lk_options *opt)
{
	struct lk_err err = LK_ERR_INIT;
	size_t stdin_uses = 0;

	if (c->cmd == LK_CMD_REPORT && !opt->failed && !nops)
		return usage_error("'report' needs a RECORD (or --failed)");
	if (c->cmd == LK_CMD_REPORT && opt->failed && nops)
		return usage_error("'report --failed' reads the directory: '%s' is one argument too many", ops[0]);
	if (nops < (size_t)c->min_ops)
		return usage_error("'%s' needs %s", c->name, c->operands);
	if (c->max_ops >= 0 && nops > (size_t)c->max_ops)
		return usage_error("'%s' takes %s: '%s' is one argument too many", c->name,
				   *c->operands ? c->operands : "no argument", ops[c->max_ops]);
	if (!opt->format)
		opt->format = "text";
	if (!gives_format(c, opt->format))
		return usage_error("'%s' gives --format %s, not '%s'", c->name, c->formats, opt->format);
	if (!strcmp(opt->format, "github") && !opt->failed && c->cmd != LK_CMD_WHATIF)
		return usage_error("--format github goes with 'report --failed' and 'whatif'");
	if (c->cmd == LK_CMD_WHATIF && !opt->change_source)
		return usage_error("'whatif' needs the change: --cargo TARGET_DIR, --cmake BUILD_DIR, --line FILE or --argv-file FILE");
	if (opt->since && !opt->failed)
		return usage_error("--since goes with 'report --failed'");
	if (opt->jobs && !opt->failed)
		return usage_error("--jobs goes with 'report --failed'");
	if ((opt->probes || opt->all || (opt->root && c->cmd != LK_CMD_WHATIF)) && !opt->failed)
		return usage_error("--probes, --all and --root go with 'report --failed'");
	for (size_t i = 0; i < nops; i++)
		stdin_uses += !strcmp(ops[i], "-");
	if (opt->baseline && !strcmp(opt->baseline, "-"))
		stdin_uses++;
	if (stdin_uses && opt->write_reports)
		return usage_error("--write-reports writes beside the record's file: a record on stdin has none");
	if (stdin_uses > 1)
		return usage_error("'-' (a record on stdin) can be given once");
	if (c->cmd == LK_CMD_BUNDLE && (!opt->output || !*opt->output))
		return usage_error("'bundle' needs -o FILE: where to write the bundle");
	if (lk_check_accept_known(&opt->accept, &err) < 0)
		return usage_error("%s", err.msg);
	for (size_t i = 0; i < nops; i++) {
		LK_GROW(opt->records.items, opt->records.nr + 1, opt->records.alloc);
		opt->records.items[opt->records.nr++] = ops[i];
	}
	if (c->cmd == LK_CMD_WHY)
		opt->symbol = ops[1];
	else if (c->cmd == LK_CMD_DIFF)
		opt->record_b = ops[1];
	opt->record = nops ? ops[0] : NULL;
	return 0;
}

/* `linkscope help [COMMAND]`, `help --table`. */
static int run_help(const char **ops, size_t nops)
{
	const struct command *c;

	if (!nops) {
		print_help_all(stdout);
		return 1;
	}
	if (!strcmp(ops[0], "--table")) {
		print_table(stdout);
		return 1;
	}
	if (!(c = find_command(ops[0])))
		return unknown_command(ops[0]);
	print_help(stdout, c);
	return 1;
}

int lk_cli_parse(int argc, char **argv, struct lk_options *opt)
{
	const struct command *c;
	const char **ops;
	size_t nops = 0;
	int rc = 0, dashdash = 0;

	memset(opt, 0, sizeof(*opt));
	if (argc < 2) {
		print_help_all(stderr);
		return -1;
	}
	if (argc == 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
		printf("linkscope %s\n", LINKSCOPE_VERSION);
		return 1;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		print_help_all(stdout);
		return 1;
	}
	if (!(c = find_command(argv[1])))
		return unknown_command(argv[1]);
	opt->cmd = c->cmd;
	opt->command = c->name;
	for (int i = 2; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			print_help(stdout, c);
			return 1;
		}
	if (c->cmd == LK_CMD_INDEX)
		return 0;
	ops = lk_xcalloc((size_t)argc, sizeof(*ops));
	for (int i = 2; i < argc && !rc; i++) {
		const struct option *o;
		const char *value;

		if (dashdash || argv[i][0] != '-' || !argv[i][1] || (c->cmd == LK_CMD_HELP && !nops)) {
			ops[nops++] = argv[i];
		} else if (!strcmp(argv[i], "--")) {
			dashdash = 1;
		} else if (!(o = match_option(c, argc, argv, &i, &value)) || set_option(o, value, opt) < 0) {
			rc = -1;
		}
	}
	if (!rc && c->cmd == LK_CMD_HELP)
		rc = run_help(ops, nops);
	else if (!rc)
		rc = finish(c, ops, nops, opt);
	free(ops);
	if (rc)
		return rc;
	if (!opt->dir)
		opt->dir = lk_record_dir(getenv("LINKSCOPE_DIR"));
	opt->dir_shared = getenv(LK_PRIVATE_SHARED_VAR) && !strcmp(getenv(LK_PRIVATE_SHARED_VAR), "1");
	return 0;
}

void lk_cli_release(struct lk_options *opt)
{
	free(opt->dir);
	free(opt->records.items);
	lk_strvec_release(&opt->accept);
}
