/*
 * The dirs the provider search looks in, best first (see provider.c):
 * the line's own inputs' dirs and the build tree around them, the -L
 * dirs, ld's SEARCH_DIRs (ld/genscripts.sh's for the target, as
 * `ld --verbose` prints them), /etc/ld.so.conf as ldconfig reads it, and
 * the toolchain's runtime dirs; never a dir of another machine.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/file.h"
#include "elf.h"
#include "provider.h"
#include "provider_parts.h"
#include "linkscope/vec.h"
#include "resolve.h"

#define BUILD_TREE_MAX_DIRS 400	/* dirs walked under one build root */
#define BUILD_TREE_MAX_DEPTH 5

/* ---- the dirs to search ---- */

void pv_add_dir(struct lk_provider_index *ix, const char *dir, enum lk_provider_rank rank,
		const char *why)
{
	char real[PATH_MAX];
	struct stat st;

	if (!dir || !*dir || !realpath(dir, real) || stat(real, &st) < 0 || !S_ISDIR(st.st_mode))
		return;
	for (size_t i = 0; i < ix->dirs.nr; i++)
		if (!strcmp(ix->dirs.items[i].path, real))
			return;	/* seen with a better (or equal) rank */
	LK_GROW(ix->dirs.items, ix->dirs.nr + 1, ix->dirs.alloc);
	ix->dirs.items[ix->dirs.nr].path = lk_xstrdup(real);
	ix->dirs.items[ix->dirs.nr].rank = rank;
	ix->dirs.items[ix->dirs.nr].why = why;
	ix->dirs.nr++;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return lk_xstrdup(".");
	return slash == path ? lk_xstrdup("/") : lk_xstrndup(path, (size_t)(slash - path));
}

int pv_is_library_name(const char *name)
{
	size_t n = strlen(name);

	if (strchr(name, '\n') || strchr(name, ' '))
		return 0;	/* the cache is line-based */
	if (n > 5 && !strcmp(name + n - 5, ".rlib"))
		return 0;	/* Rust's, not a native library */
	return (n > 2 && !strcmp(name + n - 2, ".a")) || (n > 3 && !strcmp(name + n - 3, ".so")) ||
	       strstr(name, ".so.") != NULL;
}

/* Breadth-first under `root`, bounded: the dirs that hold libraries. */
static void walk_build_tree(struct lk_provider_index *ix, const char *root)
{
	struct lk_strvec queue = LK_STRVEC_INIT;
	struct { int *items; size_t nr, alloc; } depth = { NULL, 0, 0 };

	lk_strvec_push(&queue, root);
	LK_GROW(depth.items, 1, depth.alloc);
	depth.items[depth.nr++] = 0;
	for (size_t i = 0; i < queue.nr && i < BUILD_TREE_MAX_DIRS; i++) {
		DIR *d = opendir(queue.items[i]);
		struct dirent *e;
		int lib = 0;

		if (!d)
			continue;
		while ((e = readdir(d))) {
			struct lk_buf sub = LK_BUF_INIT;
			struct stat st;

			if (e->d_name[0] == '.' || !strcmp(e->d_name, "CMakeFiles") || !strcmp(e->d_name, "deps") ||
			    !strcmp(e->d_name, "incremental"))
				continue;
			if (pv_is_library_name(e->d_name)) {
				lib = 1;
				continue;
			}
			if (depth.items[i] >= BUILD_TREE_MAX_DEPTH)
				continue;
			lk_buf_addf(&sub, "%s/%s", queue.items[i], e->d_name);
			if (lstat(sub.buf, &st) == 0 && S_ISDIR(st.st_mode)) {
				lk_strvec_push_owned(&queue, lk_buf_detach(&sub));
				LK_GROW(depth.items, depth.nr + 1, depth.alloc);
				depth.items[depth.nr++] = depth.items[i] + 1;
			}
			lk_buf_release(&sub);
		}
		closedir(d);
		if (lib)
			pv_add_dir(ix, queue.items[i], LK_RANK_BESIDE_INPUTS, "the build tree");
	}
	lk_strvec_release(&queue);
	free(depth.items);
}

/* cargo: .../target[/TRIPLE]/PROFILE/deps/x.rlib -> .../PROFILE/build/∗/out. */
static void cargo_out_dirs(struct lk_provider_index *ix, const char *dir)
{
	size_t n = strlen(dir);
	struct lk_buf pat = LK_BUF_INIT;
	glob_t g;

	if (n < 5 || strcmp(dir + n - 5, "/deps"))
		return;
	lk_buf_addf(&pat, "%.*s/build/*/out", (int)(n - 5), dir);
	if (glob(pat.buf, GLOB_ONLYDIR, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc && i < BUILD_TREE_MAX_DIRS; i++)
			walk_build_tree(ix, g.gl_pathv[i]);
		globfree(&g);
	}
	lk_buf_release(&pat);
}

/* CMake or autotools: the nearest dir up from `dir` (4 levels) with CMakeCache.txt or config.status. */
static void configured_tree(struct lk_provider_index *ix, const char *dir)
{
	char *d = lk_xstrdup(dir);

	for (int up = 0; up < 4 && strcmp(d, "/"); up++) {
		struct lk_buf a = LK_BUF_INIT, b = LK_BUF_INIT;
		int found;
		char *parent;

		lk_buf_addf(&a, "%s/CMakeCache.txt", d);
		lk_buf_addf(&b, "%s/config.status", d);
		found = access(a.buf, R_OK) == 0 || access(b.buf, R_OK) == 0;
		lk_buf_release(&a);
		lk_buf_release(&b);
		if (found) {
			walk_build_tree(ix, d);
			break;
		}
		parent = dir_of(d);
		free(d);
		d = parent;
	}
	free(d);
}

static const char *triple_of(int machine)
{
	switch (machine) {
	case 62: return "x86_64-linux-gnu";		/* EM_X86_64 */
	case 183: return "aarch64-linux-gnu";		/* EM_AARCH64 */
	case 3: return "i686-linux-gnu";		/* EM_386 */
	case 40: return "arm-linux-gnueabihf";		/* EM_ARM */
	case 243: return "riscv64-linux-gnu";		/* EM_RISCV */
	}
	return NULL;
}

/* The toolchain's runtime libraries (libstdc++, libgcc, libatomic, ...) for the target. */
static void toolchain_dirs(struct lk_provider_index *ix, int machine)
{
	const char *triple = triple_of(machine);
	const char *const roots[] = { "/usr/lib/gcc", "/usr/lib/gcc-cross" };
	struct lk_buf pat = LK_BUF_INIT;
	glob_t g;

	if (!triple)
		return;
	for (size_t r = 0; r < 2; r++) {
		lk_buf_reset(&pat);
		lk_buf_addf(&pat, "%s/%s/*", roots[r], triple);
		if (glob(pat.buf, GLOB_ONLYDIR, NULL, &g) != 0)
			continue;
		/* Newest version first: glob sorts, so walk backwards. */
		for (size_t i = g.gl_pathc; i-- > 0;)
			pv_add_dir(ix, g.gl_pathv[i], LK_RANK_SYSTEM, "the toolchain's runtime dir");
		globfree(&g);
	}
	lk_buf_release(&pat);
}

int pv_link_machine(const struct lk_line *line)
{
	if (line->machine)
		return line->machine;
	for (size_t i = 0; i < line->items.nr; i++)
		if (line->items.items[i].info.kind == LK_FILE_OBJECT && line->items.items[i].info.machine)
			return line->items.items[i].info.machine;
	return 0;
}

void pv_collect_dirs(struct lk_provider_index *ix, const struct lk_line *line)
{
	struct lk_strvec conf = LK_STRVEC_INIT;
	size_t first_input_dir = ix->dirs.nr;

	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];
		char *d;

		if (it->kind != LK_ITEM_FILE || !it->path || it->position < 0)
			continue;
		d = dir_of(it->path);
		pv_add_dir(ix, d, LK_RANK_BESIDE_INPUTS, "beside the line's inputs");
		free(d);
	}
	for (size_t i = first_input_dir, n = ix->dirs.nr; i < n; i++) {
		char *d = lk_xstrdup(ix->dirs.items[i].path);

		cargo_out_dirs(ix, d);
		configured_tree(ix, d);
		free(d);
	}
	for (size_t i = 0; i < line->libdirs.nr; i++)
		pv_add_dir(ix, line->libdirs.items[i], LK_RANK_L_DIR, "-L dir");
	for (size_t i = 0; i < line->default_dirs.nr; i++)
		pv_add_dir(ix, line->default_dirs.items[i], LK_RANK_SYSTEM, "ld's search dir");
	lk_resolve_ld_so_conf(line, &conf);
	for (size_t i = 0; i < conf.nr; i++)
		pv_add_dir(ix, conf.items[i], LK_RANK_SYSTEM, "/etc/ld.so.conf");
	lk_strvec_release(&conf);
	toolchain_dirs(ix, ix->machine);
}
