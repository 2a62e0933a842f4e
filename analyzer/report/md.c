/*
 * Strings -> Markdown that renders as written (see md.h). CommonMark lets
 * a backslash escape any ASCII punctuation (spec 2.4): the characters
 * that open inline markup are escaped anywhere, the ones that open a block
 * (a heading, a list item, a setext underline) only at the start, where
 * they would. Entities (`&lt;`) would be decoded: `&` is escaped too.
 */
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "md.h"

/* A control byte other than a newline (a terminal's escape, a backspace): never written as it is. */
static int is_control(char c)
{
	return ((unsigned char)c < 0x20 && c != '\n' && c != '\r') || c == 0x7f;
}

static void put_char(FILE *out, char c, unsigned flags)
{
	if (c == '\n' || c == '\r')
		fputc(' ', out);
	else if (is_control(c))
		fputc('?', out);
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

/*
 * GitHub's workflow command escaping (the runner's own: %25, %0D, %0A,
 * and in a property %3A, %2C): a newline can never start a command of
 * its own ("::stop-commands::", "::add-mask::"), nor a ':' end a
 * property; control bytes as '?'.
 */
void lk_gh_escape(struct lk_buf *b, const char *s, int property)
{
	for (; s && *s; s++) {
		if (*s == '%')
			lk_buf_addstr(b, "%25");
		else if (*s == '\r')
			lk_buf_addstr(b, "%0D");
		else if (*s == '\n')
			lk_buf_addstr(b, "%0A");
		else if (property && *s == ':')
			lk_buf_addstr(b, "%3A");
		else if (property && *s == ',')
			lk_buf_addstr(b, "%2C");
		else
			lk_buf_addch(b, is_control(*s) ? '?' : *s);
	}
}
