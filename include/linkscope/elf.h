/*
 * Input identification: what a file on a link line is, read the way the
 * linker would see it. This module is the only user of libelf.
 */
#ifndef LINKSCOPE_ELF_H
#define LINKSCOPE_ELF_H


#include <stddef.h>

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
	size_t members;		/* archives: member count */
	char *problem;		/* why MISSING/UNREADABLE/CORRUPT, one line */
};

/*
 * Identify `path`. Never fails: what cannot be read is reported in
 * info->kind and info->problem. Release with lk_elf_info_release().
 */
void lk_elf_identify(const char *path, struct lk_elf_info *info);
void lk_elf_info_release(struct lk_elf_info *info);

/* "x86-64", "AArch64", ... for e_machine. */
const char *lk_elf_machine_name(int machine);



/* ---- symbols, for the replay ---- */

/* One global or weak symbol of an object, archive member or shared object. */
struct lk_elf_sym {
	char *name;		/* owned */
	char *version;		/* shared objects: the version name, or NULL */
	unsigned defined : 1;	/* defined here (not SHN_UNDEF) */
	unsigned weak : 1;	/* STB_WEAK */
	unsigned common : 1;	/* SHN_COMMON */
	unsigned tls : 1;	/* STT_TLS */
	unsigned hidden_version : 1;	/* "sym@VER": not the default, binds only explicit references */
	unsigned mergeable : 1;	/* STB_GNU_UNIQUE or in a COMDAT group: copies in many objects are fine */
};

struct lk_elf_syms {
	struct lk_elf_sym *items;
	size_t nr, alloc;
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
	const char *name;	/* borrowed from libelf: valid until lk_elf_archive_close() */
	size_t offset;		/* of the member's header */
};

struct lk_elf_archive {
	int fd;
	void *elf;		/* Elf *, opaque outside elf.c */
	char *path;
	int has_index;		/* a symbol index exists, even an empty one */
	struct { struct lk_elf_armap_entry *items; size_t nr, alloc; } armap;
	struct { size_t *items; size_t nr, alloc; } members;	/* every member's offset, in order */
};

int lk_elf_archive_open(const char *path, struct lk_elf_archive *ar, struct lk_err *err);
/* The symbols of the member at `offset`, and its name (malloc'd). */
int lk_elf_archive_member(struct lk_elf_archive *ar, size_t offset, char **name,
			  struct lk_elf_syms *out, struct lk_err *err);
void lk_elf_archive_close(struct lk_elf_archive *ar);
#endif
