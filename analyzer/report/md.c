/*
 * Strings -> Markdown that renders as written (see md.h). CommonMark lets
 * a backslash escape any ASCII punctuation (spec 2.4): the characters
 * that open inline markup are escaped anywhere, the ones that open a block
 * (a heading, a list item, a setext underline) only at the start, where
 * they would. Entities (`&lt;`) would be decoded: `&` is escaped too.
 */
#include <string.h>

#include "linkscope/banned.h"
#include "md.h"

static void put_char(FILE *out, char c, unsigned flags)
{
	if (c == '\n' || c == '\r')
		fputc(' ', out);
	else if (c == '|' && (flags & LK_MD_CELL))
		fputs("\\|", out);
	else
		fputc(c, out);
}

void lk_md_text(FILE *out, const char *s, unsigned flags)
{
	const char *p = s;

	if (!s)
		return;
	/* A block marker only counts at the start: "# x", "- x", "+ x", "=", "1. x". */
	if (strchr("#-+=", *p) && *p)
		fputc('\\', out);
	while (*p >= '0' && *p <= '9')
		fputc(*p++, out);
	if (p != s && (*p == '.' || *p == ')'))
		fputc('\\', out);
	for (; *p; p++) {
		if (strchr("\\`*_[]<>&~|", *p) && *p)
			fputc('\\', out);
		if (*p == '|')
			fputc('|', out);	/* escaped above, in a cell as out of one */
		else
			put_char(out, *p, flags);
	}
}

void lk_md_code(FILE *out, const char *s, unsigned flags)
{
	size_t run = 0, longest = 0, len;
	int pad;

	if (!s || !*s) {
		fputs("(empty)", out);
		return;
	}
	for (const char *p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	len = strlen(s);
	/* A span that starts or ends with a backquote, or with a space at both ends, is padded (spec 6.1). */
	pad = s[0] == '`' || s[len - 1] == '`' || (s[0] == ' ' && s[len - 1] == ' ');
	for (size_t i = 0; i <= longest; i++)
		fputc('`', out);
	if (pad)
		fputc(' ', out);
	for (const char *p = s; *p; p++)
		put_char(out, *p, flags);
	if (pad)
		fputc(' ', out);
	for (size_t i = 0; i <= longest; i++)
		fputc('`', out);
}
