/*
 * Line model -> inputs: -lNAME and -l:FILE found as ld/ldfile.c's
 * ldfile_open_file_search finds them: the -L dirs, all of them for every
 * -l, then the linker's SEARCH_DIRs (none under -nostdlib);
 * lib<name>.so before lib<name>.a in each dir unless -Bstatic; -l:file
 * literally; a file of another machine skipped ("skipping incompatible X
 * when searching for -lY"), and kept in the item's `skipped` for the
 * explanation of a "cannot find" (explain/notfound.c). A bundle's copy of
 * a candidate (lk_resolve_bundled) is read in its place, as ld read it.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "resolve.h"

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
				char *path, *copy;

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
