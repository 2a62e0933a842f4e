/*
 * The relocation room of the replay (reloc.c, reloc_layout.c): the
 * relocations of every regular input that joins the link, judged against
 * the output kind (arch/judge.c) and, when the image is large enough for
 * it, against an estimate of the layout; and the TLS check of symbol
 * types. Part of one replay: rp.h's working state; no other stage
 * includes it.
 */
#ifndef ANALYZER_RELOC_H
#define ANALYZER_RELOC_H

#include <stdint.h>

#include "elf.h"

struct rp;
struct lk_sym;
struct rp_relocs;

/* What the replay reads of each regular input for the room (enum lk_elf_gc_want); sets up r->relocs. */
unsigned rp_relocs_start(struct rp *r, int full_layout);
/*
 * What the reader's filter of relocations reads of the replay, taken when
 * the reader is set up: a member read ahead (ahead.c) is read with the
 * filter of the moment it was asked for, and taken only while the replay's
 * is the same (memcmp: filled whole, padding too).
 */
struct lk_reloc_arch;
struct rp_reloc_filter {
	const struct lk_reloc_arch *arch;
	unsigned want;		/* the sections read (enum lk_elf_gc_want) */
	unsigned char full, pic_line, shared, lld_pie, gnu_pie_no_copy;
};
/* Set up `sections` for reading a regular input: what to read, the filter of relocations (`filter`, which must outlive the read). */
void rp_relocs_reader(const struct rp *r, struct lk_elf_gc *sections, struct rp_reloc_filter *filter);
/* A regular input joins: its symbols (seen[i]: the table entry of syms->items[i]) and its sections. */
void rp_relocs_add(struct rp *r, long input, const struct lk_elf_syms *syms, struct lk_sym **seen,
		   const struct lk_elf_gc *sections);
/* A shared object's definition `y` meets its entry `s`: the TLS check. */
void rp_tls_meet_shared(struct rp *r, struct lk_sym *s, const struct lk_elf_sym *y, long input);
/* After the line: the judgements, as diagnostics; the layout estimated when it may matter. */
void rp_relocs_finish(struct rp *r);
/* mold's replay forked off the lld-rules one: what lld alone keeps goes (mold_part.c). */
void rp_relocs_part_for_mold(struct rp *r);
void rp_relocs_free(struct rp *r);
/* Does the line place sections itself (--section-start, -Ttext..., a -T script)? Each linker's layout is then its own. */
struct lk_line;
int rp_line_places_sections(const struct lk_line *line);

/*
 * reloc_layout.c: the line's --section-start=NAME=ADDR, -Ttext=ADDR and
 * the like into `starts` ("NAME=ADDR", "=ADDR" for -Ttext-segment);
 * returns 1 when the line places sections (those, or a -T script).
 */
int rr_read_starts(const struct lk_line *line, struct lk_strvec *starts);
/* reloc_layout.c: the inputs' sections, addresses estimated as GNU ld's default script places them. */
struct rr_layout;
struct rr_layout *rr_layout_new(void);
void rr_layout_free(struct rr_layout *l);
/* One alloc section of `input` (index `ndx`), in input order. */
void rr_layout_add(struct rr_layout *l, long input, uint32_t ndx, const char *name, const struct lk_elf_gc_section *sec);
/* Take out the sections `kept` says do not stay (--gc-sections), before placing. */
void rr_layout_drop(struct rr_layout *l, int (*kept)(void *ctx, long input, uint32_t ndx), void *ctx);
/*
 * Place every section as `kind`'s linker does: `base` the first address,
 * `starts` the --section-start NAME=ADDR words. GNU ld: code, read-only
 * data, data, .bss, .text's input sections in its default script's order,
 * a --section-start section at its address and nothing else moved; lld:
 * read-only data before code, and the --section-start sections first, the
 * others after them (getSectionRank); mold: read-only data, code, data,
 * each class's output sections by name, a --section-start one at its
 * address and the ones after it after it.
 */
enum rr_layout_kind { RR_LAYOUT_GNU, RR_LAYOUT_LLD, RR_LAYOUT_MOLD };
void rr_layout_place(struct rr_layout *l, uint64_t base, const struct lk_strvec *starts, enum rr_layout_kind kind);
/* A section of the code class, as placed. */
struct rr_code {
	uint64_t addr, size, align;
	uint64_t pad;		/* the alignment padding up to its end could differ by at most this, from the first code section */
	long input;
	uint32_t ndx;
	const char *name;	/* the input section's (the layout's) */
	const char *output;	/* the output section it joins: ".text" for .text.*, else its own name */
};
/* Does a --section-start section overlap another output section's estimated place? Their names then. */
int rr_layout_overlap(const struct rr_layout *l, const char **fixed, const char **other);
/* The code sections in address order (valid until the layout is freed); their number. */
size_t rr_layout_code(const struct rr_layout *l, const struct rr_code **code);
/* The index there of section `ndx` of `input`, or -1 when it is not code or not placed. */
long rr_layout_code_of(const struct rr_layout *l, long input, uint32_t ndx);
/* "130.0 MiB", "3.0 GiB" */
struct lk_buf;
void rr_human_size(struct lk_buf *b, uint64_t n);
/* How far the estimated distance between code sections `a` and `b` can be off (alignment, what lies between). */
uint64_t rr_layout_code_slack(const struct rr_layout *l, long a, long b);
/* The estimated address of section `ndx` of `input`; 0 with *ok 0 when the section is not known. */
uint64_t rr_layout_addr(const struct rr_layout *l, long input, uint32_t ndx, int *ok);
/* The sections of at least `min` bytes whose addresses lie between `lo` and `hi`, into `names` ("in(.bss)", "3.0 GiB") and their inputs. */
void rr_layout_between(const struct rr_layout *l, uint64_t lo, uint64_t hi, uint64_t min,
		       void (*fn)(void *ctx, long input, const char *section, uint64_t size), void *ctx);

/* stubs.c: where each linker puts the long-branch stub of a far AArch64 call, and whether the call reaches it. */
enum rr_stub_linker { RR_STUBS_GNU, RR_STUBS_LLD, RR_STUBS_MOLD };
enum rr_stub_answer { RR_STUB_REACHES, RR_STUB_OUT, RR_STUB_CLOSE };
struct rr_stub {
	enum rr_stub_answer answer;	/* at the estimate's worst case both ways; else close */
	long section;		/* GNU ld: the code section its stubs follow; lld, mold: the call's own */
	int before;		/* lld: the thunk goes right before that section (else after it) */
	int broken;		/* mold: it links, but the branch to the thunk after the section cannot reach */
	int64_t distance;	/* from the call to the stub, by the estimate */
};
struct rr_stubs;
/* GNU ld's stub groups over the layout's code (`group_size`: --stub-group-size, 0 for the default). */
struct rr_stubs *rr_stubs_new(const struct rr_layout *l, int64_t group_size);
void rr_stubs_free(struct rr_stubs *s);
/* The stub of a far call at `offset` in code section `at` (rr_layout_code_of). */
void rr_stub_judge(const struct rr_stubs *s, enum rr_stub_linker linker, long at, uint64_t offset, struct rr_stub *out);
/* Where it is, in words ("GNU ld puts the long-branch veneer of this call after .text of 'INPUT' (130.0 MiB), ..."). */
char *rr_stub_words(const struct rr_layout *l, enum rr_stub_linker linker, const struct rr_stub *st, const char *input);

#endif
