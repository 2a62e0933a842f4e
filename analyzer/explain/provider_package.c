/*
 * A provider's Debian package (dpkg's file lists, /var/lib/dpkg/info/
 * *.list, as dpkg -S reads them, cached until that dir changes) and the
 * argument a user would add for it: the -l word when ld's search on the
 * line (resolve.c, ldfile.c's ldfile_open_file_search) finds that very
 * file, else its path (see provider.c).
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
#include "provider.h"
#include "provider_parts.h"
#include "linkscope/sha256.h"
#include "linkscope/vec.h"
#include "resolve.h"

/* ---- the Debian package, and the argument ---- */

static char *package_scan(const char *path);

/* The best (lowest) index of `candidates` that `list` names as one of its lines, or -1. */
static long list_names(const char *list, const char *const *candidates, size_t nc)
{
	struct lk_buf b = LK_BUF_INIT, needle = LK_BUF_INIT;
	long best = -1;

	if (lk_buf_read_file(&b, list, 64u << 20) < 0)
		return -1;
	for (size_t c = 0; c < nc && best < 0; c++) {
		size_t n = strlen(candidates[c]);

		lk_buf_reset(&needle);
		lk_buf_addf(&needle, "\n%s\n", candidates[c]);
		if ((b.len > n && !strncmp(b.buf, candidates[c], n) && b.buf[n] == '\n') || strstr(b.buf, needle.buf))
			best = (long)c;
	}
	lk_buf_release(&needle);
	lk_buf_release(&b);
	return best;
}

/* The dpkg database's state: the mtime of its info dir, which changes whenever a package does. */
static long long dpkg_stamp(void)
{
	struct stat st;

	if (stat("/var/lib/dpkg/info", &st) < 0)
		return -1;
	return (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
}

/*
 * The answers already found, in CACHE/packages: "linkscope-packages 1 STAMP"
 * then "PATH\tPACKAGE" lines ("-" for none). Another stamp, or a line that
 * does not parse, and the file is not used.
 */
static char *package_cached(const char *cache_dir, const char *path, long long stamp, int *found)
{
	struct lk_buf b = LK_BUF_INIT, head = LK_BUF_INIT;
	char *pkg = NULL;

	*found = 0;
	if (!cache_dir)
		return NULL;
	lk_buf_addf(&head, "%s/packages", cache_dir);
	if (lk_buf_read_file(&b, head.buf, 16u << 20) < 0) {
		lk_buf_release(&head);
		return NULL;
	}
	lk_buf_reset(&head);
	lk_buf_addf(&head, "linkscope-packages 1 %lld\n", stamp);
	if (b.len >= head.len && !memcmp(b.buf, head.buf, head.len)) {
		for (char *p = b.buf + head.len, *nl; *p && (nl = strchr(p, '\n')); p = nl + 1) {
			char *tab = memchr(p, '\t', (size_t)(nl - p));

			if (!tab)
				break;
			if ((size_t)(tab - p) == strlen(path) && !memcmp(p, path, (size_t)(tab - p))) {
				*found = 1;
				if (nl - tab - 1 > 0 && !(nl - tab - 1 == 1 && tab[1] == '-'))
					pkg = lk_xstrndup(tab + 1, (size_t)(nl - tab - 1));
				break;
			}
		}
	}
	lk_buf_release(&b);
	lk_buf_release(&head);
	return pkg;
}

static void package_remember(const char *cache_dir, const char *path, const char *pkg, long long stamp)
{
	struct lk_buf b = LK_BUF_INIT, file = LK_BUF_INIT, head = LK_BUF_INIT, tmp = LK_BUF_INIT;
	int fd;

	if (!cache_dir || strchr(path, '\n') || strchr(path, '\t') || (mkdir(cache_dir, 0700) < 0 && errno != EEXIST))
		return;
	lk_buf_addf(&file, "%s/packages", cache_dir);
	lk_buf_addf(&head, "linkscope-packages 1 %lld\n", stamp);
	if (lk_buf_read_file(&b, file.buf, 16u << 20) < 0 || b.len < head.len || memcmp(b.buf, head.buf, head.len) ||
	    (b.len && b.buf[b.len - 1] != '\n')) {
		lk_buf_reset(&b);
		lk_buf_addstr(&b, head.buf);
	}
	lk_buf_addf(&b, "%s\t%s\n", path, pkg ? pkg : "-");
	lk_buf_addf(&tmp, "%s/.tmp-XXXXXX", cache_dir);
	fd = mkstemp(tmp.buf);
	if (fd >= 0) {
		int ok = write(fd, b.buf, b.len) == (ssize_t)b.len;

		ok = close(fd) == 0 && ok;
		if (!ok || rename(tmp.buf, file.buf) < 0)
			unlink(tmp.buf);
	}
	lk_buf_release(&b);
	lk_buf_release(&file);
	lk_buf_release(&head);
	lk_buf_release(&tmp);
}

char *lk_provider_package(const char *path, const char *cache_dir)
{
	long long stamp = dpkg_stamp();
	int known;
	char *pkg;

	if (!path)
		return NULL;
	pkg = package_cached(cache_dir, path, stamp, &known);
	if (known)
		return pkg;
	pkg = package_scan(path);
	package_remember(cache_dir, path, pkg, stamp);
	return pkg;
}

static char *package_scan(const char *path)
{
	char real[PATH_MAX];
	const char *candidates[3];
	size_t nc = 0;
	long best = -1;
	char *pkg = NULL;
	glob_t g;

	/* The name itself first (libm.so of libc6-dev), then the file it leads to (libm.so.6 of libc6). */
	candidates[nc++] = path;
	/* usrmerge: dpkg may list /usr/lib/x as /lib/x. */
	if (!strncmp(path, "/usr/lib/", 9))
		candidates[nc++] = path + 4;
	if (realpath(path, real) && strcmp(real, path))
		candidates[nc++] = real;
	if (glob("/var/lib/dpkg/info/*.list", 0, NULL, &g) != 0)
		return NULL;
	for (size_t i = 0; i < g.gl_pathc && best != 0; i++) {
		long c = list_names(g.gl_pathv[i], candidates, nc);

		if (c >= 0 && (best < 0 || c < best)) {
			const char *base = strrchr(g.gl_pathv[i], '/') + 1;
			size_t len = strlen(base) - 5;	/* ".list" */
			const char *colon = memchr(base, ':', len);

			best = c;
			free(pkg);
			pkg = lk_xstrndup(base, colon ? (size_t)(colon - base) : len);
		}
	}
	globfree(&g);
	return pkg;
}

static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return a && b && stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Would ld's search find `path` for `word` on this line? */
static int search_finds(const struct lk_line *line, const char *word, const char *path, unsigned state)
{
	struct lk_line_item it;
	int found;

	memset(&it, 0, sizeof(it));
	it.kind = LK_ITEM_LIB;
	it.word = (char *)word;
	it.state = state;
	lk_resolve_search_lib(line, &it);
	found = same_file(it.path, path);
	free(it.path);
	lk_elf_info_release(&it.info);
	lk_strvec_release(&it.tried);
	return found;
}

char *lk_provider_arg(const struct lk_line *line, const char *path, unsigned state)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t n = strlen(base);
	struct lk_buf w = LK_BUF_INIT;

	if (!strncmp(base, "lib", 3) && ((n > 6 && !strcmp(base + n - 3, ".so")) || (n > 5 && !strcmp(base + n - 2, ".a")))) {
		lk_buf_addf(&w, "-l%.*s", (int)(n - 3 - (base[n - 1] == 'a' ? 2 : 3)), base + 3);
		if (search_finds(line, w.buf, path, state))
			return lk_buf_detach(&w);
		lk_buf_reset(&w);
	}
	lk_buf_addf(&w, "-l:%s", base);
	if (search_finds(line, w.buf, path, state))
		return lk_buf_detach(&w);
	lk_buf_release(&w);
	return lk_xstrdup(path);
}
