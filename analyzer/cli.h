/*
 * The analyzer's command line: one table of commands and options
 * (cli.c) that parses argv, prints `linkscope help [CMD]` and `CMD
 * --help`, says "did you mean" for a mistyped command or option, and
 * that tests/integ/130-cli.sh reads (`linkscope help --table`) to check
 * that linkscope(1) and the bash completion name every command and option.
 */
#ifndef ANALYZER_CLI_H
#define ANALYZER_CLI_H

#include <stddef.h>

#include "linkscope/strvec.h"

struct lk_walls;

/* The most analyses --jobs runs at once. */
#define LK_CLI_JOBS_MAX 1024

enum lk_cmd {
	LK_CMD_LIST, LK_CMD_SHOW, LK_CMD_EXPLAIN, LK_CMD_REPORT, LK_CMD_WHY, LK_CMD_DIFF,
	LK_CMD_PRUNE, LK_CMD_INDEX, LK_CMD_CHECK, LK_CMD_WHATIF, LK_CMD_BUNDLE, LK_CMD_HELP,
	LK_CMD_NR
};

/* What main() runs: the parsed command line. Strings are borrowed from argv unless said. */
struct lk_options {
	enum lk_cmd cmd;
	const char *command;	/* its name */
	const char *record;	/* RECORD: a path, last, last-failed, an id (prefix), - (recdir.h) */
	struct { const char **items; size_t nr, alloc; } records;	/* check: every RECORD (owned array) */
	char *dir;		/* owned */
	int full, run_driver, replay_only, write_reports, verify_with_linker;
	const char *format;	/* text, json, markdown, github: one the command gives */
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
	const char *change_source;	/* whatif: "--cargo", "--cmake", "--line", "--argv-file" */
	const char *change_path;	/* ... its value */
	const char *target, *profile;	/* whatif --target, --profile */
	struct lk_strvec accept;	/* check: KIND:SYMBOL (owned) */
	unsigned linkers;	/* check --linkers: 1 << enum lk_linker of each that must link */
	const char *output;	/* bundle -o FILE */
	struct lk_strvec *shown;	/* main's: pairs of a bundled copy's path (or SHA-256) and the name the outputs give it (main.c) */
	int inputs;		/* bundle --inputs */
	struct lk_walls *walls;		/* what the driver's runs went without (sandbox.h): main's, said once */
	int dir_shared;			/* LINKSCOPE_DIR_SHARED=1: kept copies from a dir not the user's alone */
};

/*
 * Parse argv into `opt`. 0: run opt->cmd; 1: done, exit 0 (help or the
 * version printed); -1: a usage error, said on stderr with the command's
 * usage and a "did you mean" when one is near; exit 2. `index` parses its
 * own options (indexcmd.c): for it, 0 leaves the rest to lk_index_main().
 * Release with lk_cli_release() whatever it returned.
 */
int lk_cli_parse(int argc, char **argv, struct lk_options *opt);
void lk_cli_release(struct lk_options *opt);

#endif
