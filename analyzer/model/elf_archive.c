/*
 * Archives (see elf.c): the symbol index ("/" or "/SYM64/") read as
 * bfd/archive.c's do_slurp_coff_armap (and archive64.c's
 * _bfd_archive_64_bit_slurp_armap) read it, a member opened at an
 * offset the index gives, with its symbols and, for --gc-sections, its
 * sections (elf_syms.c, elf_gc.c).
 */
#include <fcntl.h>
#include <stdint.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/file.h"
#include "elf.h"
#include "elf_parts.h"
#include "linkscope/vec.h"

static uint64_t index_word(const unsigned char *p, size_t w)
{
	uint64_t v = 0;

	for (size_t i = 0; i < w; i++)
		v = v << 8 | p[i];
	return v;
}

/*
 * The archive's symbol index, read with bounds: the "/" member (32-bit
 * offsets) or "/SYM64/" (64-bit), first in the archive as GNU ar writes it.
 * libelf's elf_getarsym trusts the names' NULs: a crafted index whose last
 * names lack one made the replay read past the buffer. Here the count, the
 * offsets and every name are checked against the member's size; a name
 * that runs to the end is cut there, and names missing from the table are
 * dropped. Returns 1 with an index (entries appended when `ar` is given,
 * their count claimed in *claimed when it is not NULL), 0 without one.
 */
int elfr_read_index(int fd, struct lk_elf_archive *ar, size_t *claimed)
{
	unsigned char head[68 + 8];
	char sizetext[11], *end;
	size_t w, size, n, strsize;
	unsigned char *data;
	const char *p, *stop;
	ssize_t got = pread(fd, head, sizeof(head), 0);

	if (got < 68 || (memcmp(head, "!<arch>\n", 8) && memcmp(head, "!<thin>\n", 8)))
		return 0;
	if (!memcmp(head + 8, "/               ", 16))
		w = 4;
	else if (!memcmp(head + 8, "/SYM64/         ", 16))
		w = 8;
	else
		return 0;
	memcpy(sizetext, head + 8 + 48, 10);
	sizetext[10] = '\0';
	size = (size_t)strtoull(sizetext, &end, 10);
	if (end == sizetext || size < w || size > ((size_t)1 << 30))
		return 0;
	if (claimed && got >= (ssize_t)(68 + w)) {
		*claimed = (size_t)index_word(head + 68, w);
		if (*claimed > size / w - 1)
			*claimed = size / w - 1;
	}
	if (!ar)
		return 1;
	data = lk_xmalloc(size + 1);
	if (pread(fd, data, size, 68) != (ssize_t)size) {
		free(data);
		return 0;
	}
	n = (size_t)index_word(data, w);
	if (n > size / w - 1)
		n = size / w - 1;	/* more offsets claimed than the member holds */
	strsize = size - (n + 1) * w;
	ar->armap_names = lk_xmalloc(strsize + 1);
	memcpy(ar->armap_names, data + (n + 1) * w, strsize);
	ar->armap_names[strsize] = '\0';
	p = ar->armap_names;
	stop = ar->armap_names + strsize;
	for (size_t i = 0; i < n && p < stop; i++) {
		LK_GROW(ar->armap.items, ar->armap.nr + 1, ar->armap.alloc);
		ar->armap.items[ar->armap.nr].name = p;
		ar->armap.items[ar->armap.nr].offset = (size_t)index_word(data + (i + 1) * w, w);
		ar->armap.nr++;
		p += strnlen(p, (size_t)(stop - p)) + 1;
	}
	free(data);
	return 1;
}

int elfr_ar_hdr_read(int fd, size_t off, struct elfr_ar_hdr *h)
{
	char raw[ELFR_AR_HDR], sizetext[11], *end;

	if (pread(fd, raw, ELFR_AR_HDR, (off_t)off) != ELFR_AR_HDR || raw[58] != '`' || raw[59] != '\n')
		return -1;
	memcpy(h->name, raw, 16);
	h->name[16] = '\0';
	for (int i = 15; i >= 0 && h->name[i] == ' '; i--)
		h->name[i] = '\0';
	memcpy(sizetext, raw + 48, 10);
	sizetext[10] = '\0';
	h->size = (size_t)strtoull(sizetext, &end, 10);
	return end == sizetext ? -1 : 0;
}

int elfr_ar_special(const char *name)
{
	return !strcmp(name, "/") || !strcmp(name, "/SYM64/") || !strcmp(name, "//");
}

/* The name a member header gives (malloc'd, as ld shows it) and, for "/N:ORIGIN", ORIGIN (else -1). */
char *elfr_member_name(const struct lk_elf_archive *ar, const struct elfr_ar_hdr *h, long *origin)
{
	struct lk_buf b = LK_BUF_INIT;
	const char *name = h->name;
	char *end;

	*origin = -1;
	if (name[0] == '/' && name[1] >= '0' && name[1] <= '9') {
		size_t at = (size_t)strtoull(name + 1, &end, 10);

		if (*end == ':')
			*origin = (long)strtoull(end + 1, NULL, 10);
		if (!ar->long_names || at >= ar->long_names_size)
			return NULL;
		lk_buf_add(&b, ar->long_names + at, strcspn(ar->long_names + at, "\n"));
	} else {
		lk_buf_addstr(&b, name);
	}
	if (b.len && b.buf[b.len - 1] == '/')
		b.buf[--b.len] = '\0';
	if (!b.len) {
		lk_buf_release(&b);
		return NULL;
	}
	return lk_buf_detach(&b);
}

/* The long-name table ("//", its header `h` at `off`) into ar->long_names, NUL-terminated. */
int elfr_read_long_names(int fd, size_t off, const struct elfr_ar_hdr *h, struct lk_elf_archive *ar)
{
	if (ar->long_names)
		return 0;	/* a second table: ld reads the first */
	ar->long_names = lk_xmalloc(h->size + 1);
	if (pread(fd, ar->long_names, h->size, (off_t)(off + ELFR_AR_HDR)) != (ssize_t)h->size)
		return -1;
	ar->long_names[h->size] = '\0';
	ar->long_names_size = h->size;
	return 0;
}

/*
 * Every member's header offset (ar->members), from the headers alone.
 * libelf's walk (elf_begin on each member, then elf_next) parses each
 * member's ELF header and allocates its section table: on the llvm line
 * (2,700 members, thousands of sections each) that was 7% of a replay,
 * paid by each of the three replays, for offsets the headers give. The
 * walk stops where libelf's does: at a header it cannot read, a long name
 * ("/N") past the long-name table or with none, and after a member that
 * runs to the end of the file (libelf cuts its size there). The long-name
 * table is read on the way, for the members' names.
 */
static void member_offsets(int fd, struct lk_elf_archive *ar)
{
	struct elfr_ar_hdr h;
	size_t long_names = 0;

	for (size_t off = 8, end = ar->size; off < end && elfr_ar_hdr_read(fd, off, &h) == 0; ) {
		size_t left = end - off - ELFR_AR_HDR;

		if (!strcmp(h.name, "//")) {
			long_names = h.size;
			if (h.size < left && elfr_read_long_names(fd, off, &h, ar) < 0)
				break;
		}
		if (h.name[0] == '/' && h.name[1] >= '0' && h.name[1] <= '9' &&
		    strtoull(h.name + 1, NULL, 10) >= long_names)
			break;
		if (!elfr_ar_special(h.name)) {
			LK_GROW(ar->members.items, ar->members.nr + 1, ar->members.alloc);
			ar->members.items[ar->members.nr++] = off;
		}
		if (h.size >= left)
			break;
		off += ELFR_AR_HDR + h.size + (h.size & 1);
	}
}

/* Walk the members' headers: count them, spot lib.rmeta, take the first ELF member's class. */
void elfr_read_archive(int fd, Elf *ar, off_t size, struct lk_elf_info *info)
{
	Elf_Cmd cmd = ELF_C_READ_MMAP;
	Elf *m;

	info->kind = LK_FILE_ARCHIVE;
	if (size == 8)
		return;	/* just "!<arch>\n": an empty archive, as glibc's libdl.a */
	/* An index with no symbols is still an index (rlibs of metadata only have one). */
	info->has_armap = elfr_read_index(fd, NULL, &info->armap_entries);
	while ((m = elf_begin(fd, cmd, ar))) {
		Elf_Arhdr *h = elf_getarhdr(m);

		if (h && h->ar_name && h->ar_name[0] != '/') {
			info->members++;
			if (!strcmp(h->ar_name, "lib.rmeta"))
				info->kind = LK_FILE_RLIB;
			if (!info->machine && elf_kind(m) == ELF_K_ELF) {
				GElf_Ehdr ehdr;

				if (gelf_getehdr(m, &ehdr)) {
					info->machine = ehdr.e_machine;
					info->elf_class = ehdr.e_ident[EI_CLASS] == ELFCLASS64 ? 64 : 32;
				}
			}
		}
		cmd = elf_next(m);
		elf_end(m);
	}
	/* elf_next() says ELF_C_NULL after the last member; stopping earlier is a broken member header. */
	if (cmd != ELF_C_NULL)
		elfr_set_problem(info, LK_FILE_CORRUPT, elf_errmsg(elf_errno()));
	(void)elf_errno();
}

int lk_elf_archive_open(const char *path, struct lk_elf_archive *ar, struct lk_err *err)
{
	char magic[8];
	struct stat st;
	Elf *e;

	memset(ar, 0, sizeof(*ar));
	ar->fd = lk_file_open_regular(path, &st);
	if (ar->fd < 0)
		return lk_err_errno(err, "cannot open '%s'", path);
	ar->size = (size_t)st.st_size;
	if (pread(ar->fd, magic, 8, 0) == 8 && !memcmp(magic, "!<thin>\n", 8)) {
		if (elfr_thin_open(path, ar, err) == 0)
			return 0;
		lk_elf_archive_close(ar);
		return -1;
	}
	elf_version(EV_CURRENT);
	/* For the kind, and for a member too large to read whole (open_member). */
	e = elf_begin(ar->fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_AR) {
		if (e)
			elf_end(e);
		close(ar->fd);
		return lk_err_set(err, LK_E_FORMAT, "cannot read '%s': not an archive", path);
	}
	ar->elf = e;
	ar->path = lk_xstrdup(path);
	ar->has_index = elfr_read_index(ar->fd, ar, NULL);
	member_offsets(ar->fd, ar);
	return 0;
}

int lk_elf_archive_member(struct lk_elf_archive *ar, size_t offset, char **name,
			  struct lk_elf_syms *out, struct lk_err *err)
{
	return lk_elf_archive_member_gc(ar, offset, name, out, NULL, err);
}

/*
 * The member whose header `h` is at `offset`, opened: read whole
 * (elf_image.c), or by libelf piece by piece when larger than
 * ELFR_WHOLE_MAX. *size: its bytes, cut where the file ends (as libelf
 * cuts them); *image: what to free after elf_end(), or NULL.
 */
static Elf *open_member(struct lk_elf_archive *ar, size_t offset, const struct elfr_ar_hdr *h,
			char **image, size_t *size)
{
	size_t rest = ar->size - offset - ELFR_AR_HDR;	/* the header was read: it is within */
	Elf *m;

	*size = h->size < rest ? h->size : rest;
	if (*size <= ELFR_WHOLE_MAX)
		return elfr_image_open(ar->fd, offset + ELFR_AR_HDR, *size, image, size);
	*image = NULL;
	if (elf_rand(ar->elf, offset) != offset || !(m = elf_begin(ar->fd, ELF_C_READ, ar->elf)))
		return NULL;
	return m;
}

int lk_elf_archive_member_gc(struct lk_elf_archive *ar, size_t offset, char **name,
			     struct lk_elf_syms *out, struct lk_elf_gc *gc, struct lk_err *err)
{
	struct lk_buf where = LK_BUF_INIT;
	struct elfr_ar_hdr h;
	const char *cut;
	char *image;
	size_t size;
	long origin;
	int rc = 0;
	Elf *m;

	if (ar->thin)
		return elfr_thin_member(ar, offset, name, out, gc, err);
	*name = NULL;
	if (gc)
		elfr_gc_reset(gc);
	if (offset > ar->size || ar->size - offset < ELFR_AR_HDR || elfr_ar_hdr_read(ar->fd, offset, &h) < 0 ||
	    elfr_ar_special(h.name) || !(*name = elfr_member_name(ar, &h, &origin)))
		return lk_err_set(err, LK_E_FORMAT, "cannot read '%s': bad member at offset %zu", ar->path, offset);
	if (!(m = open_member(ar, offset, &h, &image, &size)))
		return lk_err_set(err, LK_E_FORMAT, "cannot read '%s(%s)': %s", ar->path, *name, elf_errmsg(-1));
	if (elf_kind(m) != ELF_K_ELF) {
		elf_end(m);
		free(image);
		return 0;	/* not an object: nothing to read, as ld reads nothing */
	}
	lk_buf_addf(&where, "%s(%s)", ar->path, *name);
	if ((cut = elfr_truncated(m, (uint64_t)size))) {
		rc = lk_err_set(err, LK_E_FORMAT, "cannot read '%s': %s", where.buf, cut);
		elf_end(m);
		free(image);
	} else {
		rc = elfr_read_syms_and_gc(m, image, -1, where.buf, out, gc, err);
	}
	lk_buf_release(&where);
	return rc;
}

void lk_elf_archive_close(struct lk_elf_archive *ar)
{
	free(ar->armap.items);
	free(ar->armap_names);
	free(ar->members.items);
	free(ar->long_names);
	if (ar->elf)
		elf_end(ar->elf);
	if (ar->fd >= 0)
		close(ar->fd);
	free(ar->path);
	memset(ar, 0, sizeof(*ar));
	ar->fd = -1;
}
