/*
 * A JSON writer that streams into a buffer, without building a tree: the
 * text is jansson's json_dumps() with JSON_INDENT(1) | JSON_PRESERVE_ORDER,
 * byte for byte (the same escapes: \" \\ \b \f \n \r \t, other control
 * characters as \u00XX, everything else, '/' and UTF-8 included, as is).
 * The shim writes its record with it on every link (docs/bench.md: a tree
 * and its dump were two thirds of the shim's own instructions); jansson
 * stays the reader.
 *
 * Strings follow linkscope's one rule (json.h): valid UTF-8 as a string,
 * other bytes as {"hex": ...}, NULL as null.
 */
#ifndef LINKSCOPE_JSONW_H
#define LINKSCOPE_JSONW_H

#include <stddef.h>
#include <stdint.h>

#include "linkscope/buf.h"

/* Deep enough for every JSON linkscope writes; deeper is a bug (LK_BUG). */
#define LK_JSONW_DEPTH 16

struct lk_jsonw_level {
	const char *key;	/* object: the current key, borrowed until the next */
	size_t count;		/* members or elements written so far */
	int is_array;
};

struct lk_jsonw {
	struct lk_buf out;	/* the text so far; the caller takes it (lk_buf_detach) */
	struct lk_jsonw_level stack[LK_JSONW_DEPTH];
	int depth;		/* 0: no container open */
};

#define LK_JSONW_INIT { LK_BUF_INIT, { { 0 } }, 0 }

void lk_jsonw_object(struct lk_jsonw *w);
void lk_jsonw_array(struct lk_jsonw *w);
/* Close the innermost object or array. */
void lk_jsonw_end(struct lk_jsonw *w);
/* The next member's key (borrowed until the next key at this level). */
void lk_jsonw_key(struct lk_jsonw *w, const char *key);

void lk_jsonw_str(struct lk_jsonw *w, const char *s);
void lk_jsonw_strn(struct lk_jsonw *w, const char *s, size_t len);
void lk_jsonw_int(struct lk_jsonw *w, int64_t v);
/* A negative value as null. */
void lk_jsonw_int_or_null(struct lk_jsonw *w, int64_t v);
void lk_jsonw_bool(struct lk_jsonw *w, int v);
void lk_jsonw_null(struct lk_jsonw *w);
/* A real, formatted by jansson itself (its precision and ".0" rules). */
void lk_jsonw_real(struct lk_jsonw *w, double v);

/*
 * The path of the value about to be written, as "env.vars.HOME" or
 * "expansion.commands[1][40]", appended to `out`.
 */
void lk_jsonw_next_path(const struct lk_jsonw *w, struct lk_buf *out);

/* Length of the valid UTF-8 sequence at s (at most `len` bytes), or 0: jansson's rule. */
size_t lk_utf8_seq(const unsigned char *s, size_t len);

#endif
