/*
 * The provider search: where a symbol that nothing on the line defines
 * could come from. Only reads files (directories, ELF symbol tables, the
 * dpkg file lists); never runs anything a record names.
 */
#ifndef LINKSCOPE_PROVIDER_H
#define LINKSCOPE_PROVIDER_H

#include <stddef.h>

#include "line.h"
#include "linkscope/progress.h"
#include "linkscope/record.h"
#include "linkscope/strvec.h"

/* Why a directory is searched; lower ranks are preferred providers. */
enum lk_provider_rank {
	LK_RANK_BESIDE_INPUTS,	/* a dir of the line's own inputs, or the build tree around them */
	LK_RANK_L_DIR,		/* a -L dir of the line */
	LK_RANK_SYSTEM,		/* ld's search dirs, ld.so.conf, the toolchain's runtime dirs */
};

struct lk_provider_dir {
	char *path;		/* canonical */
	enum lk_provider_rank rank;
	const char *why;	/* "beside the line's inputs", "the build tree", "-L dir", ... (static) */
	/*
	 * Its files' exported names back to back (in its cache file mapped,
	 * or in one of the index's buffers), and the hash table over them
	 * that lookups probe: nslots slots of two 32-bit words, the high half
	 * of the name's lk_hash_bytes and its offset in names + 1 (0: empty).
	 */
	const char *names;
	size_t names_len;
	const unsigned char *slots;
	size_t nslots;
	size_t first_file, nfiles;	/* its files in the index's files.items */
};

/* One library file of an indexed directory. */
struct lk_provider_file {
	char *name;		/* in its dir */
	size_t dir;
	int shared;		/* a shared object (else an archive) */
	int machine;
	long long size, mtime_ns;
	long alias_of;		/* same file (inode) as this earlier file of the dir, or -1 */
	const char *names;	/* exported names, each NUL-terminated, back to back: in its dir's names */
	size_t names_at;	/* where, in its dir's names */
	size_t names_len, nnames;
};

struct lk_provider_index {
	struct { struct lk_provider_dir *items; size_t nr, alloc; } dirs;
	struct { struct lk_provider_file *items; size_t nr, alloc; } files;
	int machine;		/* the link's e_machine: other machines' files are no providers */
	int static_only;	/* -Bstatic where a fix would go: shared objects are no providers */
	char *cache_dir;	/* where the index was cached, or NULL */
	size_t read, cached;	/* files read from ELF now, files taken from the cache */
	struct lk_strvec notes;	/* cache problems, one line each (never fatal) */
	struct { void **items; size_t nr, alloc; } buffers;	/* the dirs' names and tables built now, owned */
	struct { struct { void *addr; size_t len; } *items; size_t nr, alloc; } maps;	/* cache files mapped */
};

/*
 * Find the dirs where a fix for `line` could come from (its inputs' dirs
 * and build tree, -L dirs, ld's search dirs for the target, ld.so.conf, the
 * toolchain's runtime dirs) and index their libraries' exported names,
 * using and refreshing the per-dir cache in `cache_dir` (NULL: no cache).
 * Release with lk_provider_index_release().
 */
void lk_provider_index_build(struct lk_provider_index *ix, const struct lk_record *rec,
			     const struct lk_line *line, const char *cache_dir);
void lk_provider_index_release(struct lk_provider_index *ix);

/* Parse `text` as the cache file of `dir`: its entry count, or -1 when it is not used. For fuzzing. */
long lk_provider_cache_parse(const char *text, size_t len, const char *dir);

/*
 * Index only the given dirs (all of rank `rank`): `linkscope index`, the
 * bench and tests. `progress` (may be NULL) is told of each dir indexed,
 * of as many as there are once the same dir given twice is one.
 */
void lk_provider_index_dirs(struct lk_provider_index *ix, const struct lk_strvec *dirs,
			    int machine, const char *cache_dir, struct lk_progress *progress);

/*
 * $XDG_CACHE_HOME/linkscope, or $HOME/.cache/linkscope, made 0700 if
 * missing; NULL when neither is set, or when the dir is not ours alone
 * (another owner, a symlink, open to group or others). malloc'd.
 */
char *lk_provider_cache_dir(void);

/*
 * For each of `names[0..n)`, the files of the right machine that export it,
 * best first (rank, then dir order, then a shared object before an archive
 * of the same dir, as -l would choose), aliases left out: hits[i] is a
 * malloc'd array of file indices ending with -1 (just -1: none).
 */
void lk_provider_lookup(const struct lk_provider_index *ix, const char *const *names, size_t n,
			long **hits);

/* Does file `file` of the index export `name`? */
int lk_provider_file_exports(const struct lk_provider_index *ix, long file, const char *name);

/* The full path of a file of the index (malloc'd). */
char *lk_provider_path(const struct lk_provider_index *ix, long file);

/*
 * The Debian package that ships `path` (from the file lists in
 * /var/lib/dpkg/info, read, never dpkg run), or NULL. malloc'd. Answers
 * are remembered in `cache_dir` (may be NULL) until a package changes.
 */
char *lk_provider_package(const char *path, const char *cache_dir);

/*
 * The argument that adds `path` to `line` as the user would write it: -lNAME
 * when ld's search (with the input state `state`, lk_state_flags) finds
 * this very file for it, -l:FILE when that does, else the path itself.
 * malloc'd.
 */
char *lk_provider_arg(const struct lk_line *line, const char *path, unsigned state);

/*
 * The ranking of what a fix may be (provider_rank.c). A program's entry
 * symbol (`main`, `_start`) never gets a provider; a library that is no
 * fix (a test or tool library, a package's private library or dir) is set
 * aside. For each of `names[0..n)`, the hits of lk_provider_lookup() that
 * may be offered stay in hits[i] (best first, ending with -1); the others
 * go to set_aside[i], malloc'd, likewise ending with -1.
 */
void lk_provider_rank_filter(const struct lk_provider_index *ix, const char *const *names, size_t n,
			     long **hits, long **set_aside);
/*
 * One sentence into `out`: why the libraries of `aside` (ending with -1),
 * which define `sym`, are not offered. Returns 1, or 0 when `aside` is empty.
 */
int lk_provider_say_set_aside(const struct lk_provider_index *ix, struct lk_strvec *out, const char *sym,
			      const long *aside);
/* Is `name` a program's entry symbol (main, _start, ...)? */
int lk_provider_entry_symbol(const char *name);
/* Why file `file` of the index is no fix for `symbol` (NULL: for any) ("a test or tool library", ...; static), or NULL. */
const char *lk_provider_no_fix_reason(const struct lk_provider_index *ix, long file, const char *symbol);

#endif
