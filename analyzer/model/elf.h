/*
 * Input identification: what a file on a link line is, read the way the
 * linker would see it. This module is the only user of libelf.
 */
#ifndef LINKSCOPE_ELF_H
#define LINKSCOPE_ELF_H


#include <stddef.h>
#include <stdint.h>

#include "linkscope/arena.h"
#include "linkscope/err.h"
#include "linkscope/strvec.h"

enum lk_file_kind {
	LK_FILE_MISSING,	/* does not exist */
	LK_FILE_UNREADABLE,	/* exists, cannot be read (permissions, a directory, I/O) */
	LK_FILE_OBJECT,		/* ELF relocatable */
	LK_FILE_SHARED,		/* ELF shared object (ET_DYN) */
	LK_FILE_EXECUTABLE,	/* ELF executable: not a link input */
	LK_FILE_ARCHIVE,	/* ar archive */
	LK_FILE_THIN_ARCHIVE,	/* "!<thin>" archive: members are other files */
	LK_FILE_RLIB,		/* ar archive with a lib.rmeta member (a Rust rlib) */
	LK_FILE_BITCODE,	/* LLVM bitcode: needs the LTO plugin */
	LK_FILE_TEXT,		/* text: a linker script if it parses as one */
	LK_FILE_CORRUPT,	/* claims ELF or ar, but is broken */
	LK_FILE_OTHER,		/* none of the above */
};

const char *lk_file_kind_name(enum lk_file_kind kind);

struct lk_elf_info {
	enum lk_file_kind kind;
	int elf_class;		/* 32 or 64, 0 if unknown (archives: of the first ELF member) */
	int machine;		/* e_machine, 0 if unknown */
	char *soname;		/* DT_SONAME of a shared object */
	struct lk_strvec needed;	/* its DT_NEEDED, in order */
	char *runpath;		/* DT_RUNPATH */
	char *rpath;		/* DT_RPATH */
	int has_armap;		/* archives: a symbol index is present */
	size_t armap_entries;	/* ... the entries it claims (sizes the replay's symbol table) */
	size_t members;		/* archives: member count */
	int gcc_lto;		/* an object with .gnu.lto_ sections (gcc -flto): code for gcc's LTO plugin */
	char *problem;		/* why MISSING/UNREADABLE/CORRUPT, one line */
};

/*
 * Identify `path`. Never fails: what cannot be read is reported in
 * info->kind and info->problem. Release with lk_elf_info_release().
 */
void lk_elf_identify(const char *path, struct lk_elf_info *info);
void lk_elf_info_release(struct lk_elf_info *info);

/*
 * The identifications of one pass over a line, by path: a linker script
 * may name one file many times (80,000 in tests/integ/123), and each was an
 * open, a map and an unmap of it, 55 us mostly of the kernel's. Within a
 * pass a path is taken to be the same file throughout. LK_ELF_MEMO_INIT,
 * released with lk_elf_memo_release().
 */
struct lk_elf_memo {
	struct lk_elf_memo_slot *slots;	/* open addressing; alloc a power of two */
	size_t nr, alloc;
};
#define LK_ELF_MEMO_INIT { NULL, 0, 0 }

/* lk_elf_identify(path, info), once per path for all the calls with `memo`. */
void lk_elf_identify_memo(struct lk_elf_memo *memo, const char *path, struct lk_elf_info *info);
void lk_elf_memo_release(struct lk_elf_memo *memo);

/*
 * The symbols a shared object (or object) at `path` names a link-time
 * warning for: its sections ".gnu.warning.SYM" (glibc's gets, ...), SYM
 * appended to `syms`. Returns 0, or -1 when the file is no ELF file that
 * can be read.
 */
int lk_elf_warning_sections(const char *path, struct lk_strvec *syms);

/* "x86-64", "AArch64", ... for e_machine. */
const char *lk_elf_machine_name(int machine);



/* ---- symbols, for the replay ---- */

/* One global or weak symbol of an object, archive member or shared object. */
struct lk_elf_sym {
	char *name;		/* in lk_elf_syms.names */
	uint64_t hash;		/* lk_hash_str(name), taken while the name is at hand (the replay's table probes by it) */
	char *version;		/* shared objects: the version name (in lk_elf_syms.names), or NULL */
	unsigned defined : 1;	/* defined here (not SHN_UNDEF) */
	unsigned weak : 1;	/* STB_WEAK */
	unsigned common : 1;	/* SHN_COMMON */
	unsigned tls : 1;	/* STT_TLS */
	unsigned notype : 1;	/* STT_NOTYPE (what gcc gives an undefined reference) */
	unsigned data_def : 1;	/* STB_GLOBAL, not a function, in a section: pulls a member for a common */
	unsigned local_vis : 1;	/* STV_HIDDEN or STV_INTERNAL: never exported */
	uint32_t index;		/* in the symbol table */
	uint32_t section;	/* a definition's section index, 0 when none (common, absolute) */
	uint64_t value;		/* st_value: a definition's offset in its section (relocation overflow's layout) */
	unsigned hidden_version : 1;	/* "sym@VER": not the default, binds only explicit references */
	unsigned mergeable : 1;	/* STB_GNU_UNIQUE or in a COMDAT group: copies in many objects are fine */
	unsigned versioned_ref : 1;	/* shared objects: an undefined reference with a version (a verneed entry) */
	uint32_t group;		/* a definition in a COMDAT group's section: 1 + its index in lk_elf_syms.groups; 0 none */
	unsigned object : 1;	/* STT_OBJECT: data, which an executable's absolute or PC-relative reference copies */
	unsigned protected_vis : 1;	/* STV_PROTECTED: a shared object's copy cannot be moved (no copy relocation) */
};

struct lk_elf_syms {
	struct lk_elf_sym *items;
	size_t nr, alloc;
	struct lk_arena names;	/* the symbols' names and versions (one allocation per member, not per name) */
	/* An object's sections named like C identifiers: ld defines __start_NAME and __stop_NAME for them. */
	struct lk_strvec start_stop;
	int machine;		/* the file's e_machine */
	/*
	 * A relocatable object's COMDAT groups (SHT_GROUP with GRP_COMDAT), by
	 * signature, in section order: ld keeps the first group of a signature
	 * it loads and discards the later ones with their sections, so that a
	 * symbol defined only there is undefined (bfd's elf_link_add_object_symbols,
	 * lld's ObjFile::initializeSymbols).
	 */
	struct { const char **items; size_t nr, alloc; } groups;	/* the signatures in `names` */
};

void lk_elf_syms_release(struct lk_elf_syms *syms);

/*
 * Read the global and weak symbols of an ELF object (.symtab) or shared
 * object (.dynsym, with GNU symbol versions). Returns 0, or -1 with `err`
 * naming the file and the cause.
 */
int lk_elf_read_syms(const char *path, struct lk_elf_syms *out, struct lk_err *err);

/* An archive opened for the replay: its armap, members read on demand. */
struct lk_elf_armap_entry {
	const char *name;	/* in armap_names: valid until lk_elf_archive_close() */
	size_t offset;		/* of the member's header */
};

struct lk_elf_archive {
	int fd;
	size_t size;		/* the file's, when it was opened */
	void *elf;		/* Elf *, opaque outside the elf*.c files */
	char *path;
	int has_index;		/* a symbol index exists, even an empty one */
	struct { struct lk_elf_armap_entry *items; size_t nr, alloc; } armap;
	char *armap_names;	/* the index's string table, NUL-terminated: armap names point here */
	struct { size_t *items; size_t nr, alloc; } members;	/* every member's offset, in order */
	int thin;		/* a thin archive (elf_thin.c): members are files beside it */
	char *long_names;	/* the "//" table, NUL-terminated, for members' names */
	size_t long_names_size;
};

int lk_elf_archive_open(const char *path, struct lk_elf_archive *ar, struct lk_err *err);
/* The symbols of the member at `offset`, and its name (malloc'd). */
int lk_elf_archive_member(struct lk_elf_archive *ar, size_t offset, char **name,
			  struct lk_elf_syms *out, struct lk_err *err);
void lk_elf_archive_close(struct lk_elf_archive *ar);

/* ---- sections and relocations, for --gc-sections ---- */

/* One section of a relocatable object, as section garbage collection sees it. */
struct lk_elf_gc_section {
	const char *name;	/* borrowed: valid until lk_elf_gc_release() */
	unsigned alloc : 1;	/* SHF_ALLOC */
	unsigned note : 1;	/* SHT_NOTE */
	unsigned retain : 1;	/* SHF_GNU_RETAIN */
	unsigned comdat : 1;	/* an SHT_GROUP section with GRP_COMDAT */
	unsigned counted : 1;	/* a section bfd shows (not a symbol, string or relocation table) */
	unsigned empty : 1;	/* sh_size 0 (--print-gc-sections does not name it) */
	unsigned nobits : 1;	/* SHT_NOBITS (.bss) */
	unsigned exec : 1;	/* SHF_EXECINSTR */
	unsigned write : 1;	/* SHF_WRITE */
	unsigned tls : 1;	/* SHF_TLS */
	unsigned large : 1;	/* SHF_X86_64_LARGE: placed after .bss (-mcmodel=medium's .lbss, .ldata) */
	uint64_t size;		/* sh_size */
	uint64_t align;		/* sh_addralign */
	long group;		/* the SHT_GROUP section it belongs to, or -1 */
	long linked_to;		/* SHF_LINK_ORDER: the section of sh_link, or -1 */
	const char *signature;	/* an SHT_GROUP section: its signature symbol (borrowed) */
	uint32_t signature_index;	/* ... and that symbol's index */
};

/*
 * "Section `from` needs `to` (a section of the same object) or global
 * symbol `symbol` (an index of the symbol table, resolved by the link)": a
 * relocation, or for .eh_frame, an FDE's other relocations (LSDA, the
 * CIE's personality) as needs of the function section the FDE describes,
 * as bfd marks them.
 */
struct lk_elf_gc_edge {
	uint32_t from;
	uint32_t to;		/* when symbol is 0 */
	uint32_t symbol;	/* a global's symbol table index, or 0 */
};

/* One relocation of an SHF_ALLOC section (LK_ELF_GC_RELOCS), for the relocation room of the replay. */
struct lk_elf_reloc {
	uint64_t offset;	/* r_offset, in `section` */
	int64_t addend;		/* r_addend (0 for SHT_REL) */
	uint32_t section;	/* the section it applies to */
	uint32_t type;		/* ELF64_R_TYPE */
	uint32_t symbol;	/* symbol table index, 0 for none */
};

/* One symbol of the table (LK_ELF_GC_RELOCS): what a relocation's target is. */
struct lk_elf_gc_symbol {
	uint64_t value;
	uint32_t shndx;
	uint32_t name;		/* st_name, in the table's string table */
	unsigned char type, bind, vis;	/* STT_, STB_, STV_ */
};

/* What lk_elf_read_syms_gc() and lk_elf_archive_member_gc() read (lk_elf_gc.want, set before the call). */
enum lk_elf_gc_want {
	LK_ELF_GC_EDGES = 1 << 0,	/* the edges of --gc-sections */
	LK_ELF_GC_RELOCS = 1 << 1,	/* every relocation of an SHF_ALLOC section, and the symbols' details */
	LK_ELF_GC_EH_RELOCS = 1 << 2,	/* with RELOCS: .eh_frame's too (their PC-relative fields reach +-2 GiB) */
};

#define LK_ELF_KEEP_IF_GLOBAL 2	/* keep_reloc: only when its symbol is global */

struct lk_elf_gc {
	unsigned want;		/* enum lk_elf_gc_want: the caller's, kept by the readers */
	/*
	 * LK_ELF_GC_RELOCS: which relocations to keep (the caller's, kept by
	 * the readers; NULL keeps all): most are of no interest, and keeping
	 * only those that are keeps the reading cheap.
	 */
	int (*keep_reloc)(const void *ctx, uint32_t type, int writable);	/* 0, 1, LK_ELF_KEEP_IF_GLOBAL; of its arguments alone: the reader keeps its answers */
	const void *keep_ctx;
	int machine;		/* e_machine */
	size_t nsections;
	struct lk_elf_gc_section *sections;	/* by section index */
	struct { struct lk_elf_gc_edge *items; size_t nr, alloc; } edges;
	const char **names;	/* by symbol table index: a global's name (borrowed), else NULL */
	size_t nnames;
	struct { struct lk_elf_reloc *items; size_t nr, alloc; } relocs;	/* LK_ELF_GC_RELOCS */
	struct lk_elf_gc_symbol *symbols;	/* LK_ELF_GC_RELOCS: by symbol table index (nnames of them) */
	size_t strtab;		/* the symbol table's string table section */
	int fd;			/* -1 for an archive member */
	void *elf;		/* Elf *, kept open for the borrowed names */
	char *image;		/* the bytes `elf` reads when read whole (elf_image.c), or NULL */
};

/*
 * lk_elf_read_syms() and lk_elf_archive_member() that, when `gc` is not
 * NULL, also read the sections and relocations (through the same open
 * ELF) for section garbage collection; release `gc` with
 * lk_elf_gc_release() (it is zeroed, so releasing is safe on every path).
 */
int lk_elf_read_syms_gc(const char *path, struct lk_elf_syms *out, struct lk_elf_gc *gc,
			struct lk_err *err);
int lk_elf_archive_member_gc(struct lk_elf_archive *ar, size_t offset, char **name,
			     struct lk_elf_syms *out, struct lk_elf_gc *gc, struct lk_err *err);
void lk_elf_gc_release(struct lk_elf_gc *gc);
/*
 * How the object of `gc` (still open) says it was compiled: the
 * DW_AT_producer string of its .debug_str ("GNU C17 12.2.0 -mtune=generic
 * -fno-pic ...", with -g; the options only with -grecord-gcc-switches),
 * else its .comment ("GCC: (Debian 12.2.0-14) 12.2.0"); malloc'd, or NULL.
 */
char *lk_elf_gc_producer(const struct lk_elf_gc *gc);
/*
 * The x86 feature bits the object of `gc` (still open) says it has: its
 * .note.gnu.property's GNU_PROPERTY_X86_FEATURE_1_AND (bit 0 IBT, bit 1
 * SHSTK), what -z cet-report judges; 0 when it has no such note.
 */
unsigned lk_elf_gc_x86_feature_1(const struct lk_elf_gc *gc);
/* The name of the symbol `index` of `gc` (a local's too, a section symbol's section), borrowed, or NULL. */
const char *lk_elf_gc_symbol_name(const struct lk_elf_gc *gc, uint32_t index);
/*
 * What `path` offers a link that does not have it yet, for the provider
 * search: a shared object's .dynsym definitions that a new unversioned
 * reference binds to (global, weak or unique; default or protected
 * visibility; unversioned or the default version: no hidden "sym@V", no
 * local), or an archive's armap names. info gets the kind (SHARED, ARCHIVE,
 * or OTHER for what is neither), machine and class (an archive's: its first
 * ELF member's). Names are appended to `names`. Returns 0, or -1 with
 * `err` when the file cannot be opened.
 */
int lk_elf_exports(const char *path, struct lk_elf_info *info, struct lk_strvec *names,
		   struct lk_err *err);
/*
 * Is `section` named like a C identifier? ld defines __start_X/__stop_X
 * only for such sections (and --gc-sections keeps them when referenced).
 */
int lk_elf_start_stop_name(const char *section);

/* ---- every symbol, for the explanations (elf_every.c) ---- */

/* One symbol of any binding: local, hidden, a shared object's .symtab and .dynsym alike. */
struct lk_elf_every_sym {
	char *name;		/* owned */
	char *version;		/* .dynsym: the version name (defined or needed), or NULL */
	unsigned defined : 1;	/* not SHN_UNDEF */
	unsigned local : 1;	/* STB_LOCAL: `static` in C */
	unsigned weak : 1;
	unsigned hidden : 1;	/* STV_HIDDEN or STV_INTERNAL */
	unsigned dynamic : 1;	/* from .dynsym (else .symtab) */
	unsigned hidden_version : 1;	/* "sym@VER", not the default */
	unsigned func : 1;	/* STT_FUNC or STT_GNU_IFUNC */
	unsigned common : 1;	/* SHN_COMMON: a tentative definition under -fcommon */
	unsigned bss : 1;	/* defined in a SHT_NOBITS section */
	unsigned comdat : 1;	/* defined in a section of a group */
	unsigned text : 1;	/* defined in a .text* section */
	uint64_t size;
	uint64_t hash;		/* an object's function: a hash of its bytes, 0 when not read */
};

/* An object, an archive member or a shared object. */
struct lk_elf_every_file {
	char *member;		/* archive member name, or NULL */
	char *source;		/* the first STT_FILE symbol ("foo.c"), or NULL */
	char *comment;		/* the first line of .comment ("GCC: (Debian 12.2.0-14) 12.2.0"), or NULL */
	struct { struct lk_elf_every_sym *items; size_t nr, alloc; } syms;
};

struct lk_elf_every {
	struct lk_elf_every_file *items;
	size_t nr, alloc;
};

/*
 * Every symbol of `path`: an ELF file's .symtab and .dynsym, or those of
 * each ELF member of an archive (bounded). Returns 0, or -1 with `err` for
 * a file that cannot be read as a whole; release with lk_elf_every_release().
 */
int lk_elf_read_every(const char *path, struct lk_elf_every *out, struct lk_err *err);
void lk_elf_every_release(struct lk_elf_every *ev);

#endif
