/*
 * "cannot find -lNAME" explained (input-not-found, incompatible-skipped):
 * why ld's search (model/libsearch.c, ldfile.c's ldfile_open_file_search)
 * found nothing, read from the search dirs as they are (the edit that
 * fixes it is analyzer/fix/'s). The causes, in the order they are looked for:
 *  - incompatible-skipped: every file found was of another machine (ld's
 *    "skipping incompatible"): each one and its machine, and a dir of the
 *    link's machine that has the right one (the line's sysroot, Debian's
 *    multiarch and cross dirs);
 *  - static-only-shared: -Bstatic (-static) in force and only libNAME.so;
 *  - runtime-only: only the runtime libNAME.so.N, the link libNAME.so
 *    (which its -dev package installs) missing: the package that has it,
 *    from dpkg's lists; fix -l:libNAME.so.N;
 *  - near-name: a library whose name nearly matches (edit distance, a
 *    "lib" prefix or suffix, a plural): -lzlib is -lz, -lpthreads
 *    -lpthread;
 *  - missing-dir: a -L dir that does not exist.
 */
#include <dirent.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "elf.h"
#include "notfound.h"
#include "provider.h"
#include "resolve.h"

static void say(struct lk_diag *d, struct lk_buf *b)
{
	lk_strvec_push_owned(&d->explanation, lk_buf_detach(b));
}

static void set_cause(struct lk_diag *d, const char *cause, const char *file)
{
	d->not_found_cause = cause;
	free(d->not_found_file);
	d->not_found_file = file ? lk_xstrdup(file) : NULL;
}

/* The dirs ld searched for a -l, in its order. */
static void search_dirs(const struct lk_line *line, struct lk_strvec *out)
{
	for (size_t i = 0; i < line->libdirs.nr; i++)
		lk_strvec_push(out, line->libdirs.items[i]);
	if (!(line->facts & LK_LINE_NOSTDLIB))
		for (size_t i = 0; i < line->default_dirs.nr; i++)
			lk_strvec_push(out, line->default_dirs.items[i]);
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* A library file of the link's machine at `path`. */
static int usable_lib(const struct lk_line *line, const char *path)
{
	struct lk_elf_info info;
	int ok;

	lk_elf_identify(path, &info);
	ok = (info.kind == LK_FILE_SHARED || info.kind == LK_FILE_ARCHIVE ||
	      info.kind == LK_FILE_THIN_ARCHIVE || info.kind == LK_FILE_TEXT) &&
	     (!line->machine || !info.machine || info.machine == line->machine);
	lk_elf_info_release(&info);
	return ok;
}

/* ---- incompatible files skipped ---- */

/* Where a library of `machine` is on Debian, native or cross (a sysroot's first). */
static void machine_dirs(const struct lk_line *line, struct lk_strvec *out)
{
	static const struct { int machine; const char *triple; } triples[] = {
		{ 62, "x86_64-linux-gnu" }, { 183, "aarch64-linux-gnu" }, { 3, "i386-linux-gnu" },
		{ 40, "arm-linux-gnueabihf" }, { 243, "riscv64-linux-gnu" },
	};
	const char *root = line->sysroot && strcmp(line->sysroot, "/") ? line->sysroot : "";

	for (size_t i = 0; i < sizeof(triples) / sizeof(triples[0]); i++) {
		struct lk_buf b = LK_BUF_INIT;

		if (triples[i].machine != line->machine)
			continue;
		lk_buf_addf(&b, "%s/usr/lib/%s", root, triples[i].triple);
		lk_strvec_push(out, b.buf);
		lk_buf_reset(&b);
		lk_buf_addf(&b, "%s/lib/%s", root, triples[i].triple);
		lk_strvec_push(out, b.buf);
		lk_buf_reset(&b);
		lk_buf_addf(&b, "%s/usr/%s/lib", root, triples[i].triple);
		lk_strvec_push(out, b.buf);
		lk_buf_release(&b);
	}
}

static void explain_incompatible(const struct lk_line *line, const struct lk_line_item *it, struct lk_diag *d)
{
	struct lk_strvec dirs = LK_STRVEC_INIT;
	struct lk_buf b = LK_BUF_INIT;
	int static_only = (it->state & LK_ST_STATIC) != 0;

	for (size_t i = 0; i < it->skipped.nr; i++) {
		struct lk_elf_info info;

		lk_elf_identify(it->skipped.items[i], &info);
		lk_buf_addf(&b, "ld skipped %s: it is for %s (e_machine %d), and the link is for %s (\"skipping incompatible\")",
			    it->skipped.items[i], lk_elf_machine_name(info.machine), info.machine,
			    lk_elf_machine_name(line->machine));
		say(d, &b);
		lk_elf_info_release(&info);
	}
	lk_buf_addf(&b, "ld: \"cannot find %s\": nothing of %s in the %zu files tried", it->word,
		    lk_elf_machine_name(line->machine), it->tried.nr);
	say(d, &b);
	set_cause(d, "incompatible-skipped", NULL);
	machine_dirs(line, &dirs);
	for (size_t i = 0; i < dirs.nr && !d->not_found_file; i++) {
		for (int pass = static_only; pass < 2 && !d->not_found_file; pass++) {
			lk_buf_reset(&b);
			lk_buf_addf(&b, "%s/lib%s.%s", dirs.items[i], it->word + 2, pass ? "a" : "so");
			if (it->word[2] != ':' && usable_lib(line, b.buf))
				set_cause(d, "incompatible-skipped", b.buf);
		}
	}
	lk_buf_reset(&b);
	if (d->not_found_file)
		lk_buf_addf(&b, "%s is of %s: the library for this link's machine is there, in a dir the line does not search",
			    d->not_found_file, lk_elf_machine_name(line->machine));
	else
		lk_buf_addf(&b, "no lib%s.so or .a of %s is in the dirs of that machine either", it->word + 2,
			    lk_elf_machine_name(line->machine));
	say(d, &b);
	lk_strvec_release(&dirs);
}

/* ---- nothing found ---- */

/* -Bstatic in force and only lib<name>.so in a dir searched. */
static int static_only_shared(const struct lk_line_item *it, const struct lk_strvec *dirs, struct lk_diag *d)
{
	for (size_t i = 0; i < dirs->nr; i++) {
		struct lk_buf b = LK_BUF_INIT;
		int found;

		lk_buf_addf(&b, "%s/lib%s.so", dirs->items[i], it->word + 2);
		found = exists(b.buf);
		if (found)
			set_cause(d, "static-only-shared", b.buf);
		lk_buf_release(&b);
		if (found)
			return 1;
	}
	return 0;
}

/* Only lib<name>.so.N: the shortest such name in the first dir that has one. */
static int runtime_only(const struct lk_line *line, const struct lk_line_item *it, const struct lk_strvec *dirs,
			struct lk_diag *d)
{
	for (size_t i = 0; i < dirs->nr; i++) {
		struct lk_buf pat = LK_BUF_INIT;
		const char *best = NULL;
		glob_t g;

		lk_buf_addf(&pat, "%s/lib%s.so.[0-9]*", dirs->items[i], it->word + 2);
		if (glob(pat.buf, 0, NULL, &g) == 0) {
			for (size_t k = 0; k < g.gl_pathc; k++)
				if (usable_lib(line, g.gl_pathv[k]) && (!best || strlen(g.gl_pathv[k]) < strlen(best)))
					best = g.gl_pathv[k];
			if (best)
				set_cause(d, "runtime-only", best);
			globfree(&g);
		}
		lk_buf_release(&pat);
		if (d->not_found_file)
			return 1;
	}
	return 0;
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), *row, prev, best;

	if (la > 64 || lb > 64)
		return 99;
	row = lk_xcalloc(lb + 1, sizeof(*row));
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cur = row[j], sub = prev + (a[i - 1] != b[j - 1]);

			best = row[j] + 1 < row[j - 1] + 1 ? row[j] + 1 : row[j - 1] + 1;
			row[j] = sub < best ? sub : best;
			prev = cur;
		}
	}
	best = row[lb];
	free(row);
	return best;
}

/* How near library name `have` is to the name asked for, `want`: 0 by a rule, else the distance; 99 far. */
static size_t nearness(const char *want, const char *have)
{
	size_t lw = strlen(want), lh = strlen(have), d;

	if (!strcmp(want, have))
		return 99;
	/* -llibz, -lzlib, -lpthreads: a "lib" prefix or suffix, a plural. */
	if ((lw == lh + 3 && !strncmp(want, "lib", 3) && !strcmp(want + 3, have)) ||
	    (lw == lh + 3 && !strcmp(want + lh, "lib") && !strncmp(want, have, lh)) ||
	    (lw == lh + 1 && want[lh] == 's' && !strncmp(want, have, lh)))
		return 0;
	if (lw < 4)
		return 99;
	d = edit_distance(want, have);
	return d <= (lw >= 7 ? 2u : 1u) ? d : 99;
}

/* A library in the dirs searched whose name nearly matches: the nearest, the first in ld's order. */
static int near_name(const struct lk_line *line, const struct lk_line_item *it, const struct lk_strvec *dirs,
		     struct lk_diag *d)
{
	const char *want = it->word + 2;
	size_t best = 99;
	struct lk_buf name = LK_BUF_INIT, file = LK_BUF_INIT;

	for (size_t i = 0; i < dirs->nr && best; i++) {
		DIR *dir = opendir(dirs->items[i]);
		struct dirent *e;
		size_t seen = 0;

		while (dir && (e = readdir(dir)) && seen++ < 100000) {
			size_t len = strlen(e->d_name), n;
			int so = len > 6 && !strcmp(e->d_name + len - 3, ".so"), ar = len > 5 && !strcmp(e->d_name + len - 2, ".a");

			if (strncmp(e->d_name, "lib", 3) || (!so && !ar) || (so && (it->state & LK_ST_STATIC)))
				continue;
			lk_buf_reset(&name);
			lk_buf_add(&name, e->d_name + 3, len - 3 - (so ? 3 : 2));
			n = nearness(want, name.buf);
			if (n >= best)
				continue;
			lk_buf_reset(&file);
			lk_buf_addf(&file, "%s/%s", dirs->items[i], e->d_name);
			if (!usable_lib(line, file.buf))
				continue;
			best = n;
			set_cause(d, "near-name", file.buf);
		}
		if (dir)
			closedir(dir);
	}
	lk_buf_release(&name);
	lk_buf_release(&file);
	return best < 99;
}

/* The -L dirs of the line that do not exist. */
static void missing_dirs(const struct lk_line *line, struct lk_diag *d)
{
	struct lk_buf b = LK_BUF_INIT;

	for (size_t i = 0; i < line->libdirs.nr; i++) {
		/* A bundle's -L dir gone here is not a cause: the link had it, the bundle carries what it read there. */
		if (exists(line->libdirs.items[i]) || lk_resolve_bundles_dir(line->rec, line->libdirs.items[i]))
			continue;
		lk_buf_addf(&b, "-L %s does not exist", line->libdirs.items[i]);
		say(d, &b);
		if (!d->not_found_cause)
			set_cause(d, "missing-dir", line->libdirs.items[i]);
	}
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

char *lk_notfound_l_word(const char *path)
{
	const char *base = base_name(path);
	size_t len = strlen(base);
	struct lk_buf b = LK_BUF_INIT;

	len -= len > 3 && !strcmp(base + len - 3, ".so") ? 3 : 2;
	lk_buf_addf(&b, "-l%.*s", (int)(len - 3), base + 3);
	return lk_buf_detach(&b);
}

static void explain_lib(const struct lk_line *line, const struct lk_line_item *it, struct lk_diag *d,
			size_t *searched)
{
	struct lk_strvec dirs = LK_STRVEC_INIT;
	struct lk_buf b = LK_BUF_INIT;

	lk_buf_addf(&b, "ld: \"cannot find %s\": %zu files tried in the -L and default dirs", it->word, it->tried.nr);
	say(d, &b);
	search_dirs(line, &dirs);
	if (it->word[2] == ':' || (*searched)++ >= LK_NOTFOUND_SEARCH_MAX) {
		/* -l:FILE names a file: no rule finds another; past the bound, no dir is listed again */
	} else if ((it->state & LK_ST_STATIC) && static_only_shared(it, &dirs, d)) {
		lk_buf_addf(&b, "-Bstatic (-static) is in force there, and the dirs searched have only the shared %s: ld takes only lib%s.a then",
			    d->not_found_file, it->word + 2);
		say(d, &b);
	} else if (!(it->state & LK_ST_STATIC) && runtime_only(line, it, &dirs, d)) {
		char *cache = lk_provider_cache_dir();
		char *pkg = lk_provider_package(d->not_found_file, cache);

		lk_buf_addf(&b, "only the runtime library %s is installed%s%s%s, not lib%s.so, the name -l%s looks for: that link comes with the library's -dev package",
			    d->not_found_file, pkg ? " (package " : "", pkg ? pkg : "", pkg ? ")" : "",
			    it->word + 2, it->word + 2);
		say(d, &b);
		free(pkg);
		free(cache);
	} else if (near_name(line, it, &dirs, d)) {
		char *word = lk_notfound_l_word(d->not_found_file);

		lk_buf_addf(&b, "%s is in a dir searched: did you mean %s?", d->not_found_file, word);
		say(d, &b);
		free(word);
	}
	missing_dirs(line, d);
	lk_strvec_release(&dirs);
}

void lk_notfound_explain(const struct lk_line *line, struct lk_diag *d, size_t *searched)
{
	const struct lk_line_item *it;
	struct lk_buf b = LK_BUF_INIT;

	if (d->item < 0 || (size_t)d->item >= line->items.nr)
		LK_BUG("an input-not-found diagnostic names no input of the line");
	it = &line->items.items[d->item];
	if (d->kind == LK_DIAG_INCOMPATIBLE) {
		explain_incompatible(line, it, d);
	} else if (it->kind == LK_ITEM_LIB) {
		explain_lib(line, it, d, searched);
	} else {
		lk_buf_addf(&b, "ld: \"cannot find %s\": no such file", it->word);
		say(d, &b);
	}
}
