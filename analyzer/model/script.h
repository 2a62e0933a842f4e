/*
 * Linker scripts given as inputs (libc.so is one): the commands that add
 * inputs or search dirs, as GNU ld reads them (ld/ldgram.y).
 */
#ifndef LINKSCOPE_SCRIPT_H
#define LINKSCOPE_SCRIPT_H

#include <stddef.h>

#include "linkscope/err.h"
#include "linkscope/strvec.h"

struct lk_script_input {
	char *name;		/* a path, or "-lfoo" */
	int as_needed;		/* inside AS_NEEDED ( ... ) */
	int in_group;		/* inside GROUP ( ... ), not INPUT ( ... ) */
};

struct lk_script {
	struct { struct lk_script_input *items; size_t nr, alloc; } inputs;
	struct lk_strvec search_dirs;	/* SEARCH_DIR ( ... ), in order */
	struct lk_strvec commands;	/* the top-level commands in order ("INPUT", "SEARCH_DIR", ...; "=" an assignment) */
	int has_sections;	/* SECTIONS/MEMORY/...: a full script, not only inputs */
	char *output_format;	/* OUTPUT_FORMAT's (first) BFD target name, or NULL */
	/* When parsing fails: ld's "syntax error" is sure at this line (0 if not), at this token (NULL: the end) ... */
	int error_line;
	char *error_token;
	/* ... or the script uses this command or expression, which is not modelled (no verdict). */
	char *unmodelled;

};

/*
 * Parse `text`. Returns 0, or -1 with `err` naming `path`, the line and
 * what was expected, and either error_line (ld rejects it there) or
 * unmodelled (ld may accept it) set. Release with lk_script_release() in
 * both cases.
 */
int lk_script_parse(const char *text, const char *path, struct lk_script *out,
		    struct lk_err *err);
void lk_script_release(struct lk_script *s);

/*
 * A text file ld meets as an input (not a -T script) is lexed whole before
 * it is parsed, and a character that begins no token of ld's script
 * lexer, outside a comment or a quoted name, makes it "file format not
 * recognized". Returns that character's line, with the character in
 * `shown` as an error message shows it ("@", "\\x80"), or 0.
 */
int lk_script_invalid_character(const char *text, char shown[8]);

#endif
