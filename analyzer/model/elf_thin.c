/*
 * Thin archives (see elf.c): "!<thin>\n" archives, as `ar rcT`, meson's
 * static_library and LLVM's build make them, read as bfd/archive.c reads
 * them (_bfd_get_elt_at_filepos for a thin archive): the symbol index and
 * the long-name table are in the archive, a member is only a header whose
 * name is a file, relative to the archive's directory unless absolute.
 * A name "/N:ORIGIN" is a member of another archive named by the long
 * name N (the archive a thin archive was made of), at header offset
 * ORIGIN there. libelf does not read thin archives, so this file does.
 *
 * What the record needs: nothing more than it has. The archive's own
 * fingerprint covers its index and member list; its members are read as
 * they are now, each header's size (the member's when ar wrote the
 * archive) checked against the file: a member that is gone or whose size
 * differs is an input that cannot be told, and the replay says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/file.h"
#include "linkscope/vec.h"
#include "elf.h"
#include "elf_parts.h"

/* A thin archive naming a member of an archive naming ...: deeper than ar makes. */
#define THIN_MAX_NESTING 4

/* The long-name table ("//") into ar->long_names, and every member's header offset. */
static int walk(int fd, size_t fsize, struct lk_elf_archive *ar)
{
	struct elfr_ar_hdr h;

	for (size_t off = 8; off < fsize; ) {
		if (elfr_ar_hdr_read(fd, off, &h) < 0)
			return -1;
		if (!elfr_ar_special(h.name)) {
			LK_GROW(ar->members.items, ar->members.nr + 1, ar->members.alloc);
			ar->members.items[ar->members.nr++] = off;
			off += ELFR_AR_HDR;	/* a thin member's data is its file */
			continue;
		}
		if (h.size > fsize - off - ELFR_AR_HDR)
			return -1;
		if (!strcmp(h.name, "//") && elfr_read_long_names(fd, off, &h, ar) < 0)
			return -1;
		off += ELFR_AR_HDR + h.size + (h.size & 1);
	}
	return 0;
}

/* The file of member `name`: relative to the archive's directory unless absolute. */
static char *member_file(const struct lk_elf_archive *ar, const char *name)
{
	const char *slash = strrchr(ar->path, '/');
	struct lk_buf p = LK_BUF_INIT;

	if (name[0] == '/' || !slash)
		return lk_xstrdup(name);
	lk_buf_addf(&p, "%.*s/%s", (int)(slash - ar->path), ar->path, name);
	return lk_buf_detach(&p);
}

/* The thin archive open on ar->fd read into `ar`; on failure the caller closes it. */
int elfr_thin_open(const char *path, struct lk_elf_archive *ar, struct lk_err *err)
{
	struct stat st;

	ar->thin = 1;
	ar->path = lk_xstrdup(path);
	ar->has_index = elfr_read_index(ar->fd, ar, NULL);
	if (fstat(ar->fd, &st) < 0 || walk(ar->fd, (size_t)st.st_size, ar) < 0)
		return lk_err_set(err, LK_E_FORMAT, "cannot read '%s': a broken thin archive member header", path);
	return 0;
}

static int thin_member(struct lk_elf_archive *ar, size_t offset, char **name, struct lk_elf_syms *out,
		       struct lk_elf_gc *gc, int depth, struct lk_err *err);

/* ORIGIN's member of the archive `file` (a thin archive's "/N:ORIGIN"). */
static int nested_member(const char *file, long origin, char **name, struct lk_elf_syms *out,
			 struct lk_elf_gc *gc, int depth, struct lk_err *err)
{
	struct lk_elf_archive inner;
	int rc;

	if (depth >= THIN_MAX_NESTING)
		return lk_err_set(err, LK_E_FORMAT, "cannot read '%s': archives nested deeper than %d",
				  file, THIN_MAX_NESTING);
	if (lk_elf_archive_open(file, &inner, err) < 0)
		return -1;
	rc = inner.thin ? thin_member(&inner, (size_t)origin, name, out, gc, depth + 1, err) :
			  lk_elf_archive_member_gc(&inner, (size_t)origin, name, out, gc, err);
	lk_elf_archive_close(&inner);
	return rc;
}

static int thin_member(struct lk_elf_archive *ar, size_t offset, char **name, struct lk_elf_syms *out,
		       struct lk_elf_gc *gc, int depth, struct lk_err *err)
{
	struct elfr_ar_hdr h;
	struct stat st;
	long origin;
	char *file;
	int rc;

	*name = NULL;
	/* What the caller wants read (relocations, edges) stays: a member of a thin archive is read as a regular one's. */
	if (gc)
		elfr_gc_reset(gc);
	if (elfr_ar_hdr_read(ar->fd, offset, &h) < 0 || !(*name = elfr_member_name(ar, &h, &origin)))
		return lk_err_set(err, LK_E_FORMAT, "cannot read '%s': bad member at offset %zu", ar->path, offset);
	file = member_file(ar, *name);
	if (origin >= 0) {
		free(*name);
		rc = nested_member(file, origin, name, out, gc, depth, err);
	} else if (stat(file, &st) == 0 && (size_t)st.st_size != h.size) {
		rc = lk_err_set(err, LK_E_FORMAT, "cannot tell '%s(%s)': the file is %lld bytes now, %zu when the archive was made",
				ar->path, *name, (long long)st.st_size, h.size);
	} else {
		rc = lk_elf_read_syms_gc(file, out, gc, err);
	}
	free(file);
	return rc;
}

int elfr_thin_member(struct lk_elf_archive *ar, size_t offset, char **name, struct lk_elf_syms *out,
		     struct lk_elf_gc *gc, struct lk_err *err)
{
	return thin_member(ar, offset, name, out, gc, 0, err);
}

void elfr_read_thin(int fd, const char *path, struct lk_elf_info *info)
{
	struct lk_elf_archive ar;
	struct lk_err err = LK_ERR_INIT;

	info->kind = LK_FILE_THIN_ARCHIVE;
	memset(&ar, 0, sizeof(ar));
	ar.fd = dup(fd);
	if (ar.fd < 0 || elfr_thin_open(path, &ar, &err) < 0) {
		elfr_set_problem(info, LK_FILE_CORRUPT, err.msg[0] ? err.msg : "cannot read the thin archive");
		lk_elf_archive_close(&ar);
		return;
	}
	info->has_armap = ar.has_index;
	info->members = ar.members.nr;
	/* The machine and class of its first member file, as an archive's are its first ELF member's. */
	for (size_t m = 0; m < ar.members.nr && !info->machine; m++) {
		struct elfr_ar_hdr h;
		struct lk_elf_info member;
		long origin;
		char *name, *file;

		if (elfr_ar_hdr_read(ar.fd, ar.members.items[m], &h) < 0 || !(name = elfr_member_name(&ar, &h, &origin)))
			continue;
		file = member_file(&ar, name);
		lk_elf_identify(file, &member);
		info->machine = member.machine;
		info->elf_class = member.elf_class;
		lk_elf_info_release(&member);
		free(file);
		free(name);
	}
	lk_elf_archive_close(&ar);
}
