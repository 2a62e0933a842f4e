/*
 * The lld-rules replay forked off GNU ld's where their rules part (see
 * replay.c's lk_replay_run), as mold's is forked off lld's (mold_part.c).
 * lld reads the inputs in the same order as GNU ld and takes the same
 * members until one of the decisions lazy_answer.c watches goes its own
 * way: a strong reference to a symbol an archive read earlier names (lld
 * fetches it after the item), a member pulled for a symbol another archive
 * named first, a common meeting an archive that names it, an archive
 * without an index (lld indexes it), the first shared object (lld keeps an
 * --as-needed one, and makes the entries of its versions), a TLS type
 * mismatch; at the latest the end of the line (lld's last fetch, its
 * checks). Before the first of these the two replays' states are the same
 * but for what only lld keeps, which GNU ld's replay of a failed link
 * carries too while it may part:
 *
 * - lld's TLS types: lld types no symbol by an STT_NOTYPE reference
 *   (reloc.c tls_meet); GNU ld's replay marks each symbol it typed so
 *   (lld_untyped), and the input whose typed non-TLS symbol gave lld its
 *   type later (lld_retyped, r->lld_types); a TLS one after that is a
 *   GNU ld mismatch, where they part;
 * - the PC-relative relocations lld keeps in a PIE (reloc.c lld_pie,
 *   marked lld_only), which the parent drops at the part as mold's replay
 *   does (rp_relocs_part_for_mold).
 *
 * At the part the child takes lld's rules and lld's types and drops GNU
 * ld's alone (the MEMORY regions, the .gnu.warning sections, the snapshot
 * of the fix trials): lld's replay then costs the tail of the line. The
 * child's replay ends as lazy_verdicts_here's does and sends lld's and
 * mold's verdicts (beside.c); the parent goes on, and takes them when GNU
 * ld's replay does not answer for them (lazy_answer.c).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/vec.h"
#include "rp.h"
#include "trial.h"

static void drop_lld_types(struct rp *r)
{
	free(r->lld_types.items);
	memset(&r->lld_types, 0, sizeof(r->lld_types));
}

void rp_lld_unarm(struct rp *r)
{
	if (!r->lld_part)
		return;
	r->lld_part = NULL;
	rp_relocs_part_for_mold(r);	/* what only lld keeps goes, as in mold's replay */
	drop_lld_types(r);
}

void rp_lld_part(struct rp *r)
{
	struct rp_lld_part *p = r->lld_part;

	if (!p || (r->mode & RP_LLD))
		return;
	if (!rp_beside_fork(&p->beside, 1u << LK_LINKER_LLD | 1u << LK_LINKER_MOLD)) {
		rp_lld_unarm(r);
		return;
	}
	/* The child: lld's replay from here. */
	r->lld_part = NULL;
	r->mode = p->mode;
	r->answer = NULL;
	r->part = &p->mold;
	r->lazy_refs.nr = 0;
	rp_memory_release(r);
	lk_strvec_release(&r->warn_syms);
	lk_strvec_release(&r->warn_where);
	if (r->out->trials) {
		/* The parent's fix trials: the child neither asks nor stops them. */
		if (r->out->trials->fd >= 0)
			close(r->out->trials->fd);
		r->out->trials = NULL;
	}
}

/*
 * lld's replay, parted: the type of `s` as lld's table has it, taken when
 * the symbol is met again (rewriting the whole table at the part would copy
 * every page of it into the child).
 */
static void take_lld_type(struct rp *r, struct lk_sym *s, int tls)
{
	if (s->lld_untyped) {
		s->typed = 0;
		s->tls = 0;
		s->typed_input = 0;
		s->typed_section = NULL;
		s->lld_untyped = 0;
		return;
	}
	/* Retyped: the same type, from a later input; that input is said only by a mismatch. */
	if ((s->tls != 0) == (tls != 0) || strchr(s->name, '@'))
		return;
	for (size_t i = 0; i < r->lld_types.nr; i++)
		if (r->lld_types.items[i].sym == s)
			s->typed_input = r->lld_types.items[i].input;
	s->lld_retyped = 0;
}

/* GNU ld's replay while lld's may part: lld's type of `s` kept beside its own; 1 where lld's parted. */
static int watch_type(struct rp *r, struct lk_sym *s, long input, int tls, int notype)
{
	if (!s->typed) {
		s->lld_untyped = notype != 0;	/* GNU ld types it now; lld only if it is typed */
		return 0;
	}
	if ((s->tls != 0) != (tls != 0) && !strchr(s->name, '@')) {
		rp_lld_part(r);	/* GNU ld's mismatch; lld's table may have another type */
		return 1;
	}
	if (!s->lld_untyped || notype)
		return 0;
	if (tls) {
		rp_lld_part(r);	/* lld types it TLS here (a "sym@VER" entry GNU ld typed otherwise) */
		return 1;
	}
	/* lld types it here, non-TLS as GNU ld did, from this input. */
	s->lld_untyped = 0;
	s->lld_retyped = 1;
	LK_GROW(r->lld_types.items, r->lld_types.nr + 1, r->lld_types.alloc);
	r->lld_types.items[r->lld_types.nr].sym = s;
	r->lld_types.items[r->lld_types.nr++].input = input;
	return 0;
}

void rp_lld_tls_meet(struct rp *r, struct lk_sym *s, long input, int tls, int notype)
{
	if (r->lld_part && !watch_type(r, s, input, tls, notype))
		return;
	/* lld's replay (parted here or before) takes lld's type; GNU ld's, once parted, keeps its own. */
	if (r->mode & RP_LLD)
		take_lld_type(r, s, tls);
}
