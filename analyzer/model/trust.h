/*
 * What the analyzer may run for a record, which is untrusted input
 * (docs/security.md). By default nothing: these are used only under
 * --run-driver and --verify-with-linker.
 */
#ifndef ANALYZER_TRUST_H
#define ANALYZER_TRUST_H

#include "linkscope/err.h"
#include "linkscope/record.h"
#include "linkscope/strvec.h"

/* Wall-clock bound of any program the analyzer runs, in milliseconds. */
#define LK_TRUST_TIMEOUT_MS 60000

/* What the driver is run for: each use keeps a different part of the argv. */
enum lk_trust_use {
	LK_TRUST_EXPAND,	/* `-###`: prints, runs nothing; words kept as recorded */
	LK_TRUST_COMPILE,	/* `-c SOURCE`: compile options only */
	LK_TRUST_LINK,		/* a link into a scratch dir: compile and link options */
};

/*
 * The driver to run for `rec`: the basename of the record's driver, if it
 * names a known compiler driver (gcc, g++, cc, c++, clang, clang++, with a
 * target prefix such as aarch64-linux-gnu- and a version suffix such as
 * -12), looked up on the analysing machine's own PATH (absolute entries
 * only; never the record's path, never linkscope-cc). Returns the path
 * (malloc'd), or NULL with `err` saying why.
 */
char *lk_trust_driver(const struct lk_record *rec, struct lk_err *err);

/*
 * `name` (no '/') found on the analysing machine's PATH, absolute entries
 * only, skipping linkscope-cc: a path (malloc'd) or NULL.
 */
char *lk_trust_which(const char *name);

/*
 * The record's driver arguments (argv_expanded[1..]) allowed for `use`,
 * appended to `kept` (owned copies); everything else is left out and
 * named in `dropped`. A true allow-list (docs/security.md lists it):
 * inputs and search dirs (read), the options that change code generation,
 * the ABI, what the driver links or the output kind, option by option,
 * each value checked to be a name, a number or a keyword, never a path, a
 * program or a shell word (so -fmodule-mapper=|CMD, -fplugin=, -B, -specs=,
 * -wrapper, -fprofile-generate=DIR, -fuse-ld=/PATH, @file and -o go); ld
 * words (-Wl, -Xlinker) likewise, without the ones that load a plugin,
 * write a file or read options (-plugin, -Map, --dependency-file,
 * --error-handling-script, @file). For COMPILE and LINK, relative paths
 * of inputs and search dirs are made absolute against the record's cwd,
 * since those runs happen in a scratch directory; LINK also gets the
 * record's LIBRARY_PATH as -L words (see lk_trust_env); -o and the source
 * are the caller's to add.
 */
void lk_trust_filter(const struct lk_record *rec, enum lk_trust_use use,
		     struct lk_strvec *kept, struct lk_strvec *dropped);

/*
 * The whole environment of a run of the driver for `use` (`rec` may be
 * NULL: a run for no record), appended to `envp` (owned "NAME=value"
 * strings, NULL-terminated as lk_strvec is): PATH (our absolute entries),
 * LANG=C, TMPDIR=`scratch`, and nothing else of ours. -### runs nothing,
 * so it also gets the record's LIBRARY_PATH, COMPILER_PATH and
 * GCC_EXEC_PREFIX (none where the record has none), for the model to be
 * the link's and not the analysing shell's (issue #9). Nothing else does:
 * those dirs hold the specs file and the programs the driver runs.
 */
void lk_trust_env(const struct lk_record *rec, enum lk_trust_use use, const char *scratch,
		  struct lk_strvec *envp);

/* "not passed to the driver: A, B, C" for notes, or NULL when nothing was dropped (malloc'd). */
char *lk_trust_dropped_note(const struct lk_strvec *dropped);

#endif
