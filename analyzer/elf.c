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
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/elf.h"
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

static void read_elf(Elf *e, struct lk_elf_info *info)
{
	GElf_Ehdr ehdr;

	if (!gelf_getehdr(e, &ehdr)) {
		set_problem(info, LK_FILE_CORRUPT, elf_errmsg(-1));
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

/* Walk the members' headers: count them, spot lib.rmeta, take the first ELF member's class. */
static void read_archive(int fd, Elf *ar, off_t size, struct lk_elf_info *info)
{
	Elf_Cmd cmd = ELF_C_READ_MMAP;
	size_t nsyms = 0;
	Elf *m;

	info->kind = LK_FILE_ARCHIVE;
	if (size == 8)
		return;	/* just "!<arch>\n": an empty archive, as glibc's libdl.a */
	/* An index with no symbols is still an index (rlibs of metadata only have one). */
	info->has_armap = elf_getarsym(ar, &nsyms) != NULL;
	(void)elf_errno();	/* no armap is not an error here */
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
	if (stat(path, &st) < 0) {
		set_problem(info, errno == ENOENT || errno == ENOTDIR ? LK_FILE_MISSING : LK_FILE_UNREADABLE,
			    strerror(errno));
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		set_problem(info, LK_FILE_UNREADABLE, "is a directory");
		return;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		set_problem(info, LK_FILE_UNREADABLE, strerror(errno));
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
			read_elf(e, info);
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

static void push_sym(struct lk_elf_syms *out, const char *name, const GElf_Sym *s,
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
	size_t n;

	if (!gelf_getehdr(e, &ehdr))
		return lk_err_set(err, LK_E_FORMAT, "cannot read '%s': %s", path, elf_errmsg(-1));
	while ((scn = elf_nextscn(e, scn))) {
		size_t ndx = elf_ndxscn(scn);

		if (!gelf_getshdr(scn, &shdr))
			continue;
		LK_GROW(grouped.items, ndx + 1, grouped.alloc);
		while (grouped.nr <= ndx)
			grouped.items[grouped.nr++] = 0;
		grouped.items[ndx] = (shdr.sh_flags & SHF_GROUP) != 0;
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
		push_sym(out, name, &s, version, hidden,
			 s.st_shndx < grouped.nr && grouped.items[s.st_shndx]);
	}
	free(vers.names);
	free(grouped.items);
	return 0;
}

int lk_elf_read_syms(const char *path, struct lk_elf_syms *out, struct lk_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;
	Elf *e;

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
	rc = read_elf_syms(e, path, out, err);
	elf_end(e);
	close(fd);
	return rc;
}

int lk_elf_archive_open(const char *path, struct lk_elf_archive *ar, struct lk_err *err)
{
	Elf_Arsym *syms;
	size_t nsyms = 0;
	Elf_Cmd cmd = ELF_C_READ;
	Elf *m, *e;

	memset(ar, 0, sizeof(*ar));
	ar->fd = open(path, O_RDONLY | O_CLOEXEC);
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
	syms = elf_getarsym(e, &nsyms);
	ar->has_index = syms != NULL;
	for (size_t i = 0; syms && i + 1 < nsyms; i++) {
		LK_GROW(ar->armap.items, ar->armap.nr + 1, ar->armap.alloc);
		ar->armap.items[ar->armap.nr].name = syms[i].as_name;
		ar->armap.items[ar->armap.nr].offset = syms[i].as_off;
		ar->armap.nr++;
	}
	(void)elf_errno();
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
	Elf *e = ar->elf, *m;
	Elf_Arhdr *h;
	int rc = 0;

	*name = NULL;
	if (elf_rand(e, offset) != offset || !(m = elf_begin(ar->fd, ELF_C_READ, e)))
		return lk_err_set(err, LK_E_FORMAT, "cannot read '%s': bad member at offset %zu: %s",
				  ar->path, offset, elf_errmsg(-1));
	h = elf_getarhdr(m);
	*name = lk_xstrdup(h && h->ar_name ? h->ar_name : "?");
	if (elf_kind(m) == ELF_K_ELF) {
		struct lk_buf where = LK_BUF_INIT;

		lk_buf_addf(&where, "%s(%s)", ar->path, *name);
		rc = read_elf_syms(m, where.buf, out, err);
		lk_buf_release(&where);
	}
	elf_end(m);
	return rc;
}

void lk_elf_archive_close(struct lk_elf_archive *ar)
{
	free(ar->armap.items);
	free(ar->members.items);
	if (ar->elf)
		elf_end(ar->elf);
	if (ar->fd >= 0)
		close(ar->fd);
	free(ar->path);
	memset(ar, 0, sizeof(*ar));
	ar->fd = -1;
}
