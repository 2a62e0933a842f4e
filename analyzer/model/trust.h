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
 * appended to `kept` (owned copies). Anything that could write a file
 * where the record says, load or run a program, or read options from a
 * file (-o, -MF, -Wl,-Map=, -Wl,-plugin, -B for a real run, -specs=,
 * -wrapper, -fplugin=, -fdump-*, @file, ...), and anything not on the
 * allow-list, is left out and named in `dropped`. For COMPILE and LINK,
 * relative paths of inputs and search dirs are made absolute against the
 * record's cwd, since those runs happen in a scratch directory; -o and the
 * source are the caller's to add.
 */
void lk_trust_filter(const struct lk_record *rec, enum lk_trust_use use,
		     struct lk_strvec *kept, struct lk_strvec *dropped);

/*
 * The environment for a run of the driver for `use`, appended to `envp`
 * (owned "NAME=value" strings, NULL-terminated as lk_strvec is): ours,
 * but the variables that change what the driver finds are the record's,
 * unset where the record has none, so the analysing shell does not leak
 * into the model (issue #9). -### runs nothing, so it gets LIBRARY_PATH,
 * COMPILER_PATH and GCC_EXEC_PREFIX as recorded; a verification link only
 * LIBRARY_PATH (the other two choose the programs that run); a compile
 * none of them.
 */
void lk_trust_env(const struct lk_record *rec, enum lk_trust_use use, struct lk_strvec *envp);

/* "not passed to the driver: A, B, C" for notes, or NULL when nothing was dropped (malloc'd). */
char *lk_trust_dropped_note(const struct lk_strvec *dropped);

#endif
