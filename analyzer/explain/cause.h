/*
 * Diagnostics -> causes: undefined symbols grouped by what would define
 * them, each group with the library that does (provider.c) and the edit
 * that adds it, verified by a fix trial.
 */
#ifndef ANALYZER_CAUSE_H
#define ANALYZER_CAUSE_H

#include "line.h"
#include "linkscope/record.h"
#include "replay.h"

/*
 * Merge the undefined-symbol diagnostics of `out` into one per cause: the
 * archive on the line that defines them but was read too early, or the
 * best library off the line that defines them (searched with provider.c),
 * or, when nothing is found, the input that references them. Each group
 * keeps every symbol (d->symbols) and says where it looked.
 */
void lk_cause_group(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out);

/*
 * The fixes of the provider groups (the library's argument; for C++
 * runtime symbols under a C driver, g++ as the driver too; for a Rust
 * crate, the build-script instruction), each tried; then an edit for the
 * whole link when no single fix is enough; then every fix that neither
 * links nor fixes its own symbols is dropped: it is never offered.
 */
void lk_cause_fixes(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out);

#endif
