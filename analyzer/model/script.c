/*
 * Inputs -> linker-script inputs.
 *
 * Takes the text of a file that is not ELF or an archive; gives the inputs
 * it adds (GROUP, INPUT, AS_NEEDED inside them) and its SEARCH_DIRs, as
 * GNU ld's grammar (ld/ldgram.y, ld/ldlex.l) reads them: C comments,
 * names separated by blanks or commas, quoted names. Other commands with
 * parenthesized arguments (OUTPUT_FORMAT, OUTPUT_ARCH, ENTRY, ...) are
 * skipped; SECTIONS, MEMORY, PHDRS and VERSION blocks mark a full script.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "script.h"
#include "linkscope/vec.h"

struct lexer {
	const char *p;
	int line;
	const char *path;
	struct lk_buf tok;
	int quoted;
	int in_list;		/* inside GROUP ( ... ): ld's INPUTLIST state, where '#' is no comment */
	struct lk_script *s;	/* where a failure's line and token, or the command not modelled, go */
};

/*
 * ld's own script commands (ld/ldlex.l) that this parser does not read:
 * a script using one is not modelled, which is no syntax error.
 */
static const char *const ld_keywords[] = { "INCLUDE", "INSERT", "STARTUP", "OUTPUT", "TARGET",
	"OUTPUT_FORMAT", "OUTPUT_ARCH", "ENTRY", "EXTERN", "NOCROSSREFS", "NOCROSSREFS_TO",
	"REGION_ALIAS", "LD_FEATURE", "ASSERT", "PROVIDE", "PROVIDE_HIDDEN", "HIDDEN", "CREATE_OBJECT_SYMBOLS",
	"CONSTRUCTORS", "SORT", "KEEP", "MAP", "NOLOAD", "OVERLAY", NULL };

/* The commands that read no inputs and take no arguments: nothing to model. */
static const char *const no_argument_commands[] = { "FORCE_COMMON_ALLOCATION",
	"INHIBIT_COMMON_ALLOCATION", "FORCE_GROUP_ALLOCATION", NULL };

static int in_list(const char *const *list, const char *word)
{
	for (; *list; list++)
		if (!strcmp(*list, word))
			return 1;
	return 0;
}

/* The failure is ld's "syntax error" at the current token (at the end of the file when there is none). */
static void syntax_error_here(struct lexer *lx)
{
	if (lx->s->error_line)
		return;
	lx->s->error_line = lx->line;
	lx->s->error_token = lx->tok.len || lx->quoted ? lk_xstrdup(lx->tok.buf) : NULL;
}

/* Next token into lx->tok: a name, or one of ( ) { } ; , = ; "" at the end. */
static int next_token(struct lexer *lx, struct lk_err *err)
{
	lk_buf_reset(&lx->tok);
	lx->quoted = 0;
	for (;;) {
		while (isspace((unsigned char)*lx->p)) {
			if (*lx->p == '\n')
				lx->line++;
			lx->p++;
		}
		if (lx->p[0] == '/' && lx->p[1] == '*') {
			const char *end = strstr(lx->p + 2, "*/");

			if (!end) {
				syntax_error_here(lx);
				return lk_err_set(err, LK_E_FORMAT, "'%s' line %d: unterminated comment",
						  lx->path, lx->line);
			}
			for (const char *q = lx->p; q < end; q++)
				lx->line += *q == '\n';
			lx->p = end + 2;
			continue;
		}
		if (*lx->p == '#') {
			/* A comment to the end of the line; in a file list, a character ld drops. */
			lx->p += lx->in_list ? 1 : strcspn(lx->p, "\n");
			continue;
		}
		break;
	}
	if (!*lx->p)
		return 0;
	/*
	 * In a file list a name may start with '=', the sysroot's prefix
	 * (ldlex.l's INPUTLIST: "="?{FILENAMECHAR1}{FILENAMECHAR}*).
	 */
	if (lx->in_list && lx->p[0] == '=' && lx->p[1] &&
	    (isalpha((unsigned char)lx->p[1]) || strchr("_/.\\$~", lx->p[1])))
		lk_buf_addch(&lx->tok, *lx->p++);
	else if (strchr("(){};,=", *lx->p)) {
		lk_buf_addch(&lx->tok, *lx->p++);
		return 0;
	}
	if (*lx->p == '"') {
		const char *end = strchr(lx->p + 1, '"');

		if (!end) {
			syntax_error_here(lx);
			return lk_err_set(err, LK_E_FORMAT, "'%s' line %d: unterminated string",
					  lx->path, lx->line);
		}
		lk_buf_add(&lx->tok, lx->p + 1, (size_t)(end - lx->p - 1));
		lx->p = end + 1;
		lx->quoted = 1;
		return 0;
	}
	while (*lx->p && !isspace((unsigned char)*lx->p) && !strchr("(){};,\"#", *lx->p) &&
	       !(lx->p[0] == '/' && lx->p[1] == '*'))
		lk_buf_addch(&lx->tok, *lx->p++);
	return 0;
}

/*
 * ld reads a text input twice: first it lexes the whole file in its
 * SCRIPT state (ldfile.c's ldfile_try_open_bfd, looking for an
 * OUTPUT_FORMAT that would make it skip the file), then it parses it. In
 * the first pass a character that begins no token of that state is fatal,
 * "file not recognized: file format not recognized" (ldlex.l's
 * lex_warn_invalid while ldfile_assumed_script), wherever it is but in a
 * comment or a quoted name. Which characters: measured on GNU ld 2.40,
 * each alone and in context (tests/integ/128-script-lexer.sh): letters,
 * digits, blanks and !$()+,-./:;=>\_{}~ begin tokens; so do the
 * operators *=, |=, &= and <<=; '#' begins a comment to the end of the
 * line; " % & ' * < ? @ [ ] ^ ` | alone, other control characters and
 * bytes over 0x7f do not. Returns the first such character, with its
 * line in *line, or NULL. Not for a -T script: ld parses that at once.
 */
static const char *invalid_character(const char *p, int *line)
{
	static const char *const operators[] = { "*=", "|=", "&=", "<<=", NULL };

	for (*line = 1; *p; p++) {
		unsigned char c = (unsigned char)*p;
		const char *end;
		int op = 0;

		if (c == '\n')
			++*line;
		if (c == '/' && p[1] == '*') {
			if (!(end = strstr(p + 2, "*/")))
				return NULL;	/* "EOF in comment": the parse says so */
			for (; p < end; p++)
				*line += *p == '\n';
			p++;
			continue;
		}
		if (isalnum(c) || strchr(" \t\n\r!$()+,-./:;=>\\_{}~", c))
			continue;
		if (c == '#' || (c == '"' && strchr(p + 1, '"'))) {
			end = c == '#' ? p + strcspn(p, "\n") - 1 : strchr(p + 1, '"');
			for (; p < end; p++)
				*line += p[1] == '\n' && c == '"';
			continue;
		}
		for (const char *const *o = operators; *o && !op; o++)
			if (!strncmp(p, *o, strlen(*o)))
				op = (int)strlen(*o);
		if (!op)
			return p;
		p += op - 1;
	}
	return NULL;
}

/*
 * `s` as an error message shows it: on one line, a control character
 * (a quoted name may hold a newline) written as \n or \xNN.
 */
static const char *one_line(const char *s, char *buf, size_t size)
{
	size_t n = 0;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char piece[8];
		size_t len;

		if (c == '\n')
			len = (size_t)snprintf(piece, sizeof(piece), "\\n");
		else if (c < 0x20 || c == 0x7f)
			len = (size_t)snprintf(piece, sizeof(piece), "\\x%02x", c);
		else
			piece[0] = (char)c, len = 1;
		if (n + len >= size)
			break;
		memcpy(buf + n, piece, len);
		n += len;
	}
	buf[n] = '\0';
	return buf;
}

int lk_script_invalid_character(const char *text, char shown[8])
{
	int line;
	const char *bad = invalid_character(text, &line);

	if (!bad)
		return 0;
	if ((unsigned char)*bad >= 0x80)
		snprintf(shown, 8, "\\x%02x", (unsigned char)*bad);	/* a byte, not a character */
	else
		one_line((char[2]){ *bad, 0 }, shown, 8);
	return line;
}

static int is(const struct lexer *lx, const char *s)
{
	return !lx->quoted && !strcmp(lx->tok.buf, s);
}

static int expect(struct lexer *lx, const char *what, struct lk_err *err)
{
	if (next_token(lx, err) < 0)
		return -1;
	if (!is(lx, what)) {
		char shown[sizeof(err->msg)];

		syntax_error_here(lx);
		return lk_err_set(err, LK_E_FORMAT, "'%s' line %d: expected '%s', found '%s'",
				  lx->path, lx->line, what,
				  lx->tok.len ? one_line(lx->tok.buf, shown, sizeof(shown)) : "end of file");
	}
	return 0;
}

static void add_input(struct lk_script *s, const char *name, int as_needed, int in_group)
{
	struct lk_script_input *in;

	LK_GROW(s->inputs.items, s->inputs.nr + 1, s->inputs.alloc);
	in = &s->inputs.items[s->inputs.nr++];
	in->name = lk_xstrdup(name);
	in->as_needed = as_needed;
	in->in_group = in_group;
}

/* The list after GROUP( or INPUT( or AS_NEEDED(, up to its ')', in ld's INPUTLIST state. */
static int read_file_list(struct lexer *lx, struct lk_script *s, int as_needed,
			  int in_group, struct lk_err *err)
{
	for (;;) {
		lx->in_list = 1;
		if (next_token(lx, err) < 0)
			return -1;
		if (!lx->tok.len && !lx->quoted) {
			syntax_error_here(lx);
			return lk_err_set(err, LK_E_FORMAT, "'%s' line %d: expected ')' before end of file",
					  lx->path, lx->line);
		}
		if (is(lx, ")")) {
			lx->in_list = 0;
			return 0;
		}
		if (is(lx, ","))
			continue;
		if (is(lx, "AS_NEEDED")) {
			if (expect(lx, "(", err) < 0 || read_file_list(lx, s, 1, in_group, err) < 0)
				return -1;
			continue;
		}
		if (!lx->quoted && strchr("(){};=", lx->tok.buf[0]) && !(lx->tok.buf[0] == '=' && lx->tok.len > 1) &&
		    (syntax_error_here(lx), 1))
			return lk_err_set(err, LK_E_FORMAT, "'%s' line %d: unexpected '%s' in a file list",
					  lx->path, lx->line, lx->tok.buf);
		add_input(s, lx->tok.buf, as_needed, in_group);
	}
}

/* Skip a balanced ( ... ) or { ... } whose opener was just read. */
static int skip_block(struct lexer *lx, char open, char close, struct lk_err *err)
{
	int depth = 1;

	while (depth) {
		if (next_token(lx, err) < 0)
			return -1;
		if (!lx->tok.len && !lx->quoted) {
			syntax_error_here(lx);
			return lk_err_set(err, LK_E_FORMAT, "'%s' line %d: expected '%c' before end of file",
					  lx->path, lx->line, close);
		}
		if (!lx->quoted && lx->tok.buf[0] == open && lx->tok.len == 1)
			depth++;
		else if (!lx->quoted && lx->tok.buf[0] == close && lx->tok.len == 1)
			depth--;
	}
	return 0;
}

/* A plain name: what ld's lexer reads as one NAME token, with no operator in it. */
static int word_like(const char *w)
{
	if (!isalpha((unsigned char)w[0]) && w[0] != '_')
		return 0;
	for (; *w; w++)
		if (!isalnum((unsigned char)*w) && !strchr("_.-/$", *w))
			return 0;
	return 1;
}

/*
 * A word that ld's lexer cannot take for a keyword: not all capitals (every
 * command of ld/ldlex.l is, but for these few lower-case ones), not an
 * operator or a bracket. At the start of a statement ld's grammar reads it
 * as a NAME, which only an assignment may follow.
 */
static int is_plain_name(const char *w)
{
	static const char *const lower_keywords[] = { "sizeof_headers", "absolute", "o", "org", "l",
		"len", NULL };
	int lower = 0;

	if (!*w || strchr("(){};,=+-*/<>&|!~", *w) || in_list(lower_keywords, w))
		return 0;
	for (; *w; w++)
		lower |= islower((unsigned char)*w) || strchr(".=$/\\:", *w);
	return lower;
}

/*
 * The token read is one of ld's assignment operators (ldgram.y's assign_op
 * and '='). Only '=' is read here: "x += 4;" reads x, and ld fails when
 * nothing defined it ("undefined symbol `x' referenced in expression"),
 * which is not modelled.
 */
static int is_assign_op(const struct lexer *lx)
{
	static const char *const ops[] = { "=", "+=", "-=", "*=", "/=", "<<=", ">>=", "&=", "|=", NULL };

	return !lx->quoted && in_list(ops, lx->tok.buf);
}

static int read_command(struct lexer *lx, struct lk_script *s, struct lk_err *err)
{
	static const char *const blocks[] = { "SECTIONS", "MEMORY", "PHDRS", "VERSION", NULL };
	char name[64];

	one_line(lx->tok.buf, name, sizeof(name));
	if (is(lx, ";"))
		return 0;
	if (in_list(ld_keywords, name) || in_list(no_argument_commands, name) || in_list(blocks, name) ||
	    is(lx, "GROUP") || is(lx, "INPUT") || is(lx, "SEARCH_DIR"))
		lk_strvec_push(&s->commands, name);	/* lld and mold know fewer (replay/script_commands.c) */
	if (is(lx, "GROUP") || is(lx, "INPUT")) {
		int group = is(lx, "GROUP");

		return expect(lx, "(", err) < 0 ? -1 : read_file_list(lx, s, 0, group, err);
	}
	if (is(lx, "SEARCH_DIR")) {
		if (expect(lx, "(", err) < 0 || next_token(lx, err) < 0)
			return -1;
		lk_strvec_push(&s->search_dirs, lx->tok.buf);
		return expect(lx, ")", err);
	}
	for (const char *const *b = blocks; *b; b++) {
		if (!strcmp(name, *b)) {
			s->has_sections = 1;
			return expect(lx, "{", err) < 0 ? -1 : skip_block(lx, '{', '}', err);
		}
	}
	if (in_list(no_argument_commands, name))
		return 0;
	if (!strcmp(name, "{") && !lx->quoted) {
		syntax_error_here(lx);
		return lk_err_set(err, LK_E_FORMAT, "'%s' line %d: '{' opens no command", lx->path, lx->line);
	}
	if (!strcmp(name, ")") || !strcmp(name, "}")) {
		syntax_error_here(lx);
		return lk_err_set(err, LK_E_FORMAT, "'%s' line %d: '%s' closes nothing", lx->path, lx->line, name);
	}
	if (in_list(ld_keywords, name) && strcmp(name, "INCLUDE") && strcmp(name, "INSERT") &&
	    strcmp(name, "STARTUP")) {
		/* Commands of one parenthesized argument list that add no input: skipped. */
		int format = !strcmp(name, "OUTPUT_FORMAT");

		if (expect(lx, "(", err) < 0)
			return -1;
		if (format) {
			/* Its first name: the target a -l search compares (libsearch.c). */
			if (next_token(lx, err) < 0)
				return -1;
			if (is(lx, ")"))
				return 0;
			if (!s->output_format)
				s->output_format = lk_xstrdup(lx->tok.buf);
		}
		return skip_block(lx, '(', ')', err);
	}
	if (next_token(lx, err) < 0)
		return -1;
	if (is(lx, "=")) {
		/* A symbol assignment: skip to its ';'. */
		lk_strvec_push(&s->commands, "=");
		while (!is(lx, ";")) {
			if (next_token(lx, err) < 0)
				return -1;
			if (!lx->tok.len) {
				syntax_error_here(lx);
				return lk_err_set(err, LK_E_FORMAT, "'%s' line %d: expected ';' after assignment to '%s'",
						  lx->path, lx->line, name);
			}
		}
		return 0;
	}
	if ((is_plain_name(name) && !is_assign_op(lx)) ||
	    (!in_list(ld_keywords, name) && word_like(name) && !lx->quoted && lx->tok.len &&
	     word_like(lx->tok.buf))) {
		/* A name where ld's grammar wants a command, not followed by an assignment: "syntax error" at what follows. */
		syntax_error_here(lx);
		return lk_err_set(err, LK_E_FORMAT, "'%s' line %d: '%s' is not a linker script command",
				  lx->path, lx->line, name);
	}
	/* Anything else (an expression, a command ld knows and this parser does not read): not modelled. */
	lx->s->unmodelled = lk_xstrdup(name);
	return lk_err_set(err, LK_E_FORMAT, "'%s' line %d: '%s' is not modelled here",
			  lx->path, lx->line, name);
}

int lk_script_parse(const char *text, const char *path, struct lk_script *out,
		    struct lk_err *err)
{
	struct lexer lx = { text, 1, path, LK_BUF_INIT, 0, 0, out };
	int rc = 0;

	memset(out, 0, sizeof(*out));
	for (;;) {
		if (next_token(&lx, err) < 0) {
			rc = -1;
			break;
		}
		if (!lx.tok.len && !lx.quoted)
			break;
		if (read_command(&lx, out, err) < 0) {
			rc = -1;
			break;
		}
	}
	lk_buf_release(&lx.tok);
	return rc;
}

void lk_script_release(struct lk_script *s)
{
	for (size_t i = 0; i < s->inputs.nr; i++)
		free(s->inputs.items[i].name);
	free(s->inputs.items);
	lk_strvec_release(&s->search_dirs);
	lk_strvec_release(&s->commands);
	free(s->output_format);
	free(s->error_token);
	free(s->unmodelled);
	memset(s, 0, sizeof(*s));
}
