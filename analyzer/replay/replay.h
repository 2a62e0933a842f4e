/*
 * The replay: GNU ld's (bfd) symbol resolution, simulated left to right
 * over a line model, and the diagnostics it leads to.
 */
#ifndef LINKSCOPE_REPLAY_H
#define LINKSCOPE_REPLAY_H

#include <stddef.h>

#include "linkscope/buf.h"
#include "line.h"
#include "linkscope/record.h"

struct lk_finding;
struct lk_srcrefs;
struct lk_symtab;
struct lk_trial_server;

/* A definition of a shared object, as the explanations need it. */
struct lk_rdef {
	const char *name;	/* borrowed from the replay's symbol table */
	const char *version;	/* likewise, or NULL */
};
struct lk_rdefs {
	struct lk_rdef *items;
	size_t nr, alloc;
};

/* One input the replay read: an object, an archive member, a shared object. */
struct lk_rinput {
	long item;		/* line item, or -1 for a DT_NEEDED-only library */
	char *member;		/* archive member name, or NULL */
	size_t member_offset;	/* ... and its offset in the archive (lk_elf_archive_member()) */
	char *path;
	int dso;		/* a shared object */
	int needed_only;	/* loaded only through another's DT_NEEDED (no --copy-dt-needed-entries) */
	int dropped;		/* --as-needed and nothing needed it: its symbols were undone */
	long needed_by;		/* rinput whose DT_NEEDED brought it, or -1 */
	char *pulled_for;	/* archive member: the symbol it was pulled in for */
	int gcc_lto;		/* archive member: a slim GCC LTO object (GCC's IR only, no machine code) */
	int rescanned;		/* archive member: pulled when ld rescanned its group, not on its first reading */
	struct lk_strvec kept_for;	/* --as-needed shared object: the symbols that made it needed */
	/* Kept for the explanations, so they read no input again (names in the replay's table). */
	struct lk_rdefs old_defs;	/* shared object kept: its "sym@VER" (non-default) definitions */
	struct lk_rdefs dropped_defs;	/* shared object dropped: every definition it had */
};

enum lk_diag_kind {
	LK_DIAG_DSO_MISSING,
	LK_DIAG_UNDEFINED,
	LK_DIAG_MULTIPLE,	/* "multiple-definition": two regular strong definitions */
	LK_DIAG_NOT_FOUND,	/* "input-not-found": ld cannot open an input; `symbol` is the argument */
	/* ld stops at an input it found but cannot use (unusable.c): `symbol` is the argument, `problem` says why */
	LK_DIAG_INCOMPATIBLE,	/* "incompatible-skipped": a -l found only files of another machine */
	LK_DIAG_WRONG_MACHINE,	/* "wrong-machine": an input (or pulled member) of another machine */
	LK_DIAG_BITCODE,	/* "bitcode-without-plugin": LLVM bitcode, and no LLVM plugin */
	LK_DIAG_SCRIPT_SYNTAX,	/* "script-syntax-error": a linker script ld rejects */
	LK_DIAG_TRUNCATED,	/* "truncated-input": an ELF file (or member) cut short */
	LK_DIAG_UNRECOGNIZED,	/* "unrecognized-input": neither ELF, an archive, bitcode nor text */
	LK_DIAG_NO_INDEX,	/* "archive-without-index": GNU ld's "archive has no index; run ranlib to add one" */
	/* The relocation room (reloc.c); `reloc` says what. `symbol` is the target (symbol or section). */
	LK_DIAG_RELOC_NOT_ALLOWED,	/* "relocation-not-allowed": the output kind cannot take it */
	LK_DIAG_RELOC_OVERFLOW,	/* "relocation-overflow": "relocation truncated to fit", by the estimated layout */
	LK_DIAG_TLS_MISMATCH,	/* "tls-mismatch": a TLS and a non-TLS symbol of one name; ref_input and def_input */
	LK_DIAG_RELOC_UNSUPPORTED,	/* "relocation-unsupported": the linker knows no such type (lld's, mold's replay only) */
	LK_DIAG_HIDDEN_DSO_REF,	/* "hidden-symbol": a hidden definition a shared object references; ref_input is the DSO */
	LK_DIAG_VERSION_TAG,	/* "duplicate-version-tag": `symbol` is the tag, `defined_path` the version script */
};

/* What a relocation or TLS diagnostic names (reloc.c); owned by the diagnostic, freed with it. */
struct lk_diag_reloc {
	const char *machine;	/* "x86-64", "AArch64" (static) */
	const char *type;	/* "R_X86_64_32" (static); tls-mismatch: NULL */
	int target_is_section;	/* the target is a local symbol's section (".rodata"), not a symbol */
	char *section;		/* the section of the referencing input the relocation applies to */
	unsigned long long offset;	/* ... and where in it */
	char *producer;		/* how the referencing object says it was compiled, or NULL */
	const char *output;	/* "a PIE object", "a shared object", "an executable" (static) */
	const char *rule;	/* not-allowed: why that output cannot take it (static) */
	const char *recompile;	/* the compiler option of the stated fix: "-fPIE", "-fPIC", "-mcmodel=medium", or NULL */
	int tls_le;		/* not-allowed: local-exec TLS in a shared object (another TLS model fixes it, not -fPIC) */
	long long distance;	/* overflow: the estimated distance (or address) in bytes */
	unsigned long long reach;	/* ... and what the relocation reaches */
	struct lk_strvec between;	/* overflow: the large sections between the place and its target */
	struct lk_strvec large_inputs;	/* overflow: the inputs that hold them ("libbig.a(a.o)") */
	char *stub;		/* overflow of a far call: where the linker puts its long-branch stub, out of reach (stubs.c) */
	/* tls-mismatch: the TLS side (def_input) and the non-TLS side (ref_input), as ld names them */
	const char *first_type, *second_type;	/* "TLS", "non-TLS" (static) */
	const char *first_what, *second_what;	/* "definition", "reference" (static) */
	char *first_section;	/* the TLS side's section when it is a definition (".tdata"), or NULL */
};

const char *lk_diag_kind_name(enum lk_diag_kind kind);

/* Indexes of rinputs. */
struct lk_input_list {
	long *items;
	size_t nr, alloc;
};

struct lk_diag {
	enum lk_diag_kind kind;
	char *symbol;
	char *version;		/* of the definition, or NULL */
	long ref_input;		/* the first regular input that references it */
	struct { long *items; size_t nr, alloc; } refs;	/* every regular input referencing it */
	long def_input;		/* dso-missing: the DSO that defines it; multiple-definition: the first definer */
	struct lk_strvec via;	/* dso-missing: DSOs whose DT_NEEDED chain reaches it, outermost first */
	char *defined_path;	/* ordering: the archive on the line that defines it (def_input is -1) */
	struct lk_diag_reloc *reloc;	/* relocation-not-allowed, relocation-overflow, tls-mismatch, relocation-unsupported; else NULL */
	long item;		/* input-not-found and the unusable kinds: the line item ld stops at, else -1 */
	char *member;		/* ... the archive member it stops at, or NULL */
	char *problem;		/* the unusable kinds: what is wrong, one line naming the file */
	/*
	 * The rest is the explain stage's (explain.h): empty after the
	 * replay, filled by the explanations and causes, and released by
	 * lk_explain_release(), not by lk_diag_release(). The fixes are the
	 * fix stage's own result (analyzer/fix/fix.h), not the replay's.
	 */
	struct lk_strvec explanation;	/* the timeline, one sentence each */
	/* undefined-symbol diagnostics are grouped by cause (cause.c) */
	struct lk_strvec symbols;	/* every symbol of the group, `symbol` first */
	char *provider;		/* a library not on the line that defines them all, or NULL */
	char *provider_package;	/* the Debian package that ships it, or NULL */
	struct lk_strvec alternatives;	/* other libraries that define them all, best first */
	struct lk_strvec looked_in;	/* no provider found: the dirs searched */
	/* input-not-found, incompatible-skipped (notfound.c): why, a static string, or NULL; the file it names */
	const char *not_found_cause;	/* "near-name", "runtime-only", "static-only-shared", "incompatible-skipped", "missing-dir" */
	char *not_found_file;
	/* explain.h's struct lk_finding: names that nearly match (nearmiss.c), the cause of a multiple definition (multidef.c) */
	struct { struct lk_finding *items; size_t nr, alloc; } near_misses;
	struct lk_finding *cause;	/* multiple-definition: why the two definitions, or NULL */
	struct lk_srcrefs *ref_lines;	/* undefined-symbol: each reference's file and line (srcline.h), or NULL */
};

/* The linkers modelled (lk_replay.linkers), in the order a report lists them by default. */
enum lk_linker { LK_LINKER_BFD, LK_LINKER_LLD, LK_LINKER_MOLD, LK_LINKER_COUNT };

/* "bfd", "lld", "mold": the name a report and `check --linkers` use. */
const char *lk_linker_name(enum lk_linker l);
/* The linker of a line's flavor ("lld", "mold"; anything else runs GNU ld's rules). */
enum lk_linker lk_linker_of_flavor(const char *flavor);
/* The linker `name` names ("bfd", "gnu-ld", "ld", "lld", "rust-lld", "mold"), or -1. */
int lk_linker_by_name(const char *name);

/* One linker's verdict on the line (analyzer/replay/lld.c, mold.c; GNU ld's is the replay itself). */
/* The edit a linker's fix makes, tried on that linker's model: */
struct lk_linker_edit {
	char *append;			/* a word appended to the line, as the linker reads it (the fix's text says it as -Wl,), or NULL */
	long skip_position;		/* a driver position left out, or -1 */
	int verified;			/* 1: the linker's replay of the edited line links; 0: it still fails; -1: not tried (no edit) */
};

struct lk_linker_verdict {
	int success;
	char *version;			/* the version modelled: "14", "rust-lld (LLVM 22)", "LLVM 18", "1.10"; NULL for GNU ld */
	struct lk_strvec why;		/* lld, mold: why it fails, one sentence each ("lld fails: ...") */
	struct lk_strvec fixes;		/* lld, mold: what would make it link, in the user's terms */
	char *unknown;			/* lld, mold: why its verdict is no prediction (its outcome "unknown"), or NULL */
	struct lk_strvec hazards;	/* mold: what its exit status does not show (a branch written out of reach) */
	/* fixes[i]'s edit and what that linker's model of the edited line says (linker_fixes.c) */
	struct { struct lk_linker_edit *items; size_t nr, alloc; } edits;
};

/*
 * What the replay met that a linker warns about, or that an option turns
 * into an error (decide.c judges them per linker): each the first input
 * it was met in ("main.o", "libx.a(y.o)"), or NULL.
 */
struct lk_replay_warned {
	char *no_stack_note;	/* a regular input without .note.GNU-stack: x86 GNU ld's "implies executable stack" */
	char *gnu_warning;	/* "SYM in 'input'": a .gnu.warning.SYM section whose SYM a regular input references */
	char *cet_missing;	/* a regular input without both IBT and SHSTK (-z cet-report) */
	char *multiple_common;	/* a symbol two inputs define as commons (--warn-common) */
	char *common_overridden;	/* a common and a regular definition of one symbol (GNU ld's --warn-common) */
	char *copy_protected;	/* "SYM in 'input'": an executable's copy relocation against a shared object's protected data */
	char *copy_forbidden;	/* ... one that -z nocopyreloc forbids */
	char *copy_unknown;	/* a reference that may need one, from an input not read again (an archive member) */
	char *copy_input;	/* the input of copy_protected's or copy_forbidden's reference (its path) */
	char *vs_refused[3];	/* by linker (enum lk_linker): why it refuses a version script of the line */
	char *vnode_missing;	/* -shared: "sym@@VER in 'input'", a versioned definition no script's node defines */
	char *undefined_version;	/* "'VER' to symbol 'sym'": a global pattern no regular input defines (lld's check) */
	char *undefined_cxx;	/* an extern "C++" global pattern without wildcards: the replay demangles no name to check it */
	char *memory_overflow;	/* a -T script's MEMORY region the input sections alone overflow (memory.c) */
	char *memory_unknown;	/* ... or why whether one overflows is not known */
	int copy_in_pie;	/* the copy_* above are a PIE's: the line's e_machine (-1: not known), else 0 (copyreloc.c) */
	int textrel;		/* a text relocation (GNU ld warns "creating DT_TEXTREL" unless -z notext was said) */
};

struct lk_replay {
	int success;			/* under GNU ld's (bfd) rules */
	int lld_success;		/* under lld's rules (= linkers[LK_LINKER_LLD].success) */
	struct lk_linker_verdict linkers[LK_LINKER_COUNT];	/* one verdict per linker; [BFD].success = success */
	struct { struct lk_rinput *items; size_t nr, alloc; } inputs;
	struct { struct lk_diag *items; size_t nr, alloc; } diags;
	struct lk_strvec notes;		/* what the replay could not read or does not model */
	char *unknown;			/* why a failure is no prediction (analyzer/replay/certainty.c), or NULL */
	char *unmodelled;		/* what the replay met and does not model (a relocation type), or NULL: a success is then unknown */
	struct lk_replay_warned warned;	/* what a linker warns about (decide.c) */
	struct lk_strvec untold;	/* inputs the replay could not tell (a thin archive's member gone or changed) */
	struct lk_strvec mold_hazards;	/* lld's or mold's rules: what mold 1.10 gets wrong without failing (stubs.c) */
	struct lk_strvec untold_plugin;	/* inputs only GCC's LTO plugin reads (GNU ld's and mold's): their verdicts are unknown, not lld's */
	struct lk_symtab *symtab;	/* the final symbol table (symtab.h), for the explanations and `why` */
	struct lk_trial_server *trials;	/* the fix-trial snapshot server (trial.h), or NULL */
};

/*
 * The replay stage: `line` (of `rec`, resolved) replayed as GNU ld would,
 * and once more under lld's order-insensitive rules for the cross-linker
 * verdict. Fills `out` with the inputs read, the diagnostics and the final
 * symbol table; returns 0, or -1 with `err` for a broken invariant only:
 * unreadable inputs are notes. The line is read, never changed. The
 * commands' next stages take `out`: the explanations (explain.h), then
 * the fixes (analyzer/fix/), whose trials run from the snapshot that
 * LK_REPLAY_SNAPSHOT keeps after the user's last input (trial.h), unless
 * the record says the link succeeded (a trial then replays the whole line).
 */
enum lk_replay_flags {
	LK_REPLAY_SNAPSHOT = 1 << 0,
	/*
	 * Every input is read in this process (a read set is being taken of
	 * it, analyzer/failcache.c): no verdict is made beside (beside.c).
	 */
	LK_REPLAY_ONE_PROCESS = 1 << 1,
};
int lk_replay_run(const struct lk_record *rec, const struct lk_line *line, unsigned flags,
		  struct lk_replay *out, struct lk_err *err);
/* Free what the replay made; what the explain stage added is freed first, by lk_explain_release(). */
void lk_replay_release(struct lk_replay *r);

/*
 * --gc-sections' notes: how many sections the collection takes (always in
 * the JSON report), and, when it changes the outcome, which undefined
 * symbols it leaves referenced only from sections that go.
 */
#define LK_GC_COUNT_NOTE "--gc-sections: "
#define LK_GC_CHANGES_NOTE "--gc-sections changes the outcome: "
/*
 * Is notes->items[i] the count of a collection that changes nothing (no
 * note says it does)? The text and Markdown reports and the summary leave
 * it out: on every Rust line, it would tell nothing (issue #32, point 9).
 */
int lk_replay_gc_noise(const struct lk_strvec *notes, size_t i);

/* Free what the replay made of a diagnostic (after lk_explain_diag_release() when it was explained). */
void lk_diag_release(struct lk_diag *d);

/* "kind symbol" of each diagnostic of `r`, appended to `out`: what a fix trial leaves failing. */
void lk_replay_remaining(const struct lk_replay *r, struct lk_strvec *out);

/*
 * A counterfactual: the line replayed (GNU ld's rules) with one thing
 * changed. The line itself stays as it is: appended words are resolved in
 * an overlay of the line (overlay.h) that lives as long as the replay
 * runs, so the inputs of `out` they brought name items that are gone
 * after the call. Fields at 0 / NULL / -1 change nothing.
 */
enum lk_edit_flags {
	LK_EDIT_NO_GROUPS = 1 << 0,		/* --start-group/--end-group of the line read as nothing */
	LK_EDIT_NO_COPY_DT_NEEDED = 1 << 1,	/* --copy-dt-needed-entries read as nothing */
	/* The appended words replace skip_position's items: read there, with the state in force there. */
	LK_EDIT_IN_PLACE = 1 << 2,
	/* The top-level items of driver positions group_from .. group_to read as one group (a group edit). */
	LK_EDIT_GROUP_RANGE = 1 << 3,
};
struct lk_replay_edit {
	long skip_position;		/* top-level items from this driver position are not read, or -1 */
	unsigned flags;			/* enum lk_edit_flags */
	const struct lk_strvec *unref;	/* references to these symbols ... */
	long unref_until_item;		/* ... from inputs read before this line item are left out */
	const struct lk_strvec *append;	/* words appended to the driver's argv, in order, or NULL */
	long group_from, group_to;	/* LK_EDIT_GROUP_RANGE: the driver positions grouped */
	/*
	 * A -Wl,--no-whole-archive inserted after the top-level item of this
	 * driver position (0: none; argv[0] is never an input): the items read
	 * after it are not whole until the line turns --whole-archive on again.
	 */
	long close_whole_after;
};
void lk_replay_edited(const struct lk_record *rec, const struct lk_line *line,
		      const struct lk_replay_edit *edit, struct lk_replay *out);

/*
 * The outcome (1 links, 0 fails, GNU ld's rules) of `line` edited: with
 * `append` (an argument, or NULL) added at the end of the driver's argv,
 * and without the items of driver position `skip_position` (-1: none).
 */
int lk_replay_outcome(const struct lk_record *rec, const struct lk_line *line,
		      const char *append, long skip_position);

/* One symbol of the replay's final table. */
struct lk_symbol_view {
	const char *name;	/* borrowed from the replay */
	int defined, dynamic;
	long def_input;		/* rinput, or -1 */
	long first_ref;		/* first regular input with a strong reference, or -1 */
};

/* Call `fn` for every symbol of `r`'s table (in no particular order). */
void lk_replay_each_symbol(const struct lk_replay *r,
			   void (*fn)(void *ctx, const struct lk_symbol_view *s), void *ctx);
/* The regular inputs referencing `name`, in reading order, into `out` (appended). */
void lk_replay_refs(const struct lk_replay *r, const char *name,
		    struct lk_input_list *out);

#endif
