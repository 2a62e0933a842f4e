/*
 * What the readers of cmake.c, make.c and argv_file.c share: bounded
 * reading, the simple commands of a shell line, the launcher words CMake
 * and make put before the driver, which `-o` is the baseline's output,
 * and filling a struct lk_whatif_line. Not the command's (whatif.c).
 */
#ifndef ANALYZER_WHATIF_SRC_PARTS_H
#define ANALYZER_WHATIF_SRC_PARTS_H

#include <stddef.h>

#include "linkscope/buf.h"
#include "linkscope/shwords.h"
#include "source.h"

/* A file a reader takes in is at most this (make -n of a large tree, a build.ninja). */
#define WS_FILE_MAX ((size_t)64 << 20)
/* A logical line (continuations joined) is at most this; a longer one is refused, naming it. */
#define WS_LINE_MAX ((size_t)16 << 20)
/* Files a build.ninja includes (include, subninja), in all. */
#define WS_NINJA_FILES_MAX ((size_t)256)

/* `path` whole into `b` (at most `limit` bytes, regular files only): 0, or -1 with `err` naming it. */
int ws_read(const char *path, size_t limit, struct lk_buf *b, struct lk_err *err);

/* `name` against `dir` (`name` itself when absolute; `dir` NULL: as is), lexically normalised. Owned. */
char *ws_path(const char *dir, const char *name);

/* `path` made absolute against the working directory (as given on the command line), normalised. Owned. */
char *ws_abs(const char *path);

/* Does `text` name `base` (a file name) as a whole path component: after a start, blank, '/', quote or '='? */
int ws_names_file(const char *text, const char *base);

/*
 * One simple command of a line: its words (borrowed from the tokens,
 * redirections and leading VAR=value assignments left out) and the
 * directory it runs in after the line's `cd`s (owned; NULL when the
 * line's start dir is NULL and no absolute `cd` came before it).
 */
struct ws_cmd {
	const char **words;
	size_t nr;
	char *cwd;
	int assigns;		/* VAR=value words before it: its environment differs */
	int unknown_cd;		/* a `cd` before it went where the reader cannot tell */
};

struct ws_cmds {
	struct ws_cmd *items;
	size_t nr, alloc;
};

/* The simple commands of `t`, the line starting in `cwd` (may be NULL). Release with ws_cmds_release. */
void ws_cmds_of(const struct lk_sh_tokens *t, const char *cwd, struct ws_cmds *out);
void ws_cmds_release(struct ws_cmds *c);

/*
 * How many leading words of `words` are a launcher before the driver:
 * linkscope-cc [--], ccache, sccache, distcc, icecc. (CMake's
 * <LANG>_LINKER_LAUNCHER, a Makefile's CC="ccache gcc".)
 */
size_t ws_launcher_words(const char *const *words, size_t nr);

/* Is `word` (after launchers) a command that may link: a driver, an ld, or the baseline's driver? */
int ws_may_link(const char *word, const struct lk_record *base);

/*
 * How well the `-o` value `output` of a command run in `cwd` names the
 * file `want` (the baseline's output, seen from `want_cwd`, or a
 * --target): 3 the same path, 2 the same text, 1 the same file name, 0 not.
 */
int ws_output_match(const char *output, const char *cwd, const char *want, const char *want_cwd);

/*
 * The output (-o) of the driver command `words` when it links, or NULL
 * (a compile, no -o, not linking). Borrowed from `words`.
 */
const char *ws_link_output(const char *const *words, size_t nr);

/*
 * Fill `out` with `words` (the driver first; launchers already left out;
 * linkscope-cc as the driver becomes the baseline's driver_given, said),
 * its @files expanded against `rsp_dir` (where it runs) as GCC would (an @file that cannot be
 * read stays, and is said), `cwd` (copied; may be NULL), `source` and
 * `read` (copied).
 */
void ws_fill(struct lk_whatif_line *out, const struct lk_record *base, const char *const *words, size_t nr,
	     const char *cwd, const char *rsp_dir, const char *source, const char *read);

#endif
