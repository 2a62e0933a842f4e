/*
 * Inputs -> identified inputs (libelf).
 *
 * Takes a path from the line model; gives struct lk_elf_info: the kind of
 * file (object, shared object, archive with or without a symbol index, thin
 * archive, rlib, LLVM bitcode, text for the script parser, or something
 * else), its ELF class and machine, and a shared object's SONAME,
 * DT_NEEDED, DT_RUNPATH and DT_RPATH. Models what GNU ld's bfd does when it
 * opens an input: it accepts ELF of the link's machine, archives (and, with
 * the plugin, bitcode), and otherwise tries to parse a linker script.
 * Every offset comes from libelf, which checks it against the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/file.h"
#include "elf.h"
#include "linkscope/vec.h"

const char *lk_file_kind_name(enum lk_file_kind kind)
{
	switch (kind) {
	case LK_FILE_MISSING: return "missing";
	case LK_FILE_UNREADABLE: return "unreadable";
	case LK_FILE_OBJECT: return "object";
	case LK_FILE_SHARED: return "shared object";
	case LK_FILE_EXECUTABLE: return "executable";
	case LK_FILE_ARCHIVE: return "archive";
	case LK_FILE_THIN_ARCHIVE: return "thin archive";
	case LK_FILE_RLIB: return "rlib";
	case LK_FILE_BITCODE: return "LLVM bitcode";
	case LK_FILE_TEXT: return "text";
	case LK_FILE_CORRUPT: return "corrupt";
	case LK_FILE_OTHER: return "unknown format";
	}
	LK_BUG("unknown file kind");
}

const char *lk_elf_machine_name(int machine)
{
	switch (machine) {
	case EM_X86_64: return "x86-64";
	case EM_386: return "i386";
	case EM_AARCH64: return "AArch64";
	case EM_ARM: return "ARM";
	case EM_RISCV: return "RISC-V";
	case EM_PPC64: return "PowerPC64";
	case EM_S390: return "s390";
	case 0: return "none";
	}
	return "other";
}

static void set_problem(struct lk_elf_info *info, enum lk_file_kind kind,
			const char *what)
{
	info->kind = kind;
	free(info->problem);
	info->problem = lk_xstrdup(what);
}

static void read_dynamic(Elf *e, struct lk_elf_info *info)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(e, scn))) {
		Elf_Data *data;
		GElf_Dyn dyn;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_DYNAMIC)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !shdr.sh_entsize)
			continue;
		for (size_t i = 0; i < shdr.sh_size / shdr.sh_entsize; i++) {
			const char *s;

			if (!gelf_getdyn(data, (int)i, &dyn) || dyn.d_tag == DT_NULL)
				break;
			if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_SONAME &&
			    dyn.d_tag != DT_RUNPATH && dyn.d_tag != DT_RPATH)
				continue;
			s = elf_strptr(e, shdr.sh_link, dyn.d_un.d_val);
			if (!s)
				continue;
			if (dyn.d_tag == DT_NEEDED)
				lk_strvec_push(&info->needed, s);
			else if (dyn.d_tag == DT_SONAME && !info->soname)
				info->soname = lk_xstrdup(s);
			else if (dyn.d_tag == DT_RUNPATH && !info->runpath)
				info->runpath = lk_xstrdup(s);
			else if (dyn.d_tag == DT_RPATH && !info->rpath)
				info->rpath = lk_xstrdup(s);
		}
	}
}

/*
 * Why an ELF image of `size` bytes does not hold its section headers or a
 * section's contents, or NULL when it does. libelf shows a file cut after
 * its ELF header as one with no sections, which the replay would take for
 * an input that defines nothing; ld says "file format not recognized".
 */
static const char *truncated(Elf *e, uint64_t size)
{
	GElf_Ehdr ehdr;
	GElf_Shdr shdr;
	Elf_Scn *scn = NULL;

	if (!gelf_getehdr(e, &ehdr))
		return NULL;	/* no header at all: the callers say so */
	if (ehdr.e_shoff && (ehdr.e_shoff > size ||
			     (uint64_t)ehdr.e_shnum * ehdr.e_shentsize > size - ehdr.e_shoff))
		return "truncated: the section headers end past the end of the file";
	while ((scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, &shdr) && shdr.sh_type != SHT_NOBITS &&
		    (shdr.sh_offset > size || shdr.sh_size > size - shdr.sh_offset))
			return "truncated: a section ends past the end of the file";
	return NULL;
}

static void read_elf(Elf *e, off_t size, struct lk_elf_info *info)
{
	GElf_Ehdr ehdr;
	const char *cut;

	if (!gelf_getehdr(e, &ehdr)) {
		set_problem(info, LK_FILE_CORRUPT, elf_errmsg(-1));
		return;
	}
	if ((cut = truncated(e, (uint64_t)size))) {
		set_problem(info, LK_FILE_CORRUPT, cut);
		return;
	}
	info->elf_class = ehdr.e_ident[EI_CLASS] == ELFCLASS64 ? 64 :
			  ehdr.e_ident[EI_CLASS] == ELFCLASS32 ? 32 : 0;
	info->machine = ehdr.e_machine;
	switch (ehdr.e_type) {
	case ET_REL:
		info->kind = LK_FILE_OBJECT;
		break;
	case ET_DYN:
		info->kind = LK_FILE_SHARED;
		read_dynamic(e, info);
		break;
	case ET_EXEC:
		info->kind = LK_FILE_EXECUTABLE;
		break;
	default:
		set_problem(info, LK_FILE_OTHER, "an ELF file that is not an object, shared object or executable");
	}
}

/* A big-endian word of the symbol index. */
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
 * dropped. Returns 1 with an index (entries appended when `ar` is given),
 * 0 without one.
 */
static int read_index(int fd, struct lk_elf_archive *ar)
{
	unsigned char head[68];
	char sizetext[11], *end;
	size_t w, size, n, strsize;
	unsigned char *data;
	const char *p, *stop;

	if (pread(fd, head, sizeof(head), 0) != (ssize_t)sizeof(head) ||
	    (memcmp(head, "!<arch>\n", 8) && memcmp(head, "!<thin>\n", 8)))
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
	if (!ar)
		return 1;
	data = lk_xmalloc(size + 1);
	if (pread(fd, data, size, sizeof(head)) != (ssize_t)size) {
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

/* Walk the members' headers: count them, spot lib.rmeta, take the first ELF member's class. */
static void read_archive(int fd, Elf *ar, off_t size, struct lk_elf_info *info)
{
	Elf_Cmd cmd = ELF_C_READ_MMAP;
	Elf *m;

	info->kind = LK_FILE_ARCHIVE;
	if (size == 8)
		return;	/* just "!<arch>\n": an empty archive, as glibc's libdl.a */
	/* An index with no symbols is still an index (rlibs of metadata only have one). */
	info->has_armap = read_index(fd, NULL);
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
		set_problem(info, LK_FILE_CORRUPT, elf_errmsg(elf_errno()));
	(void)elf_errno();
}

static int is_text(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] < 0x09 || (p[i] > 0x0d && p[i] < 0x20 && p[i] != 0x1b) || p[i] == 0x7f)
			return 0;
	return 1;
}

void lk_elf_identify(const char *path, struct lk_elf_info *info)
{
	unsigned char magic[512];
	struct stat st;
	ssize_t n;
	Elf *e;
	int fd;

	memset(info, 0, sizeof(*info));
	fd = lk_file_open_regular(path, &st);
	if (fd < 0) {
		const char *kind = errno == LK_ENOTREG ? lk_file_not_regular(path) : NULL;

		if (kind && !strcmp(kind, "a directory"))
			set_problem(info, LK_FILE_UNREADABLE, "is a directory");
		else if (kind)	/* a FIFO or a device could block us for ever */
			set_problem(info, LK_FILE_UNREADABLE, "not a regular file");
		else
			set_problem(info, errno == ENOENT || errno == ENOTDIR ? LK_FILE_MISSING : LK_FILE_UNREADABLE,
				    lk_file_strerror(errno));
		return;
	}
	n = pread(fd, magic, sizeof(magic), 0);
	if (n < 0) {
		set_problem(info, LK_FILE_UNREADABLE, strerror(errno));
		close(fd);
		return;
	}
	if (n >= 8 && !memcmp(magic, "!<thin>\n", 8)) {
		info->kind = LK_FILE_THIN_ARCHIVE;
	} else if (n >= 4 && (!memcmp(magic, "BC\xc0\xde", 4) || !memcmp(magic, "\xde\xc0\x17\x0b", 4))) {
		info->kind = LK_FILE_BITCODE;
	} else if ((n >= 4 && !memcmp(magic, "\x7f" "ELF", 4)) || (n >= 8 && !memcmp(magic, "!<arch>\n", 8))) {
		elf_version(EV_CURRENT);
		e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		if (!e)
			set_problem(info, LK_FILE_CORRUPT, elf_errmsg(-1));
		else if (elf_kind(e) == ELF_K_AR)
			read_archive(fd, e, st.st_size, info);
		else if (elf_kind(e) == ELF_K_ELF)
			read_elf(e, st.st_size, info);
		else
			set_problem(info, LK_FILE_CORRUPT, "truncated ELF header");
		if (e)
			elf_end(e);
	} else if (n > 0 && is_text(magic, (size_t)n)) {
		info->kind = LK_FILE_TEXT;
	} else {
		set_problem(info, LK_FILE_OTHER, n ? "not ELF, an archive or a linker script" : "empty file");
	}
	close(fd);
}

void lk_elf_info_release(struct lk_elf_info *info)
{
	free(info->soname);
	free(info->runpath);
	free(info->rpath);
	free(info->problem);
	lk_strvec_release(&info->needed);
	memset(info, 0, sizeof(*info));
}

/* ---- symbols ---- */

void lk_elf_syms_release(struct lk_elf_syms *syms)
{
	for (size_t i = 0; i < syms->nr; i++) {
		free(syms->items[i].name);
		free(syms->items[i].version);
	}
	free(syms->items);
	syms->items = NULL;
	syms->nr = syms->alloc = 0;
	lk_strvec_release(&syms->start_stop);
}

/* Version names by index from SHT_GNU_verdef; names[i] borrowed from the string table. */
struct versions {
	const char **names;
	size_t nr, alloc;
};

static void read_verdef(Elf *e, Elf_Scn *scn, const GElf_Shdr *shdr, struct versions *v)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t off = 0;

	if (!data)
		return;
	for (size_t n = 0; n < shdr->sh_info; n++) {
		GElf_Verdef def;
		GElf_Verdaux aux;

		if (!gelf_getverdef(data, (int)off, &def))
			break;
		if (def.vd_cnt && gelf_getverdaux(data, (int)(off + def.vd_aux), &aux) &&
		    def.vd_ndx < 0x8000) {
			if (def.vd_ndx >= v->nr) {
				LK_GROW(v->names, (size_t)def.vd_ndx + 1, v->alloc);
				memset(v->names + v->nr, 0, (def.vd_ndx + 1 - v->nr) * sizeof(*v->names));
				v->nr = def.vd_ndx + 1;
			}
			v->names[def.vd_ndx] = elf_strptr(e, shdr->sh_link, aux.vda_name);
		}
		if (!def.vd_next)
			break;
		off += def.vd_next;
	}
}

int lk_elf_start_stop_name(const char *n)
{
	if (!*n || (*n >= '0' && *n <= '9'))
		return 0;
	for (; *n; n++)
		if (!((*n >= 'a' && *n <= 'z') || (*n >= 'A' && *n <= 'Z') || (*n >= '0' && *n <= '9') || *n == '_'))
			return 0;
	return 1;
}

static void push_sym(struct lk_elf_syms *out, size_t index, const char *name, const GElf_Sym *s,
		     const char *version, int hidden, int in_group)
{
	struct lk_elf_sym *y;

	LK_GROW(out->items, out->nr + 1, out->alloc);
	y = &out->items[out->nr++];
	memset(y, 0, sizeof(*y));
	y->name = lk_xstrdup(name);
	y->version = version ? lk_xstrdup(version) : NULL;
	y->defined = s->st_shndx != SHN_UNDEF;
	y->common = s->st_shndx == SHN_COMMON;
	y->weak = GELF_ST_BIND(s->st_info) == STB_WEAK;
	y->tls = GELF_ST_TYPE(s->st_info) == STT_TLS;
	y->index = (uint32_t)index;
	y->section = s->st_shndx != SHN_UNDEF && s->st_shndx < SHN_LORESERVE ? s->st_shndx : 0;
	y->local_vis = GELF_ST_VISIBILITY(s->st_other) == STV_HIDDEN ||
		       GELF_ST_VISIBILITY(s->st_other) == STV_INTERNAL;
	/* elflink.c is_global_data_symbol_definition: what lets a common pull an archive member. */
	y->data_def = GELF_ST_BIND(s->st_info) == STB_GLOBAL && GELF_ST_TYPE(s->st_info) != STT_FUNC &&
		      s->st_shndx != SHN_UNDEF && s->st_shndx < SHN_LORESERVE;
	y->hidden_version = hidden;
	y->mergeable = in_group || GELF_ST_BIND(s->st_info) == STB_GNU_UNIQUE;
}

/* The globals of an open ELF: .symtab for objects, .dynsym (and versions) for shared ones. */
static int read_elf_syms(Elf *e, const char *path, struct lk_elf_syms *out, struct lk_err *err)
{
	GElf_Ehdr ehdr;
	Elf_Scn *scn = NULL, *symscn = NULL, *versym = NULL;
	GElf_Shdr shdr, symshdr;
	struct versions vers = { NULL, 0, 0 }, *v = &vers;
	struct { char *items; size_t nr, alloc; } grouped = { NULL, 0, 0 };	/* per section: SHF_GROUP */
	Elf_Data *data, *vdata = NULL;
	size_t n, shstrndx = 0;
	int shstrndx_ok;

	if (!gelf_getehdr(e, &ehdr))
		return lk_err_set(err, LK_E_FORMAT, "cannot read '%s': %s", path, elf_errmsg(-1));
	shstrndx_ok = elf_getshdrstrndx(e, &shstrndx) == 0;
	while ((scn = elf_nextscn(e, scn))) {
		size_t ndx = elf_ndxscn(scn);

		if (!gelf_getshdr(scn, &shdr))
			continue;
		LK_GROW(grouped.items, ndx + 1, grouped.alloc);
		while (grouped.nr <= ndx)
			grouped.items[grouped.nr++] = 0;
		grouped.items[ndx] = (shdr.sh_flags & SHF_GROUP) != 0;
		if (ehdr.e_type == ET_REL && shstrndx_ok) {
			const char *name = elf_strptr(e, shstrndx, shdr.sh_name);

			if (name && lk_elf_start_stop_name(name))
				lk_strvec_push(&out->start_stop, name);
		}
		if ((ehdr.e_type == ET_DYN && shdr.sh_type == SHT_DYNSYM) ||
		    (ehdr.e_type != ET_DYN && shdr.sh_type == SHT_SYMTAB)) {
			symscn = scn;
			symshdr = shdr;
		} else if (ehdr.e_type == ET_DYN && shdr.sh_type == SHT_GNU_versym) {
			versym = scn;
		} else if (ehdr.e_type == ET_DYN && shdr.sh_type == SHT_GNU_verdef) {
			read_verdef(e, scn, &shdr, v);
		}
	}
	if (!symscn) {
		free(vers.names);
		free(grouped.items);
		return 0;	/* no symbols: a stripped or empty input */
	}
	data = elf_getdata(symscn, NULL);
	if (versym)
		vdata = elf_getdata(versym, NULL);
	if (!data || !symshdr.sh_entsize) {
		free(vers.names);
		free(grouped.items);
		return lk_err_set(err, LK_E_FORMAT, "cannot read '%s': bad symbol table", path);
	}
	n = symshdr.sh_size / symshdr.sh_entsize;
	for (size_t i = symshdr.sh_info ? symshdr.sh_info : 1; i < n; i++) {
		GElf_Sym s;
		GElf_Versym vs = 0;
		const char *name, *version = NULL;
		int hidden = 0;

		if (!gelf_getsym(data, (int)i, &s))
			break;
		if (GELF_ST_BIND(s.st_info) != STB_GLOBAL && GELF_ST_BIND(s.st_info) != STB_WEAK &&
		    GELF_ST_BIND(s.st_info) != STB_GNU_UNIQUE)
			continue;
		name = elf_strptr(e, symshdr.sh_link, s.st_name);
		if (!name || !*name)
			continue;
		if (vdata && gelf_getversym(vdata, (int)i, &vs) && s.st_shndx != SHN_UNDEF) {
			size_t idx = vs & 0x7fff;

			hidden = (vs & 0x8000) != 0;
			if (idx >= 2 && idx < v->nr)
				version = v->names[idx];	/* NULL when the verdef is missing */
			if (idx == 0)
				continue;	/* local to the DSO */
		}
		push_sym(out, i, name, &s, version, hidden,
			 s.st_shndx < grouped.nr && grouped.items[s.st_shndx]);
	}
	free(vers.names);
	free(grouped.items);
	return 0;
}

int lk_elf_read_syms(const char *path, struct lk_elf_syms *out, struct lk_err *err)
{
	return lk_elf_read_syms_gc(path, out, NULL, err);
}

static int read_gc(Elf *e, const char *path, struct lk_elf_gc *gc, struct lk_err *err);

/* The symbols, and with `gc` the sections and relocations, read through one open ELF. */
static int read_syms_and_gc(Elf *e, int fd, const char *path, struct lk_elf_syms *out,
			    struct lk_elf_gc *gc, struct lk_err *err)
{
	int rc = read_elf_syms(e, path, out, err);

	if (!gc) {
		elf_end(e);
		return rc;
	}
	memset(gc, 0, sizeof(*gc));
	gc->elf = e;	/* open until lk_elf_gc_release(): the names are borrowed */
	gc->fd = fd;
	if (rc == 0 && read_gc(e, path, gc, err) < 0)
		rc = -1;
	if (rc < 0)
		lk_elf_gc_release(gc);
	return rc;
}

int lk_elf_read_syms_gc(const char *path, struct lk_elf_syms *out, struct lk_elf_gc *gc,
			struct lk_err *err)
{
	int fd = lk_file_open_regular(path, NULL), rc;
	const char *cut;
	struct stat st;
	Elf *e;

	if (gc)
		memset(gc, 0, sizeof(*gc)), gc->fd = -1;
	if (fd < 0)
		return lk_err_errno(err, "cannot open '%s'", path);
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		if (e)
			elf_end(e);
		close(fd);
		return lk_err_set(err, LK_E_FORMAT, "cannot read '%s': not an ELF file", path);
	}
	if (fstat(fd, &st) == 0 && (cut = truncated(e, (uint64_t)st.st_size))) {
		elf_end(e);
		close(fd);
		return lk_err_set(err, LK_E_FORMAT, "cannot read '%s': %s", path, cut);
	}
	rc = read_syms_and_gc(e, gc ? fd : -1, path, out, gc, err);
	if (!gc)
		close(fd);
	return rc;
}

int lk_elf_archive_open(const char *path, struct lk_elf_archive *ar, struct lk_err *err)
{
	Elf_Cmd cmd = ELF_C_READ;
	Elf *m, *e;

	memset(ar, 0, sizeof(*ar));
	ar->fd = lk_file_open_regular(path, NULL);
	if (ar->fd < 0)
		return lk_err_errno(err, "cannot open '%s'", path);
	elf_version(EV_CURRENT);
	e = elf_begin(ar->fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_AR) {
		if (e)
			elf_end(e);
		close(ar->fd);
		return lk_err_set(err, LK_E_FORMAT, "cannot read '%s': not an archive", path);
	}
	ar->elf = e;
	ar->path = lk_xstrdup(path);
	ar->has_index = read_index(ar->fd, ar);
	while ((m = elf_begin(ar->fd, cmd, e))) {
		Elf_Arhdr *h = elf_getarhdr(m);

		if (h && h->ar_name && h->ar_name[0] != '/') {
			LK_GROW(ar->members.items, ar->members.nr + 1, ar->members.alloc);
			ar->members.items[ar->members.nr++] = (size_t)elf_getaroff(m);
		}
		cmd = elf_next(m);
		elf_end(m);
	}
	(void)elf_errno();
	return 0;
}

int lk_elf_archive_member(struct lk_elf_archive *ar, size_t offset, char **name,
			  struct lk_elf_syms *out, struct lk_err *err)
{
	return lk_elf_archive_member_gc(ar, offset, name, out, NULL, err);
}

int lk_elf_archive_member_gc(struct lk_elf_archive *ar, size_t offset, char **name,
			     struct lk_elf_syms *out, struct lk_elf_gc *gc, struct lk_err *err)
{
	Elf *e = ar->elf, *m;
	Elf_Arhdr *h;
	int rc = 0;

	*name = NULL;
	if (gc)
		memset(gc, 0, sizeof(*gc)), gc->fd = -1;
	if (elf_rand(e, offset) != offset || !(m = elf_begin(ar->fd, ELF_C_READ, e)))
		return lk_err_set(err, LK_E_FORMAT, "cannot read '%s': bad member at offset %zu: %s",
				  ar->path, offset, elf_errmsg(-1));
	h = elf_getarhdr(m);
	*name = lk_xstrdup(h && h->ar_name ? h->ar_name : "?");
	if (elf_kind(m) == ELF_K_ELF) {
		struct lk_buf where = LK_BUF_INIT;
		const char *cut = h ? truncated(m, (uint64_t)h->ar_size) : NULL;

		lk_buf_addf(&where, "%s(%s)", ar->path, *name);
		if (cut) {
			rc = lk_err_set(err, LK_E_FORMAT, "cannot read '%s': %s", where.buf, cut);
			elf_end(m);
		} else {
			rc = read_syms_and_gc(m, -1, where.buf, out, gc, err);
		}
		lk_buf_release(&where);
		return rc;
	}
	elf_end(m);
	return rc;
}

void lk_elf_archive_close(struct lk_elf_archive *ar)
{
	free(ar->armap.items);
	free(ar->armap_names);
	free(ar->members.items);
	if (ar->elf)
		elf_end(ar->elf);
	if (ar->fd >= 0)
		close(ar->fd);
	free(ar->path);
	memset(ar, 0, sizeof(*ar));
	ar->fd = -1;
}

/* ---- sections and relocations, for --gc-sections ---- */

/* One .eh_frame record: a CIE or an FDE (`cie`: the offset of its CIE). */
struct eh_record {
	size_t start, end;
	long cie;		/* -1 for a CIE */
	long owner;		/* an FDE: the section its pc_begin relocation points to, or -1 */
};

struct eh_reloc {
	size_t offset;
	uint32_t to, symbol;
};

struct eh_frame {
	struct { struct eh_record *items; size_t nr, alloc; } recs;
	struct { struct eh_reloc *items; size_t nr, alloc; } relocs;
};

static void parse_eh_frame(Elf_Scn *scn, struct eh_frame *eh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t off = 0;

	while (data && data->d_buf && off + 8 <= data->d_size) {
		const unsigned char *p = (const unsigned char *)data->d_buf + off;
		uint32_t len = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
		uint32_t id = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
		struct eh_record *r;

		if (len == 0 || len == 0xffffffffu || len > data->d_size - off - 4)
			break;	/* the terminator, a 64-bit record (never emitted by GCC), or garbage */
		LK_GROW(eh->recs.items, eh->recs.nr + 1, eh->recs.alloc);
		r = &eh->recs.items[eh->recs.nr++];
		r->start = off;
		r->end = off + 4 + len;
		r->cie = id == 0 ? -1 : (long)(off + 4) - (long)id;
		r->owner = -1;
		off = r->end;
	}
}

static long eh_record_at(const struct eh_frame *eh, size_t offset)
{
	size_t lo = 0, hi = eh->recs.nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (offset < eh->recs.items[mid].start)
			hi = mid;
		else if (offset >= eh->recs.items[mid].end)
			lo = mid + 1;
		else
			return (long)mid;
	}
	return -1;
}

static void add_edge(struct lk_elf_gc *gc, size_t from, uint32_t to, uint32_t symbol)
{
	struct lk_elf_gc_edge *e;

	LK_GROW(gc->edges.items, gc->edges.nr + 1, gc->edges.alloc);
	e = &gc->edges.items[gc->edges.nr++];
	e->from = (uint32_t)from;
	e->to = to;
	e->symbol = symbol;
}

/* FDE relocations other than pc_begin, and its CIE's, become needs of the FDE's function section. */
static void eh_frame_edges(struct lk_elf_gc *gc, struct eh_frame *eh)
{
	for (size_t i = 0; i < eh->relocs.nr; i++) {
		const struct eh_reloc *x = &eh->relocs.items[i];
		long k = eh_record_at(eh, x->offset);

		if (k >= 0 && eh->recs.items[k].cie >= 0 && x->offset == eh->recs.items[k].start + 8 && !x->symbol)
			eh->recs.items[k].owner = (long)x->to;
	}
	for (size_t i = 0; i < eh->relocs.nr; i++) {
		const struct eh_reloc *x = &eh->relocs.items[i];
		long k = eh_record_at(eh, x->offset);

		if (k < 0)
			continue;
		if (eh->recs.items[k].cie >= 0) {
			if (x->offset != eh->recs.items[k].start + 8 && eh->recs.items[k].owner >= 0)
				add_edge(gc, (size_t)eh->recs.items[k].owner, x->to, x->symbol);
			continue;
		}
		/* A CIE's relocation (the personality): a need of every function whose FDE uses it. */
		for (size_t f = 0; f < eh->recs.nr; f++)
			if (eh->recs.items[f].cie == (long)eh->recs.items[k].start && eh->recs.items[f].owner >= 0)
				add_edge(gc, (size_t)eh->recs.items[f].owner, x->to, x->symbol);
	}
}

/* The relocations of one SHT_REL/SHT_RELA section, against the symbol table `syms`. */
static void read_relocs(Elf *e, Elf_Scn *scn, const GElf_Shdr *shdr, Elf_Data *syms, size_t strtab,
			size_t nsyms, struct lk_elf_gc *gc, struct eh_frame *eh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t from = shdr->sh_info;
	size_t n;

	if (!data || !shdr->sh_entsize || from >= gc->nsections)
		return;
	n = shdr->sh_size / shdr->sh_entsize;
	for (size_t i = 0; i < n; i++) {
		GElf_Rela rela;
		GElf_Rel rel;
		GElf_Sym s;
		size_t symi, offset;
		uint32_t to = 0, global = 0;

		if (shdr->sh_type == SHT_RELA) {
			if (!gelf_getrela(data, (int)i, &rela))
				break;
			symi = GELF_R_SYM(rela.r_info);
			offset = rela.r_offset;
		} else {
			if (!gelf_getrel(data, (int)i, &rel))
				break;
			symi = GELF_R_SYM(rel.r_info);
			offset = rel.r_offset;
		}
		if (symi == 0 || symi >= nsyms || !gelf_getsym(syms, (int)symi, &s))
			continue;
		if (GELF_ST_BIND(s.st_info) == STB_LOCAL) {
			if (s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE || s.st_shndx >= gc->nsections)
				continue;
			to = s.st_shndx;
		} else {
			if (!gc->names[symi]) {
				const char *name = elf_strptr(e, strtab, s.st_name);

				if (!name || !*name)
					continue;
				gc->names[symi] = name;
			}
			global = (uint32_t)symi;
		}
		if (eh) {
			struct eh_reloc *x;

			LK_GROW(eh->relocs.items, eh->relocs.nr + 1, eh->relocs.alloc);
			x = &eh->relocs.items[eh->relocs.nr++];
			x->offset = offset;
			x->to = to;
			x->symbol = global;
		} else {
			add_edge(gc, from, to, global);
		}
	}
}

/* An SHT_GROUP section: flag word, then member section indices. */
static void read_group(Elf *e, Elf_Scn *scn, const GElf_Shdr *shdr, size_t ndx, struct lk_elf_gc *gc,
		       Elf_Data *syms, size_t strtab)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	const uint32_t *w;
	size_t n;
	GElf_Sym s;

	if (!data || !data->d_buf || data->d_size < 4)
		return;
	w = data->d_buf;
	n = data->d_size / 4;
	gc->sections[ndx].comdat = (w[0] & GRP_COMDAT) != 0;
	if (syms && gelf_getsym(syms, (int)shdr->sh_info, &s)) {
		gc->sections[ndx].signature = elf_strptr(e, strtab, s.st_name);
		gc->sections[ndx].signature_index = (uint32_t)shdr->sh_info;
	}
	for (size_t i = 1; i < n; i++)
		if (w[i] < gc->nsections)
			gc->sections[w[i]].group = (long)ndx;
}

static int read_gc(Elf *e, const char *path, struct lk_elf_gc *gc, struct lk_err *err)
{
	Elf_Scn *scn = NULL, *symscn = NULL;
	GElf_Shdr shdr, symshdr;
	Elf_Data *syms = NULL;
	size_t shnum, nsyms = 0, strtab = 0, eh_ndx = 0;
	struct eh_frame eh;

	memset(&eh, 0, sizeof(eh));
	if (elf_getshdrnum(e, &shnum) < 0)
		return lk_err_set(err, LK_E_FORMAT, "cannot read '%s': %s", path, elf_errmsg(-1));
	gc->nsections = shnum;
	gc->sections = lk_xcalloc(shnum + 1, sizeof(*gc->sections));
	for (size_t i = 0; i < shnum; i++)
		gc->sections[i].group = gc->sections[i].linked_to = -1;
	while ((scn = elf_nextscn(e, scn))) {
		size_t ndx = elf_ndxscn(scn), shstrndx;
		struct lk_elf_gc_section *sec;

		if (ndx >= shnum || !gelf_getshdr(scn, &shdr))
			continue;
		sec = &gc->sections[ndx];
		if (elf_getshdrstrndx(e, &shstrndx) == 0)
			sec->name = elf_strptr(e, shstrndx, shdr.sh_name);
		sec->alloc = (shdr.sh_flags & SHF_ALLOC) != 0;
		sec->note = shdr.sh_type == SHT_NOTE;
		sec->retain = (shdr.sh_flags & SHF_GNU_RETAIN) != 0;
		sec->counted = shdr.sh_type != SHT_SYMTAB && shdr.sh_type != SHT_STRTAB &&
			       shdr.sh_type != SHT_RELA && shdr.sh_type != SHT_REL &&
			       shdr.sh_type != SHT_SYMTAB_SHNDX;
		sec->empty = shdr.sh_size == 0;
		if ((shdr.sh_flags & SHF_LINK_ORDER) && shdr.sh_link < shnum)
			sec->linked_to = shdr.sh_link;
		if (shdr.sh_type == SHT_SYMTAB) {
			symscn = scn;
			symshdr = shdr;
		}
		if (sec->name && !strcmp(sec->name, ".eh_frame") && !eh_ndx)
			eh_ndx = ndx;
	}
	if (!symscn)
		return 0;	/* no symbols: nothing references anything */
	syms = elf_getdata(symscn, NULL);
	if (!syms || !symshdr.sh_entsize)
		return lk_err_set(err, LK_E_FORMAT, "cannot read '%s': bad symbol table", path);
	nsyms = symshdr.sh_size / symshdr.sh_entsize;
	strtab = symshdr.sh_link;
	gc->names = lk_xcalloc(nsyms + 1, sizeof(*gc->names));
	gc->nnames = nsyms;
	if (eh_ndx)
		parse_eh_frame(elf_getscn(e, eh_ndx), &eh);
	scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &shdr))
			continue;
		if (shdr.sh_type == SHT_GROUP)
			read_group(e, scn, &shdr, elf_ndxscn(scn), gc, syms, strtab);
		else if ((shdr.sh_type == SHT_RELA || shdr.sh_type == SHT_REL) && shdr.sh_link == elf_ndxscn(symscn))
			read_relocs(e, scn, &shdr, syms, strtab, nsyms, gc,
				    eh_ndx && shdr.sh_info == eh_ndx ? &eh : NULL);
	}
	eh_frame_edges(gc, &eh);
	free(eh.recs.items);
	free(eh.relocs.items);
	return 0;
}

void lk_elf_gc_release(struct lk_elf_gc *gc)
{
	free(gc->sections);
	free(gc->edges.items);
	free(gc->names);
	if (gc->elf)
		elf_end(gc->elf);
	if (gc->fd >= 0)
		close(gc->fd);
	memset(gc, 0, sizeof(*gc));
	gc->fd = -1;
}
/* ---- what a library offers, for the provider search ---- */

/* A definition a new, unversioned reference from another module binds to. */
static int exported(const GElf_Sym *s, GElf_Versym vs, int have_versym)
{
	int bind = GELF_ST_BIND(s->st_info), vis = GELF_ST_VISIBILITY(s->st_other);

	if (s->st_shndx == SHN_UNDEF || (bind != STB_GLOBAL && bind != STB_WEAK && bind != STB_GNU_UNIQUE))
		return 0;
	if (vis != STV_DEFAULT && vis != STV_PROTECTED)
		return 0;
	/* Version index 0 is local; a hidden (non-default) version binds only explicit references. */
	return !have_versym || ((vs & 0x7fff) != 0 && !(vs & 0x8000));
}

/*
 * How long one file may take to index. A sparse 2 GiB .so whose .dynsym
 * fills the file is within every size bound and takes seconds and its size
 * in memory to walk; a real one (libLLVM, 40 MB of symbols) takes 0.05 s.
 */
#define EXPORTS_MAX_MS 2000

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int past(int64_t deadline)
{
	return now_ms() > deadline;
}

static int dso_exports(Elf *e, struct lk_strvec *names, int64_t deadline)
{
	Elf_Scn *scn = NULL, *symscn = NULL, *versym = NULL;
	GElf_Shdr shdr, symshdr = { 0 };
	Elf_Data *data, *vdata = NULL;

	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &shdr))
			continue;
		if (shdr.sh_type == SHT_DYNSYM) {
			symscn = scn;
			symshdr = shdr;
		} else if (shdr.sh_type == SHT_GNU_versym) {
			versym = scn;
		}
	}
	if (!symscn || !symshdr.sh_entsize || !(data = elf_getdata(symscn, NULL)))
		return 0;
	if (versym)
		vdata = elf_getdata(versym, NULL);
	for (size_t i = 1; i < symshdr.sh_size / symshdr.sh_entsize; i++) {
		GElf_Sym s;
		GElf_Versym vs = 1;
		const char *name;

		if (i % 4096 == 0 && past(deadline))
			return -1;
		if (!gelf_getsym(data, (int)i, &s))
			break;
		if (vdata && !gelf_getversym(vdata, (int)i, &vs))
			vs = 0;
		if (!exported(&s, vs, vdata != NULL))
			continue;
		name = elf_strptr(e, symshdr.sh_link, s.st_name);
		if (name && *name)
			lk_strvec_push(names, name);
	}
	return 0;
}

/* The armap's names, and the machine of the first ELF member. */
static int archive_exports(int fd, Elf *ar, struct lk_elf_info *info, struct lk_strvec *names,
			   int64_t deadline)
{
	Elf_Cmd cmd = ELF_C_READ_MMAP;
	Elf_Arsym *syms;
	size_t nsyms = 0;
	Elf *m;

	syms = elf_getarsym(ar, &nsyms);
	info->has_armap = syms != NULL;
	(void)elf_errno();
	for (size_t i = 0; syms && i + 1 < nsyms; i++) {
		if (i % 4096 == 0 && past(deadline))
			return -1;
		if (syms[i].as_name && *syms[i].as_name)
			lk_strvec_push(names, syms[i].as_name);
	}
	while (!info->machine && (m = elf_begin(fd, cmd, ar))) {
		Elf_Arhdr *h = elf_getarhdr(m);
		GElf_Ehdr ehdr;

		if (h && h->ar_name && h->ar_name[0] != '/' && elf_kind(m) == ELF_K_ELF && gelf_getehdr(m, &ehdr)) {
			info->machine = ehdr.e_machine;
			info->elf_class = ehdr.e_ident[EI_CLASS] == ELFCLASS64 ? 64 : 32;
		}
		cmd = elf_next(m);
		elf_end(m);
		if (past(deadline))
			return -1;
	}
	(void)elf_errno();
	return 0;
}

int lk_elf_exports(const char *path, struct lk_elf_info *info, struct lk_strvec *names,
		   struct lk_err *err)
{
	int64_t deadline = now_ms() + EXPORTS_MAX_MS;
	unsigned char magic[8];
	struct stat st;
	int fd, rc = 0;
	Elf *e;

	memset(info, 0, sizeof(*info));
	fd = lk_file_open_regular(path, &st);
	if (fd < 0)
		return lk_err_errno(err, "cannot open '%s'", path);
	if (pread(fd, magic, sizeof(magic), 0) != (ssize_t)sizeof(magic) ||
	    (memcmp(magic, "\x7f" "ELF", 4) && memcmp(magic, "!<arch>\n", 8))) {
		close(fd);
		info->kind = LK_FILE_OTHER;	/* a linker script, a thin archive, ...: not indexed */
		return 0;
	}
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e && elf_kind(e) == ELF_K_AR) {
		info->kind = LK_FILE_ARCHIVE;
		rc = archive_exports(fd, e, info, names, deadline);
	} else if (e && elf_kind(e) == ELF_K_ELF && truncated(e, (uint64_t)st.st_size)) {
		info->kind = LK_FILE_CORRUPT;	/* every size bounded by the file's */
	} else if (e && elf_kind(e) == ELF_K_ELF) {
		GElf_Ehdr ehdr;

		if (gelf_getehdr(e, &ehdr) && ehdr.e_type == ET_DYN) {
			info->kind = LK_FILE_SHARED;
			info->machine = ehdr.e_machine;
			info->elf_class = ehdr.e_ident[EI_CLASS] == ELFCLASS64 ? 64 : 32;
			rc = dso_exports(e, names, deadline);
		} else {
			info->kind = LK_FILE_OTHER;
		}
	} else {
		info->kind = LK_FILE_CORRUPT;
	}
	if (e)
		elf_end(e);
	close(fd);
	if (rc < 0) {
		/* Half a list of names would be cached as the whole: none. */
		info->kind = LK_FILE_CORRUPT;
		lk_strvec_release(names);
		return lk_err_set(err, LK_E_FORMAT, "indexing '%s' stopped after %d s (is it sparse?)", path,
				  EXPORTS_MAX_MS / 1000);
	}
	return 0;
}
