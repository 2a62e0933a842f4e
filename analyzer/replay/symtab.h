/*
 * The replay's symbol table: one entry per global name, what GNU ld
 * knows of it at each point of the line (defined or not, where, by what
 * kind of input, who references it), and the one function that ranks a
 * regular object's symbol against the entry (bfd's
 * _bfd_generic_link_add_one_symbol and elf_link_add_object_symbols, for
 * the cases the replay models).
 *
 * The table itself is opaque: an open-addressing hash of names whose
 * entries, names and reference lists live in its own arena and are freed
 * together by lk_symtab_free().
 */
#ifndef ANALYZER_SYMTAB_H
#define ANALYZER_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

#include "elf.h"

/* A regular input that references a symbol (a list in the table's arena). */
struct lk_symref {
	long input;
	struct lk_symref *next;
};

/*
 * One entry per name; the LLVM line's table holds 150,000 of them, so the
 * fields are packed: pointers, then 32-bit input indices (a line has far
 * fewer than 2^31 inputs; -1: none), then the flags. 112 bytes in the
 * arena, where longs made 160 (the replay's peak memory, docs/bench.md).
 */
struct lk_sym {
	const char *name;	/* in the table's arena */
	const char *discarded_group;	/* a COMDAT group's signature (discarded_def), in the table's arena */
	const char *typed_section;	/* the section of the input that typed it, when that was a TLS definition */
	const char *version;	/* of a shared definition, in the table's arena, or NULL */
	struct lk_symref *refs, **refs_tail;	/* regular inputs referencing it, in order */
	uint64_t def_value;	/* a regular definition's offset in its section (st_value), for relocation overflow's layout */
	int32_t discarded_input;	/* the first input that defines it only in a discarded COMDAT group (discarded_def) */
	int32_t discarded_kept;	/* ... the input whose group of that signature ld kept */
	int32_t typed_input;	/* the first input that gave it a symbol type */
	int32_t def_input;
	int32_t first_ref;	/* first regular input with a strong reference */
	int32_t first_dyn_ref;	/* first shared object with a strong reference */
	int32_t armap_item;	/* the first archive item whose armap names it, or -1 */
	int32_t armap_k;	/* ... its index in that armap (archive.c reads the member ahead), or -1 */
	uint32_t def_section;	/* a regular definition's section index in def_input, 0 if none */
	uint32_t nrefs;
	unsigned defined : 1, weak_def : 1, dynamic : 1, needed_only : 1, mergeable : 1;
	unsigned ref_regular_strong : 1, ref_dynamic_strong : 1;
	unsigned diagnosed : 1;	/* a diagnostic names it already: ld reports each symbol once */
	unsigned common : 1;	/* the definition is a common symbol (SHN_COMMON) */
	unsigned ref_dynamic : 1;	/* a shared object in the link references it (weakly or not) */
	unsigned gc_live : 1;	/* --gc-sections: a section that stays references it */
	unsigned dropped_def : 1;	/* a shared object dropped by --as-needed defines it */
	unsigned unref : 1;	/* a counterfactual leaves out its early references (lk_replay_edit) */
	unsigned def_hidden : 1;	/* a regular definition with hidden or internal visibility */
	unsigned def_typed : 1;	/* a regular definition typed STT_OBJECT or STT_FUNC (not NOTYPE, not TLS) */
	unsigned discarded_def : 1;	/* a regular input defines it only in a COMDAT group ld discarded (read.c) */
	unsigned dyn_object : 1, dyn_protected : 1;	/* a shared object's definition: STT_OBJECT, STV_PROTECTED */
	unsigned typed : 1, tls : 1;	/* an input gave it a symbol type, TLS or not (the TLS mismatch check) */
	/* GNU ld's replay carrying lld's types (lld_part.c): typed by STT_NOTYPE only; lld's type from a later input */
	unsigned lld_untyped : 1, lld_retyped : 1;
};

struct lk_symtab;

struct lk_symtab *lk_symtab_new(void);
/* The table, its entries, names and reference lists. NULL is fine. */
void lk_symtab_free(struct lk_symtab *t);

/* Room for `n` more entries without growing (a hint: the table grows past it as needed). */
void lk_symtab_reserve(struct lk_symtab *t, size_t n);
/* The entry of `name`, or NULL. */
struct lk_sym *lk_symtab_lookup(const struct lk_symtab *t, const char *name);
/* The entry of `name`, made (undefined, unreferenced) when there is none. */
struct lk_sym *lk_symtab_intern(struct lk_symtab *t, const char *name);
/*
 * The entries of names[0..n) into out[0..n), made where missing: as many
 * lk_symtab_intern() calls, with the table's memory asked for ahead.
 * `hashes`: the names' lk_hash_str(), or NULL to take them here. With
 * `borrow`, a new entry keeps the name's pointer instead of a copy: the
 * caller gives the names' buffer to lk_symtab_adopt(), or keeps it longer.
 */
void lk_symtab_intern_all(struct lk_symtab *t, const char *const *names, const uint64_t *hashes, size_t n,
			  struct lk_sym **out, int borrow);
/* `buffer` (malloc'd) freed with the table: names borrowed from it live as long. */
void lk_symtab_adopt(struct lk_symtab *t, char *buffer);
/* A copy of `s` that lives as long as the table. */
const char *lk_symtab_strdup(struct lk_symtab *t, const char *s);
/* Walk the entries in the order they were made (never the hash's): start with *cursor 0; NULL at the end. */
struct lk_sym *lk_symtab_next(const struct lk_symtab *t, size_t *cursor);

/* What a regular object's symbol did to its entry (lk_symtab_add_regular). */
enum lk_sym_event {
	LK_SYM_REFERENCED,	/* an undefined reference, recorded */
	LK_SYM_UNREF_SKIPPED,	/* an undefined reference a counterfactual leaves out */
	LK_SYM_DEFINED,		/* its definition now wins */
	LK_SYM_KEPT,		/* a definition that loses to the one there (weak, common, shared) */
	LK_SYM_MULTIPLE,	/* a second strong regular definition: ld's "multiple definition" */
};

/* How lk_symtab_add_regular ranks. */
enum lk_symtab_rules {
	LK_RULE_ALLOW_MULTIPLE = 1 << 0,	/* --allow-multiple-definition, -z muldefs */
	LK_RULE_UNREF = 1 << 1,			/* references to entries marked `unref` are left out */
};

/*
 * Symbol `y` of the regular input `input` (an object or archive member)
 * meets its entry `s`, under `rules` (enum lk_symtab_rules). A regular
 * definition overrides a shared or a weak one; two strong regular ones
 * (neither common nor mergeable) are a multiple definition, and the first
 * stays. A reference is appended to `s`'s list.
 */
enum lk_sym_event lk_symtab_add_regular(struct lk_symtab *t, struct lk_sym *s,
					const struct lk_elf_sym *y, long input, unsigned rules);

#endif
