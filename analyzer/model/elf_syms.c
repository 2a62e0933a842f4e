/*
 * Symbols (see elf.c): the global symbols of an object (.symtab) or a
 * shared object (.dynsym with its GNU versions: sym@@V binds, sym@V does
 * not), as bfd/elflink.c's elf_link_add_object_symbols reads them; and
 * what a library exports, for the provider search (a definition a new
 * unversioned reference from another module would bind to), bounded in
 * time per library.
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
#include "linkscope/hash.h"
#include "linkscope/buf.h"
#include "linkscope/file.h"
#include "elf.h"
#include "elf_parts.h"
#include "linkscope/vec.h"

/* ---- symbols ---- */

void lk_elf_syms_release(struct lk_elf_syms *syms)
{
	lk_arena_release(&syms->names);
	free(syms->items);
	syms->items = NULL;
	syms->nr = syms->alloc = 0;
	lk_strvec_release(&syms->start_stop);
	free(syms->groups.items);
	syms->groups.items = NULL;
	syms->groups.nr = syms->groups.alloc = 0;
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
		     const char *version, int hidden, int in_group, uint32_t group)
{
	struct lk_elf_sym *y;

	LK_GROW(out->items, out->nr + 1, out->alloc);
	y = &out->items[out->nr++];
	memset(y, 0, sizeof(*y));
	y->name = lk_arena_strdup(&out->names, name);
	y->hash = lk_hash_str(y->name);
	y->version = version ? lk_arena_strdup(&out->names, version) : NULL;
	y->defined = s->st_shndx != SHN_UNDEF;
	y->common = s->st_shndx == SHN_COMMON;
	y->weak = GELF_ST_BIND(s->st_info) == STB_WEAK;
	y->tls = GELF_ST_TYPE(s->st_info) == STT_TLS;
	y->notype = GELF_ST_TYPE(s->st_info) == STT_NOTYPE;
	y->index = (uint32_t)index;
	y->section = s->st_shndx != SHN_UNDEF && s->st_shndx < SHN_LORESERVE ? s->st_shndx : 0;
	y->value = s->st_value;
	y->local_vis = GELF_ST_VISIBILITY(s->st_other) == STV_HIDDEN ||
		       GELF_ST_VISIBILITY(s->st_other) == STV_INTERNAL;
	/* elflink.c is_global_data_symbol_definition: what lets a common pull an archive member. */
	y->data_def = GELF_ST_BIND(s->st_info) == STB_GLOBAL && GELF_ST_TYPE(s->st_info) != STT_FUNC &&
		      s->st_shndx != SHN_UNDEF && s->st_shndx < SHN_LORESERVE;
	y->object = GELF_ST_TYPE(s->st_info) == STT_OBJECT;
	y->protected_vis = GELF_ST_VISIBILITY(s->st_other) == STV_PROTECTED;
	y->hidden_version = hidden;
	y->mergeable = in_group || GELF_ST_BIND(s->st_info) == STB_GNU_UNIQUE;
	y->group = y->defined ? group : 0;
}

/*
 * A COMDAT group section of a relocatable object: its signature (the
 * name of the symbol sh_info of its symbol table sh_link names; a section
 * symbol's is that section's name) pushed to out->groups, and each member
 * section's entry of group_of[] (nsec entries) set to 1 + its index. Each
 * word and index checked against the section's size and the section count.
 */
static void read_group(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, size_t shstrndx, int shstrndx_ok,
		       struct lk_elf_syms *out, uint32_t *group_of, size_t nsec)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	Elf_Scn *symscn = elf_getscn(e, sh->sh_link);
	Elf_Data *symd = symscn ? elf_getdata(symscn, NULL) : NULL;
	GElf_Shdr symsh, secsh;
	GElf_Sym sig;
	const char *name = NULL;
	const uint32_t *w;
	size_t n;
	uint32_t idx;

	if (!d || !d->d_buf || d->d_size < 4 || !symd || !gelf_getshdr(symscn, &symsh) || sh->sh_info > INT32_MAX ||
	    !gelf_getsym(symd, (int)sh->sh_info, &sig))
		return;
	w = d->d_buf;
	if (!(w[0] & GRP_COMDAT))
		return;
	if (GELF_ST_TYPE(sig.st_info) == STT_SECTION) {
		Elf_Scn *ss = sig.st_shndx < SHN_LORESERVE ? elf_getscn(e, sig.st_shndx) : NULL;

		if (ss && shstrndx_ok && gelf_getshdr(ss, &secsh))
			name = elf_strptr(e, shstrndx, secsh.sh_name);
	} else {
		name = elf_strptr(e, symsh.sh_link, sig.st_name);
	}
	if (!name || !*name || out->groups.nr >= UINT32_MAX - 1)
		return;
	LK_GROW(out->groups.items, out->groups.nr + 1, out->groups.alloc);
	out->groups.items[out->groups.nr++] = lk_arena_strdup(&out->names, name);
	idx = (uint32_t)out->groups.nr;
	n = d->d_size / 4;
	for (size_t i = 1; i < n; i++)
		if (w[i] < nsec)
			group_of[w[i]] = idx;
}

/* The globals of an open ELF: .symtab for objects, .dynsym (and versions) for shared ones. */
static int read_elf_syms(Elf *e, const char *path, struct lk_elf_syms *out, struct lk_err *err)
{
	GElf_Ehdr ehdr;
	Elf_Scn *scn = NULL, *symscn = NULL, *versym = NULL;
	GElf_Shdr shdr, symshdr;
	struct versions vers = { NULL, 0, 0 }, *v = &vers;
	struct { char *items; size_t nr, alloc; } grouped = { NULL, 0, 0 };	/* per section: SHF_GROUP */
	uint32_t *group_of = NULL;	/* per section: its COMDAT group, 1-based; 0 none (ET_REL only) */
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
	if (ehdr.e_type == ET_REL) {
		group_of = lk_xcalloc(grouped.nr + 1, sizeof(*group_of));
		for (scn = NULL; (scn = elf_nextscn(e, scn));)
			if (gelf_getshdr(scn, &shdr) && shdr.sh_type == SHT_GROUP)
				read_group(e, scn, &shdr, shstrndx, shstrndx_ok, out, group_of, grouped.nr);
	}
	data = elf_getdata(symscn, NULL);
	if (versym)
		vdata = elf_getdata(versym, NULL);
	if (!data || !symshdr.sh_entsize) {
		free(vers.names);
		free(grouped.items);
		free(group_of);
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
			 s.st_shndx < grouped.nr && grouped.items[s.st_shndx],
			 group_of && s.st_shndx < grouped.nr ? group_of[s.st_shndx] : 0);
		if (vdata && s.st_shndx == SHN_UNDEF && gelf_getversym(vdata, (int)i, &vs) && (vs & 0x7fff) >= 2)
			out->items[out->nr - 1].versioned_ref = 1;
	}
	free(vers.names);
	free(grouped.items);
	free(group_of);
	return 0;
}

int lk_elf_read_syms(const char *path, struct lk_elf_syms *out, struct lk_err *err)
{
	return lk_elf_read_syms_gc(path, out, NULL, err);
}

/* The symbols, and with `gc` the sections and relocations, read through one open ELF. */
int elfr_read_syms_and_gc(Elf *e, char *image, int fd, const char *path, struct lk_elf_syms *out,
			  struct lk_elf_gc *gc, struct lk_err *err)
{
	int rc = read_elf_syms(e, path, out, err);
	GElf_Ehdr ehdr;

	if (gelf_getehdr(e, &ehdr))
		out->machine = ehdr.e_machine;

	if (!gc) {
		elf_end(e);
		free(image);
		return rc;
	}
	elfr_gc_reset(gc);
	gc->elf = e;	/* open until lk_elf_gc_release(): the names are borrowed */
	gc->image = image;
	gc->fd = fd;
	if (rc == 0 && elfr_read_gc(e, path, gc, err) < 0)
		rc = -1;
	if (rc < 0)
		lk_elf_gc_release(gc);
	return rc;
}

/*
 * A shared object's header says ET_DYN (e_type, in the byte order its
 * ident gives). Only its dynamic symbols are read, a small part of it:
 * read whole, libstdc++.so alone would be 2 MB copied for 0.3 MB used.
 */
static int shared_object(int fd)
{
	unsigned char h[18];

	if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return 0;
	return (h[EI_DATA] == ELFDATA2MSB ? h[16] << 8 | h[17] : h[17] << 8 | h[16]) == ET_DYN;
}

/*
 * The file open on `fd` (`size` bytes by its fstat) opened for reading:
 * an object read whole (elf_image.c); a shared object, or a file larger
 * than ELFR_WHOLE_MAX, read by libelf piece by piece through `fd`, which
 * must then stay open. *image: the bytes read, or NULL; *size: cut to
 * what was read.
 */
static Elf *open_file(int fd, uint64_t *size, char **image)
{
	size_t got;
	Elf *e;

	*image = NULL;
	if (*size > ELFR_WHOLE_MAX || shared_object(fd)) {
		elf_version(EV_CURRENT);
		return elf_begin(fd, ELF_C_READ, NULL);
	}
	e = elfr_image_open(fd, 0, (size_t)*size, image, &got);
	*size = got;
	return e;
}

int lk_elf_read_syms_gc(const char *path, struct lk_elf_syms *out, struct lk_elf_gc *gc,
			struct lk_err *err)
{
	struct stat st;
	int fd = lk_file_open_regular(path, &st), rc;
	const char *cut;
	uint64_t size;
	char *image;
	Elf *e;

	if (gc)
		elfr_gc_reset(gc);
	if (fd < 0)
		return lk_err_errno(err, "cannot open '%s'", path);
	size = (uint64_t)st.st_size;
	e = open_file(fd, &size, &image);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		if (e)
			elf_end(e);
		free(image);
		close(fd);
		return lk_err_set(err, LK_E_FORMAT, "cannot read '%s': not an ELF file", path);
	}
	if ((cut = elfr_truncated(e, size))) {
		elf_end(e);
		free(image);
		close(fd);
		return lk_err_set(err, LK_E_FORMAT, "cannot read '%s': %s", path, cut);
	}
	/* A file not read whole is read through fd: open while gc keeps it. */
	if (image) {
		close(fd);
		fd = -1;
	}
	rc = elfr_read_syms_and_gc(e, image, gc ? fd : -1, path, out, gc, err);
	if (!gc && fd >= 0)
		close(fd);
	return rc;
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
	} else if (e && elf_kind(e) == ELF_K_ELF && elfr_truncated(e, (uint64_t)st.st_size)) {
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
