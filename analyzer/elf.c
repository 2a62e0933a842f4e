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
