/*
 * The line model: what the linker reads, in order, with the state in force
 * at each point and where each item came from.
 */
#ifndef LINKSCOPE_LINE_H
#define LINKSCOPE_LINE_H

#include <stddef.h>

#include "elf.h"
#include "sandbox.h"
#include "linkscope/err.h"
#include "linkscope/record.h"
#include "linkscope/rustc.h"
#include "linkscope/strvec.h"

enum lk_item_kind {
	LK_ITEM_FILE,		/* an input named by path */
	LK_ITEM_LIB,		/* -lNAME or -l:FILE */
	LK_ITEM_OPTION,		/* any other linker option, kept as is */
	LK_ITEM_GROUP_START,
	LK_ITEM_GROUP_END,
};

/* The input-loading state of GNU ld, as --push-state saves it. */
enum lk_state_flags {
	LK_ST_WHOLE_ARCHIVE = 1 << 0,	/* --whole-archive */
	LK_ST_STATIC = 1 << 1,		/* -Bstatic (-static, -dn, -non_shared) */
	LK_ST_AS_NEEDED = 1 << 2,	/* --as-needed */
	LK_ST_COPY_DT_NEEDED = 1 << 3,	/* --copy-dt-needed-entries */
};
#define LK_ST_COUNT 4

/*
 * What an option item means, for the stages after the line model: ld's
 * options are parsed once, here, in all of ld's spellings (a long option
 * with one dash or two, "NAME=V", "NAME V", "-zKEYWORD"), and read by
 * their meaning afterwards. Those marked V have a value (ld_value).
 */
enum lk_ld_option {
	LK_LD_OTHER,		/* any option no later stage asks about */
	LK_LD_SHARED,		/* -shared, -Bshareable */
	LK_LD_PIE,		/* -pie, --pic-executable */
	LK_LD_NOSTDLIB,		/* -nostdlib */
	LK_LD_STATIC,		/* -static (also a state option: LK_ST_STATIC) */
	LK_LD_NO_UNDEFINED,	/* --no-undefined, -z defs */
	LK_LD_UNDEFS,		/* -z undefs */
	LK_LD_ALLOW_SHLIB_UNDEFINED,	/* --allow-shlib-undefined */
	LK_LD_NO_ALLOW_SHLIB_UNDEFINED,	/* --no-allow-shlib-undefined */
	LK_LD_UNRESOLVED_SYMBOLS,	/* --unresolved-symbols=V */
	LK_LD_WARN_UNRESOLVED,	/* --warn-unresolved-symbols */
	LK_LD_ERROR_UNRESOLVED,	/* --error-unresolved-symbols */
	LK_LD_GC_SECTIONS,	/* --gc-sections */
	LK_LD_NO_GC_SECTIONS,	/* --no-gc-sections */
	LK_LD_EXPORT_DYNAMIC,	/* -E, --export-dynamic */
	LK_LD_NO_EXPORT_DYNAMIC,	/* --no-export-dynamic */
	LK_LD_ENTRY,		/* -e V, --entry=V */
	LK_LD_REQUIRE_DEFINED,	/* --require-defined=V */
	LK_LD_UNDEFINED,	/* -u V, --undefined=V */
	LK_LD_EXPORT_DYNAMIC_SYMBOL,	/* --export-dynamic-symbol=V */
	LK_LD_COPY_DT_NEEDED,	/* --copy-dt-needed-entries, --add-needed */
	LK_LD_MULDEFS,		/* --allow-multiple-definition, -z muldefs */
	LK_LD_VERSION_SCRIPT,	/* --version-script=V */
	/* The options that decide a link beyond its symbols (replay/decide.c). */
	LK_LD_NOINHIBIT_EXEC,	/* --noinhibit-exec */
	LK_LD_FATAL_WARNINGS,	/* --fatal-warnings */
	LK_LD_NO_FATAL_WARNINGS,	/* --no-fatal-warnings */
	LK_LD_WARN_COMMON,	/* --warn-common */
	LK_LD_OMAGIC,		/* -N, --omagic (also a state option: LK_ST_STATIC) */
	LK_LD_NMAGIC,		/* -n, --nmagic (likewise) */
	LK_LD_NO_WARN_EXECSTACK,	/* --no-warn-execstack */
	LK_LD_NO_WARN_RWX,	/* --no-warn-rwx-segments */
	LK_LD_Z_EXECSTACK,	/* -z execstack, -z noexecstack (V: the keyword) */
	LK_LD_Z_TEXT,		/* -z text, -z notext, -z textoff (V: the keyword) */
	LK_LD_NOCOPYRELOC,	/* -z nocopyreloc */
	LK_LD_CET_REPORT,	/* -z cet-report=V (V: the whole keyword) */
};

/* Why ld stops at an input it found (usable.c). */
enum lk_unusable {
	LK_USABLE = 0,
	LK_UNUSABLE_WRONG_MACHINE,	/* an object or shared object of another machine, given by path */
	LK_UNUSABLE_BITCODE,		/* LLVM bitcode and no LLVM plugin */
	LK_UNUSABLE_SCRIPT,		/* text ld reads as a linker script, with a syntax error */
	LK_UNUSABLE_TRUNCATED,		/* an ELF file cut short */
	LK_UNUSABLE_UNRECOGNIZED,	/* not empty, and neither ELF, an archive, bitcode nor text */
	LK_UNUSABLE_NO_INDEX,		/* an archive of members and no symbol index: GNU ld refuses it, lld and mold read it */
};

struct lk_line_item {
	enum lk_item_kind kind;
	enum lk_ld_option ld_option;	/* for LK_ITEM_OPTION */
	const char *ld_value;	/* its value, borrowed from word or value; NULL if none */
	char *word;		/* the linker-level text: "-lc", "/x/a.o", "--as-needed" */
	char *value;		/* an option's separate value (-T x, -rpath x), or NULL */
	long position;		/* index in the driver's argv_expanded; -1: added by the driver */
	enum lk_prov prov;	/* for driver positions */
	unsigned state;		/* lk_state_flags in force when the item is read */
	long since[LK_ST_COUNT];	/* item index that last changed each flag, -1: default */
	int group;		/* group number, -1 outside any */
	long parent;		/* the linker script item it came from, -1 if none */
	int as_needed_script;	/* inside a script's AS_NEEDED ( ... ) */
	int script_group;	/* inside a script's GROUP ( ... ) */
	int t_script;		/* named by -T: a script ld parses as it is, not an input it tries as one */
	/* Resolution (files, libraries, script entries). */
	char *path;		/* the file the linker opens */
	struct lk_strvec tried;	/* for a library: every file tried, in order */
	struct lk_elf_info info;
	char *note;		/* one line: why unresolved, or what is special */
	struct lk_strvec skipped;	/* a library: the incompatible files ld skipped, in order (libsearch.c) */
	/*
	 * A library found as a linker script whose OUTPUT_FORMAT names another
	 * target, which the line's own linker reads all the same (lld): that
	 * target's name; GNU ld and mold would skip it (libsearch.c).
	 */
	char *foreign_format;
	struct lk_strvec script_commands;	/* a linker script: its top-level commands (lk_script.commands) */
	/* Found, but ld cannot use it (usable.c): the class, and one line naming the file and the cause. */
	enum lk_unusable unusable;
	char *unusable_why;
};

/*
 * The line model's limits, in one place: how deep the model follows what
 * nests (each bounds untrusted input) and how far its matching looks.
 */
#define LK_LINE_SCRIPT_MAX_DEPTH 8	/* linker scripts naming scripts, as ld allows them (resolve.c) */
#define LK_LINE_SCRIPT_MAX_ITEMS (1 << 20)	/* the inputs a line's linker scripts add in all (resolve.c) */
#define LK_LINE_SCRIPT_MAX_READS 4096	/* the linker scripts a line reads in all, each time one is named (resolve.c) */
#define LK_LINE_LD_SO_CONF_MAX_DEPTH 4	/* ld.so.conf "include" nesting (resolve.c) */
#define LK_LINE_NEEDED_MAX_DEPTH 16	/* DT_NEEDED chains (resolve.c) */
#define LK_LINE_PUSH_STATE_MAX 32	/* --push-state saved states; deeper pushes are counted, not saved (line.c) */
#define LK_LINE_MATCH_MAX_SKIP 4	/* expected words a match may pass over to find a linker word (line.c) */

/* The link-wide facts of a line (lk_line.facts), from its ld options. */
enum lk_line_facts {
	LK_LINE_SHARED = 1 << 0,		/* -shared, -Bshareable */
	LK_LINE_PIE = 1 << 1,			/* -pie, --pic-executable */
	LK_LINE_NO_UNDEFINED = 1 << 2,		/* --no-undefined, -z defs */
	LK_LINE_ALLOW_SHLIB_UNDEFINED = 1 << 3,	/* --allow-shlib-undefined */
	LK_LINE_NOSTDLIB = 1 << 4,		/* -nostdlib: the driver adds no input */
};

/* A DT_NEEDED entry of a shared object on the line, found as ld finds it. */
struct lk_needed {
	char *name;		/* as DT_NEEDED says */
	long needed_by;		/* item index of the shared object that needs it, or -1 */
	long parent;		/* the lk_needed it hangs under, or -1 */
	char *path;		/* where ld finds it, NULL if not found */
	char *found_via;	/* "-rpath-link", "DT_RUNPATH", "default dir", ... */
	char *on_line_as;	/* non-NULL when the line itself loads this SONAME */
	int depth;
};

enum lk_driver_part {
	LK_DRIVER_FROM_RECORD,		/* the record's -### expansion */
	LK_DRIVER_FROM_ANALYSIS,	/* -### run now, same driver */
	LK_DRIVER_UNKNOWN,		/* neither: crt files and default libs are missing */
};

struct lk_line {
	struct { struct lk_line_item *items; size_t nr, alloc; } items;
	enum lk_driver_part driver_part;
	char *linker;			/* the linker program this line runs */
	const char *flavor;		/* "bfd", "lld", ... */
	char *emulation;		/* -m value */
	char *sysroot;			/* --sysroot=, or GNU ld's configured one (resolve.c), or NULL */
	int sysroot_said;		/* sysroot is the line's own --sysroot= */
	int native;			/* the linker's target is this host */
	int machine;			/* the link's e_machine (from -m), 0 if unknown */
	struct lk_strvec libdirs;	/* -L, in order: all apply to every -l */
	struct lk_strvec default_dirs;	/* the linker's SEARCH_DIRs (sysroot applied) */
	struct lk_strvec rpath, rpath_link;
	unsigned facts;			/* enum lk_line_facts */
	struct { struct lk_needed *items; size_t nr, alloc; } needed;
	struct lk_strvec warnings;	/* line-level, no symbol tables needed */
	struct lk_strvec notes;		/* what could not be known, and why */
	struct lk_strvec unknown;	/* what the model lacks because it was not run: the outcome is then unknown */
	/*
	 * By linker (GNU ld, lld, mold: replay.h's enum lk_linker order): why
	 * that linker reads a sysroot prefix of the line ("=", "$SYSROOT" in
	 * -L or a script's file names) otherwise than the line's own linker,
	 * whose reading the model follows (its verdict is then unknown), or NULL.
	 */
	char *read_otherwise[3];
	/* ... or why that linker certainly fails where it reads a prefix otherwise (a dir or file that does not exist) */
	char *fails_otherwise[3];
	/* resolve.c's working list: the -L dirs another linker reads otherwise, pairs ("own", "theirs"), made absolute */
	struct lk_strvec libdir_otherwise[3];
	char *run_driver;		/* --run-driver: this machine's driver allowed to run (trust.c), or NULL */
	char *no_driver_why;		/* --run-driver refused: why, or NULL */
	char *scratch;			/* the driver's runs' directory, the model's (lk_line_scratch), or NULL */
	struct lk_walls *walls;		/* where those runs' walls are told (lk_line_options'), or NULL */
	const struct lk_record *rec;	/* borrowed: the record it was built from (its kept copies stand in for files -l finds missing), which outlives the line; or NULL */
};

struct lk_line_options {
	int run_driver;		/* --run-driver: may run this machine's driver of the record's name (docs/security.md) */
	struct lk_walls *walls;	/* the walls the driver's runs went without are added here (sandbox.h); may be NULL */
};

/*
 * Build the line model of `rec`: the linker's argv (from the record's -###
 * expansion, or the driver run now, or the driver argv alone), each word
 * mapped back to its driver position, the state in force. The commands
 * then call the next stages in turn: resolution (resolve.h: search,
 * identification, scripts, DT_NEEDED) and the line-level warnings
 * (warn.h). Returns 0; problems with single inputs are in the items, not
 * errors. Release with lk_line_release().
 */
int lk_line_build(const struct lk_record *rec, const struct lk_line_options *opt,
		  struct lk_line *line, struct lk_err *err);
void lk_line_release(struct lk_line *line);

/*
 * The one directory the driver's runs for this line may write (sandbox.h),
 * made on first use and removed with the line: the objects of recompiled
 * sources go there. NULL when it cannot be made.
 */
const char *lk_line_scratch(struct lk_line *line);
/* Drop the items from index `nr` on (those an overlay appended to its view of a line). */
void lk_line_truncate(struct lk_line *line, size_t nr);
/* An option item's meaning and value, parsed once from its word (and value): it->ld_option, it->ld_value. */
void lk_line_parse_option(struct lk_line_item *it);

/* The input state (lk_state_flags) in force where an argument appended to the driver argv is read. */
unsigned lk_line_state_at_end(const struct lk_line *line);

/*
 * Map the linker argv back onto the driver argv: pos[i] is the driver
 * position of linker word i, or -1 when the driver added it. Exposed for
 * tests.
 */
void lk_line_match(const struct lk_args *driver, const struct lk_strvec *linker,
		   long *pos);


const char *lk_state_name(unsigned flag);

/* Is `it` a -l of the C library (lk_argv_is_libc()'s rule: -lc, -l:libc.so*, -l:libc.a)? */
int lk_line_item_is_libc(const struct lk_line_item *it);

#endif
