/*
 * Every symbol (see elf.c): what an input holds beyond what the link
 * binds, for the explanations of issue #17 (names that nearly match,
 * multiple definitions with their cause). The replay's reader
 * (elf_syms.c) takes the globals ld adds; this one keeps the locals, the
 * hidden ones, a shared object's .symtab beside its .dynsym, the versions,
 * the source file (the first STT_FILE symbol), the compiler (.comment),
 * and for each definition its section, size and a hash of its bytes (two
 * copies of one function compiled from one header have the same bytes in
 * a relocatable object, their relocations being apart).
 */
#include <stdint.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/file.h"
#include "elf.h"
#include "elf_parts.h"
#include "linkscope/vec.h"

#define EVERY_MEMBERS_MAX 4096	/* members read of one archive */

void lk_elf_every_release(struct lk_elf_every *ev)
{
	for (size_t i = 0; i < ev->nr; i++) {
		struct lk_elf_every_file *f = &ev->items[i];

		for (size_t k = 0; k < f->syms.nr; k++) {
			free(f->syms.items[k].name);
			free(f->syms.items[k].version);
		}
		free(f->syms.items);
		free(f->member);
		free(f->source);
		free(f->comment);
	}
	free(ev->items);
	memset(ev, 0, sizeof(*ev));
}

/* FNV-1a of a definition's bytes in its section, 0 when they cannot be read (.bss, out of range). */
static uint64_t bytes_hash(Elf *e, const GElf_Sym *s)
{
	Elf_Scn *scn = elf_getscn(e, s->st_shndx);
	Elf_Data *data;
	GElf_Shdr sh;
	uint64_t h = 1469598103934665603ull;

	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS || !(data = elf_getdata(scn, NULL)) ||
	    !data->d_buf || s->st_value > data->d_size || s->st_size > data->d_size - s->st_value)
		return 0;
	for (uint64_t i = 0; i < s->st_size; i++)
		h = (h ^ ((const unsigned char *)data->d_buf)[s->st_value + i]) * 1099511628211ull;
	return h;
}

/* Version names by index (SHT_GNU_verdef and verneed), borrowed from the string table. */
static void read_versions(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, const char ***names, size_t *nr)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t off = 0, alloc = *nr;

	if (!data)
		return;
	for (size_t n = 0; n < sh->sh_info; n++) {
		size_t ndx = 0, next;
		const char *name = NULL;

		if (sh->sh_type == SHT_GNU_verdef) {
			GElf_Verdef def;
			GElf_Verdaux aux;

			if (!gelf_getverdef(data, (int)off, &def))
				break;
			if (def.vd_cnt && gelf_getverdaux(data, (int)(off + def.vd_aux), &aux))
				name = elf_strptr(e, sh->sh_link, aux.vda_name);
			ndx = def.vd_ndx;
			next = def.vd_next;
			if (name && ndx < 0x8000) {
				if (ndx >= *nr) {
					LK_GROW(*names, ndx + 1, alloc);
					memset(*names + *nr, 0, (ndx + 1 - *nr) * sizeof(**names));
					*nr = ndx + 1;
				}
				(*names)[ndx] = name;
			}
		} else {
			GElf_Verneed need;
			GElf_Vernaux aux;
			size_t a;

			if (!gelf_getverneed(data, (int)off, &need))
				break;
			a = off + need.vn_aux;
			for (size_t k = 0; k < need.vn_cnt && gelf_getvernaux(data, (int)a, &aux); k++) {
				ndx = aux.vna_other & 0x7fff;
				name = elf_strptr(e, sh->sh_link, aux.vna_name);
				if (name) {
					if (ndx >= *nr) {
						LK_GROW(*names, ndx + 1, alloc);
						memset(*names + *nr, 0, (ndx + 1 - *nr) * sizeof(**names));
						*nr = ndx + 1;
					}
					(*names)[ndx] = name;
				}
				if (!aux.vna_next)
					break;
				a += aux.vna_next;
			}
			next = need.vn_next;
		}
		if (!next)
			break;
		off += next;
	}
}

static void read_table(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, Elf_Data *versym, const char **vnames,
		       size_t nvnames, size_t shstrndx, struct lk_elf_every_file *f)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = data && sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	GElf_Ehdr eh;
	int rel = gelf_getehdr(e, &eh) && eh.e_type == ET_REL;

	for (size_t i = 1; i < n; i++) {
		GElf_Sym s;
		GElf_Versym vs = 0;
		struct lk_elf_every_sym *y;
		const char *name;
		int type;

		if (!gelf_getsym(data, (int)i, &s))
			break;
		type = GELF_ST_TYPE(s.st_info);
		name = elf_strptr(e, sh->sh_link, s.st_name);
		if (type == STT_FILE) {
			if (name && *name && !f->source)
				f->source = lk_xstrdup(name);
			continue;
		}
		if (!name || !*name || type == STT_SECTION)
			continue;
		LK_GROW(f->syms.items, f->syms.nr + 1, f->syms.alloc);
		y = &f->syms.items[f->syms.nr++];
		memset(y, 0, sizeof(*y));
		y->name = lk_xstrdup(name);
		y->defined = s.st_shndx != SHN_UNDEF;
		y->local = GELF_ST_BIND(s.st_info) == STB_LOCAL;
		y->weak = GELF_ST_BIND(s.st_info) == STB_WEAK;
		y->hidden = GELF_ST_VISIBILITY(s.st_other) == STV_HIDDEN ||
			    GELF_ST_VISIBILITY(s.st_other) == STV_INTERNAL;
		y->dynamic = sh->sh_type == SHT_DYNSYM;
		y->func = type == STT_FUNC || type == STT_GNU_IFUNC;
		y->common = s.st_shndx == SHN_COMMON;
		y->size = s.st_size;
		if (y->defined && s.st_shndx < SHN_LORESERVE) {
			Elf_Scn *ds = elf_getscn(e, s.st_shndx);
			GElf_Shdr dsh;

			if (ds && gelf_getshdr(ds, &dsh)) {
				const char *sn = elf_strptr(e, shstrndx, dsh.sh_name);

				y->bss = dsh.sh_type == SHT_NOBITS;
				y->comdat = (dsh.sh_flags & SHF_GROUP) != 0;
				y->text = sn && !strncmp(sn, ".text", 5);
			}
			if (rel && y->func)
				y->hash = bytes_hash(e, &s);
		}
		if (versym && gelf_getversym(versym, (int)i, &vs) && (vs & 0x7fff) >= 2 &&
		    (size_t)(vs & 0x7fff) < nvnames && vnames[vs & 0x7fff]) {
			y->version = lk_xstrdup(vnames[vs & 0x7fff]);
			y->hidden_version = (vs & 0x8000) != 0;
		}
	}
}

static void read_one(Elf *e, struct lk_elf_every_file *f)
{
	Elf_Scn *scn = NULL, *versym = NULL;
	GElf_Shdr sh;
	const char **vnames = NULL;
	size_t nvnames = 0, shstrndx = 0;
	Elf_Data *vdata = NULL;

	if (elf_getshdrstrndx(e, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_GNU_verdef || sh.sh_type == SHT_GNU_verneed)
			read_versions(e, scn, &sh, &vnames, &nvnames);
		else if (sh.sh_type == SHT_GNU_versym)
			versym = scn;
		else if (sh.sh_type == SHT_PROGBITS && !f->comment) {
			const char *sn = elf_strptr(e, shstrndx, sh.sh_name);
			Elf_Data *d;

			/* ".comment": NUL-separated "GCC: (Debian 12.2.0-14) 12.2.0" lines; the first is enough. */
			if (sn && !strcmp(sn, ".comment") && (d = elf_getdata(scn, NULL)) && d->d_buf && d->d_size > 1)
				f->comment = lk_xstrndup((const char *)d->d_buf + (((const char *)d->d_buf)[0] == 0),
							 strnlen((const char *)d->d_buf + (((const char *)d->d_buf)[0] == 0),
								 d->d_size - 1));
		}
	}
	vdata = versym ? elf_getdata(versym, NULL) : NULL;
	scn = NULL;
	while ((scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM))
			read_table(e, scn, &sh, sh.sh_type == SHT_DYNSYM ? vdata : NULL, vnames, nvnames, shstrndx, f);
	free(vnames);
}

static struct lk_elf_every_file *new_file(struct lk_elf_every *ev, const char *member)
{
	struct lk_elf_every_file *f;

	LK_GROW(ev->items, ev->nr + 1, ev->alloc);
	f = &ev->items[ev->nr++];
	memset(f, 0, sizeof(*f));
	f->member = member ? lk_xstrdup(member) : NULL;
	return f;
}

int lk_elf_read_every(const char *path, struct lk_elf_every *out, struct lk_err *err)
{
	int fd = lk_file_open_regular(path, NULL);
	struct stat st;
	Elf *e;

	memset(out, 0, sizeof(*out));
	if (fd < 0)
		return lk_err_errno(err, "cannot open '%s'", path);
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || fstat(fd, &st) < 0 || (elf_kind(e) != ELF_K_ELF && elf_kind(e) != ELF_K_AR) ||
	    (elf_kind(e) == ELF_K_ELF && elfr_truncated(e, (uint64_t)st.st_size))) {
		if (e)
			elf_end(e);
		close(fd);
		return lk_err_set(err, LK_E_FORMAT, "cannot read '%s': not a whole ELF file or archive", path);
	}
	if (elf_kind(e) == ELF_K_ELF) {
		read_one(e, new_file(out, NULL));
	} else {
		Elf_Cmd cmd = ELF_C_READ_MMAP;
		Elf *m;
		size_t n = 0;

		while (n++ < EVERY_MEMBERS_MAX && (m = elf_begin(fd, cmd, e))) {
			Elf_Arhdr *h = elf_getarhdr(m);

			if (h && h->ar_name && h->ar_name[0] != '/' && elf_kind(m) == ELF_K_ELF &&
			    !elfr_truncated(m, (uint64_t)h->ar_size))
				read_one(m, new_file(out, h->ar_name));
			cmd = elf_next(m);
			elf_end(m);
		}
		(void)elf_errno();
	}
	elf_end(e);
	close(fd);
	return 0;
}
