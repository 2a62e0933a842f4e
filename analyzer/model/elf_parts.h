/*
 * What the parts of the ELF reader (elf.c, elf_archive.c, elf_syms.c,
 * elf_gc.c) share; no other file includes it. The reader's interface is
 * elf.h.
 */
#ifndef ANALYZER_ELF_PARTS_H
#define ANALYZER_ELF_PARTS_H

#include <stdint.h>
#include <sys/types.h>
#include <libelf.h>

#include "elf.h"
#include "linkscope/err.h"

/* elf.c: `info` is of `kind` for the reason `what`; why an ELF file is cut short of `size`, or NULL. */
void elfr_set_problem(struct lk_elf_info *info, enum lk_file_kind kind,
		      const char *what);
const char *elfr_truncated(Elf *e, uint64_t size);

/* elf_archive.c: the archive `ar` (open on `fd`, `size` bytes) identified into `info`, its index read. */
void elfr_read_archive(int fd, Elf *ar, off_t size, struct lk_elf_info *info);

/*
 * elf_archive.c: an archive member's header (ar's 60 bytes) at `off`,
 * its name with the padding cut ("/123" for a long one) and its size;
 * -1 when it cannot be read or is no header. elfr_ar_special: the name
 * of the symbol index or long-name table, no member.
 */
#define ELFR_AR_HDR 60
struct elfr_ar_hdr {
	char name[17];
	size_t size;
};
int elfr_ar_hdr_read(int fd, size_t off, struct elfr_ar_hdr *h);
int elfr_ar_special(const char *name);

/* elf_archive.c: the symbol index of the archive open on `fd` (into `ar` when given); 1 if it has one. */
int elfr_read_index(int fd, struct lk_elf_archive *ar);

/*
 * elf_thin.c: a thin archive identified into `info` (its first member's
 * machine); `ar` (fd set) read as an archive, the caller closing it when
 * this fails; a member's symbols, read from its file.
 */
void elfr_read_thin(int fd, const char *path, struct lk_elf_info *info);
int elfr_thin_open(const char *path, struct lk_elf_archive *ar, struct lk_err *err);
int elfr_thin_member(struct lk_elf_archive *ar, size_t offset, char **name, struct lk_elf_syms *out,
		     struct lk_elf_gc *gc, struct lk_err *err);

/* elf_syms.c: the symbols of `e` into `out` and, when `gc` is not NULL, its sections (from `fd`). */
int elfr_read_syms_and_gc(Elf *e, int fd, const char *path, struct lk_elf_syms *out,
			  struct lk_elf_gc *gc, struct lk_err *err);

/* elf_gc.c: the sections, relocations, groups and .eh_frame of `e`, for --gc-sections. */
int elfr_read_gc(Elf *e, const char *path, struct lk_elf_gc *gc, struct lk_err *err);
/* elf_gc.c: `gc` emptied for a read, what the caller asked for kept (fd -1). */
void elfr_gc_reset(struct lk_elf_gc *gc);

#endif
