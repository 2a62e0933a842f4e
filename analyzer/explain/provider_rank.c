/*
 * Diagnostics -> providers: which of the libraries found is a fix a person
 * would make (issue #17, point 8).
 *
 * Takes the provider index and each symbol's hits (provider.c, best
 * first) and gives the hits a fix may come from, with the others set
 * aside and the reason each is no fix. The index finds every library that
 * exports a name; many export names they only use themselves. A program's
 * entry symbols (`main`) are the program's own: libncurses++.a and
 * libgtest_main.a define `main` for their users' convenience, and
 * "append -lncurses++" for a library linked as a program is no fix. A
 * library that a package keeps for its own programs (gettext's
 * libgettextlib-0.21.so, with no -l name and no runtime name beside it; a
 * private dir under a system dir such as /usr/lib/x86_64-linux-gnu/libfakeroot)
 * and a test or tool library (gtest, gmock, a *_main, gcc's libcc1 plugin)
 * define helpers (xmalloc, hash_insert) that a project's own missing code
 * is named like: the project forgot its own library, not theirs.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "provider.h"

int lk_provider_entry_symbol(const char *name)
{
	static const char *const entries[] = { "main", "_start", "wmain", "WinMain", "wWinMain" };

	for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++)
		if (!strcmp(name, entries[i]))
			return 1;
	return 0;
}

/* "libgettextlib-0.21.so": lib, a stem, '-', a version of digits and dots, then .so or .a. */
static int version_in_name(const char *name)
{
	const char *dash = strrchr(name, '-'), *p;

	if (!dash || strncmp(name, "lib", 3) || !(dash[1] >= '0' && dash[1] <= '9'))
		return 0;
	for (p = dash + 1; (*p >= '0' && *p <= '9') || *p == '.'; p++)
		if (!strcmp(p, ".so") || !strcmp(p, ".a"))
			return 1;
	return 0;
}

/* Another name of the same file in its dir (libdw.so.1 for libdw-0.188.so): the library has a public name. */
static int has_other_name(const struct lk_provider_index *ix, long file)
{
	const struct lk_provider_file *f = &ix->files.items[file];

	if (f->alias_of >= 0)
		return 1;
	for (size_t i = 0; i < ix->files.nr; i++)
		if (ix->files.items[i].alias_of == file)
			return 1;
	return 0;
}

/* A system dir that is a subdir of another searched system dir: a package's own libraries. */
static int private_dir(const struct lk_provider_index *ix, size_t dir)
{
	const struct lk_provider_dir *d = &ix->dirs.items[dir];

	if (d->rank != LK_RANK_SYSTEM || !strncmp(d->why, "the toolchain", 13))
		return 0;
	for (size_t i = 0; i < ix->dirs.nr; i++) {
		const char *o = ix->dirs.items[i].path;
		size_t n = strlen(o);

		if (i != dir && ix->dirs.items[i].rank == LK_RANK_SYSTEM && !strncmp(d->path, o, n) &&
		    d->path[n] == '/')
			return 1;
	}
	return 0;
}

static int tool_library(const char *name)
{
	static const char *const tools[] = { "libcc1.", "liblto_plugin.", "libgtest", "libgmock", "libcheck." };

	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		if (!strncmp(name, tools[i], strlen(tools[i])))
			return 1;
	return strstr(name, "_main.") != NULL || strstr(name, "test") != NULL;
}

/*
 * libsource-highlight.so.4 alone in a system dir (/usr, /lib), without the libX.so that
 * its -dev package would add: a runtime library nothing is meant to link
 * by name, whose exports (gnulib's set_program_name) a project's own
 * missing code is named like.
 */
static int runtime_only(const struct lk_provider_index *ix, const struct lk_provider_file *f)
{
	const char *so = strstr(f->name, ".so.");
	struct lk_buf dev = LK_BUF_INIT;
	struct stat st;
	int found;

	const char *dir = ix->dirs.items[f->dir].path;

	/* The system's dirs, however the line reaches them (gcc gives them as -L). */
	if (!f->shared || !so || strncmp(f->name, "lib", 3) || ix->dirs.items[f->dir].rank == LK_RANK_BESIDE_INPUTS ||
	    (strncmp(dir, "/usr/", 5) && strncmp(dir, "/lib", 4)))
		return 0;
	lk_buf_addf(&dev, "%s/%.*s.so", dir, (int)(so - f->name), f->name);
	found = stat(dev.buf, &st) == 0;
	lk_buf_release(&dev);
	return !found;
}

/*
 * libidn2.a defines gnulib's set_program_name, which libidn2.so beside it
 * does not export: a function internal to the library (hidden in its
 * shared object), not its interface.
 */
static int internal_to_archive(const struct lk_provider_index *ix, const struct lk_provider_file *f, const char *symbol)
{
	size_t n = strlen(f->name);

	if (f->shared || n < 3 || strcmp(f->name + n - 2, ".a"))
		return 0;
	for (size_t i = 0; i < ix->files.nr; i++) {
		const struct lk_provider_file *g = &ix->files.items[i];

		if (g->dir != f->dir || !g->shared || strncmp(g->name, f->name, n - 2) || strcmp(g->name + n - 2, ".so"))
			continue;
		return !lk_provider_file_exports(ix, (long)i, symbol);
	}
	return 0;
}

const char *lk_provider_no_fix_reason(const struct lk_provider_index *ix, long file, const char *symbol)
{
	const struct lk_provider_file *f = &ix->files.items[file];

	if (tool_library(f->name))
		return "a test or tool library";
	if (private_dir(ix, f->dir))
		return "in a package's private dir";
	if (f->shared && version_in_name(f->name) && !has_other_name(ix, file))
		return "a package's private library (a version in its name, no -l or runtime name beside it)";
	if (runtime_only(ix, f))
		return "a runtime library without its development link (no -l name: its -dev package is not installed)";
	if (symbol && internal_to_archive(ix, f, symbol))
		return "an internal function of that library: its shared object beside it does not export it";
	return NULL;
}

void lk_provider_rank_filter(const struct lk_provider_index *ix, const char *const *names, size_t n,
			     long **hits, long **set_aside)
{
	for (size_t i = 0; i < n; i++) {
		size_t len = 0, w = 0, a = 0;
		int entry = lk_provider_entry_symbol(names[i]);

		while (hits[i][len] >= 0)
			len++;
		set_aside[i] = lk_xcalloc(len + 1, sizeof(long));
		for (size_t k = 0; k < len; k++) {
			long f = hits[i][k];

			if (entry || lk_provider_no_fix_reason(ix, f, names[i]))
				set_aside[i][a++] = f;
			else
				hits[i][w++] = f;
		}
		hits[i][w] = -1;
		set_aside[i][a] = -1;
	}
}

int lk_provider_say_set_aside(const struct lk_provider_index *ix, struct lk_strvec *out, const char *sym, const long *aside)
{
	struct lk_buf b = LK_BUF_INIT;
	size_t n = 0;

	for (; aside[n] >= 0; n++)
		;
	if (!n)
		return 0;
	if (lk_provider_entry_symbol(sym))
		lk_buf_addf(&b, "%s is the program's own entry point, which no library should give it; the %s that define%s it (",
			    sym, n == 1 ? "library" : "libraries", n == 1 ? "s" : "");
	else
		lk_buf_addf(&b, "%s is defined only by %s that %s no fix (", sym, n == 1 ? "a library" : "libraries", n == 1 ? "is" : "are");
	for (size_t i = 0; i < n && i < 3; i++) {
		const char *why = lk_provider_no_fix_reason(ix, aside[i], sym);

		lk_buf_addf(&b, "%s%s/%s%s%s", i ? ", " : "", ix->dirs.items[ix->files.items[aside[i]].dir].path,
			    ix->files.items[aside[i]].name, why ? ": " : "", why ? why : "");
	}
	if (n > 3)
		lk_buf_addf(&b, " and %zu more", n - 3);
	if (lk_provider_entry_symbol(sym))
		lk_buf_addf(&b, ") %s no fix", n == 1 ? "is" : "are");
	else
		lk_buf_addstr(&b, ")");
	lk_buf_addf(&b, ": linking %s is not offered", n == 1 ? "it" : "one of them");
	lk_strvec_push_owned(out, lk_buf_detach(&b));
	return 1;
}
