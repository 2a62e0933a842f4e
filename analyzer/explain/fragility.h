/*
 * Why a link succeeds: what the success rests on that the line does not
 * say itself, each fact checked by a counterfactual replay ("without the
 * reference from X at P, member Y of Z at Q fails with dso-missing").
 * `explain` and `why` print them; `check` judges them (severity per kind,
 * accepted ones, drift from a baseline).
 */
#ifndef ANALYZER_FRAGILITY_H
#define ANALYZER_FRAGILITY_H

#include <stdio.h>

#include "line.h"
#include "linkscope/record.h"
#include "replay.h"

enum lk_fact_kind {
	LK_FACT_INCIDENTAL_DSO,		/* an --as-needed library kept by an earlier, unrelated reference */
	LK_FACT_FAILS_WITH_GNU_LD,	/* links with lld (mold), would fail with GNU ld */
	LK_FACT_COPY_DT_NEEDED,		/* a symbol bound only through --copy-dt-needed-entries */
	LK_FACT_GROUP_RESCAN,		/* an archive member found only by a group's rescan */
	LK_FACT_REPEATED_ARCHIVE,	/* an archive member found only because the archive is named again */
	LK_FACT_LC_LOAD_BEARING,	/* one of several -lc the link needs */
	LK_FACT_LC_REDUNDANT,		/* one of several -lc the link does not need today */
	LK_FACT_FAILS_WITH_LLD,		/* another linker links it, lld would fail */
	LK_FACT_FAILS_WITH_MOLD,	/* another linker links it, mold would fail */
	/* new kinds go above: LK_FACT_KINDS counts them */
};

/*
 * LK_SEV_PORTABILITY: a fact only another linker's failure supports (the
 * fails-with-* kinds): said, but no CI failure unless `check --linkers`
 * names that linker (check.c), when it is an error.
 */
enum lk_severity { LK_SEV_INFO, LK_SEV_WARNING, LK_SEV_ERROR, LK_SEV_PORTABILITY };

struct lk_fact {
	enum lk_fact_kind kind;
	char *subject;		/* the symbol, "-lc#N" (the Nth -lc), or the linker for the cross-linker kinds */
	char *text;		/* what the success rests on, one sentence */
	char *replay;		/* the counterfactual and what the replay said of it, or NULL */
	int verified;		/* the counterfactual replay confirmed it */
	int accepted;		/* check: the user accepted it (--accept) */
};

struct lk_facts {
	struct lk_fact *items;
	size_t nr, alloc;
	int success, lld_success;	/* the replay's outcomes under GNU ld's and lld's rules */
	int linkers[LK_LINKER_COUNT];	/* each linker's outcome (replay.h) */
	char *unknown;			/* the replay's failure is no prediction: why (then there are no facts) */
};

#define LK_FACT_KINDS (LK_FACT_FAILS_WITH_MOLD + 1)

const char *lk_fact_kind_name(enum lk_fact_kind kind);
enum lk_severity lk_fact_severity(enum lk_fact_kind kind);
const char *lk_severity_name(enum lk_severity sev);
/* "kind:subject", subject normalised (hashes, build dirs): what --accept and baselines compare. Malloc'd. */
char *lk_fact_key(const struct lk_fact *f);

/*
 * The facts of a successful replay `rp` of `line` (nothing when it fails
 * under GNU ld's rules, but the cross-linker verdict). Runs counterfactual
 * replays; `line` is restored. Release with lk_facts_release().
 */
void lk_fragility_find(const struct lk_record *rec, struct lk_line *line,
		       const struct lk_replay *rp, struct lk_facts *out);
void lk_facts_release(struct lk_facts *f);

/* For explain: "the success rests on:" and the facts, or nothing when there are none. */
void lk_fragility_print(FILE *out, const struct lk_facts *f, const char *symbol);

#endif
