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
/* Set up `sections` for reading a regular input: what to read, the filter of relocations. */
void rp_relocs_reader(const struct rp *r, struct lk_elf_gc *sections);
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

/* reloc_layout.c: the inputs' sections, addresses estimated as GNU ld's default script places them. */
struct rr_layout;
struct rr_layout *rr_layout_new(void);
void rr_layout_free(struct rr_layout *l);
/* One alloc section of `input` (index `ndx`), in input order. */
void rr_layout_add(struct rr_layout *l, long input, uint32_t ndx, const char *name, const struct lk_elf_gc_section *sec);
/* Place every section: `base` the first address, `starts` the --section-start NAME=ADDR words. */
void rr_layout_place(struct rr_layout *l, uint64_t base, const struct lk_strvec *starts);
/* The estimated address of section `ndx` of `input`; 0 with *ok 0 when the section is not known. */
uint64_t rr_layout_addr(const struct rr_layout *l, long input, uint32_t ndx, int *ok);
/* The sections of at least `min` bytes whose addresses lie between `lo` and `hi`, into `names` ("in(.bss)", "3.0 GiB") and their inputs. */
void rr_layout_between(const struct rr_layout *l, uint64_t lo, uint64_t hi, uint64_t min,
		       void (*fn)(void *ctx, long input, const char *section, uint64_t size), void *ctx);

#endif
