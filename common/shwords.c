/*
 * Shell words: POSIX sh's token recognition and quote removal (XCU 2.3,
 * 2.2, 2.6.7), and nothing of its expansions.
 *
 * Takes: the text of a command list as a build prints it (`make -n`, a
 * CMake link.txt line, a build.ninja command). Gives: its words with the
 * quotes removed, and its control operators and redirections as tokens.
 * Models: sh's quoting exactly; every expansion (parameter, command,
 * arithmetic, tilde, pathname) is refused with the text that asks for it,
 * since its value is the running shell's and no reader of a log can know
 * it. A '$' that starts no expansion ("a$", "$ ", "$/") is the character.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/shwords.h"
#include "linkscope/vec.h"

static void push(struct lk_sh_tokens *out, enum lk_sh_op op, const char *text, size_t len)
{
	LK_GROW(out->items, out->nr + 1, out->alloc);
	out->items[out->nr].op = op;
	out->items[out->nr++].text = lk_xstrndup(text, len);
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Ends an unquoted word: a blank, a newline, or a character of an operator. */
static int is_delim(char c)
{
	return is_blank(c) || c == '\n' || c == ';' || c == '&' || c == '|' || c == '<' || c == '>' ||
	       c == '(' || c == ')';
}

/* Does the '$' at `p` start an expansion (so what follows is the shell's to say)? */
static const char *expansion_kind(const char *p, const char *end)
{
	char c;

	if (p + 1 >= end)
		return NULL;
	c = p[1];
	if (c == '(')
		return p + 2 < end && p[2] == '(' ? "an arithmetic expansion" : "a command substitution";
	if (c == '{' || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	    strchr("@*#?$!-", c))
		return "a variable";
	return NULL;
}

static int refuse(struct lk_err *err, const char *what, const char *at, const char *end)
{
	size_t n = 0;

	/* the text that asks for it, up to the end of its word (at most 40 bytes) */
	while (at + n < end && n < 40 && (n == 0 || !is_blank(at[n])) && at[n] != '\n')
		n++;
	return lk_err_set(err, LK_E_FORMAT, "cannot know what the shell makes of '%.*s' (%s) without running it",
			  (int)n, at, what);
}

/* Read the word at *pp into `w`; 0, or -1 with `err` set. Stops at an unquoted delimiter. */
static int read_word(const char **pp, const char *end, struct lk_buf *w, struct lk_err *err)
{
	const char *p = *pp, *start = p;

	while (p < end && !is_delim(*p)) {
		char c = *p;

		if (c == '\'') {
			const char *q = memchr(p + 1, '\'', (size_t)(end - p - 1));

			if (!q)
				return refuse(err, "an unclosed quote", p, end);
			lk_buf_add(w, p + 1, (size_t)(q - p - 1));
			p = q + 1;
		} else if (c == '"') {
			for (p++;; p++) {
				if (p >= end)
					return refuse(err, "an unclosed quote", start, end);
				if (*p == '"')
					break;
				if (*p == '`')
					return refuse(err, "a command substitution", p, end);
				if (*p == '$' && expansion_kind(p, end))
					return refuse(err, expansion_kind(p, end), p, end);
				if (*p == '\\' && p + 1 < end && strchr("$`\"\\\n", p[1])) {
					if (p[1] != '\n')
						lk_buf_addch(w, p[1]);
					p++;
					continue;
				}
				lk_buf_addch(w, *p);
			}
			p++;
		} else if (c == '\\') {
			if (p + 1 >= end) {
				lk_buf_addch(w, c);
				p++;
			} else {
				if (p[1] != '\n')
					lk_buf_addch(w, p[1]);
				p += 2;
			}
		} else if (c == '`') {
			return refuse(err, "a command substitution", p, end);
		} else if (c == '$' && expansion_kind(p, end)) {
			return refuse(err, expansion_kind(p, end), p, end);
		} else if (c == '*' || c == '?' || c == '[') {
			return refuse(err, "a pattern the shell matches against file names", start, end);
		} else if (c == '~' && p == start) {
			return refuse(err, "a home directory", p, end);
		} else {
			lk_buf_addch(w, c);
			p++;
		}
	}
	*pp = p;
	return 0;
}

/* The redirection operator at `p` (after its digits), its length, or 0. */
static size_t redir_len(const char *p, const char *end)
{
	if (*p != '<' && *p != '>')
		return 0;
	if (p + 1 < end && (p[1] == '>' || p[1] == '&' || p[1] == '|' || p[1] == '<'))
		return 2;
	if (*p == '<' && p + 1 < end && p[1] == '>')
		return 2;
	return 1;
}

int lk_sh_split(const char *text, size_t len, struct lk_sh_tokens *out, struct lk_err *err)
{
	const char *p = text, *end = text + len;
	struct lk_buf w = LK_BUF_INIT;
	int rc = 0;

	while (p < end && !rc) {
		const char *digits = p;
		size_t n;

		if (is_blank(*p)) {
			p++;
			continue;
		}
		if (*p == '\\' && p + 1 < end && p[1] == '\n') {
			p += 2;
			continue;
		}
		if (*p == '#') {
			while (p < end && *p != '\n')
				p++;
			continue;
		}
		if (*p == '\n' || *p == ';') {
			if (*p == ';' && p + 1 < end && p[1] == ';') {
				rc = refuse(err, "a case clause", p, end);
				break;
			}
			push(out, LK_SH_SEMI, p, 1);
			p++;
			continue;
		}
		if (*p == '&' || *p == '|') {
			int two = p + 1 < end && p[1] == *p;

			push(out, *p == '&' ? (two ? LK_SH_AND : LK_SH_AMP) : (two ? LK_SH_OR : LK_SH_PIPE), p,
			     two ? 2 : 1);
			p += two ? 2 : 1;
			continue;
		}
		if (*p == '(' || *p == ')') {
			rc = refuse(err, "a subshell", p, end);
			break;
		}
		/* an IO number: digits right before < or > */
		while (digits < end && *digits >= '0' && *digits <= '9')
			digits++;
		if (digits < end && (n = redir_len(digits, end))) {
			if (n == 2 && digits[0] == '<' && digits[1] == '<') {
				rc = refuse(err, "a here-document", p, end);
				break;
			}
			push(out, LK_SH_REDIR, p, (size_t)(digits - p) + n);
			p = digits + n;
			continue;
		}
		lk_buf_reset(&w);
		rc = read_word(&p, end, &w, err);
		if (!rc)
			push(out, LK_SH_WORD, w.buf, w.len);
	}
	lk_buf_release(&w);
	return rc;
}

void lk_sh_tokens_release(struct lk_sh_tokens *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->items[i].text);
	free(t->items);
	t->items = NULL;
	t->nr = t->alloc = 0;
}
