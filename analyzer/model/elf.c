


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
 *
 * This file identifies a file; the reader's other parts are
 * elf_image.c (an object or member read whole), elf_archive.c (archive
 * indexes and members), elf_syms.c (symbols, and
 * what a library exports) and elf_gc.c (sections and relocations), with
 * what they share in elf_parts.h. They are the only users of libelf.
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
#include "linkscope/hash.h"
#include "elf.h"
#include "elf_parts.h"
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

void elfr_set_problem(struct lk_elf_info *info, enum lk_file_kind kind,
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
const char *elfr_truncated(Elf *e, uint64_t size)
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

/* Does the object `e` carry gcc's LTO sections (".gnu.lto_*")? */
static int has_gcc_lto(Elf *e)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;
	size_t shstrndx;

	if (elf_getshdrstrndx(e, &shstrndx) < 0)
		return 0;
	while ((scn = elf_nextscn(e, scn))) {
		const char *name = gelf_getshdr(scn, &shdr) ? elf_strptr(e, shstrndx, shdr.sh_name) : NULL;

		if (name && !strncmp(name, ".gnu.lto_", 9))
			return 1;
	}
	return 0;
}

static void read_elf(Elf *e, off_t size, struct lk_elf_info *info)
{
	GElf_Ehdr ehdr;
	const char *cut;

	if (!gelf_getehdr(e, &ehdr)) {
		elfr_set_problem(info, LK_FILE_CORRUPT, elf_errmsg(-1));
		return;
	}
	if ((cut = elfr_truncated(e, (uint64_t)size))) {
		elfr_set_problem(info, LK_FILE_CORRUPT, cut);
		return;
	}
	info->elf_class = ehdr.e_ident[EI_CLASS] == ELFCLASS64 ? 64 :
			  ehdr.e_ident[EI_CLASS] == ELFCLASS32 ? 32 : 0;
	info->machine = ehdr.e_machine;
	switch (ehdr.e_type) {
	case ET_REL:
		info->kind = LK_FILE_OBJECT;
		info->gcc_lto = has_gcc_lto(e);
		break;
	case ET_DYN:
		info->kind = LK_FILE_SHARED;
		read_dynamic(e, info);
		break;
	case ET_EXEC:
		info->kind = LK_FILE_EXECUTABLE;
		break;
	default:
		elfr_set_problem(info, LK_FILE_OTHER, "an ELF file that is not an object, shared object or executable");
	}
}

/* A big-endian word of the symbol index. */

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
			elfr_set_problem(info, LK_FILE_UNREADABLE, "is a directory");
		else if (kind)	/* a FIFO or a device could block us for ever */
			elfr_set_problem(info, LK_FILE_UNREADABLE, "not a regular file");
		else
			elfr_set_problem(info, errno == ENOENT || errno == ENOTDIR ? LK_FILE_MISSING : LK_FILE_UNREADABLE,
				    lk_file_strerror(errno));
		return;
	}
	n = pread(fd, magic, sizeof(magic), 0);
	if (n < 0) {
		elfr_set_problem(info, LK_FILE_UNREADABLE, strerror(errno));
		close(fd);
		return;
	}
	if (n >= 8 && !memcmp(magic, "!<thin>\n", 8)) {
		elfr_read_thin(fd, path, info);
	} else if (n >= 4 && (!memcmp(magic, "BC\xc0\xde", 4) || !memcmp(magic, "\xde\xc0\x17\x0b", 4))) {
		info->kind = LK_FILE_BITCODE;
	} else if ((n >= 4 && !memcmp(magic, "\x7f" "ELF", 4)) || (n >= 8 && !memcmp(magic, "!<arch>\n", 8))) {
		elf_version(EV_CURRENT);
		e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		if (!e)
			elfr_set_problem(info, LK_FILE_CORRUPT, elf_errmsg(-1));
		else if (elf_kind(e) == ELF_K_AR)
			elfr_read_archive(fd, e, st.st_size, info);
		else if (elf_kind(e) == ELF_K_ELF)
			read_elf(e, st.st_size, info);
		else
			elfr_set_problem(info, LK_FILE_CORRUPT, "truncated ELF header");
		if (e)
			elf_end(e);
	} else if (n > 0 && is_text(magic, (size_t)n)) {
		info->kind = LK_FILE_TEXT;
	} else {
		elfr_set_problem(info, LK_FILE_OTHER, n ? "not ELF, an archive or a linker script" : "empty file");
	}
	close(fd);
}

int lk_elf_warning_sections(const char *path, struct lk_strvec *syms)
{
	struct stat st;
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;
	Elf *e;
	int fd = lk_file_open_regular(path, &st);

	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || elf_getshdrstrndx(e, &shstrndx) < 0) {
		if (e)
			elf_end(e);
		close(fd);
		return -1;
	}
	while ((scn = elf_nextscn(e, scn))) {
		const char *name;

		if (gelf_getshdr(scn, &shdr) && (name = elf_strptr(e, shstrndx, shdr.sh_name)) &&
		    !strncmp(name, ".gnu.warning.", 13) && name[13])
			lk_strvec_push(syms, name + 13);
	}
	elf_end(e);
	close(fd);
	return 0;
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

static char *dup_or_null(const char *s)
{
	return s ? lk_xstrdup(s) : NULL;
}

static void info_copy(struct lk_elf_info *to, const struct lk_elf_info *from)
{
	*to = *from;
	to->soname = dup_or_null(from->soname);
	to->runpath = dup_or_null(from->runpath);
	to->rpath = dup_or_null(from->rpath);
	to->problem = dup_or_null(from->problem);
	memset(&to->needed, 0, sizeof(to->needed));
	for (size_t i = 0; i < from->needed.nr; i++)
		lk_strvec_push(&to->needed, from->needed.items[i]);
}

struct lk_elf_memo_slot {
	char *path;		/* NULL: empty */
	struct lk_elf_info info;
};

/* The slot of `path`: its own, or the empty one where it goes. */
static struct lk_elf_memo_slot *memo_slot(struct lk_elf_memo_slot *slots, size_t alloc, const char *path)
{
	size_t i = (size_t)lk_hash_str(path) & (alloc - 1);

	while (slots[i].path && strcmp(slots[i].path, path))
		i = (i + 1) & (alloc - 1);
	return &slots[i];
}

static void memo_grow(struct lk_elf_memo *m)
{
	size_t alloc = m->alloc ? 2 * m->alloc : 64;
	struct lk_elf_memo_slot *slots = lk_xcalloc(alloc, sizeof(*slots));

	for (size_t i = 0; i < m->alloc; i++)
		if (m->slots[i].path)
			*memo_slot(slots, alloc, m->slots[i].path) = m->slots[i];
	free(m->slots);
	m->slots = slots;
	m->alloc = alloc;
}

void lk_elf_identify_memo(struct lk_elf_memo *memo, const char *path, struct lk_elf_info *info)
{
	struct lk_elf_memo_slot *s;

	if (2 * (memo->nr + 1) > memo->alloc)
		memo_grow(memo);
	s = memo_slot(memo->slots, memo->alloc, path);
	if (!s->path) {
		s->path = lk_xstrdup(path);
		lk_elf_identify(path, &s->info);
		memo->nr++;
	}
	info_copy(info, &s->info);
}

void lk_elf_memo_release(struct lk_elf_memo *memo)
{
	for (size_t i = 0; i < memo->alloc; i++) {
		if (!memo->slots[i].path)
			continue;
		free(memo->slots[i].path);
		lk_elf_info_release(&memo->slots[i].info);
	}
	free(memo->slots);
	memset(memo, 0, sizeof(*memo));
}
