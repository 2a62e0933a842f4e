/*
 * The streaming JSON writer (see the header): jansson's dump format with
 * JSON_INDENT(1) | JSON_PRESERVE_ORDER, written as the values come, so
 * nothing is allocated per value and nothing is freed after.
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "linkscope/banned.h"
#include "linkscope/err.h"
#include "linkscope/jsonw.h"

size_t lk_utf8_seq(const unsigned char *s, size_t len)
{
	size_t n;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n > len)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* jansson's dump_indent with an indent of 1: a newline and one space per level. */
static void newline(struct lk_jsonw *w, int depth)
{
	static const char spaces[] = "\n                ";

	if (depth + 1 >= (int)sizeof(spaces))
		LK_BUG("json nesting deeper than LK_JSONW_DEPTH");
	lk_buf_add(&w->out, spaces, (size_t)depth + 1);
}

/* What comes before a value: in an array, its separator; after a key, nothing. */
static void before_value(struct lk_jsonw *w)
{
	struct lk_jsonw_level *l;

	if (!w->depth)
		return;
	l = &w->stack[w->depth - 1];
	if (!l->is_array)
		return;
	if (l->count++)
		lk_buf_addch(&w->out, ',');
	newline(w, w->depth);
}

/* Open an object or array, its separator written already. */
static void push(struct lk_jsonw *w, int is_array)
{
	if (w->depth == LK_JSONW_DEPTH)
		LK_BUG("json nesting deeper than LK_JSONW_DEPTH");
	w->stack[w->depth].key = NULL;
	w->stack[w->depth].count = 0;
	w->stack[w->depth].is_array = is_array;
	w->depth++;
	lk_buf_addch(&w->out, is_array ? '[' : '{');
}

static void open_level(struct lk_jsonw *w, int is_array)
{
	before_value(w);
	push(w, is_array);
}

void lk_jsonw_object(struct lk_jsonw *w)
{
	open_level(w, 0);
}

void lk_jsonw_array(struct lk_jsonw *w)
{
	open_level(w, 1);
}

void lk_jsonw_end(struct lk_jsonw *w)
{
	const struct lk_jsonw_level *l;

	if (!w->depth)
		LK_BUG("lk_jsonw_end with nothing open");
	l = &w->stack[--w->depth];
	if (l->count)
		newline(w, w->depth);
	lk_buf_addch(&w->out, l->is_array ? ']' : '}');
}

/*
 * `s` as a JSON string, escaped as jansson's dump_string does; returns -1
 * (and writes nothing) when `s` is not valid UTF-8.
 */
static int quoted(struct lk_jsonw *w, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t start = w->out.len, run = 0, i = 0;

	lk_buf_grow(&w->out, len + 2);
	lk_buf_addch(&w->out, '"');
	while (i < len) {
		unsigned char c = p[i];
		size_t n;
		char esc[8];

		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
			i++;
			continue;
		}
		n = c < 0x80 ? 1 : lk_utf8_seq(p + i, len - i);
		if (!n || !c) {
			w->out.len = start;
			w->out.buf[start] = '\0';
			return -1;
		}
		if (c >= 0x20 && c != '"' && c != '\\') {
			i += n;
			continue;
		}
		lk_buf_add(&w->out, p + run, i - run);
		switch (c) {
		case '"': lk_buf_addstr(&w->out, "\\\""); break;
		case '\\': lk_buf_addstr(&w->out, "\\\\"); break;
		case '\b': lk_buf_addstr(&w->out, "\\b"); break;
		case '\f': lk_buf_addstr(&w->out, "\\f"); break;
		case '\n': lk_buf_addstr(&w->out, "\\n"); break;
		case '\r': lk_buf_addstr(&w->out, "\\r"); break;
		case '\t': lk_buf_addstr(&w->out, "\\t"); break;
		default:
			snprintf(esc, sizeof(esc), "\\u%04X", (unsigned)c);
			lk_buf_addstr(&w->out, esc);
		}
		run = ++i;
	}
	lk_buf_add(&w->out, p + run, len - run);
	lk_buf_addch(&w->out, '"');
	return 0;
}

void lk_jsonw_key(struct lk_jsonw *w, const char *key)
{
	struct lk_jsonw_level *l;

	if (!w->depth || w->stack[w->depth - 1].is_array)
		LK_BUG("lk_jsonw_key outside an object");
	l = &w->stack[w->depth - 1];
	if (l->count++)
		lk_buf_addch(&w->out, ',');
	newline(w, w->depth);
	l->key = key;
	if (quoted(w, key, strlen(key)) < 0)
		LK_BUG("a json key that is not UTF-8");
	lk_buf_add(&w->out, ": ", 2);
}

void lk_jsonw_strn(struct lk_jsonw *w, const char *s, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;

	/* As jansson has it: a C string, up to its first NUL. */
	len = strnlen(s, len);
	before_value(w);
	if (quoted(w, s, len) == 0)
		return;
	/* lk_json_str's rule: the bytes as lower-case hex, in an object of their own. */
	push(w, 0);
	lk_jsonw_key(w, "hex");
	lk_buf_grow(&w->out, 2 * len + 2);
	lk_buf_addch(&w->out, '"');
	for (size_t i = 0; i < len; i++) {
		lk_buf_addch(&w->out, digits[p[i] >> 4]);
		lk_buf_addch(&w->out, digits[p[i] & 15]);
	}
	lk_buf_addch(&w->out, '"');
	lk_jsonw_end(w);
}

void lk_jsonw_str(struct lk_jsonw *w, const char *s)
{
	if (!s)
		lk_jsonw_null(w);
	else
		lk_jsonw_strn(w, s, strlen(s));
}

static void literal(struct lk_jsonw *w, const char *text)
{
	before_value(w);
	lk_buf_addstr(&w->out, text);
}

void lk_jsonw_int(struct lk_jsonw *w, int64_t v)
{
	/* "%lld" by hand: a record has hundreds of integers, and snprintf is most of their cost. */
	char num[24], *p = num + sizeof(num);
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	*--p = '\0';
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	literal(w, p);
}

void lk_jsonw_int_or_null(struct lk_jsonw *w, int64_t v)
{
	if (v < 0)
		lk_jsonw_null(w);
	else
		lk_jsonw_int(w, v);
}

void lk_jsonw_bool(struct lk_jsonw *w, int v)
{
	literal(w, v ? "true" : "false");
}

void lk_jsonw_null(struct lk_jsonw *w)
{
	literal(w, "null");
}

void lk_jsonw_real(struct lk_jsonw *w, double v)
{
	/* jansson's own formatting: its precision and ".0" rules differ between versions. */
	json_t *r = json_real(v);
	char num[64];
	size_t n = r ? json_dumpb(r, num, sizeof(num) - 1, JSON_ENCODE_ANY) : 0;

	json_decref(r);
	num[n < sizeof(num) ? n : 0] = '\0';
	literal(w, n ? num : "null");
}

void lk_jsonw_next_path(const struct lk_jsonw *w, struct lk_buf *out)
{
	for (int i = 0; i < w->depth; i++) {
		const struct lk_jsonw_level *l = &w->stack[i];

		/* An enclosing array's element is open already: its index is one less than its count. */
		if (l->is_array)
			lk_buf_addf(out, "[%zu]", i + 1 < w->depth ? l->count - 1 : l->count);
		else
			lk_buf_addf(out, "%s%s", out->len ? "." : "", l->key ? l->key : "");
	}
}
