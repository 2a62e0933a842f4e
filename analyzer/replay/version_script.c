/*
 * GNU ld's check of the line's version scripts (see replay.c): ld/ldlang.c's
 * lang_register_vers_node refuses a version tag named twice, across every
 * --version-script of the line ("duplicate version tag `V1'"). lld and
 * mold take such a script (checked: ld.lld 14, rust-lld 22, mold 1.10).
 * Only the tags are read: `TAG { ... } [DEPS] ;` at the top level, with
 * ld's comments (C style and '#' to the end of a line).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "rp.h"

#define VERSION_SCRIPT_MAX_BYTES ((size_t)16 << 20)

static const char *skip_blank(const char *p)
{
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (p[0] == '/' && p[1] == '*') {
			const char *end = strstr(p + 2, "*/");

			p = end ? end + 2 : p + strlen(p);
		} else if (*p == '#') {
			p += strcspn(p, "\n");
		} else {
			return p;
		}
	}
}

static int tag_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '-' || c == '$';
}

/* The top-level tags of `text`, in order, into `tags`. */
static void read_tags(const char *text, struct lk_strvec *tags)
{
	const char *p = text, *word = NULL;
	size_t word_len = 0;
	int depth = 0, in_deps = 0;

	while (*(p = skip_blank(p))) {
		if (*p == '"') {
			const char *end = strchr(p + 1, '"');

			p = end ? end + 1 : p + strlen(p);
			word = NULL;
		} else if (*p == '{') {
			/* the tag's bytes only: a copy of the rest of the text per tag was quadratic */
			if (!depth++ && word && !in_deps)
				lk_strvec_push_owned(tags, lk_xstrndup(word, word_len));
			word = NULL;
			p++;
		} else if (*p == '}') {
			if (depth && !--depth)
				in_deps = 1;
			p++;
		} else if (*p == ';') {
			if (!depth)
				in_deps = 0;
			word = NULL;
			p++;
		} else if (tag_char(*p)) {
			word = p;
			while (tag_char(*p))
				p++;
			word_len = (size_t)(p - word);
		} else {
			word = NULL;
			p++;
		}
	}
}

static char *script_path(const struct rp *r, const char *value)
{
	struct lk_buf b = LK_BUF_INIT;

	if (value[0] == '/' || !r->rec->cwd)
		return lk_xstrdup(value);
	lk_buf_addf(&b, "%s/%s", r->rec->cwd, value);
	return lk_buf_detach(&b);
}

static void duplicate_tag(struct rp *r, const char *tag, const char *path)
{
	struct lk_diag *d;

	LK_GROW(r->out->diags.items, r->out->diags.nr + 1, r->out->diags.alloc);
	d = &r->out->diags.items[r->out->diags.nr++];
	memset(d, 0, sizeof(*d));
	d->kind = LK_DIAG_VERSION_TAG;
	d->symbol = lk_xstrdup(tag);
	d->defined_path = lk_xstrdup(path);
	d->ref_input = d->def_input = -1;
}

/* A tag and where it is: its place among the line's tags, its script's. */
struct tag_at {
	const char *tag;
	size_t k;
};

static int tag_cmp(const void *a, const void *b)
{
	const struct tag_at *x = a, *y = b;
	int c = strcmp(x->tag, y->tag);

	return c ? c : (x->k > y->k) - (x->k < y->k);
}

/*
 * Each tag named before (by this script or an earlier one), in the
 * order ld meets them: the tags sorted once, each after the first of its
 * name flagged. Comparing each tag with every earlier one was quadratic:
 * a 16 MiB script holds millions of tags (issue #29).
 */
static void duplicates(struct rp *r, const struct lk_strvec *tags, char *const *paths)
{
	struct tag_at *by = lk_xcalloc(tags->nr ? tags->nr : 1, sizeof(*by));
	unsigned char *dup = lk_xcalloc(tags->nr ? tags->nr : 1, 1);

	for (size_t k = 0; k < tags->nr; k++)
		by[k] = (struct tag_at){ tags->items[k], k };
	qsort(by, tags->nr, sizeof(*by), tag_cmp);
	for (size_t i = 1; i < tags->nr; i++)
		if (!strcmp(by[i - 1].tag, by[i].tag))
			dup[by[i].k] = 1;
	for (size_t k = 0; k < tags->nr; k++)
		if (dup[k])
			duplicate_tag(r, tags->items[k], paths[k]);
	free(dup);
	free(by);
}

void rp_version_scripts(struct rp *r)
{
	struct lk_strvec tags = LK_STRVEC_INIT;
	struct { char **items; size_t nr, alloc; } paths = { 0 };	/* each tag's script (shared) */
	struct lk_strvec owned = LK_STRVEC_INIT, texts = LK_STRVEC_INIT, text_paths = LK_STRVEC_INIT;

	for (size_t i = 0; i < r->line->items.nr; i++) {
		const struct lk_line_item *it = &r->line->items.items[i];
		struct lk_buf text = LK_BUF_INIT;
		char *path;

		if (it->kind != LK_ITEM_OPTION || it->ld_option != LK_LD_VERSION_SCRIPT || !it->ld_value)
			continue;
		path = script_path(r, it->ld_value);
		if (lk_buf_read_file(&text, path, VERSION_SCRIPT_MAX_BYTES) < 0) {
			rp_note(r, "version script '%s' cannot be read: its tags are not checked", path);
		} else {
			read_tags(text.buf ? text.buf : "", &tags);
			lk_strvec_push(&texts, text.buf ? text.buf : "");
			lk_strvec_push(&text_paths, path);
			LK_GROW(paths.items, tags.nr, paths.alloc);
			while (paths.nr < tags.nr)
				paths.items[paths.nr++] = path;
		}
		lk_buf_release(&text);
		lk_strvec_push_owned(&owned, path);
	}
	duplicates(r, &tags, paths.items);
	rp_version_dialects(r, (const char *const *)texts.items, text_paths.items, texts.nr);
	lk_strvec_release(&texts);
	lk_strvec_release(&text_paths);
	free(paths.items);
	lk_strvec_release(&owned);
	lk_strvec_release(&tags);
}
