/*
 * mold's own replay, forked off the lld-rules one where their rules part
 * (see replay.c's lazy_verdicts_here). mold resolves as lld does but at a
 * few points (mold.c): a common meeting an archive that names it, a
 * reference of an --as-needed shared object mold has not loaded, a TLS
 * type mismatch mold does not check, and after the line its undefined
 * policy, "sym@VER" bindings and relocation rules. Up to the first of
 * these the two replays make the same decisions on the same inputs, so
 * their states are the same but for what only lld keeps (reloc.c's
 * lld-only relocations; lld's TLS types, which mold never reads). The
 * lld-rules replay forks there (beside.c), and the child carries on under
 * mold's rules: mold's replay then costs the rest of the line, not all of
 * it. Each parting point calls rp_mold_part before it decides; the end of
 * the line is the last one. The child then holds until the lld-rules
 * replay, at its end, knows mold's own is needed (commons, mold's policy,
 * -z notext: replay.c's lazy_verdicts_of), and is stopped unused when not:
 * begun as it was before, it ran beside lld's and cost its CPU on a
 * machine with no core to spare, needed or not.
 */
#include "linkscope/banned.h"
#include "rp.h"

void rp_mold_policy(struct rp *r)
{
	r->policy.report_objects = rp_mold_reports_objects(r->line);
	r->policy.warn_unresolved = 0;	/* mold's one setting: in report_objects */
}

void rp_mold_part(struct rp *r)
{
	struct rp_beside *b = r->part;

	if (!b)
		return;
	r->part = NULL;
	if (!rp_beside_fork(b, 1u << LK_LINKER_MOLD)) {
		rp_beside_hold(b);
		return;
	}
	/* Until the lld-rules replay knows mold's own is needed: most often it is not, and no CPU is spent. */
	rp_beside_hold(b);
	r->mode = (r->mode & ~(unsigned)RP_LLD14) | RP_MOLD;
	rp_mold_policy(r);
	rp_relocs_part_for_mold(r);
}
