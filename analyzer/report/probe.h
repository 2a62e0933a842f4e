/*
 * Which failed links are not failures of the build (issue #32, point 2):
 * a configure step's probe, expected to fail when the feature is missing
 * (autoconf's conftest, CMake's try_compile, meson's compiler checks, a
 * cargo build script's flag check), and a failure that a later link of the
 * same output, which succeeded, superseded. `report --failed` leaves both
 * out unless asked (--probes, --all).
 */
#ifndef ANALYZER_PROBE_H
#define ANALYZER_PROBE_H

#include <stddef.h>

#include "linkscope/record.h"
#include "recdir.h"

/*
 * The build system's probe that `rec` is, told from its output, its
 * working directory and its input names ("autoconf conftest", "CMake
 * try_compile", "meson compiler check", "cargo build-script probe"), or
 * NULL when it is a link of the build. Static strings.
 */
const char *lk_probe_of(const struct lk_record *rec);

/*
 * The absolute path of `rec`'s output (its -o joined to its cwd; "a.out"
 * when there is none), malloc'd: what tells two links of one output.
 */
char *lk_probe_output_path(const struct lk_record *rec);

struct lk_probe_filter {
	int keep_probes, keep_superseded;	/* --probes, --all */
	size_t probes, superseded;		/* left out */
};

/*
 * Leave out of the failed records recs[0..*nr) (read from `rd`, newest
 * first) the probes and the failures that a successful link of the same
 * output, started later, superseded (the records of `rd` that may be one
 * are read to tell), unless `f` keeps them; the records left out are
 * released, the others moved up, *nr and f's counts updated.
 */
void lk_probe_filter(const struct lk_recdir *rd, struct lk_record *recs, size_t *nr, struct lk_probe_filter *f);

#endif
