/*
 * Where a fix of a CMake link is made: the target whose
 * CMakeFiles/TARGET.dir/link.txt (Makefile generators) or build.ninja
 * rule (Ninja) is the recorded line, in the link's directory, and the
 * `target_link_libraries(TARGET PRIVATE ...)` to write in the
 * CMakeLists.txt of that directory's source dir (CMakeCache.txt's
 * CMAKE_HOME_DIRECTORY, and the build dir's path below the cache), after
 * the target's last target_link_libraries (else its add_executable).
 * When the objects that reference the symbols are a library target's
 * (DIR/libNAME.a beside DIR/CMakeFiles/NAME.dir, or an object of
 * CMakeFiles/NAME.dir/), the line is that library's, in its own
 * CMakeLists.txt: PUBLIC when another target references them too, else
 * PRIVATE, or no keyword when its target_link_libraries use none.
 */
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
 * The source dir's CMakeLists.txt for a target's build dir `bdir`
 * (absolute) and below it `sub` (Ninja links every target from the top:
 * "tools/" for tools/CMakeFiles/meter.dir/), or NULL: the first
 * CMakeCache.txt above `bdir` is the build's, its CMAKE_HOME_DIRECTORY
 * the source tree, and `bdir`'s place below the cache the place below it.
 */
static char *lists_file(const char *bdir, const char *sub)
{
	char *dir = lk_xstrdup(bdir), *found = NULL;

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

			lk_buf_addf(&f, "%.*s%s/%sCMakeLists.txt", (int)strcspn(home, "\r\n"), home, bdir + strlen(dir), sub);
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

/* A command of a CMakeLists.txt: its name, the text inside its parentheses, and the lines it starts and ends at. */
struct stmt {
	const char *name, *args;
	size_t name_len, args_len;
	long first, last;
};

/*
 * The next command at or after *p, at the start of a line (after blanks),
 * *p and *nr (its line, 1-based) moved past it: 1, or 0 at the end.
 * Quoted arguments and `#` comments inside the parentheses are skipped,
 * so a ')' in them does not end it; a command left open ends the file.
 */
static int next_stmt(const char **p, long *nr, struct stmt *s)
{
	const char *q = *p;

	while (*q) {
		const char *name, *line_end;
		int depth = 0;

		q += strspn(q, " \t");
		name = q;
		while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '_')
			q++;
		s->name = name;
		s->name_len = (size_t)(q - name);
		q += strspn(q, " \t");
		if (!s->name_len || *q != '(') {
			line_end = strchr(q, '\n');
			q = line_end ? line_end + 1 : q + strlen(q);
			++*nr;
			continue;
		}
		s->first = *nr;
		s->args = ++q;
		for (depth = 1; *q && depth; q++) {
			if (*q == '\n')
				++*nr;
			else if (*q == '(')
				depth++;
			else if (*q == ')')
				depth--;
			else if (*q == '#' && q[1] && q[1] != '\n')
				q += strcspn(q, "\n") - 1;	/* to the comment's last character: its newline is counted next */
			else if (*q == '"')
				for (q++; *q && *q != '"'; q++) {
					if (*q == '\\' && q[1])
						q++;
					if (*q == '\n')
						++*nr;
				}
			if (!*q)
				break;
		}
		s->args_len = (size_t)(q - s->args) - (depth ? 0 : 1);
		s->last = *nr;
		line_end = strchr(q, '\n');
		*p = line_end ? line_end + 1 : q + strlen(q);
		if (line_end)
			++*nr;
		return 1;
	}
	*p = q;
	return 0;
}

static int is_cmd(const struct stmt *s, const char *cmd)
{
	return s->name_len == strlen(cmd) && !strncasecmp(s->name, cmd, s->name_len);
}

/* Is `target` the command's first argument? */
static int first_arg_is(const struct stmt *s, const char *target)
{
	const char *a = s->args, *end = s->args + s->args_len;
	size_t n = strlen(target);

	while (a < end && strchr(" \t\r\n", *a))
		a++;
	return (size_t)(end - a) >= n && !strncmp(a, target, n) && (a + n == end || strchr(" \t\r\n)", a[n]));
}

/* What a CMakeLists.txt says of a target: the lines a new target_link_libraries goes after. */
struct target_lines {
	long defined;		/* the last line of its add_executable or add_library, or 0 */
	long linked;		/* the last line of its last target_link_libraries, or 0 */
	long language;		/* the last line of its last set_target_properties that sets LINKER_LANGUAGE, or 0 */
	int plain;		/* a target_link_libraries of it without PUBLIC, PRIVATE or INTERFACE */
};

static void target_lines(const char *file, const char *target, struct target_lines *tl)
{
	static const char *const keywords[] = { "PUBLIC", "PRIVATE", "INTERFACE", "LINK_PUBLIC", "LINK_PRIVATE",
						"LINK_INTERFACE_LIBRARIES" };
	char *text = wh_read(file);
	const char *p = text;
	struct stmt s;
	long nr = 1;

	memset(tl, 0, sizeof(*tl));
	while (p && next_stmt(&p, &nr, &s)) {
		if (!first_arg_is(&s, target))
			continue;
		if (!tl->defined && (is_cmd(&s, "add_executable") || is_cmd(&s, "add_library"))) {
			tl->defined = s.last;
		} else if (is_cmd(&s, "target_link_libraries")) {
			char *args = lk_xstrndup(s.args, s.args_len);
			int keyword = 0;

			for (size_t k = 0; k < sizeof(keywords) / sizeof(*keywords); k++)
				keyword |= wh_has_word(args, NULL, keywords[k]);
			tl->plain |= !keyword;
			tl->linked = s.last;
			free(args);
		} else if (is_cmd(&s, "set_target_properties")) {
			char *args = lk_xstrndup(s.args, s.args_len);

			if (wh_has_word(args, NULL, "LINKER_LANGUAGE"))
				tl->language = s.last;
			free(args);
		}
	}
	free(text);
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

/* The record's target, its CMakeLists.txt and lines: found at its first fix (up to 256 link.txt read), kept. */
struct wh_cmake_memo {
	char *target, *file;
	struct target_lines tl;
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
	m->file = lists_file(a->rec->cwd, sub ? sub : "");
	if (m->file)
		target_lines(m->file, m->target, &m->tl);
	free(sub);
	return m;
}

/* A target of the build whose output or object references the diagnostic's symbols. */
struct ref_target {
	char *name;		/* the target */
	char *file;		/* the CMakeLists.txt that defines it, or NULL */
	char *input;		/* the input of the line it made (its archive, its object), as the line says it */
	struct target_lines tl;
};

static void ref_target_release(struct ref_target *t)
{
	free(t->name);
	free(t->file);
	free(t->input);
	memset(t, 0, sizeof(*t));
}

/*
 * The CMake target that made `path`, an input of the line (against
 * `cwd`): DIR/CMakeFiles/NAME.dir/x.o (Ninja's and the Makefiles'
 * objects), or DIR/libNAME.a or DIR/libNAME.so beside DIR/CMakeFiles/NAME.dir
 * (the target's output in its build dir); its CMakeLists.txt is DIR's
 * source dir's, when that file defines the target. 0, or -1 when no target
 * made it (a system library, a prebuilt archive).
 */
static int target_of(const char *cwd, const char *path, struct ref_target *t)
{
	char *abs = wh_join(cwd, path), *dir = NULL;
	const char *at = strstr(abs, "/CMakeFiles/"), *base = lk_path_base(abs);
	char real[PATH_MAX];

	memset(t, 0, sizeof(*t));
	if (at) {
		const char *name = at + 12, *end = strstr(name, ".dir/");

		if (end && !memchr(name, '/', (size_t)(end - name))) {
			t->name = lk_xstrndup(name, (size_t)(end - name));
			dir = lk_xstrndup(abs, (size_t)(at - abs));
		}
	} else if (!strncmp(base, "lib", 3) && base[3] && (strstr(base, ".so") || !strcmp(base + strlen(base) - 2, ".a"))) {
		struct lk_buf d = LK_BUF_INIT;
		size_t stem = strcspn(base + 3, ".");

		dir = wh_dirname(abs);
		lk_buf_addf(&d, "%s/CMakeFiles/%.*s.dir", dir, (int)stem, base + 3);
		if (stem && wh_is_dir(d.buf))
			t->name = lk_xstrndup(base + 3, stem);
		lk_buf_release(&d);
	}
	if (t->name && dir && realpath(dir, real) && (t->file = lists_file(real, ""))) {
		target_lines(t->file, t->name, &t->tl);
		if (!t->tl.defined) {
			free(t->file);
			t->file = NULL;
		}
	}
	free(dir);
	free(abs);
	if (!t->name)
		return -1;
	t->input = lk_xstrdup(path);
	return 0;
}

/* Referencing inputs looked at for their targets (each: a stat, a CMakeLists.txt read). */
#define CMAKE_REFS_MAX 64

/*
 * The library target whose objects reference the diagnostic's symbols,
 * when it is not the linked target itself (the first such, in the order
 * ld read them): filled into *lib, with *other the name of another target
 * that references them too (the linked target when a reference is its own
 * or made by no target), owned, or NULL. 0, or -1 when the linked target's
 * own objects are the only references (or no library target's file is known).
 */
static int referencing_library(const struct wh_ask *a, const char *self, struct ref_target *lib, char **other)
{
	const struct lk_replay *out = a->out;
	const struct lk_line *line = a->line;
	struct lk_strvec names = LK_STRVEC_INIT;

	memset(lib, 0, sizeof(*lib));
	*other = NULL;
	for (size_t i = 0; a->d && i < a->d->refs.nr && i < CMAKE_REFS_MAX; i++) {
		long item = out->inputs.items[a->d->refs.items[i]].item;
		struct ref_target t;

		while (item >= 0 && line->items.items[item].parent >= 0)
			item = line->items.items[item].parent;
		if (item < 0 || !line->items.items[item].path)
			continue;
		if (target_of(a->rec->cwd, line->items.items[item].path, &t) < 0 || !strcmp(t.name, self)) {
			lk_strvec_push(&names, self);
		} else {
			lk_strvec_push(&names, t.name);
			if (!lib->name && t.file) {
				*lib = t;
				continue;
			}
		}
		ref_target_release(&t);
	}
	for (size_t i = 0; lib->name && !*other && i < names.nr; i++)
		if (strcmp(names.items[i], lib->name))
			*other = lk_xstrdup(names.items[i]);
	lk_strvec_release(&names);
	return lib->name ? 0 : -1;
}

/* "after line N, ..." of a target's lines in its file, into `s`; the line, or 0. */
static long after_line(struct lk_buf *s, const struct target_lines *tl, const char *target)
{
	if (tl->linked) {
		lk_buf_addf(s, ", after line %ld, the end of the target %s's target_link_libraries", tl->linked, target);
		return tl->linked;
	}
	if (tl->defined) {
		lk_buf_addf(s, ", after line %ld, which defines the target %s", tl->defined, target);
		return tl->defined;
	}
	lk_buf_addf(s, ", for the target %s", target);
	return 0;
}

/* target_link_libraries(TARGET [KEYWORD] ITEMS...) for the fix's words, into `text`. */
static void tll_text(const struct wh_ask *a, const char *target, const char *keyword, struct lk_buf *text)
{
	lk_buf_addf(text, "target_link_libraries(%s%s%s", target, keyword ? " " : "", keyword ? keyword : "");
	for (size_t i = 0; i < a->words->nr; i++) {
		char *item = item_of(a->rec, a->words->items[i]);

		lk_buf_addf(text, " %s", item);
		free(item);
	}
	lk_buf_addch(text, ')');
}

/*
 * The words on the library target whose objects reference the symbols:
 * CMake then links them after that library in every target that links
 * it. PUBLIC when another target references them too (its consumers get
 * them with it), PRIVATE when no other does (a static library's PRIVATE
 * libraries are still linked after it); no keyword when the target's
 * target_link_libraries use none (CMake refuses to mix the two).
 */
static struct lk_fix_where *on_library(const struct wh_ask *a, const struct wh_cmake_memo *m, const struct ref_target *lib,
				       const char *other)
{
	struct lk_buf text = LK_BUF_INIT, s = LK_BUF_INIT;
	const char *keyword = lib->tl.plain ? NULL : other ? "PUBLIC" : "PRIVATE";
	struct lk_fix_where *w;

	tll_text(a, lib->name, keyword, &text);
	w = wh_new("cmake", lib->file, "target", lib->name, text.buf);
	lk_buf_addf(&s, "in %s", lib->file);
	w->line = after_line(&s, &lib->tl, lib->name);
	lk_buf_addf(&s, ", write %s: the objects of the library target %s (%s) reference %s, so the library is its to link, not %s's",
		    text.buf, lib->name, lib->input, a->d->symbols.nr > 1 ? "them" : a->d->symbol, m->target);
	if (!keyword)
		lk_buf_addf(&s, "; no keyword, as %s's target_link_libraries use none (CMake refuses to mix the two signatures)",
			    lib->name);
	else if (other)
		lk_buf_addf(&s, "; PUBLIC, as %s references %s too: the targets that link %s get it with it", other,
			    a->d->symbols.nr > 1 ? "them" : "it", lib->name);
	else
		lk_buf_addf(&s, "; PRIVATE, as no other target references %s (CMake still links it after %s where %s is linked)",
			    a->d->symbols.nr > 1 ? "them" : "it", lib->name, lib->name);
	w->sentence = lk_buf_detach(&s);
	lk_buf_release(&text);
	return w;
}

struct lk_fix_where *wh_cmake(const struct wh_ask *a)
{
	const struct wh_cmake_memo *m = cmake_memo(a);
	const char *target = m->target, *file = m->file;
	char *old = NULL, *other = NULL;
	struct lk_buf text = LK_BUF_INIT, s = LK_BUF_INIT;
	struct lk_fix_where *w;
	struct ref_target lib;
	const char *how;

	if (!target)
		return NULL;
	if (a->f->driver && strstr(a->f->driver, "++")) {
		lk_buf_addf(&text, "set_target_properties(%s PROPERTIES LINKER_LANGUAGE CXX)", target);
		how = "CMake then links it with the C++ driver";
	} else {
		if (!a->old && a->f->edit.kind == LK_EDIT_KIND_INSERT && !wh_flags_only(a->words) &&
		    referencing_library(a, target, &lib, &other) == 0) {
			w = on_library(a, m, &lib, other);
			ref_target_release(&lib);
			free(other);
			return w;
		}
		if (wh_flags_only(a->words)) {
			/* options of the link (-nostartfiles), not libraries */
			lk_buf_addf(&text, "target_link_options(%s PRIVATE", target);
			for (size_t i = 0; i < a->words->nr; i++)
				lk_buf_addf(&text, " %s", a->words->items[i]);
			lk_buf_addch(&text, ')');
			how = "CMake gives them to the link of that target";
		} else {
			tll_text(a, target, m->tl.plain ? NULL : "PRIVATE", &text);
			how = "CMake puts them after the target's objects";
		}
	}
	w = wh_new("cmake", file, "target", target, text.buf);
	if (a->old) {
		old = item_of(a->rec, a->old);
		w->replaces = lk_xstrdup(old);
	}
	lk_buf_addf(&s, "in %s", file ? file : "the CMakeLists.txt that defines it");
	if (a->f->driver && m->tl.language > m->tl.linked && m->tl.language > m->tl.defined) {
		/* after the target's own LINKER_LANGUAGE, which would set it back */
		w->line = m->tl.language;
		lk_buf_addf(&s, ", after line %ld, where the target %s's LINKER_LANGUAGE is set", w->line, target);
	} else {
		w->line = after_line(&s, &m->tl, target);
	}
	lk_buf_addstr(&s, " (CMake wrote this line for it)");
	lk_buf_addf(&s, ", write %s", text.buf);
	if (old)
		lk_buf_addf(&s, ", instead of %s in its target_link_libraries", old);
	lk_buf_addf(&s, ": %s", how);
	w->sentence = lk_buf_detach(&s);
	lk_buf_release(&text);
	free(old);
	return w;
}
