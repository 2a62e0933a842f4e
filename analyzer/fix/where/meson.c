/*
 * Where a fix of a meson link is made: the target whose output the line
 * writes, found in the build dir's meson-info/intro-targets.json (its
 * `name`, `defined_in` and `filename`), and the `dependencies:` or
 * `link_with:` (or `link_args:`) keyword to give it in that meson.build. The JSON is
 * meson's own, one object per target with those keys in that order; it
 * is scanned, not parsed, and anything else (an escape in a string, a
 * key missing) is no answer.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "parts.h"

/* The string value of `"key": "..."` after `from` and before `end`, owned, or NULL (none, or an escape). */
static char *json_field(const char *from, const char *end, const char *key)
{
	struct lk_buf k = LK_BUF_INIT;
	const char *p, *q;

	lk_buf_addf(&k, "\"%s\": \"", key);
	p = strstr(from, k.buf);
	if (p && p < end) {
		p += k.len;
		q = strpbrk(p, "\"\\");
		lk_buf_release(&k);
		return q && *q == '"' && q < end ? lk_xstrndup(p, (size_t)(q - p)) : NULL;
	}
	lk_buf_release(&k);
	return NULL;
}

/* The target object of intro-targets.json whose filename is `path`: its name and meson.build, or -1. */
static int target_of(const char *json, const char *path, char **name, char **defined_in)
{
	struct lk_buf f = LK_BUF_INIT;
	const char *at, *obj = NULL;

	lk_buf_addf(&f, "\"filename\": [\"%s\"", path);
	at = strstr(json, f.buf);
	lk_buf_release(&f);
	if (!at)
		return -1;
	for (const char *p = strstr(json, "{\"name\": \""); p && p < at; p = strstr(p + 1, "{\"name\": \""))
		obj = p;
	if (!obj)
		return -1;
	*name = json_field(obj, at, "name");
	*defined_in = json_field(obj, at, "defined_in");
	if (*name && *defined_in)
		return 0;
	free(*name);
	free(*defined_in);
	*name = *defined_in = NULL;
	return -1;
}

/*
 * The line (1-based) of meson.build that makes the target: `executable('NAME'`, `library('NAME'`...; 0 if none.
 * One search of the text, then its newlines counted up to the hit: a
 * search from each line to the end was quadratic (issue #29: 12.8 CPU s
 * for a 1 MiB meson.build).
 */
static long target_line(const char *text, const char *name, char **var)
{
	struct lk_buf q = LK_BUF_INIT;
	const char *hit, *bol = text, *eq;
	long nr = 1;

	lk_buf_addf(&q, "('%s'", name);
	hit = strstr(text, q.buf);
	lk_buf_release(&q);
	if (!hit)
		return 0;
	for (const char *p = text; (p = memchr(p, '\n', (size_t)(hit - p))); p++, nr++)
		bol = p + 1;
	eq = memchr(bol, '=', (size_t)(hit - bol));
	if (var && eq) {
		const char *s = bol + strspn(bol, " \t"), *e = eq;

		while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		if (e > s)
			*var = lk_xstrndup(s, (size_t)(e - s));
	}
	return nr;
}

struct lk_fix_where *wh_meson(const struct wh_ask *a)
{
	char *intro = wh_join(a->rec->cwd, "meson-info/intro-targets.json"), *json = wh_read(intro);
	char *out = a->rec->output ? wh_join(a->rec->cwd, a->rec->output) : NULL, *name = NULL, *file = NULL, *src;
	struct lk_buf deps = LK_BUF_INIT, with = LK_BUF_INIT, args = LK_BUF_INIT, t = LK_BUF_INIT, s = LK_BUF_INIT;
	struct lk_fix_where *w = NULL;
	long line = 0;

	if (!json || !out || a->old || a->f->driver || target_of(json, out, &name, &file) < 0)
		goto done;
	src = wh_read(file);
	line = src ? target_line(src, name, NULL) : 0;
	for (size_t i = 0; i < a->words->nr; i++) {
		const char *word = a->words->items[i];
		char *lib = NULL, *lname = NULL, *ldef = NULL;
		char *path = wh_join(a->rec->cwd, word);

		if (!strncmp(word, "-l", 2) && word[2] && word[2] != ':') {
			lk_buf_addf(&deps, "%smeson.get_compiler('c').find_library('%s')", deps.len ? ", " : "", word + 2);
		} else if (word[0] != '-' && target_of(json, path, &lname, &ldef) == 0) {
			char *ltext = wh_read(ldef);

			if (ltext)
				target_line(ltext, lname, &lib);
			lk_buf_addf(&with, "%s%s", with.len ? ", " : "", lib ? lib : lname);
			free(ltext);
		} else {
			lk_buf_addf(&args, "%s'%s'", args.len ? ", " : "", word);
		}
		free(lib);
		free(lname);
		free(ldef);
		free(path);
	}
	free(src);
	if (deps.len)
		lk_buf_addf(&t, "dependencies: [%s]", deps.buf);
	if (with.len)
		lk_buf_addf(&t, "%slink_with: [%s]", t.len ? ", " : "", with.buf);
	if (args.len)
		lk_buf_addf(&t, "%slink_args: [%s]", t.len ? ", " : "", args.buf);
	w = wh_new("meson", file, "target", name, t.buf);
	w->line = line;
	lk_buf_addf(&s, "in %s", file);
	if (line)
		lk_buf_addf(&s, ", line %ld", line);
	lk_buf_addf(&s, ", give the target %s %s: meson links them after its objects", name, t.buf);
	w->sentence = lk_buf_detach(&s);
done:
	lk_buf_release(&deps);
	lk_buf_release(&with);
	lk_buf_release(&args);
	lk_buf_release(&t);
	lk_buf_release(&s);
	free(name);
	free(file);
	free(out);
	free(json);
	free(intro);
	return w;
}
