/*
 * Fixes -> where the user makes them (where.h). Takes the fix stage's
 * fixes read-only but for their `where`, asks the build system that ran
 * the link (cargo for a rustc line; else CMake, meson, make by what the
 * link's directory holds) and keeps the first answer. Reads files only.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "edit.h"
#include "parts.h"

char *wh_read(const char *path)
{
	struct lk_buf b = LK_BUF_INIT;

	if (lk_buf_read_file(&b, path, WH_FILE_MAX) < 0 || memchr(b.buf, 0, b.len)) {
		lk_buf_release(&b);
		return NULL;
	}
	return lk_buf_detach(&b);
}

char *wh_join(const char *dir, const char *name)
{
	struct lk_buf b = LK_BUF_INIT;

	if (name[0] == '/' || !dir)
		return lk_xstrdup(name);
	lk_buf_addf(&b, "%s%s%s", dir, dir[0] && dir[strlen(dir) - 1] != '/' ? "/" : "", name);
	return lk_buf_detach(&b);
}

char *wh_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return lk_xstrdup(".");
	return slash == path ? lk_xstrdup("/") : lk_xstrndup(path, (size_t)(slash - path));
}

int wh_climb(char **dir)
{
	char *parent = wh_dirname(*dir);

	if (!strcmp(parent, *dir)) {
		free(parent);
		return 0;
	}
	free(*dir);
	*dir = parent;
	return 1;
}

int wh_flags_only(const struct lk_strvec *words)
{
	for (size_t i = 0; i < words->nr; i++) {
		const char *w = words->items[i];

		if (w[0] != '-' || !strncmp(w, "-l", 2) || !strncmp(w, "-L", 2) || !strncmp(w, "-Wl,", 4) ||
		    !strncmp(w, "-Xlinker", 8))
			return 0;
	}
	return words->nr > 0;
}

int wh_is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int wh_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\';
}

int wh_has_word(const char *text, const char *end, const char *word)
{
	size_t n = strlen(word);

	if (!end)
		end = text + strlen(text);
	for (const char *p = text; n && p + n <= end; p++)
		if ((p == text || blank(p[-1])) && !memcmp(p, word, n) && (p + n == end || blank(p[n])))
			return 1;
	return 0;
}

struct lk_fix_where *wh_new(const char *system, const char *file, const char *name_key, const char *name,
			    const char *text)
{
	struct lk_fix_where *w = lk_xcalloc(1, sizeof(*w));

	w->system = system;
	w->file = file ? lk_xstrdup(file) : NULL;
	w->name_key = name_key;
	w->name = name ? lk_xstrdup(name) : NULL;
	w->text = lk_xstrdup(text);
	return w;
}

void lk_where_free(struct lk_fix_where *w)
{
	if (!w)
		return;
	free(w->file);
	free(w->name);
	free(w->text);
	free(w->replaces);
	free(w->moves_from);
	free(w->sentence);
	free(w);
}

/* One fix: what it does to the line, then each build system in turn. */
static void where_of(const struct lk_record *rec, const struct lk_line *line, const struct lk_replay *rp,
		     const struct lk_diag *d, struct lk_fix *f, struct wh_memo *memo, size_t *asked)
{
	struct wh_ask a = { rec, line, rp, d, f, NULL, &f->args, memo };

	/*
	 * A stated fix is a rebuild or another tool, not words of the line;
	 * but for a line edit the replay cannot try (-nostartfiles: the start
	 * files are the driver's), the words still go in a build file.
	 */
	if (f->where || (f->stated && !(lk_edit_on_line(&f->edit) && f->edit.kind == LK_EDIT_KIND_INSERT)) || !rec->cwd ||
	    (!f->args.nr && !f->build_script.nr && !(f->stated && f->edit.words.nr)) || *asked >= WH_FIXES_MAX)
		return;
	if (!f->args.nr && f->stated)
		a.words = &f->edit.words;
	++*asked;
	if (f->replaces && f->position >= 0 && (size_t)f->position < rec->args.nr)
		a.old = rec->args.items[f->position].text;
	if (rec->caller_is_rustc || (rec->prov_method && !strncmp(rec->prov_method, "rustc", 5))) {
		f->where = wh_cargo(&a);
		return;		/* a rustc line's words are cargo's, whatever else the directory holds */
	}
	f->where = wh_cmake(&a);
	if (!f->where)
		f->where = wh_meson(&a);
	if (!f->where)
		f->where = wh_make(&a);
}

void lk_where_fixes(const struct lk_record *rec, const struct lk_line *line, const struct lk_replay *rp,
		    struct lk_fixes *fx)
{
	struct wh_memo memo = { NULL, NULL };
	size_t asked = 0;

	/* the whole fix first: the one the report leads with */
	if (fx->whole)
		where_of(rec, line, rp, NULL, fx->whole, &memo, &asked);
	for (size_t i = 0; i < fx->nr && i < rp->diags.nr; i++)
		for (size_t k = 0; k < fx->of[i].nr; k++)
			where_of(rec, line, rp, &rp->diags.items[i], &fx->of[i].items[k], &memo, &asked);
	wh_cargo_memo_free(memo.cargo);
	wh_cmake_memo_free(memo.cmake);
}
