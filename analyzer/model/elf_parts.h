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
/*
 * elf_archive.c: the name a member header gives (malloc'd, as ld shows
 * it; NULL for a long name the table does not have) and, for a thin
 * archive's "/N:ORIGIN", ORIGIN (else -1); the long-name table of `h` at
 * `off` read into `ar` (0, or -1 when the file is shorter).
 */
char *elfr_member_name(const struct lk_elf_archive *ar, const struct elfr_ar_hdr *h, long *origin);
int elfr_read_long_names(int fd, size_t off, const struct elfr_ar_hdr *h, struct lk_elf_archive *ar);

/* elf_archive.c: the symbol index of the archive open on `fd` (into `ar` when given); 1 if it has one. */
int elfr_read_index(int fd, struct lk_elf_archive *ar, size_t *claimed);

/*
 * elf_thin.c: a thin archive identified into `info` (its first member's
 * machine); `ar` (fd set) read as an archive, the caller closing it when
 * this fails; a member's symbols, read from its file.
 */
void elfr_read_thin(int fd, const char *path, struct lk_elf_info *info);
int elfr_thin_open(const char *path, struct lk_elf_archive *ar, struct lk_err *err);
int elfr_thin_member(struct lk_elf_archive *ar, size_t offset, char **name, struct lk_elf_syms *out,
		     struct lk_elf_gc *gc, struct lk_err *err);

/*
 * elf_image.c: the `size` bytes at `off` of `fd` read into memory (one
 * pread) and opened with elf_memory(). *bytes (malloc'd, the caller frees
 * it after elf_end()) holds *got bytes: fewer than `size` when the file
 * ends sooner, which the caller judges as a cut input. NULL (and nothing
 * to free) when libelf cannot open memory. Inputs larger than
 * ELFR_WHOLE_MAX are read by libelf piece by piece instead (ELF_C_READ):
 * a huge shared object's symbols are a small part of it, and whole it
 * would cost its size in memory.
 */
#define ELFR_WHOLE_MAX ((size_t)32 << 20)
Elf *elfr_image_open(int fd, uint64_t off, size_t size, char **bytes, size_t *got);

/*
 * elf_syms.c: the symbols of `e` into `out` and, when `gc` is not NULL,
 * its sections (from `fd`). Takes `e` and `image` (the bytes `e` reads,
 * or NULL): ended and freed here, or kept in `gc` until
 * lk_elf_gc_release().
 */
int elfr_read_syms_and_gc(Elf *e, char *image, int fd, const char *path, struct lk_elf_syms *out,
			  struct lk_elf_gc *gc, struct lk_err *err);

/* elf_gc.c: the sections, relocations, groups and .eh_frame of `e`, for --gc-sections. */
int elfr_read_gc(Elf *e, const char *path, struct lk_elf_gc *gc, struct lk_err *err);
/* elf_gc.c: `gc` emptied for a read, what the caller asked for kept (fd -1). */
void elfr_gc_reset(struct lk_elf_gc *gc);

#endif
