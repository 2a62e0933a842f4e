/*
 * Line model -> inputs: -lNAME and -l:FILE found as ld/ldfile.c's
 * ldfile_open_file_search finds them: the -L dirs, all of them for every
 * -l, then the linker's SEARCH_DIRs (none under -nostdlib);
 * lib<name>.so before lib<name>.a in each dir unless -Bstatic; -l:file
 * literally; a file of another machine skipped ("skipping incompatible X
 * when searching for -lY"), and kept in the item's `skipped` for the
 * explanation of a "cannot find" (explain/notfound.c). A bundle's copy of
 * a candidate (lk_resolve_bundled) is read in its place, as ld read it. A linker script
 * found there whose OUTPUT_FORMAT names another target is skipped too, as
 * ldfile.c's ldfile_try_open_bfd skips it (and mold, "skipping
 * incompatible file"); lld reads it as any script (its OUTPUT_FORMAT
 * decides nothing there), so on an lld line it is taken, and the target
 * kept in the item's foreign_format.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "resolve.h"
#include "script.h"

/* GNU ld's emulations and the BFD target each writes (its default OUTPUT_FORMAT). */
static const struct { const char *emulation, *target; } targets[] = {
	{ "elf_x86_64", "elf64-x86-64" }, { "elf32_x86_64", "elf32-x86-64" }, { "elf_i386", "elf32-i386" },
	{ "elf_iamcu", "elf32-iamcu" }, { "aarch64linux", "elf64-littleaarch64" },
	{ "aarch64elf", "elf64-littleaarch64" }, { "aarch64linuxb", "elf64-bigaarch64" },
	{ "aarch64linux32", "elf32-littleaarch64" }, { "armelf_linux_eabi", "elf32-littlearm" },
	{ "armelfb_linux_eabi", "elf32-bigarm" }, { "elf64lriscv", "elf64-littleriscv" },
	{ "elf32lriscv", "elf32-littleriscv" }, { "elf64ppc", "elf64-powerpc" }, { "elf64lppc", "elf64-powerpcle" },
	{ "elf32ppclinux", "elf32-powerpc" }, { "elf64_s390", "elf64-s390" }, { "elf_x86_64_fbsd", "elf64-x86-64-freebsd" },
};

static const char *target_of(const char *emulation)
{
	for (size_t i = 0; emulation && i < sizeof(targets) / sizeof(*targets); i++)
		if (!strcmp(targets[i].emulation, emulation))
			return targets[i].target;
	return NULL;
}

static int known_target(const char *name)
{
	for (size_t i = 0; i < sizeof(targets) / sizeof(*targets); i++)
		if (!strcmp(targets[i].target, name))
			return 1;
	return 0;
}

/* A text file found: the target its OUTPUT_FORMAT names when that is another than the link's, else NULL (malloc'd). */
static char *foreign_script(const struct lk_line *line, const char *path)
{
	struct lk_buf text = LK_BUF_INIT;
	struct lk_err err = LK_ERR_INIT;
	struct lk_script s;
	const char *own = target_of(line->emulation);
	char *found = NULL;

	if (!own || lk_buf_read_file(&text, path, (size_t)1 << 20) < 0) {
		lk_buf_release(&text);
		return NULL;
	}
	lk_script_parse(text.buf, path, &s, &err);
	/* A name not in the table: GNU ld's compatibility rules for it are not modelled, it is read. */
	if (s.output_format && strcmp(s.output_format, own) && known_target(s.output_format))
		found = lk_xstrdup(s.output_format);
	lk_script_release(&s);
	lk_buf_release(&text);
	return found;
}

static char *join(const char *dir, const char *name)
{
	struct lk_buf b = LK_BUF_INIT;

	lk_buf_addf(&b, "%s%s%s", dir, *dir && dir[strlen(dir) - 1] == '/' ? "" : "/", name);
	return lk_buf_detach(&b);
}

static int is_found(const struct lk_elf_info *info)
{
	return info->kind != LK_FILE_MISSING && info->kind != LK_FILE_UNREADABLE;
}

int lk_resolve_search_lib(const struct lk_line *line, struct lk_line_item *it)
{
	const char *name = it->word + 2;
	const struct lk_strvec *lists[2] = { &line->libdirs, &line->default_dirs };
	int verbatim = name[0] == ':';

	for (int l = 0; l < ((line->facts & LK_LINE_NOSTDLIB) ? 1 : 2); l++) {
		for (size_t d = 0; d < lists[l]->nr; d++) {
			const char *dir = lists[l]->items[d];
			struct lk_buf file = LK_BUF_INIT;

			for (int pass = 0; pass < 2; pass++) {
				struct lk_elf_info info;
				char *path, *copy, *format;

				lk_buf_reset(&file);
				if (verbatim && pass)
					break;
				if (verbatim)
					lk_buf_addstr(&file, name + 1);
				else if (pass == 0 && (it->state & LK_ST_STATIC))
					continue;
				else
					lk_buf_addf(&file, "lib%s.%s", name, pass == 0 ? "so" : "a");
				path = join(dir, file.buf);
				lk_strvec_push(&it->tried, path);
				/* A bundle's copy of the candidate stands in when it is not here, or another here. */
				if ((copy = lk_resolve_bundled(line->rec, path))) {
					free(path);
					path = copy;
				}
				lk_elf_identify(path, &info);
				if (!is_found(&info)) {
					lk_elf_info_release(&info);
					free(path);
					continue;
				}
				if (line->machine && info.machine && info.machine != line->machine) {
					/* ld: "skipping incompatible X when searching for -lY" */
					struct lk_buf t = LK_BUF_INIT;

					lk_buf_addf(&t, "%s (skipped: %s, the link is %s)", path,
						    lk_elf_machine_name(info.machine),
						    lk_elf_machine_name(line->machine));
					free(it->tried.items[it->tried.nr - 1]);
					it->tried.items[it->tried.nr - 1] = lk_buf_detach(&t);
					lk_strvec_push(&it->skipped, path);
					lk_elf_info_release(&info);
					free(path);
					continue;
				}
				if (info.kind == LK_FILE_TEXT && (format = foreign_script(line, path))) {
					if (line->flavor && !strcmp(line->flavor, "lld")) {
						it->foreign_format = format;	/* lld reads it: taken */
					} else {
						/* ld: "skipping incompatible X when searching for -lY"; mold skips it too */
						struct lk_buf t = LK_BUF_INIT;

						lk_buf_addf(&t, "%s (skipped: a linker script of OUTPUT_FORMAT(%s), the link is %s)", path,
							    format, target_of(line->emulation));
						free(it->tried.items[it->tried.nr - 1]);
						it->tried.items[it->tried.nr - 1] = lk_buf_detach(&t);
						lk_strvec_push(&it->skipped, path);
						free(format);
						lk_elf_info_release(&info);
						free(path);
						continue;
					}
				}
				it->path = path;
				it->info = info;
				lk_buf_release(&file);
				return 0;
			}
			lk_buf_release(&file);
		}
	}
	return -1;
}
