/*
 * Text from a record or a symbol into Markdown that GitHub renders as
 * written (issue #32, point 4): cmark-gfm reads `std::char_traits<char>`
 * outside a code span as raw HTML and drops it, `*p` as emphasis, a `|`
 * as a table cell's end. Every string a report did not write itself goes
 * through one of these, and into a GitHub workflow command (--format
 * github) through lk_gh_escape: the one place each format is escaped.
 */
#ifndef ANALYZER_MD_H
#define ANALYZER_MD_H

#include <stdio.h>

struct lk_buf;

enum lk_md_flags {
	LK_MD_CELL = 1 << 0,	/* inside a table cell: `|` escaped even in a code span */
};

/* `s` as plain text: inline markup and a block marker at its start escaped, newlines as spaces. */
void lk_md_text(FILE *out, const char *s, unsigned flags);

/* `s` as one code span, its fence longer than any run of backquotes in it; newlines as spaces. */
void lk_md_code(FILE *out, const char *s, unsigned flags);

/* `s` appended to `b` as a workflow command's data, or (`property`) a property's value: nothing in it starts a command. */
void lk_gh_escape(struct lk_buf *b, const char *s, int property);

#endif
