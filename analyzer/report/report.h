/* The post-mortem report: text (explain), JSON (the contract's fields), Markdown. */
#ifndef ANALYZER_REPORT_H
#define ANALYZER_REPORT_H

#include <stdio.h>

#include "line.h"
#include "linkscope/record.h"
#include "fix.h"
#include "replay.h"

/* `fixes` is the fix stage's result for `rp` (analyzer/fix/fix.h); an empty one prints none. */
struct lk_report_options {
	int replay_only;	/* ignore the linker's recorded status and stderr */
	int color;		/* text: ANSI colours (color.h: a TTY and no NO_COLOR) */
};

void lk_report_text(FILE *out, const struct lk_record *rec, const struct lk_line *line,
		    const struct lk_replay *rp,
		    const struct lk_fixes *fixes, const struct lk_report_options *opt);
int lk_report_json(FILE *out, const struct lk_record *rec, const struct lk_line *line,
		   const struct lk_replay *rp,
		    const struct lk_fixes *fixes, const struct lk_report_options *opt);
void lk_report_md(FILE *out, const struct lk_record *rec, const struct lk_line *line,
		  const struct lk_replay *rp,
		    const struct lk_fixes *fixes, const struct lk_report_options *opt);

/* `s` as the text of a Markdown table cell (md.h): markup and "|" escaped, newlines as spaces. */
void lk_report_md_cell(FILE *out, const char *s);

#endif
