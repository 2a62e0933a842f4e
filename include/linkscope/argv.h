/*
 * The argv model: what a compiler driver (gcc, clang, cc) command line says,
 * read without running anything: does it link, what are its inputs and
 * output, which linker does it ask for, where are its -lc and its
 * --start-group ... --end-group spans.
 */
#ifndef LINKSCOPE_ARGV_H
#define LINKSCOPE_ARGV_H

#include <stddef.h>

struct lk_args;

enum lk_input_kind {
	LK_IN_OBJECT,	/* .o */
	LK_IN_ARCHIVE,	/* .a */
	LK_IN_RLIB,	/* .rlib: an archive with a lib.rmeta member */
	LK_IN_SHARED,	/* .so, .so.N */
	LK_IN_SOURCE,	/* compiled by this call before linking */
	LK_IN_SCRIPT,	/* -T script */
	LK_IN_OTHER,	/* a file of unknown kind (an ld script, an object without suffix, ...) */
	LK_IN_STDIN,	/* "-": a source read from stdin when `lang` is set (-x), else nothing gcc takes */
};

const char *lk_input_kind_name(enum lk_input_kind kind);

/* What a file named on the line is, by its name alone (no -x in force). */
enum lk_input_kind lk_argv_file_kind(const char *path);

/* A file named on the line. Pointers borrow from the lk_args. */
struct lk_argv_input {
	size_t index;
	enum lk_input_kind kind;
	const char *path;
	const char *lang;	/* the -x language in force, or NULL (then the suffix's) */
};

/* Whether the call compiles `in` before linking: a source, or "-" under -x. */
int lk_argv_compiles(const struct lk_argv_input *in);

/* A -l option: driver-level (-lfoo, -l foo) or linker-level (-Wl,-lfoo). */
struct lk_argv_lib {
	size_t index;
	const char *name;	/* without "-l"; for -l:file, starts with ':' */
	size_t name_len;	/* name is not NUL-terminated inside a -Wl, list */
};

/* A --start-group (or -( ) and its matching --end-group (or -) ). */
struct lk_argv_group {
	size_t start;		/* index of the argument holding --start-group */
	long end;		/* index of the one holding --end-group; -1 if never closed */
	size_t depth;		/* nesting depth, 0 for outermost (ld rejects nesting) */
};

/* What the call tells the driver about the link's kind and its default inputs. */
enum lk_argv_flags {
	LK_ARGV_SHARED = 1 << 0,	/* -shared */
	LK_ARGV_STATIC = 1 << 1,	/* -static */
	LK_ARGV_NOSTDLIB = 1 << 2,	/* -nostdlib */
	LK_ARGV_NODEFAULTLIBS = 1 << 3,	/* -nodefaultlibs */
	LK_ARGV_NOSTARTFILES = 1 << 4,	/* -nostartfiles */
};

struct lk_argv_info {
	int links;			/* 1 when this call runs the linker */
	const char *nolink_reason;	/* static text when !links, e.g. "-c" */
	long output;			/* index of the -o value, -1 if none */
	const char *output_path;	/* borrowed; NULL if none (the driver's a.out) */
	const char *fuse_ld;		/* last -fuse-ld= value, or NULL */
	long fuse_ld_index;
	const char *target;		/* --target=, -target, or NULL */
	unsigned flags;			/* lk_argv_flags */

	struct { struct lk_argv_input *items; size_t nr, alloc; } inputs;
	struct { struct lk_argv_lib *items; size_t nr, alloc; } libs;
	struct { const char **items; size_t nr, alloc; } libdirs;	/* -L, in order */
	struct { const char **items; size_t nr, alloc; } bdirs;	/* -B, in order */
	struct { size_t *items; size_t nr, alloc; } lc;		/* every -lc (and -l:libc.*) */
	struct { struct lk_argv_group *items; size_t nr, alloc; } groups;
};

/*
 * Read the (response-file expanded) driver argv `args` (args[0] is the
 * driver). Fills `info`, which borrows strings from `args`; release it with
 * lk_argv_info_release() before `args`.
 */
void lk_argv_classify(const struct lk_args *args, struct lk_argv_info *info);

/* How many of the line's inputs the call compiles. */
size_t lk_argv_count_compiled(const struct lk_argv_info *info);
void lk_argv_info_release(struct lk_argv_info *info);

/*
 * Does this single option (as the first element of argv, args[0] excluded)
 * stop the driver before linking? Returns the reason or NULL. Exposed for
 * tests.
 */
const char *lk_argv_nolink_option(const char *arg);

/*
 * Split a driver argument into the linker-level words it passes on:
 * "-Wl,a,b" gives "a" and "b". Calls fn(word, len, data) for each and
 * returns how many; 0 when the argument is not a -Wl, option.
 */
size_t lk_argv_wl_words(const char *arg,
			void (*fn)(const char *word, size_t len, void *data),
			void *data);

/*
 * The -x language gcc gives a source by its suffix ("c", "c++",
 * "assembler-with-cpp", ...), or NULL when `path` is not a source.
 */
const char *lk_argv_source_language(const char *path);

/*
 * The language of the input at argv position `index` of `args`: its -x
 * when that is one of the languages gcc gives a suffix, else its suffix's;
 * or NULL. A static string.
 */
const char *lk_argv_language_at(const struct lk_args *args, size_t index);

/*
 * Is -l`name` (`len` bytes, not NUL-terminated: it may sit in a -Wl, list)
 * the C library: -lc, -l:libc.so*, -l:libc.a? The one rule for every
 * stage that looks for libc on a line.
 */
int lk_argv_is_libc(const char *name, size_t len);

/*
 * Is `path` the driver's temporary object of a source it compiled in this
 * call (gcc's TMPDIR/ccXXXXXX.o)? A guess from the name alone: the link
 * line is all that says which object came from which source.
 */
int lk_argv_is_driver_temp(const char *path);

/*
 * Is `name` (a basename, no '/') a known compiler driver: gcc, g++, cc, c++,
 * clang, clang++, with an optional version suffix (gcc-12) and, for gcc,
 * g++, clang and clang++, a target prefix (aarch64-linux-gnu-gcc)? The
 * analyzer runs only such drivers (docs/security.md); the shim uses it to
 * tell a launcher's compiler word from a link input.
 */
int lk_argv_is_driver_name(const char *name);

#endif
