/*
 * libFuzzer target: the record reader on arbitrary bytes, then every
 * analysis command on what it parses (show, explain, report in three
 * formats, why, diff), as `linkscope` runs them without --run-driver.
 * PATH is emptied first: without --run-driver the analysis looks up only
 * this machine's ld, by name on PATH, so here it finds nothing to run and
 * every run is the record's data alone.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "line.h"
#include "linkscope/record.h"
#include "replay.h"
#include "diff.h"
#include "explain.h"
#include "fix.h"
#include "report.h"
#include "resolve.h"
#include "show.h"
#include "warn.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("PATH", "", 1);
	return 0;
}

static void analyse(const struct lk_record *rec, FILE *sink)
{
	struct lk_line_options lopt = { 0 };
	struct lk_report_options ropt = { 0 };
	struct lk_show_options sopt = { 0, 1 };
	struct lk_strvec lines = LK_STRVEC_INIT;
	struct lk_err err = LK_ERR_INIT;
	struct lk_line line, other;
	struct lk_replay rp;

	/* The stages in turn, as the commands call them. */
	if (lk_line_build(rec, &lopt, &line, &err) < 0)
		return;
	lk_resolve_line(rec, &line);
	lk_warn_line(rec, &line);
	lk_show_text(sink, rec, &line, &sopt);
	lk_show_json(sink, rec, &line);
	if (lk_replay_run(rec, &line, LK_REPLAY_SNAPSHOT, &rp, &err) == 0) {
		struct lk_fixes fx;

		lk_explain_diags(&rp, &line);
		lk_explain_causes(rec, &line, &rp);
		lk_fix_all(rec, &line, &rp, &fx);
		lk_report_text(sink, rec, &line, &rp, &fx, &ropt);
		lk_report_json(sink, rec, &line, &rp, &fx, &ropt);
		lk_report_md(sink, rec, &line, &rp, &fx, &ropt);
		lk_explain_why(&rp, &line, rec->args.nr > 1 ? rec->args.items[1].text : "main", &lines);
		lk_strvec_release(&lines);
		lk_fixes_release(&fx);
		lk_explain_release(&rp);
		lk_replay_release(&rp);
	}
	if (lk_line_build(rec, &lopt, &other, &err) == 0) {
		lk_resolve_line(rec, &other);
		lk_warn_line(rec, &other);
		lk_diff_print(sink, rec, &line, rec, &other, 0);
		lk_line_release(&other);
	}
	lk_line_release(&line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	static FILE *sink;
	struct lk_record s;
	struct lk_err err = LK_ERR_INIT;
	FILE *fp;

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/lk-fuzz-record-%ld.json", (long)getpid());
	if (!sink)
		sink = fopen("/dev/null", "w");
	fp = fopen(path, "wb");
	if (!fp)
		return 0;
	fwrite(data, 1, size, fp);
	fclose(fp);
	if (lk_record_load(path, &s, &err) == 0) {
		analyse(&s, sink);
		lk_record_release(&s);
	} else if (!err.msg[0]) {
		abort();	/* every failure names its cause */
	}
	return 0;
}
