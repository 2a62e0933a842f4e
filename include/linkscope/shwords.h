/*
 * Shell words: a command list split as POSIX sh reads it (quote removal,
 * control operators and redirections as tokens of their own), without
 * running or expanding anything. For the lines a build prints (`make -n`,
 * CMake's link.txt and build.ninja commands): a word the shell would
 * expand ($VAR, $(...), `...`, a glob, ~) cannot be known without a
 * shell, so it is refused, never guessed.
 */
#ifndef LINKSCOPE_SHWORDS_H
#define LINKSCOPE_SHWORDS_H

#include <stddef.h>

#include "linkscope/err.h"

enum lk_sh_op {
	LK_SH_WORD = 0,		/* a word, quotes removed */
	LK_SH_AND,		/* && */
	LK_SH_OR,		/* || */
	LK_SH_SEMI,		/* ; or an unquoted newline */
	LK_SH_PIPE,		/* | */
	LK_SH_AMP,		/* & */
	LK_SH_REDIR,		/* a redirection operator (text: "2>", ">>", "<", ">&", ...); the next token is its word */
};

struct lk_sh_token {
	enum lk_sh_op op;
	char *text;		/* owned: the word, or the operator as written */
};

struct lk_sh_tokens {
	struct lk_sh_token *items;
	size_t nr, alloc;
};

#define LK_SH_TOKENS_INIT { NULL, 0, 0 }

/*
 * Split `text` (`len` bytes, no NUL inside) as sh would: blanks separate
 * words; '...' quotes everything; "..." quotes all but $, ` and \ (which
 * escapes only $ ` " \ and newline there); an unquoted \ quotes the next
 * character; \ newline is removed outside '...'; # at a word's start
 * comments out the rest of its line. Appends to `out` and returns 0, or
 * returns -1 with `err` saying what the shell alone could do (an
 * expansion, a glob, a leading ~, a subshell, an unclosed quote); `out`
 * then holds the tokens before it. The caller releases `out`.
 */
int lk_sh_split(const char *text, size_t len, struct lk_sh_tokens *out, struct lk_err *err);

void lk_sh_tokens_release(struct lk_sh_tokens *t);

#endif
