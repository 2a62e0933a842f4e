/*
 * Archive members read ahead (ahead.c): while the replay joins one member
 * to the link, a helper thread reads the next ones an archive scan is
 * about to pull, as mold reads its inputs on every core. The reading is
 * lk_elf_archive_member_gc(), the same call the scan would make, with the
 * relocation filter of the moment it was asked for; the scan takes the
 * result only when that filter still holds, and reads the member itself
 * otherwise (a result not taken is dropped unread). So what a replay
 * decides never depends on the helper: a member read ahead and one read
 * in line give the same bytes to the same code.
 *
 * Only members of a regular archive read whole (elf_image.c) are read
 * ahead: a thin archive's open files through the read set (readset.c),
 * and a member over ELFR_WHOLE_MAX goes through the archive's shared libelf
 * handle; neither is safe off the main thread. A fork() (the lld-rules
 * replay parted off, a fix trial) waits for the helper to finish what it
 * reads; the child has no helper and reads in line what is not done.
 */
#ifndef ANALYZER_AHEAD_H
#define ANALYZER_AHEAD_H

#include <stddef.h>

#include "elf.h"
#include "reloc.h"

struct rp_ahead_job;

/* Can members be read ahead here? Not on one CPU (or pinned to one): the helper would only take turns with the scan. */
int rp_ahead_enabled(void);
/* 0: the process's CPUs are taken already (report --failed's workers, one per CPU): no helper. */
void rp_ahead_allow(int allow);
/*
 * Ask for member `m` (its index in ar->members) of the open archive `ar` to be read as
 * `reader` and `filter` say (rp_relocs_reader's); NULL when it will not be
 * (see above, a thin archive, a member too large): the scan then reads it
 * in line. `ar` must stay open until rp_ahead_drop(). `rank`: where the
 * scan will want it (its armap index, or its member index for a whole
 * archive); the helper reads first what the scan wants first from where
 * it is (rp_ahead_cursor).
 */
struct rp_ahead_job *rp_ahead_queue(const struct lk_elf_archive *ar, size_t m, size_t rank,
				    const struct lk_elf_gc *reader, const struct rp_reloc_filter *filter);
/* The scan is at `rank` now. */
void rp_ahead_cursor(size_t rank);
/*
 * The member of `job` as lk_elf_archive_member_gc() reads it (name, syms,
 * sections; `sections`' filter becomes `filter`): 1 when it was read ahead
 * with the same filter and without an error; 0 when the caller must read
 * it (not started yet, read with another filter, or failed: the caller's
 * own read then says why).
 */
int rp_ahead_take(struct rp_ahead_job *job, const struct rp_reloc_filter *filter, char **name,
		  struct lk_elf_syms *syms, struct lk_elf_gc *sections);
/* Every job asked for is done with: those not taken are dropped; their handles are no longer valid. */
void rp_ahead_drop(void);
/* The end of a replay: rp_ahead_drop() and the helper thread ended. */
void rp_ahead_stop(void);

#endif
