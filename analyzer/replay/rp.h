/*
 * The replay's working state, shared by the files of one replay
 * (replay.c, read.c, archive.c, dso.c, checks.c, gc_host.c, lld.c, mold.c,
 * linker_options.c, version_script.c); no
 * other file includes it. What a replay gives is replay.h's.
 */
#ifndef ANALYZER_RP_H
#define ANALYZER_RP_H

#include <stddef.h>
#include <sys/types.h>

#include "elf.h"
#include "line.h"
#include "linkscope/record.h"
#include "linkscope/strvec.h"
#include "policy.h"
#include "reloc.h"
#include "replay.h"
#include "symtab.h"

struct needed_entry {
	char *name;
	long by;		/* rinput */
	int copy;		/* --copy-dt-needed-entries was in force */
};

struct open_archive {
	long item;
	struct lk_elf_archive ar;
	char *pulled;		/* per member, for this replay */
	struct lk_sym **armap_syms;	/* the table entry of each armap name, for this replay */
	unsigned char *common_checked;	/* per armap entry: its member does not define the common as data */
	size_t inputs_before;	/* the inputs read before it was opened */
	int ok;
};

/* How a replay runs. */
enum replay_mode {
	RP_LLD = 1 << 0,	/* lld's (and mold's) rules: lazy archives, no --as-needed undo, no DT_NEEDED loading */
	RP_SNAPSHOT = 1 << 1,	/* fork the fix-trial server after the last user item (trial.h) */
	RP_WORKER = 1 << 2,	/* this process is a fix trial, forked from the snapshot */
	RP_RELOC_FULL = 1 << 3,	/* the relocation room's layout pass: every reaching relocation kept (reloc.c) */
	/* With RP_LLD: which linker's rules exactly, where lld 14, newer lld and mold differ. */
	RP_LLD14 = 1 << 4,	/* lld 14: a common takes a member of an archive read after it (--fortran-common) */
	RP_MOLD = 1 << 5,	/* mold 1.10: a common takes a member of any archive; mold's undefined policy (mold.c) */
};

/* What GNU ld's replay tells of the lld-rules replay it saw no reason to differ from (lazy_answer.c). */
struct rp_lazy_answer {
	int same;		/* the lld-rules replay would read what this one read, in the same order */
	size_t line_inputs;	/* the inputs read before the DT_NEEDED libraries loaded after the line */
	int dropped;		/* a shared object was dropped by --as-needed (lld keeps it) */
};

struct rp {
	const struct lk_record *rec;
	const struct lk_line *line;	/* the line, or an overlay of it (an edit's words, a trial's) */
	struct lk_replay *out;
	struct lk_symtab *tab;
	struct { struct needed_entry *items; size_t nr, alloc; } queue;
	struct { struct open_archive *items; size_t nr, alloc; } archives;
	struct rp_scanning *scanning;	/* the archive scan that runs now (archive.c), or NULL */
	struct { long *items; size_t nr, alloc; } archive_slot;	/* line item -> archives index + 1, 0: none */
	struct lk_strvec kept_sonames;
	size_t first_extra;	/* items from here on are an edit's appended words, read after the last user item */
	unsigned mode;		/* enum replay_mode */
	unsigned rules;		/* enum lk_symtab_rules */
	int versioned_refs;	/* a regular object references a "sym@VER" */
	struct lk_policy policy;
	struct lk_gc *gc;	/* --gc-sections: the sections of the regular inputs, or NULL */
	int rescanning;		/* in a group's rescan: members pulled now are marked so */
	const struct lk_replay_edit *edit;	/* a counterfactual (never NULL: a neutral one for none) */
	struct { struct { struct lk_sym *sym; long input; } *items; size_t nr, alloc; } live_undefined;
	struct lk_strvec start_stop;	/* the regular inputs' sections named like C identifiers */
	/* the COMDAT group signatures loaded, each `defined` once the first group of it joined (read.c), or NULL */
	struct lk_symtab *comdats;
	struct rp_relocs *relocs;	/* the relocation room (reloc.h) */
	unsigned sections_want;	/* what is read of a regular input's sections (enum lk_elf_gc_want) */
	int lazy_pending;	/* RP_LLD: a new reference names a symbol an archive read already defines */
	int commons_met_archives;	/* RP_LLD: a common symbol that an archive's armap names (lld and mold differ then) */
	int mold_differs;	/* RP_LLD: lld decided something by a rule of its own that mold does not share */
	/* RP_LLD: --as-needed shared objects no regular reference has bound yet, which mold leaves out (mold.c) */
	struct { long *items; size_t nr, alloc; } asleep;
	/* ... and their strong undefined references, which mold does not make (RP_MOLD) until one wakes */
	struct { struct rp_dormant_ref { long input; struct lk_sym *sym; int strong; } *items; size_t nr, alloc; } dormant;
	struct rp_beside *part;	/* RP_LLD: mold's replay forks off here where the rules part (mold_part.c), or NULL */
	/* GNU ld's replay of a failed link: lld's forks off here where the rules part (lld_part.c), or NULL */
	struct rp_lld_part *lld_part;
	struct { struct rp_lld_type { struct lk_sym *sym; long input; } *items; size_t nr, alloc; } lld_types;
	struct rp_lazy_answer *answer;	/* GNU ld's replay for lk_replay_run: what it answers of lld's, or NULL */
	struct { struct lk_sym **items; size_t nr, alloc; } lazy_refs;	/* strong references lld would fetch for (lazy_answer.c) */
	struct lk_strvec lazy_dropped_refs;	/* ... and those of shared objects dropped by --as-needed */
	struct lk_strvec lazy_dropped_roots;	/* --gc-sections: every reference of those (roots for lld) */
	/* decide.c: the .gnu.warning.SYM sections met (SYM), and the input of each ("libx.a(y.o)") */
	struct lk_strvec warn_syms, warn_where;
	struct rp_memory *memory;	/* memory.c: a -T script's MEMORY regions being filled, or NULL */
	signed char cet_asked;	/* decide.c: -z cet-report is on the line: 1, not: -1, not looked yet: 0 */
};

static inline const struct lk_line_item *item_at(const struct rp *r, long item)
{
	return &r->line->items.items[item];
}

/*
 * replay.c: one replay of `line` (its items from `first_extra` on appended
 * by an edit) into `out`; returns 1 when, under RP_LLD, a common symbol met
 * an archive that names it, a regular object references a "sym@VER", an
 * --as-needed shared object left asleep matters (mold.c) or lld decided by a
 * rule of its own (mold_differs): where lld's and mold's rules differ.
 */
int rp_replay_core(const struct lk_record *rec, const struct lk_line *line, size_t first_extra,
		    unsigned mode, const struct lk_replay_edit *edit, struct lk_replay *out);
extern const struct lk_replay_edit rp_no_edit;	/* the neutral edit: nothing changed */
/* replay.c: an input read (its rinput index), a note for the report (once), a diagnostic about `s`. */
long rp_add_input(struct rp *r, long item, const char *path, const char *member, int dso);
void rp_note(struct rp *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
struct lk_diag *rp_new_diag(struct rp *r, enum lk_diag_kind kind, const struct lk_sym *s);

/* read.c: the top-level items in reading order; a regular input's symbols (and sections) join the link. */
void rp_read_line(struct rp *r);
void rp_join_regular(struct rp *r, long input, struct lk_elf_syms *syms, struct lk_elf_gc *sections);

/* archive.c: one scan of an archive as ld does it; returns how many members it pulled. */
int rp_scan_archive(struct rp *r, long item);
/* archive.c: a regular input references `s`, still undefined: its member in the archive being scanned is read ahead. */
void rp_ask_ahead(struct rp *r, const struct lk_sym *s);

/* dso.c: how a shared object is read (rp_read_dso_item takes DSO_RELOAD). */
enum dso_flags {
	DSO_AS_NEEDED = 1 << 0,		/* --as-needed was in force: kept only if needed */
	DSO_NEEDED_ONLY = 1 << 1,	/* loaded only through another's DT_NEEDED */
	DSO_COPY_DT_NEEDED = 1 << 2,	/* --copy-dt-needed-entries in force: its DT_NEEDED may bind regular references */
	/*
	 * A rescan of a group giving a dropped --as-needed library another
	 * chance (ldlang.c open_input_bfds); a second drop is not recorded again.
	 */
	DSO_RELOAD = 1 << 3,
};

/* dso.c: a shared object item read at its place; after the line, the libraries only DT_NEEDED names. */
int rp_read_dso_item(struct rp *r, long item, unsigned flags);
void rp_load_needed(struct rp *r);

/*
 * checks.c: ld's checks at the end of the line (GNU ld's "hidden symbol
 * ... is referenced by DSO" among them); inputs it cannot open; symbols ld
 * defines itself.
 */
void rp_final_checks(struct rp *r);
void rp_inputs_not_found(struct rp *r);
int rp_linker_defined(const char *name);
/*
 * checks.c: a shared object's (input ref_input's) reference sym@`version`
 * that the shared definition of `s` in `out` does not bind (its library
 * defines other versions only).
 */
int rp_version_unbound(const struct lk_replay *out, const struct lk_sym *s, long ref_input, const char *version);

/*
 * unusable.c: inputs ld found and cannot use: the line's (usable.c judged
 * them), an archive member pulled (1 when it is of another machine: it
 * does not join), a member that cannot be read.
 */
void rp_unusable_items(struct rp *r);
int rp_member_unusable(struct rp *r, long item, const char *member, const char *pulled_for,
		       const struct lk_elf_syms *syms);
void rp_member_unreadable(struct rp *r, long item, const struct lk_err *err);
/* unusable.c: the items of the edit's skipped position are not read (LK_EDIT_IN_PLACE: its words are). */
int rp_skipped(const struct rp *r, const struct lk_line_item *it);

/* gc_host.c: --gc-sections seen from the replay: the collector, a regular input's sections, the collection. */
struct lk_gc *rp_gc_new(struct rp *r);
void rp_gc_add(struct rp *r, long input, const struct lk_elf_syms *syms, struct lk_sym **seen,
	       struct lk_elf_gc *sections);
void rp_collect_sections(struct rp *r);

/* read.c: RP_LLD: the archives read so far give what they define lazily to references made since. */
void rp_fetch_lazy(struct rp *r);

/* version_script.c: GNU ld's checks of the line's version scripts (a tag named twice). */
void rp_version_scripts(struct rp *r);
/* version_dialects.c: the line's version scripts (`n` texts, their paths) as each linker parses them, and what they decide. */
void rp_version_dialects(struct rp *r, const char *const *texts, char *const *paths, size_t n);

/*
 * linker_options.c: the first top-level item `linker` refuses (lld_new:
 * rust-lld, not lld 14), or NULL; not at position `skip` (-1: none). `msg`
 * gets the linker's words, `suggest` the spelling it may have meant (or
 * nothing); the caller releases both.
 */
const struct lk_line_item *rp_refused_option(const struct lk_line *line, enum lk_linker linker, int lld_new, long skip,
					     struct lk_buf *msg, struct lk_buf *suggest);

/*
 * lazy_answer.c: GNU ld's replay watching for where the lld-rules replay
 * would differ (each a no-op without r->answer): the lld rules differ
 * here; a strong reference to `s`; where lld would fetch lazily; a member
 * pulled for `s` from the archive `item`; a shared object dropped by
 * --as-needed (its symbols); a reference to `s` from a library loaded after
 * the line (a root for GNU ld's collection only); the end of the reading
 * (before the DT_NEEDED libraries).
 */
void rp_answer_differs(struct rp *r);
void rp_answer_ref(struct rp *r, struct lk_sym *s);
void rp_answer_checkpoint(struct rp *r);
void rp_answer_pull(struct rp *r, const struct lk_sym *s, long item);
void rp_answer_dropped(struct rp *r, const struct lk_elf_syms *syms);
void rp_answer_gc_root(struct rp *r, const struct lk_sym *s);
void rp_answer_finish(struct rp *r);

/*
 * lld.c, mold.c: each linker's verdict (out->linkers[]) from the lld-rules
 * replay `lazy` of `line`, of which the inputs before `lazy_inputs` count
 * (lazy->inputs.nr, or GNU ld's replay standing in for it: lazy_answer.c);
 * `skip`: a fix trial's driver position left out, whose items the verdict
 * does not judge (-1: none).
 */
void rp_lld_verdict(const struct lk_record *rec, const struct lk_line *line, const struct lk_replay *lazy,
		    size_t lazy_inputs, struct lk_replay *out, long skip);
void rp_mold_verdict(const struct lk_line *line, const struct lk_replay *lazy, struct lk_replay *out, long skip);
/*
 * mold.c: an --as-needed shared object mold has not loaded yet (asleep;
 * rp_mold_sleeps says whether it is, when read), its strong undefined
 * reference to `s` kept aside (returns 1 under RP_MOLD: the reference is not
 * made now), one woken by a regular reference bound to it, and whether
 * one left asleep references a symbol an archive names (mold's own replay
 * then differs from lld's).
 */
int rp_mold_sleeps(struct rp *r, const struct lk_elf_syms *syms, int as_needed);
int rp_mold_dormant(struct rp *r, long input, struct lk_sym *s, int strong);
void rp_mold_wake(struct rp *r, long input);
int rp_mold_asleep_matters(const struct rp *r);
/* mold.c: do undefined symbols of regular objects fail the line under mold's rules? */
int rp_mold_reports_objects(const struct lk_line *line);
/*
 * mold_part.c: mold's undefined policy in r->policy; the lld-rules replay
 * at a point where mold's rules part from lld's: with r->part, it forks,
 * and the child carries on as mold's own replay (r->part->child set).
 */
void rp_mold_policy(struct rp *r);
void rp_mold_part(struct rp *r);
/* mold.c: the "sym@VER" bindings mold does not make, undone (RP_MOLD, before the final checks). */
void rp_mold_versioned_refs(struct rp *r);
/* lld.c: the line's linker is rustc's rust-lld, a newer lld than 14; the major version of the line's lld. */
int rp_rust_lld(const struct lk_record *rec);
int rp_lld_major(const struct lk_record *rec);
/* lld.c: an option `linker` refuses, said in v (returns 1), or 0; the lld-rules replay's diagnostics said in v. */
int rp_refused(const struct lk_line *line, enum lk_linker linker, int lld_new, long skip, const char *who,
	       struct lk_linker_verdict *v);
void rp_lazy_rules_why(const struct lk_line *line, const struct lk_replay *lazy, const char *who,
		       enum lk_linker linker, struct lk_linker_verdict *v);
/*
 * decide.c: the options that decide a link beyond its symbols. As GNU
 * ld's replay reads: a regular input's sections, a definition meeting
 * another (before the table takes it), the end of the line. Then each
 * linker's verdict (after they are all made), what --noinhibit-exec
 * spares of `linker`'s errors, and GNU ld's missing __ehdr_start under -N.
 */
void rp_decide_input(struct rp *r, long input, const struct lk_elf_gc *sections);
void rp_decide_common(struct rp *r, const struct lk_sym *s, const struct lk_elf_sym *y, long input);
void rp_decide_finish(struct rp *r);
/* mold_relocs.c: what mold 1.10 makes of a relocation type of an allocated section. */
enum rp_mold_reloc {
	RP_MOLD_JUDGED,		/* as GNU ld's and lld's rules judge it */
	RP_MOLD_UNCHECKED,	/* written with no check of the output: never refused */
	RP_MOLD_UNKNOWN,	/* "unknown relocation": refused in every output */
};
struct lk_reloc_arch;
enum rp_mold_reloc rp_mold_reloc_of(const struct lk_reloc_arch *a, uint32_t type);
/* copyreloc.c: the copies an executable's references need that cannot be made, found in GNU ld's replay; each linker's verdict of them. */
void rp_decide_copies(struct rp *r);
void rp_copyreloc_verdict(const struct lk_line *line, struct lk_replay *out, enum lk_linker l, const char *who);
/* memory.c: a -T script's MEMORY regions, read at the start, filled by each regular input, judged at the end. */
void rp_memory_start(struct rp *r);
void rp_memory_input(struct rp *r, long input, const struct lk_elf_gc *sections);
void rp_memory_finish(struct rp *r);
void rp_memory_release(struct rp *r);
void rp_decide_verdicts(const struct lk_line *line, struct lk_replay *out);
void rp_decide_release(struct lk_replay_warned *w);
int rp_noinhibit_exec(const struct lk_line *line);
int rp_noinhibit_spares(const struct lk_line *line, enum lk_linker linker, enum lk_diag_kind kind);
int rp_ehdr_missing(const struct rp *r, const char *name);
/* script_commands.c: a linker script on the line with a command `linker` does not know, said in v (returns 1), or 0. */
int rp_script_refused(const struct lk_line *line, enum lk_linker linker, int lld_new, long skip, const char *who,
		      struct lk_linker_verdict *v);
/*
 * linker_fixes.c: a fix for verdict `v` (text owned by v now), with the
 * edit that tries it (append: one word as the linker reads it, "--allow-shlib-undefined", or NULL; skip: a driver position,
 * or -1; neither: a fix the replay cannot try); each tried on its
 * linker's model of the edited line at the end of the verdicts; freed.
 */
void rp_linker_fix(struct lk_linker_verdict *v, char *text, const char *append, long skip);
void rp_try_linker_fixes(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out);
void rp_linker_fixes_release(struct lk_linker_verdict *v);
/*
 * beside.c: `fn`'s verdicts of the linkers in `linkers` (a mask of 1 <<
 * enum lk_linker) on `line`, made in a forked process while the caller
 * goes on (when the machine has a second core; returns 1 when started, 0
 * when not: the caller then calls `fn` itself); they go into
 * out->linkers[] (0), or -1 when none came or none was started (nothing
 * set: the caller calls `fn`); or the child is stopped, its work unused.
 * rp_beside_fork is the fork alone: it returns 1 in the child, which
 * makes the verdicts where it stands and ends with rp_beside_reply; 0 in
 * the parent (b->pid is 0 when there is no child: one core, or no fork).
 */
typedef void (*rp_verdict_fn)(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out);
struct rp_beside {
	pid_t pid;		/* the child, 0 when none */
	int fd;			/* this process's end of the socket */
	unsigned linkers;	/* the verdicts it sends */
	int child;		/* this process is the child */
	int held;		/* the child waits for rp_beside_finish's word to go on (rp_beside_hold) */
};
int rp_beside_start(struct rp_beside *b, rp_verdict_fn fn, unsigned linkers, const struct lk_record *rec,
		    const struct lk_line *line);
int rp_beside_fork(struct rp_beside *b, unsigned linkers);
_Noreturn void rp_beside_reply(const struct rp_beside *b, const struct lk_replay *out);
int rp_beside_finish(struct rp_beside *b, struct lk_replay *out);
void rp_beside_cancel(struct rp_beside *b);
/*
 * After rp_beside_fork, in both processes: the child holds there until
 * rp_beside_finish asks for its verdict, so that one cancelled costs no
 * CPU (its parent's end ends it, PR_SET_PDEATHSIG).
 */
void rp_beside_hold(struct rp_beside *b);
/*
 * lld_part.c: the lld-rules replay forked off GNU ld's where their rules
 * part, as mold's off lld's (mold_part.c). GNU ld's replay of a link that
 * failed carries, up to that point, what lld's rules keep besides its own
 * (lld's TLS types, its PIE's PC-relative relocations); rp_lld_part, called
 * before each decision where the rules part (and at the end of the line at
 * the latest), forks: the child (beside.child set) carries on under lld's
 * rules with `mode`, and, with `mold` for r->part, parts mold's off it in
 * turn; the parent drops what only lld keeps and goes on as GNU ld.
 * rp_lld_unarm: the same drop without a fork (a fix trial's worker).
 * rp_lld_tls_meet: a symbol type met in GNU ld's replay, kept for lld's
 * table too (or parting before a mismatch).
 */
struct rp_lld_part {
	struct rp_beside beside;	/* lld's and mold's verdicts, sent by the child */
	struct rp_beside mold;		/* in the child: mold's own replay parted off it */
	unsigned mode;			/* the child's: RP_LLD, and RP_LLD14 for lld 14 */
};
void rp_lld_part(struct rp *r);
void rp_lld_unarm(struct rp *r);
void rp_lld_tls_meet(struct rp *r, struct lk_sym *s, long input, int tls, int notype);
/* lld.c: "member m.o of libx.a (at 3)", appended to b. */
void rp_input_words(const struct lk_line *line, const struct lk_rinput *in, struct lk_buf *b);

#endif
