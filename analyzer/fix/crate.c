/*
 * Fix stage: the Rust crate of an input, by its path (crate.h). Takes a
 * path of a rustc line, gives the crate's name. cargo's layout:
 * TARGET/PROFILE/deps/libNAME-HASH.rlib and NAME-HASH.*.rcgu.o for the
 * crates rustc compiled; TARGET/PROFILE/build/PKG-HASH/out/ for what a
 * package's build script made (its OUT_DIR, HASH 16 hex digits), which
 * the cc crate fills with lib*.a and the build script links with
 * cargo:rustc-link-lib=static=NAME.
 */
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "crate.h"

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

/*
 * The PKG of the last `/build/PKG-HASH/out/` of `path`: its start and
 * length, or 0. HASH is 16 lower-case hex digits, as cargo writes it.
 */
static size_t out_dir_pkg(const char *path, const char **pkg)
{
	size_t found = 0;

	for (const char *p = strstr(path, "/build/"); p; p = strstr(p + 1, "/build/")) {
		const char *name = p + 7, *slash = strchr(name, '/');
		size_t n;

		if (!slash || strncmp(slash, "/out/", 5))
			continue;
		n = (size_t)(slash - name);
		if (n < 18 || name[n - 17] != '-' || strspn(name + n - 16, "0123456789abcdef") < 16)
			continue;
		*pkg = name;
		found = n - 17;
	}
	return found;
}

int lk_crate_out_dir(const char *path)
{
	const char *pkg;

	return path && out_dir_pkg(path, &pkg) > 0;
}

char *lk_crate_of_path(const char *path)
{
	const char *name, *end, *pkg;
	size_t n;

	if (!path)
		return NULL;
	name = lk_path_base(path);
	if (ends_with(name, ".rlib")) {
		if (strncmp(name, "lib", 3))
			return NULL;
		name += 3;
		end = strchr(name, '-');
		if (!end)
			end = strstr(name, ".rlib");
		return lk_xstrndup(name, (size_t)(end - name));
	}
	if (strstr(name, ".rcgu.o") && (end = strpbrk(name, "-.")))
		return lk_xstrndup(name, (size_t)(end - name));
	if ((n = out_dir_pkg(path, &pkg)))
		return lk_xstrndup(pkg, n);
	return NULL;
}

int lk_crate_same(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !((*a == '-' || *a == '_') && (*b == '-' || *b == '_')))
			return 0;
	return *a == *b;
}
