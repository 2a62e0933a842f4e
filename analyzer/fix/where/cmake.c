/*
 * Where a fix of a CMake link is made: the target whose
 * CMakeFiles/TARGET.dir/link.txt (Makefile generators) or build.ninja
 * rule (Ninja) is the recorded line, in the link's directory, and the
 * `target_link_libraries(TARGET PRIVATE ...)` to write in the
 * CMakeLists.txt of that directory's source dir (CMakeCache.txt's
 * CMAKE_HOME_DIRECTORY, and the build dir's path below the cache).
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "parts.h"

/* Dirs above the link's looked at for CMakeCache.txt. */
#define CMAKE_UP_MAX 16
/* link.txt files read for one fix (each up to WH_FILE_MAX): a dir with more targets reads no more. */
#define CMAKE_LINKTXT_MAX 256

/* Does link.txt's text say `-o OUTPUT` and name the recorded driver? */
static int is_the_line(const char *text, const struct lk_record *rec)
{
	struct lk_buf o = LK_BUF_INIT;
	int yes;

	if (!rec->output || !rec->args.nr)
		return 0;
	lk_buf_addf(&o, "-o %s", rec->output);
	yes = strstr(text, o.buf) && wh_has_word(text, NULL, rec->args.items[0].text);
	if (yes) {
		/* the whole word: "-o app" is not "-o apples" */
		const char *p = strstr(text, o.buf) + o.len;

		yes = !*p || *p == ' ' || *p == '\n' || *p == '\t';
	}
	lk_buf_release(&o);
	return yes;
}

/* The target of the Makefile generators' link.txt that is the line, or NULL. */
static char *makefile_target(const struct lk_record *rec)
{
	char *dir = wh_join(rec->cwd, "CMakeFiles"), *target = NULL;
	DIR *dh = opendir(dir);
	struct dirent *e;
	int seen = 0, read = 0;

	while (dh && !target && (e = readdir(dh)) && seen++ < WH_DIR_MAX && read < CMAKE_LINKTXT_MAX) {
		size_t n = strlen(e->d_name);
		struct lk_buf p = LK_BUF_INIT;
		char *text;

		if (n <= 4 || strcmp(e->d_name + n - 4, ".dir"))
			continue;
		lk_buf_addf(&p, "%s/%s/link.txt", dir, e->d_name);
		read++;
		text = wh_read(p.buf);
		if (text && is_the_line(text, rec))
			target = lk_xstrndup(e->d_name, n - 4);
		free(text);
		lk_buf_release(&p);
	}
	if (dh)
		closedir(dh);
	free(dir);
	return target;
}

/* Ninja: "build OUTPUT: LANG_EXECUTABLE_LINKER__TARGET_CONFIG ..." in build.ninja; the target, or NULL. */
static char *ninja_target(const struct lk_record *rec)
{
	char *path = wh_join(rec->cwd, "build.ninja"), *text = wh_read(path), *target = NULL;
	struct lk_buf head = LK_BUF_INIT;
	const char *p, *rule, *end;

	free(path);
	if (!text || !rec->output) {
		free(text);
		return NULL;
	}
	lk_buf_addf(&head, "\nbuild %s: ", rec->output);
	p = strstr(text, head.buf);
	if (p) {
		p += head.len;
		end = p + strcspn(p, " \n");
		rule = strstr(p, "_LINKER__");
		if (rule && rule < end) {
			rule += 9;
			/* the target runs to the last '_' of the rule name (the config follows it) */
			const char *last = NULL;

			for (const char *q = rule; q < end; q++)
				if (*q == '_')
					last = q;
			if (last && last > rule)
				target = lk_xstrndup(rule, (size_t)(last - rule));
		}
	}
	lk_buf_release(&head);
	free(text);
	return target;
}

/* Ninja: the build subdir of the target's objects ("tools/" for tools/CMakeFiles/meter.dir/x.o), owned, or NULL. */
static char *ninja_subdir(const struct lk_record *rec, const char *target)
{
	struct lk_buf want = LK_BUF_INIT;
	char *sub = NULL;

	lk_buf_addf(&want, "CMakeFiles/%s.dir/", target);
	for (size_t i = 1; !sub && i < rec->args.nr; i++) {
		const char *w = rec->args.items[i].text, *at = strstr(w, want.buf);

		if (w[0] != '-' && w[0] != '/' && at && (at == w || at[-1] == '/') && !strstr(w, ".."))
			sub = lk_xstrndup(w, (size_t)(at - w));
	}
	lk_buf_release(&want);
	return sub;
}

/*
 * The source dir's CMakeLists.txt for the target's build dir: the link's
 * dir, and below it `sub` (Ninja links every target from the top: "tools/"
 * for tools/CMakeFiles/meter.dir/), or NULL.
 */
static char *lists_file(const struct lk_record *rec, const char *sub)
{
	char *dir = lk_xstrdup(rec->cwd), *found = NULL;

	for (int up = 0; !found && up < CMAKE_UP_MAX; up++) {
		char *cache = wh_join(dir, "CMakeCache.txt"), *text = wh_read(cache);
		const char *home;
		const char *key = "\nCMAKE_HOME_DIRECTORY:INTERNAL=";

		home = NULL;
		if (text && !strncmp(text, key + 1, strlen(key + 1)))
			home = text + strlen(key + 1);	/* the key on the first line */
		else if (text && (home = strstr(text, key)))
			home += strlen(key);
		if (home) {
			struct lk_buf f = LK_BUF_INIT;

			lk_buf_addf(&f, "%.*s%s/%sCMakeLists.txt", (int)strcspn(home, "\r\n"), home, rec->cwd + strlen(dir), sub);
			if (wh_is_file(f.buf))
				found = lk_buf_detach(&f);
			lk_buf_release(&f);
			up = CMAKE_UP_MAX;	/* the first cache is the build's, found or not */
		}
		free(text);
		free(cache);
		if (!wh_climb(&dir))
			break;
	}
	free(dir);
	return found;
}

/* The line (1-based) of `add_executable(TARGET` or `add_library(TARGET` in the file, or 0. */
static long target_line(const char *file, const char *target)
{
	char *text = wh_read(file);
	long nr = 1, at = 0;

	for (const char *p = text; p && *p && !at; p = strchr(p, '\n'), p = p ? p + 1 : NULL, nr++) {
		const char *q = p + strspn(p, " \t");
		size_t n = strlen(target);

		if (!strncmp(q, "add_executable", 14))
			q += 14;
		else if (!strncmp(q, "add_library", 11))
			q += 11;
		else
			continue;
		q += strspn(q, " \t");
		if (*q++ != '(')
			continue;
		q += strspn(q, " \t");
		if (!strncmp(q, target, n) && strchr(" \t)\n", q[n]))
			at = nr;
	}
	free(text);
	return at;
}

/* A word of the line as target_link_libraries takes it: -lz -> z; DIR/libshapes.a -> shapes when CMake builds it. */
static char *item_of(const struct lk_record *rec, const char *w)
{
	const char *base = lk_path_base(w);
	char *path, *dir, *item = NULL;
	size_t stem;

	if (!strncmp(w, "-l", 2) && w[2] != ':' && w[2])
		return lk_xstrdup(w + 2);
	if (w[0] == '-')
		return lk_xstrdup(w);
	path = wh_join(rec->cwd, w);
	dir = wh_dirname(path);
	stem = strncmp(base, "lib", 3) ? 0 : strcspn(base + 3, ".");
	if (stem) {
		struct lk_buf t = LK_BUF_INIT;

		lk_buf_addf(&t, "%s/CMakeFiles/%.*s.dir", dir, (int)stem, base + 3);
		if (wh_is_dir(t.buf))
			item = lk_xstrndup(base + 3, stem);
		lk_buf_release(&t);
	}
	if (!item)
		item = lk_xstrdup(path);
	free(dir);
	free(path);
	return item;
}

/* The record's target, its CMakeLists.txt and line: found at its first fix (up to 256 link.txt read), kept. */
struct wh_cmake_memo {
	char *target, *file;
	long line;
};

void wh_cmake_memo_free(struct wh_cmake_memo *m)
{
	if (!m)
		return;
	free(m->target);
	free(m->file);
	free(m);
}

static const struct wh_cmake_memo *cmake_memo(const struct wh_ask *a)
{
	struct wh_cmake_memo *m = a->memo->cmake;
	char *sub = NULL;

	if (m)
		return m;
	m = a->memo->cmake = lk_xcalloc(1, sizeof(*m));
	if (!(m->target = makefile_target(a->rec)) && (m->target = ninja_target(a->rec)))
		sub = ninja_subdir(a->rec, m->target);
	if (!m->target)
		return m;
	m->file = lists_file(a->rec, sub ? sub : "");
	m->line = m->file ? target_line(m->file, m->target) : 0;
	free(sub);
	return m;
}

struct lk_fix_where *wh_cmake(const struct wh_ask *a)
{
	const struct wh_cmake_memo *m = cmake_memo(a);
	const char *target = m->target, *file = m->file;
	char *old = NULL;
	struct lk_buf text = LK_BUF_INIT, s = LK_BUF_INIT;
	struct lk_fix_where *w;
	const char *how;

	if (!target)
		return NULL;
	if (a->f->driver && strstr(a->f->driver, "++")) {
		lk_buf_addf(&text, "set_target_properties(%s PROPERTIES LINKER_LANGUAGE CXX)", target);
		how = "CMake then links it with the C++ driver";
	} else {
		lk_buf_addf(&text, "target_link_libraries(%s PRIVATE", target);
		for (size_t i = 0; i < a->words->nr; i++) {
			char *item = item_of(a->rec, a->words->items[i]);

			lk_buf_addf(&text, " %s", item);
			free(item);
		}
		lk_buf_addch(&text, ')');
		how = "CMake puts them after the target's objects";
	}
	w = wh_new("cmake", file, "target", target, text.buf);
	if (a->old) {
		old = item_of(a->rec, a->old);
		w->replaces = lk_xstrdup(old);
	}
	w->line = m->line;
	lk_buf_addf(&s, "in %s", file ? file : "the CMakeLists.txt that defines it");
	if (w->line)
		lk_buf_addf(&s, ", after line %ld, which defines the target %s", w->line, target);
	else
		lk_buf_addf(&s, ", for the target %s", target);
	lk_buf_addf(&s, " (CMake wrote this line for it), write %s", text.buf);
	if (old)
		lk_buf_addf(&s, ", instead of %s in its target_link_libraries", old);
	lk_buf_addf(&s, ": %s", how);
	w->sentence = lk_buf_detach(&s);
	lk_buf_release(&text);
	free(old);
	return w;
}
