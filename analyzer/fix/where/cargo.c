/*
 * Where a fix of a rustc line is made: the build script of the crate
 * that printed the word or should print it, and the `cargo:` line.
 *
 * What cargo leaves in the target dir says it, with no cargo run: the
 * rlibs on the line sit in TARGET/PROFILE/deps/, each with its dep-info
 * `NAME-HASH.d`, whose first source names the package's dir (the one with
 * Cargo.toml: `name`, `links`, `build`); a build script's output is
 * TARGET/PROFILE/build/PKG-HASH/output, the `cargo:` lines it printed.
 * The library a -sys crate forgot is the -sys crate's to print (the one
 * with `links =`), not the crate that calls it: pcre2-sys, not pcre2.
 * A word appended after cargo:rustc-link-arg words goes after them, from
 * the crate that printed the last; a `-C link-arg` from RUSTFLAGS or
 * .cargo/config.toml is edited there.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "crate.h"
#include "parts.h"

/* Ancestors looked at for a Cargo.toml above a source, or a .cargo/config.toml above the cwd. */
#define CARGO_UP_MAX 8
/* Crates read for one fix (each: a dep-info, a Cargo.toml, a build output): a bigger line reads no more. */
#define CARGO_CRATES_MAX 256

struct crate {
	char *pkg;		/* the package name, as Cargo.toml has it */
	char *dir;		/* its manifest's dir */
	char *links;		/* `links =`, or NULL */
	char *build_rs;		/* its build script, or NULL */
	char *output;		/* what the build script printed (its newest run), or NULL */
};

struct crates {
	struct crate *items;
	size_t nr, alloc;
	char *profile;		/* TARGET/PROFILE, or NULL */
};

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

/* TARGET/PROFILE from the first rlib or codegen unit in a deps/ dir on the line, absolute. */
static char *profile_dir(const struct lk_record *rec)
{
	for (size_t i = 1; i < rec->args.nr; i++) {
		const char *w = rec->args.items[i].text;
		char *path, *deps, *profile = NULL;

		if (w[0] == '-' || !(ends_with(w, ".rlib") || ends_with(w, ".rcgu.o")))
			continue;
		path = wh_join(rec->cwd, w);
		deps = wh_dirname(path);
		if (!strcmp(lk_path_base(deps), "deps"))
			profile = wh_dirname(deps);
		free(deps);
		free(path);
		if (profile)
			return profile;
	}
	return NULL;
}

/* The first source a dep-info file names ("OUT: SRC MORE..."), with "\ " unescaped; owned or NULL. */
static char *dep_first_source(const char *dfile)
{
	char *text = wh_read(dfile), *p;
	struct lk_buf b = LK_BUF_INIT;

	if (!text)
		return NULL;
	for (p = text; *p && *p != '\n'; p++)
		if (p[0] == ':' && p[1] == ' ')
			break;
	if (p[0] == ':') {
		for (p += 2; *p == ' '; p++)
			;
		for (; *p && *p != ' ' && *p != '\n'; p++) {
			if (p[0] == '\\' && p[1] == ' ')
				p++;
			lk_buf_addch(&b, *p);
		}
	}
	free(text);
	if (!b.len) {
		lk_buf_release(&b);
		return NULL;
	}
	return lk_buf_detach(&b);
}

/* The dir above `path` holding a Cargo.toml, or NULL. */
static char *manifest_dir(const char *path)
{
	char *dir = wh_dirname(path);

	for (int up = 0; up < CARGO_UP_MAX; up++) {
		char *toml = wh_join(dir, "Cargo.toml");
		int found = wh_is_file(toml);

		free(toml);
		if (found)
			return dir;
		if (!wh_climb(&dir))
			break;
	}
	free(dir);
	return NULL;
}

/* `key = "value"` on the line at `p`, or NULL: the value, owned. */
static char *toml_string(const char *p, const char *key)
{
	size_t n = strlen(key);
	const char *q;

	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, key, n))
		return NULL;
	for (p += n; *p == ' ' || *p == '\t'; p++)
		;
	if (*p++ != '=')
		return NULL;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p++ != '"' || !(q = strpbrk(p, "\"\n")) || *q != '"')
		return NULL;
	return lk_xstrndup(p, (size_t)(q - p));
}

/* [package] name, links and build of the crate's Cargo.toml; a build script only if its file is there. */
static int read_manifest(struct crate *c)
{
	char *toml = wh_join(c->dir, "Cargo.toml"), *text = wh_read(toml), *build = NULL;
	int in_package = 0;

	free(toml);
	if (!text)
		return -1;
	for (char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		char *v;

		if (*p == '[') {
			in_package = !strncmp(p, "[package]", 9);
			continue;
		}
		if (!in_package)
			continue;
		if (!c->pkg && (v = toml_string(p, "name")))
			c->pkg = v;
		else if (!c->links && (v = toml_string(p, "links")))
			c->links = v;
		else if (!build && (v = toml_string(p, "build")))
			build = v;
	}
	free(text);
	c->build_rs = wh_join(c->dir, build ? build : "build.rs");
	free(build);
	if (!wh_is_file(c->build_rs)) {
		free(c->build_rs);
		c->build_rs = NULL;
	}
	return c->pkg ? 0 : -1;
}

/* Is `name` PKG-HASH, HASH 16 hex digits? */
static int build_dir_of(const char *name, const char *pkg)
{
	size_t n = strlen(pkg);

	if (strncmp(name, pkg, n) || name[n] != '-' || strlen(name + n + 1) != 16)
		return 0;
	return strspn(name + n + 1, "0123456789abcdef") == 16;
}

/* The `output` of the package's newest build-script run under PROFILE/build/, or NULL. */
static char *build_output(const char *profile, const char *pkg)
{
	char *dir = wh_join(profile, "build"), *best = NULL;
	DIR *dh = opendir(dir);
	struct dirent *e;
	long long newest = -1;
	int seen = 0;

	while (dh && (e = readdir(dh)) && seen++ < WH_DIR_MAX) {
		struct lk_buf p = LK_BUF_INIT;
		struct stat st;

		if (!build_dir_of(e->d_name, pkg))
			continue;
		lk_buf_addf(&p, "%s/%s/output", dir, e->d_name);
		if (stat(p.buf, &st) == 0 && S_ISREG(st.st_mode) &&
		    (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec > newest) {
			newest = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
			free(best);
			best = lk_buf_detach(&p);
		}
		lk_buf_release(&p);
	}
	if (dh)
		closedir(dh);
	free(dir);
	if (!best)
		return NULL;
	dir = wh_read(best);
	free(best);
	return dir;
}

static void crate_add(struct crates *cs, char *dir)
{
	struct crate c = { NULL, dir, NULL, NULL, NULL };

	for (size_t i = 0; i < cs->nr; i++)
		if (!strcmp(cs->items[i].dir, dir)) {
			free(dir);
			return;
		}
	if (read_manifest(&c) < 0) {
		free(c.pkg);
		free(c.links);
		free(c.build_rs);
		free(dir);
		return;
	}
	if (c.build_rs && cs->profile)
		c.output = build_output(cs->profile, c.pkg);
	LK_GROW(cs->items, cs->nr + 1, cs->alloc);
	cs->items[cs->nr++] = c;
}

/* The crates of the line: each rlib's (through its dep-info) and the one being linked. */
static void crates_collect(const struct lk_record *rec, struct crates *cs)
{
	const char *self = lk_record_env(rec, "CARGO_MANIFEST_DIR");

	memset(cs, 0, sizeof(*cs));
	cs->profile = profile_dir(rec);
	for (size_t i = 1; cs->profile && i < rec->args.nr && cs->nr < CARGO_CRATES_MAX; i++) {
		const char *w = rec->args.items[i].text, *base = lk_path_base(w);
		struct lk_buf d = LK_BUF_INIT;
		char *src, *dir;

		if (w[0] == '-' || !ends_with(w, ".rlib") || strncmp(base, "lib", 3))
			continue;
		lk_buf_addf(&d, "%s/deps/%.*s.d", cs->profile, (int)(strlen(base) - 8), base + 3);
		src = dep_first_source(d.buf);
		lk_buf_release(&d);
		if (!src)
			continue;
		dir = wh_join(rec->cwd, src);
		free(src);
		src = dir;
		dir = manifest_dir(src);
		free(src);
		if (dir)
			crate_add(cs, dir);
	}
	if (self && self[0] == '/')
		crate_add(cs, lk_xstrdup(self));
}

static void crates_release(struct crates *cs)
{
	for (size_t i = 0; i < cs->nr; i++) {
		free(cs->items[i].pkg);
		free(cs->items[i].dir);
		free(cs->items[i].links);
		free(cs->items[i].build_rs);
		free(cs->items[i].output);
	}
	free(cs->items);
	free(cs->profile);
}

/*
 * The crate of the diagnostic's first reference (crate.h): libfoo_sys-HASH.rlib
 * -> foo_sys, foo-HASH.x.rcgu.o -> foo, TARGET/PROFILE/build/PKG-HASH/out/libx.a
 * -> PKG (the package whose build script made the archive); owned or NULL.
 */
static char *ref_crate(const struct wh_ask *a)
{
	long ri = a->d ? a->d->ref_input : -1;
	long item = ri >= 0 ? a->out->inputs.items[ri].item : -1;

	if (item < 0)
		return NULL;
	return lk_crate_of_path(a->line->items.items[item].path);
}

/* The `cargo:` line's instruction (after "cargo:" or "cargo::"), or NULL. */
static const char *instruction(const char *line)
{
	if (!strncmp(line, "cargo::", 7))
		return line + 7;
	if (!strncmp(line, "cargo:", 6))
		return line + 6;
	return NULL;
}

/* The last `cargo:rustc-link-*` line of an output, owned, or NULL. */
static char *last_link_line(const char *output)
{
	char *last = NULL;

	for (const char *p = output; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *in = instruction(p);
		size_t n = strcspn(p, "\n");

		if (in && !strncmp(in, "rustc-link-", 11)) {
			free(last);
			last = lk_xstrndup(p, n);
		}
	}
	return last;
}

/* The output line whose instruction is `want` (rustc-link-arg=-Wl,--end-group), owned, or NULL. */
static char *output_line(const char *output, const char *want)
{
	size_t n = strlen(want);

	for (const char *p = output; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *in = instruction(p);

		if (in && !strncmp(in, want, n) && (in[n] == '\n' || !in[n]))
			return lk_xstrndup(p, (size_t)(in - p) + n);
	}
	return NULL;
}

/* The line (1-based) of `text` holding `needle` and, when not NULL, also `also`; 0 if none. */
static long line_with(const char *text, const char *needle, const char *also)
{
	long nr = 1;

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL, nr++) {
		size_t n = strcspn(p, "\n");
		char *line = lk_xstrndup(p, n);
		int hit = strstr(line, needle) && (!also || strstr(line, also));

		free(line);
		if (hit)
			return nr;
	}
	return 0;
}

/*
 * The line of the build script that prints `out_line`: its instruction
 * in a string, else a line naming the instruction's key and its value
 * (`cargo:rustc-link-arg{which}=-Wl,--end-group`, formatted). 1-based, or 0.
 */
static long script_line(const char *build_rs, const char *out_line)
{
	char *text = wh_read(build_rs), *key;
	const char *in = instruction(out_line), *eq;
	long nr = 0;

	if (text && in && !(nr = line_with(text, in, NULL)) && (eq = strchr(in, '=')) && eq[1]) {
		key = lk_xstrndup(in, (size_t)(eq - in));
		nr = line_with(text, eq + 1, key);
		/* a path the script formats (OUT_DIR/libx.a): the line naming its file */
		if (!nr && strchr(eq + 1, '/') && *lk_path_base(eq + 1))
			nr = line_with(text, lk_path_base(eq + 1), key);
		free(key);
	}
	free(text);
	return nr;
}

/* The library a cargo: line or a word links: "rustc-link-lib=static=pcre2" -> pcre2, "-lz" -> z; owned or NULL. */
static char *lib_stem(const char *s)
{
	const char *in = instruction(s), *eq, *base;

	if (in && !strncmp(in, "rustc-link-lib=", 15)) {
		in += 15;
		eq = strchr(in, '=');
		return lk_xstrdup(eq ? eq + 1 : in);
	}
	if (!strncmp(s, "-l", 2) && s[2] != ':')
		return lk_xstrdup(s + 2);
	base = lk_path_base(s);
	if (s[0] != '-' && !strncmp(base, "lib", 3) && (strstr(base, ".so") || ends_with(base, ".a")))
		return lk_xstrndup(base + 3, strcspn(base + 3, "."));
	return NULL;
}

/*
 * Whose build script links the library `stem`: the crate whose `links`
 * it is (pcre2 for pcre2-8), else REF-sys, else the referencing crate
 * itself when it has a build script. NULL when none is: a crate that is
 * merely there is not guessed.
 */
static const struct crate *lib_owner(const struct crates *cs, const char *stem, const char *ref)
{
	for (size_t i = 0; i < cs->nr; i++) {
		const struct crate *c = &cs->items[i];
		size_t n = c->links ? strlen(c->links) : 0;

		if (c->build_rs && n && !strncmp(stem, c->links, n) &&
		    (!stem[n] || stem[n] == '-' || stem[n] == '_' || (stem[n] >= '0' && stem[n] <= '9')))
			return c;
	}
	for (size_t i = 0; ref && i < cs->nr; i++) {
		const struct crate *c = &cs->items[i];
		size_t n = strlen(ref);

		if (c->build_rs && !strncmp(c->pkg, ref, n) && lk_crate_same(c->pkg + n, "-sys"))
			return c;
	}
	for (size_t i = 0; ref && i < cs->nr; i++)
		if (cs->items[i].build_rs && lk_crate_same(cs->items[i].pkg, ref))
			return &cs->items[i];
	return NULL;
}

/* The cargo: lines for words appended to the line: -lz -> rustc-link-lib=z, DIR/libx.a -> static=x and its dir. */
static void lines_for_words(const struct lk_strvec *words, struct lk_strvec *lines)
{
	for (size_t i = 0; i < words->nr; i++) {
		const char *w = words->items[i];
		char *stem = lib_stem(w);
		struct lk_buf l = LK_BUF_INIT;

		if (stem && w[0] == '-') {
			lk_buf_addf(&l, "cargo:rustc-link-lib=%s", stem);
		} else if (stem) {
			char *dir = wh_dirname(w);

			lk_buf_addf(&l, "cargo:rustc-link-lib=%s%s", ends_with(w, ".a") ? "static=" : "", stem);
			lk_strvec_push_owned(lines, lk_buf_detach(&l));
			lk_buf_addf(&l, "cargo:rustc-link-search=native=%s", dir);
			free(dir);
		} else {
			lk_buf_addf(&l, "cargo:rustc-link-arg=%s", w);
		}
		lk_strvec_push_owned(lines, lk_buf_detach(&l));
		free(stem);
	}
}

static char *joined(const struct lk_strvec *v, const char *sep)
{
	struct lk_buf b = LK_BUF_INIT;

	for (size_t i = 0; i < v->nr; i++)
		lk_buf_addf(&b, "%s%s", i ? sep : "", v->items[i]);
	return lk_buf_detach(&b);
}

/*
 * The last line of a build script that calls the cc crate's compile
 * (`.compile("NAME")`, `.try_compile(`), 1-based, or 0: cc prints the
 * archive's cargo:rustc-link-lib and -search lines there, not the script.
 */
static long cc_compile_line(const char *build_rs)
{
	char *text = wh_read(build_rs);
	long nr = 1, last = 0;

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL, nr++) {
		size_t n = strcspn(p, "\n");
		char *line = lk_xstrndup(p, n);

		if (strstr(line, ".compile(") || strstr(line, ".try_compile("))
			last = nr;
		free(line);
	}
	free(text);
	return last;
}

/* In crate c's build script: print `lines` after `after` (an output line, or NULL for "at the end"). */
static struct lk_fix_where *in_script(const struct crate *c, const struct lk_strvec *lines, const char *after,
				      const char *why)
{
	char *text = joined(lines, "\n"), *quoted = joined(lines, "\" and \"");
	struct lk_fix_where *w = wh_new("cargo", c->build_rs, "crate", c->pkg, text);
	struct lk_buf s = LK_BUF_INIT;

	w->line = after ? script_line(c->build_rs, after) : 0;
	lk_buf_addf(&s, "in the build script of the crate %s (%s), print \"%s\"", c->pkg, c->build_rs, quoted);
	if (after && !w->line && (w->line = cc_compile_line(c->build_rs)))
		lk_buf_addf(&s, " after line %ld, the cc crate's compile, which prints \"%s\"%s", w->line, after,
			    why ? why : "");
	else if (after)
		lk_buf_addf(&s, " after \"%s\"%s", after, why ? why : "");
	else
		lk_buf_addstr(&s, " (it prints no cargo:rustc-link-* line now)");
	w->sentence = lk_buf_detach(&s);
	free(quoted);
	free(text);
	return w;
}

/* A library the line lacks: the -sys crate that links it prints it, after its own link lines. */
static struct lk_fix_where *missing_library(const struct wh_ask *a, const struct crates *cs)
{
	struct lk_strvec lines = LK_STRVEC_INIT;
	const struct crate *c;
	char *stem, *ref = ref_crate(a), *after;
	struct lk_fix_where *w = NULL;
	struct lk_buf why = LK_BUF_INIT;

	if (a->f->build_script.nr)
		for (size_t i = 0; i < a->f->build_script.nr; i++)
			lk_strvec_push(&lines, a->f->build_script.items[i]);
	else
		lines_for_words(a->words, &lines);
	stem = lines.nr ? lib_stem(lines.items[0]) : NULL;
	c = stem ? lib_owner(cs, stem, ref) : NULL;
	if (c) {
		after = c->output ? last_link_line(c->output) : NULL;
		if (after)
			lk_buf_addstr(&why, ", the last cargo:rustc-link-* line it prints");
		w = in_script(c, &lines, after, why.buf);
		lk_buf_reset(&why);
		lk_buf_addstr(&why, w->sentence);
		if (c->links)
			lk_buf_addf(&why, ": %s is the crate with links = \"%s\"", c->pkg, c->links);
		if (ref && !lk_crate_same(ref, c->pkg))
			lk_buf_addf(&why, "%s not %s, which only references the symbols", c->links ? "," : ":", ref);
		free(w->sentence);
		w->sentence = lk_buf_detach(&why);
		free(after);
	}
	lk_buf_release(&why);
	lk_strvec_release(&lines);
	free(stem);
	free(ref);
	return w;
}

/* Is `word` a whole word of rustflags' text: after a blank, `=` or a quote, before a blank, a quote or a comma? */
static int in_flags(const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = strstr(text, word); n && p; p = strstr(p + 1, word))
		if ((p == text || strchr(" \t\n=\"'", p[-1])) && (!p[n] || strchr(" \t\n\"',", p[n])))
			return 1;
	return 0;
}

/* `word` in RUSTFLAGS (as the record has it) or a .cargo/config.toml above the cwd: where it is set. */
static struct lk_fix_where *rustflags_of(const struct lk_record *rec, const char *word, const char *text)
{
	const char *env = lk_record_env(rec, "RUSTFLAGS");
	char *dir = lk_xstrdup(rec->cwd);
	struct lk_fix_where *w = NULL;

	if (env && in_flags(env, word))
		w = wh_new("cargo", NULL, "variable", "RUSTFLAGS", text);
	for (int up = 0; !w && up < CARGO_UP_MAX; up++) {
		char *cfg = wh_join(dir, ".cargo/config.toml"), *body = wh_read(cfg);

		if (!body) {
			free(cfg);
			cfg = wh_join(dir, ".cargo/config");
			body = wh_read(cfg);
		}
		if (body && in_flags(body, word))
			w = wh_new("cargo", cfg, "variable", "rustflags", text);
		free(body);
		free(cfg);
		if (!wh_climb(&dir))
			break;
	}
	free(dir);
	return w;
}

/* Which crate's output printed rustc-link-arg=WORD: its index, or -1; *line gets the output line. */
static long link_arg_crate(const struct crates *cs, const char *word, char **line)
{
	struct lk_buf want = LK_BUF_INIT;

	lk_buf_addf(&want, "rustc-link-arg=%s", word);
	for (size_t i = 0; i < cs->nr; i++)
		if (cs->items[i].output && (*line = output_line(cs->items[i].output, want.buf))) {
			lk_buf_release(&want);
			return (long)i;
		}
	lk_buf_release(&want);
	return -1;
}

/* Words appended after the line's -C link-arg run: after its last word, where that came from. */
static struct lk_fix_where *after_link_args(const struct wh_ask *a, const struct crates *cs)
{
	const struct lk_record *rec = a->rec;
	const char *last = rec->args.items[rec->link_args_end - 1].text;
	struct lk_strvec lines = LK_STRVEC_INIT;
	struct lk_fix_where *w = NULL;
	char *out_line = NULL;
	long c = link_arg_crate(cs, last, &out_line);

	for (size_t i = 0; i < a->words->nr; i++) {
		struct lk_buf l = LK_BUF_INIT;

		lk_buf_addf(&l, "cargo:rustc-link-arg=%s", a->words->items[i]);
		lk_strvec_push_owned(&lines, lk_buf_detach(&l));
	}
	if (c >= 0) {
		struct lk_buf why = LK_BUF_INIT;

		lk_buf_addf(&why, ", which put %s on the line: the words go after it", last);
		w = in_script(&cs->items[c], &lines, out_line, why.buf);
		lk_buf_release(&why);
	} else {
		char *words = joined(a->words, " ");
		struct lk_buf t = LK_BUF_INIT, s = LK_BUF_INIT;

		for (size_t i = 0; i < a->words->nr; i++)
			lk_buf_addf(&t, "%s-Clink-arg=%s", i ? " " : "", a->words->items[i]);
		w = rustflags_of(rec, last, t.buf);
		if (w) {
			lk_buf_addf(&s, "in %s, add \"%s\" after the -C link-arg that gives %s", w->file ? w->file : "RUSTFLAGS",
				    t.buf, last);
			if (w->file)
				lk_buf_addf(&s, " (its rustflags)");
			w->sentence = lk_buf_detach(&s);
		}
		lk_buf_release(&t);
		free(words);
	}
	free(out_line);
	lk_strvec_release(&lines);
	return w;
}

/* The word at the fix's position replaced: in the build script that printed it, or the rustflags. */
static struct lk_fix_where *replaced(const struct wh_ask *a, const struct crates *cs)
{
	enum lk_prov prov = a->rec->prov ? a->rec->prov[a->f->position] : LK_PROV_USER;
	const char *old = a->old, *new = a->words->items[0];
	struct lk_fix_where *w = NULL;
	struct lk_buf l = LK_BUF_INIT, s = LK_BUF_INIT;
	char *out_line = NULL;
	long c = -1;

	if (prov == LK_PROV_LINK_ARG) {
		c = link_arg_crate(cs, old, &out_line);
		lk_buf_addf(&l, "cargo:rustc-link-arg=%s", new);
	} else if (prov == LK_PROV_RUSTC_NATIVE && !strncmp(old, "-l", 2) && !strncmp(new, "-l", 2)) {
		/* cargo:rustc-link-lib=[KIND[:MODIFIERS]=]NAME printed as -lNAME: the same line, the name changed. */
		for (size_t i = 0; c < 0 && i < cs->nr; i++)
			for (const char *p = cs->items[i].output; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
				const char *in = instruction(p), *name;
				size_t n = strcspn(p, "\n");

				if (!in || strncmp(in, "rustc-link-lib=", 15))
					continue;
				name = memchr(in + 15, '=', (size_t)(p + n - in - 15));
				name = name ? name + 1 : in + 15;
				if ((size_t)(p + n - name) == strlen(old + 2) && !strncmp(name, old + 2, strlen(old + 2))) {
					c = (long)i;
					out_line = lk_xstrndup(p, n);
					if (new[2] == ':')
						lk_buf_addf(&l, "cargo:rustc-link-lib=dylib:+verbatim=%s", new + 3);
					else
						lk_buf_addf(&l, "%.*s%s", (int)(name - p), p, new + 2);
					break;
				}
			}
	}
	if (c >= 0) {
		const struct crate *cr = &cs->items[c];

		w = wh_new("cargo", cr->build_rs, "crate", cr->pkg, l.buf);
		w->replaces = lk_xstrdup(out_line);
		w->line = script_line(cr->build_rs, out_line);
		lk_buf_addf(&s, "in the build script of the crate %s (%s), print \"%s\" instead of \"%s\"", cr->pkg,
			    cr->build_rs, l.buf, out_line);
		w->sentence = lk_buf_detach(&s);
	} else if (prov == LK_PROV_LINK_ARG) {
		/* the word itself, in its -C link-arg= (or link-args=) where rustflags say it */
		w = rustflags_of(a->rec, old, new);
		if (w) {
			w->replaces = lk_xstrdup(old);
			lk_buf_addf(&s, "in %s, write %s instead of %s in its -C link-arg", w->file ? w->file : "RUSTFLAGS",
				    new, old);
			w->sentence = lk_buf_detach(&s);
		}
	}
	free(out_line);
	lk_buf_release(&l);
	lk_buf_release(&s);
	return w;
}

/* The crates of the line, collected at the record's first fix. */
struct wh_cargo_memo {
	struct crates cs;
};

void wh_cargo_memo_free(struct wh_cargo_memo *m)
{
	if (!m)
		return;
	crates_release(&m->cs);
	free(m);
}

struct lk_fix_where *wh_cargo(const struct wh_ask *a)
{
	const struct crates *cs;
	struct lk_fix_where *w = NULL;
	int append = a->f->position >= (long)a->rec->args.nr;
	int after_args = a->rec->link_args_start >= 0 && a->rec->link_args_end > a->rec->link_args_start &&
			 (size_t)a->rec->link_args_end <= a->rec->args.nr;

	if (a->f->driver)
		return NULL;	/* a rustc line's driver is rustc's choice: -C linker */
	if (!a->memo->cargo) {
		a->memo->cargo = lk_xcalloc(1, sizeof(*a->memo->cargo));
		crates_collect(a->rec, &a->memo->cargo->cs);
	}
	cs = &a->memo->cargo->cs;
	if (a->old && a->words->nr == 1)
		w = replaced(a, cs);
	else if (append && after_args && !a->f->build_script.nr)
		w = after_link_args(a, cs);
	else if (append)
		w = missing_library(a, cs);
	return w;
}
