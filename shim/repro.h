/*
 * LINKSCOPE_REPRODUCE=1: lld's or mold's own reproducer archive, kept
 * beside the record as DIR/ID.repro.tar (docs/record-format.md).
 */
#ifndef SHIM_REPRO_H
#define SHIM_REPRO_H

#include "linkscope/record.h"

/*
 * Before the link: ask the linker of `rec` (its flavor, lld or mold) for
 * its reproducer, through the environment the driver inherits; sets
 * rec->reproducer (owned by the draft) to where it will be.
 */
void lk_repro_request(struct lk_record_draft *rec, const char *dir);

/*
 * After the link: mold's moved from the build dir to DIR/ID.repro.tar (a
 * warning in the record when it cannot be), named by its absolute path; a
 * reproducer that was not written is not named. 1 when rec->reproducer
 * changed (the record's parts rendered ahead no longer hold), else 0.
 */
int lk_repro_settle(struct lk_record_draft *rec, const char *dir);

#endif
