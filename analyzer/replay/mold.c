/*
 * The line under mold's rules (see replay.c), read from mold's
 * cmdline.cc (the options it refuses, linker_options.c) and passes.cc:
 * archives resolve as lld's do (the lld-rules replay, lld.c: a member of
 * the first archive on the line that defines a symbol, from wherever the
 * reference is), but mold does not check the undefined symbols of the
 * shared objects on the line (no --no-allow-shlib-undefined by default)
 * and, unlike GNU ld, lets a shared object reference a hidden symbol and
 * takes a version script that names a tag twice. Checked against mold
 * 1.10.1.
 */
#include "linkscope/banned.h"
#include "rp.h"

/* out->linkers[LK_LINKER_MOLD], from the lld-rules replay `lazy` of `line`. */
void rp_mold_verdict(const struct lk_line *line, const struct lk_replay *lazy, struct lk_replay *out)
{
	struct lk_linker_verdict *v = &out->linkers[LK_LINKER_MOLD];

	v->success = 1;
	v->version = "1.10";
	if (!rp_refused(line, LK_LINKER_MOLD, 0, "mold", v))
		rp_lazy_rules_why(line, lazy, "mold", v);
}
