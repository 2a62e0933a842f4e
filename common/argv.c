/*
 * The argv model: a compiler driver's command line, read statically.
 *
 * Takes: the response-file expanded driver argv (lk_args). Gives:
 * lk_argv_info: whether the call links, its inputs, -l and -L, the linker it
 * asks for (-fuse-ld=, -B), every -lc, and every --start-group span.
 * Models: GCC's option grammar as far as linking needs it: options that take
 * a separate value (-o x, -L dir, -Xlinker x, ...: the table in
 * driveropt.c), -x LANG switching later
 * files to sources, -Wl, splitting at commas, and the options that stop the
 * driver before it runs collect2/ld (-c, -S, -E, -M, queries).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/argv.h"
#include "linkscope/banned.h"
#include "linkscope/driveropt.h"
#include "linkscope/rsp.h"
#include "linkscope/vec.h"

/* Source suffixes and the -x language gcc gives them (gcc.cc's default_compilers). */
static const struct { const char *ext, *lang; } sources[] = {
	{ "c", "c" }, { "i", "cpp-output" }, { "ii", "c++-cpp-output" },
	{ "cc", "c++" }, { "cp", "c++" }, { "cxx", "c++" }, { "cpp", "c++" }, { "CPP", "c++" },
	{ "c++", "c++" }, { "C", "c++" },
	{ "m", "objective-c" }, { "mi", "objective-c-cpp-output" },
	{ "mm", "objective-c++" }, { "M", "objective-c++" }, { "mii", "objective-c++-cpp-output" },
	{ "s", "assembler" }, { "S", "assembler-with-cpp" }, { "sx", "assembler-with-cpp" },
	{ "f", "f77" }, { "for", "f77" }, { "ftn", "f77" },
	{ "F", "f77-cpp-input" }, { "FOR", "f77-cpp-input" }, { "fpp", "f77-cpp-input" },
	{ "FPP", "f77-cpp-input" }, { "FTN", "f77-cpp-input" },
	{ "f90", "f95" }, { "f95", "f95" }, { "f03", "f95" }, { "f08", "f95" },
	{ "F90", "f95-cpp-input" }, { "F95", "f95-cpp-input" }, { "F03", "f95-cpp-input" },
	{ "F08", "f95-cpp-input" },
	{ "go", "go" }, { "d", "d" }, { "adb", "ada" }, { "ads", "ada" },
};

static const char *const header_exts[] = { "h", "hh", "hpp", "hxx", "H", NULL };

const char *lk_input_kind_name(enum lk_input_kind kind)
{
	switch (kind) {
	case LK_IN_OBJECT: return "object";
	case LK_IN_ARCHIVE: return "archive";
	case LK_IN_RLIB: return "rlib";
	case LK_IN_SHARED: return "shared";
	case LK_IN_SOURCE: return "source";
	case LK_IN_SCRIPT: return "script";
	case LK_IN_OTHER: return "other";
	case LK_IN_STDIN: return "stdin";
	}
	LK_BUG("unknown input kind");
}

const char *lk_argv_nolink_option(const char *arg)
{
	return lk_driveropt_nolink(arg);
}

static const char *extension(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *dot = strrchr(path, '.');

	if (!dot || (slash && dot < slash) || dot == path || dot[-1] == '/')
		return "";
	return dot + 1;
}

const char *lk_argv_source_language(const char *path)
{
	const char *ext = extension(path);

	for (size_t i = 0; i < sizeof(sources) / sizeof(*sources); i++)
		if (!strcmp(ext, sources[i].ext))
			return sources[i].lang;
	return NULL;
}

/* lib.so, lib.so.6, lib.so.6.0.1 */
static int is_shared_name(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *so;

	base = base ? base + 1 : path;
	so = strstr(base, ".so");
	while (so) {
		const char *rest = so + 3;

		while (*rest == '.' || (*rest >= '0' && *rest <= '9'))
			rest++;
		if (!*rest)
			return 1;
		so = strstr(so + 1, ".so");
	}
	return 0;
}

enum lk_input_kind lk_argv_file_kind(const char *path)
{
	const char *ext = extension(path);

	if (!strcmp(ext, "o") || !strcmp(ext, "obj"))
		return LK_IN_OBJECT;
	if (!strcmp(ext, "a"))
		return LK_IN_ARCHIVE;
	if (!strcmp(ext, "rlib"))
		return LK_IN_RLIB;
	if (is_shared_name(path))
		return LK_IN_SHARED;
	if (lk_argv_source_language(path))
		return LK_IN_SOURCE;
	return LK_IN_OTHER;
}

struct scan {
	const struct lk_args *args;
	struct lk_argv_info *info;
	size_t index;		/* the argument being read */
	struct { size_t *items; size_t nr, alloc; } open_groups;
	int pending_l;		/* a linker word "-l" waits for its name */
	int verbose, headers, non_headers;
};

static void add_input(struct scan *s, size_t index, enum lk_input_kind kind,
		      const char *path, const char *lang)
{
	struct lk_argv_info *info = s->info;

	LK_GROW(info->inputs.items, info->inputs.nr + 1, info->inputs.alloc);
	info->inputs.items[info->inputs.nr].index = index;
	info->inputs.items[info->inputs.nr].kind = kind;
	info->inputs.items[info->inputs.nr].path = path;
	info->inputs.items[info->inputs.nr].lang = lang;
	info->inputs.nr++;
}

int lk_argv_compiles(const struct lk_argv_input *in)
{
	return in->kind == LK_IN_SOURCE || (in->kind == LK_IN_STDIN && in->lang);
}

size_t lk_argv_count_compiled(const struct lk_argv_info *info)
{
	size_t n = 0;

	for (size_t i = 0; i < info->inputs.nr; i++)
		n += lk_argv_compiles(&info->inputs.items[i]);
	return n;
}

/* One of gcc's languages of the table above, as the table spells it (a static string), or NULL. */
static const char *known_language(const char *lang)
{
	for (size_t i = 0; lang && i < sizeof(sources) / sizeof(*sources); i++)
		if (!strcmp(lang, sources[i].lang))
			return sources[i].lang;
	return NULL;
}

const char *lk_argv_language_at(const struct lk_args *args, size_t index)
{
	struct lk_argv_info info;
	const char *lang = NULL;

	lk_argv_classify(args, &info);
	/* A record is data: its -x word is passed on only when it is a language of the table. */
	for (size_t i = 0; i < info.inputs.nr; i++)
		if (info.inputs.items[i].index == index)
			lang = info.inputs.items[i].lang ? known_language(info.inputs.items[i].lang) :
			       lk_argv_source_language(info.inputs.items[i].path);
	lk_argv_info_release(&info);
	return lang;
}

int lk_argv_is_libc(const char *name, size_t len)
{
	return (len == 1 && name[0] == 'c') ||
	       (len >= 8 && !strncmp(name, ":libc.so", 8)) ||
	       (len == 7 && !strncmp(name, ":libc.a", 7));
}

int lk_argv_is_driver_temp(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len = base ? strlen(base) : 0;

	/* "/cc" + at least one character + ".o": gcc's TMPDIR/ccXXXXXX.o. */
	return base && !strncmp(base, "/cc", 3) && len > 5 && !strcmp(base + len - 2, ".o");
}

static void add_lib(struct scan *s, size_t index, const char *name, size_t len)
{
	struct lk_argv_info *info = s->info;

	LK_GROW(info->libs.items, info->libs.nr + 1, info->libs.alloc);
	info->libs.items[info->libs.nr].index = index;
	info->libs.items[info->libs.nr].name = name;
	info->libs.items[info->libs.nr].name_len = len;
	info->libs.nr++;
	if (lk_argv_is_libc(name, len)) {
		LK_GROW(info->lc.items, info->lc.nr + 1, info->lc.alloc);
		info->lc.items[info->lc.nr++] = index;
	}
}

static void open_group(struct scan *s)
{
	struct lk_argv_info *info = s->info;
	struct lk_argv_group *g;

	LK_GROW(info->groups.items, info->groups.nr + 1, info->groups.alloc);
	g = &info->groups.items[info->groups.nr];
	g->start = s->index;
	g->end = -1;
	g->depth = s->open_groups.nr;
	LK_GROW(s->open_groups.items, s->open_groups.nr + 1, s->open_groups.alloc);
	s->open_groups.items[s->open_groups.nr++] = info->groups.nr++;
}

static void close_group(struct scan *s)
{
	/* An --end-group with no open group is ld's error, not ours: ignore it. */
	if (!s->open_groups.nr)
		return;
	s->info->groups.items[s->open_groups.items[--s->open_groups.nr]].end =
		(long)s->index;
}

/* One linker-level word (from -Wl, or -Xlinker). `word` lives in the args. */
static void linker_word(struct scan *s, const char *word, size_t len)
{
	if (s->pending_l) {
		s->pending_l = 0;
		add_lib(s, s->index, word, len);
		return;
	}
	if ((len == 13 && !strncmp(word, "--start-group", len)) ||
	    (len == 2 && !strncmp(word, "-(", len)))
		open_group(s);
	else if ((len == 11 && !strncmp(word, "--end-group", len)) ||
		 (len == 2 && !strncmp(word, "-)", len)))
		close_group(s);
	else if (len == 2 && !strncmp(word, "-l", 2))
		s->pending_l = 1;
	else if (len > 2 && !strncmp(word, "-l", 2))
		add_lib(s, s->index, word + 2, len - 2);
	else if (len > 10 && !strncmp(word, "--library=", 10))
		add_lib(s, s->index, word + 10, len - 10);
}

size_t lk_argv_wl_words(const char *arg,
			void (*fn)(const char *word, size_t len, void *data),
			void *data)
{
	const char *p;
	size_t n = 0;

	if (!lk_str_starts_with(arg, "-Wl,"))
		return 0;
	p = arg + 4;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		fn(p, len, data);
		n++;
		if (!comma)
			break;
		p = comma + 1;
	}
	return n;
}

static void wl_word_cb(const char *word, size_t len, void *data)
{
	linker_word(data, word, len);
}

static int takes_separate_value(const char *arg)
{
	const struct lk_driveropt *o = lk_driveropt_find(arg);

	return o && (o->flags & LK_DOPT_SEPARATE);
}

static unsigned link_flag(const char *arg)
{
	static const struct { const char *name; unsigned flag; } flags[] = {
		{ "-shared", LK_ARGV_SHARED }, { "-static", LK_ARGV_STATIC },
		{ "-nostdlib", LK_ARGV_NOSTDLIB }, { "-nodefaultlibs", LK_ARGV_NODEFAULTLIBS },
		{ "-nostartfiles", LK_ARGV_NOSTARTFILES },
	};

	for (size_t i = 0; i < sizeof(flags) / sizeof(*flags); i++)
		if (!strcmp(arg, flags[i].name))
			return flags[i].flag;
	return 0;
}

static void read_option(struct scan *s, const char *arg, const char *next,
			const char **lang, size_t *skip)
{
	struct lk_argv_info *info = s->info;
	size_t i = s->index;
	const char *why;
	unsigned flag;

	*skip = 0;
	if (!info->nolink_reason && (why = lk_argv_nolink_option(arg)))
		info->nolink_reason = why;

	if (!strcmp(arg, "-Xlinker")) {
		if (next) {
			s->index = i + 1;
			linker_word(s, next, strlen(next));
			s->index = i;
		}
	} else if (lk_str_starts_with(arg, "-Wl,")) {
		lk_argv_wl_words(arg, wl_word_cb, s);
	} else if (!strcmp(arg, "-o")) {
		info->output = next ? (long)(i + 1) : -1;
		info->output_path = next;
	} else if (lk_str_starts_with(arg, "-o") && !lk_str_starts_with(arg, "-objc")) {
		info->output = (long)i;
		info->output_path = arg + 2;
	} else if (!strcmp(arg, "-l")) {
		if (next)
			add_lib(s, i, next, strlen(next));
	} else if (lk_str_starts_with(arg, "-l")) {
		add_lib(s, i, arg + 2, strlen(arg + 2));
	} else if (lk_str_starts_with(arg, "-L")) {
		const char *dir = arg[2] ? arg + 2 : next;

		if (dir) {
			LK_GROW(info->libdirs.items, info->libdirs.nr + 1, info->libdirs.alloc);
			info->libdirs.items[info->libdirs.nr++] = dir;
		}
	} else if (lk_str_starts_with(arg, "-B")) {
		const char *dir = arg[2] ? arg + 2 : next;

		if (dir) {
			LK_GROW(info->bdirs.items, info->bdirs.nr + 1, info->bdirs.alloc);
			info->bdirs.items[info->bdirs.nr++] = dir;
		}
	} else if (lk_str_starts_with(arg, "-T") && strcmp(arg, "-Tdata") &&
		   strcmp(arg, "-Ttext") && strcmp(arg, "-Tbss")) {
		const char *script = arg[2] ? arg + 2 : next;

		if (script)
			add_input(s, arg[2] ? i : i + 1, LK_IN_SCRIPT, script, NULL);
	} else if (lk_str_starts_with(arg, "-x")) {
		const char *l = arg[2] ? arg + 2 : next;

		*lang = (l && strcmp(l, "none")) ? l : NULL;
	} else if (lk_str_starts_with(arg, "-fuse-ld=")) {
		info->fuse_ld = arg + 9;
		info->fuse_ld_index = (long)i;
	} else if (lk_str_starts_with(arg, "--ld-path=")) {
		info->fuse_ld = arg + 10;
		info->fuse_ld_index = (long)i;
	} else if (lk_str_starts_with(arg, "--target=")) {
		info->target = arg + 9;
	} else if (!strcmp(arg, "-target")) {
		info->target = next;
	} else if ((flag = link_flag(arg))) {
		info->flags |= flag;
	} else if (!strcmp(arg, "-v")) {
		s->verbose = 1;
	}
	if (takes_separate_value(arg))
		*skip = 1;
}

void lk_argv_classify(const struct lk_args *args, struct lk_argv_info *info)
{
	struct scan s;
	const char *lang = NULL;

	memset(info, 0, sizeof(*info));
	memset(&s, 0, sizeof(s));
	info->output = -1;
	info->fuse_ld_index = -1;
	s.args = args;
	s.info = info;

	for (size_t i = 1; i < args->nr; i++) {
		const char *arg = args->items[i].text;
		const char *next = i + 1 < args->nr ? args->items[i + 1].text : NULL;
		size_t skip;

		s.index = i;
		if (arg[0] == '-' && arg[1]) {
			read_option(&s, arg, next, &lang, &skip);
			i += skip;
			continue;
		}
		if (!strcmp(arg, "-")) {
			add_input(&s, i, LK_IN_STDIN, arg, lang);
			continue;
		}
		if (!lang && lk_str_in_list(extension(arg), header_exts)) {
			s.headers++;
			continue;
		}
		s.non_headers++;
		add_input(&s, i, lang ? LK_IN_SOURCE : lk_argv_file_kind(arg), arg, lang);
	}
	free(s.open_groups.items);

	if (info->nolink_reason)
		info->links = 0;
	else if (!info->inputs.nr && !info->libs.nr && s.verbose)
		info->nolink_reason = "-v without inputs";
	else if (!info->inputs.nr && !info->libs.nr && s.headers)
		info->nolink_reason = "headers only (precompiled header)";
	else if (!info->inputs.nr && !info->libs.nr)
		info->nolink_reason = "no input files";
	info->links = !info->nolink_reason;
}

void lk_argv_info_release(struct lk_argv_info *info)
{
	free(info->inputs.items);
	free(info->libs.items);
	free(info->libdirs.items);
	free(info->bdirs.items);
	free(info->lc.items);
	free(info->groups.items);
	memset(info, 0, sizeof(*info));
}

/* ---- driver names ---- */

static int all_version_chars(const char *s)
{
	for (; *s; s++)
		if (!isdigit((unsigned char)*s) && *s != '.')
			return 0;
	return 1;
}

int lk_argv_is_driver_name(const char *name)
{
	static const char *const drivers[] = { "gcc", "g++", "cc", "c++", "clang", "clang++", NULL };
	char base[256];
	const char *dash;
	size_t len = strlen(name);

	if (!len || len >= sizeof(base))
		return 0;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_.+-", *p))
			return 0;
	memcpy(base, name, len + 1);
	/* A version suffix: gcc-12, clang-16, aarch64-linux-gnu-gcc-12. */
	dash = strrchr(base, '-');
	if (dash && dash[1] && all_version_chars(dash + 1))
		base[dash - base] = '\0';
	for (const char *const *d = drivers; *d; d++) {
		size_t dl = strlen(*d), bl = strlen(base);

		if (!strcmp(base, *d))
			return 1;
		/* A cross driver: TARGET-gcc, with a target of at least one '-'-free word. */
		if (bl > dl + 1 && !strcmp(base + bl - dl, *d) && base[bl - dl - 1] == '-' &&
		    strcmp(*d, "cc") && strcmp(*d, "c++"))
			return 1;
	}
	return 0;
}
