/*
 * The options each linker refuses, by its own option table (model/ldopt.c,
 * generated from GNU ld 2.40, lld 14, rust-lld and mold 1.10 themselves):
 * with one of them the link fails before any input is read, in the
 * linker's words ("unrecognized option '--gdb-index'", "unknown argument
 * '-no-relax', did you mean '--no-relax'", "unknown command line option:
 * -no-relax"), a value outside the set a linker takes too (lld 14's
 * --compress-debug-sections=zstd). lld also refuses a --start-group
 * inside another (mold and GNU ld take it).
 */
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/vec.h"
#include "ldopt.h"
#include "rp.h"

static enum lk_ldopt_linker table_of(enum lk_linker linker, int lld_new)
{
	if (linker == LK_LINKER_MOLD)
		return LK_LDOPT_MOLD;
	if (linker == LK_LINKER_LLD)
		return lld_new ? LK_LDOPT_LLD_NEW : LK_LDOPT_LLD14;
	return LK_LDOPT_BFD;
}

static int is_group_start(const char *w)
{
	return !strcmp(w, "--start-group") || !strcmp(w, "-(");
}

static int is_group_end(const char *w)
{
	return !strcmp(w, "--end-group") || !strcmp(w, "-)");
}

/*
 * GNU ld's table is x86's (ld/lexsup.c with the x86 ELF emulations' own
 * options): a GNU ld for another machine takes others (aarch64's
 * --fix-cortex-a53-843419), so its line is not judged by it. lld and mold
 * take the same options for every target.
 */
static int judged_by_table(const struct lk_line *line, enum lk_linker linker)
{
	static const char *const x86[] = { "elf_x86_64", "elf32_x86_64", "elf_i386", "elf_iamcu", NULL };

	return linker != LK_LINKER_BFD || !line->emulation || lk_str_in_list(line->emulation, x86);
}

/* gcc's collect2 takes -fuse-ld= and -flto* itself and never gives them to the linker (lld refuses them). */
static int collect2_own(const char *w)
{
	return lk_str_starts_with(w, "-fuse-ld=") || lk_str_starts_with(w, "-flto");
}

const struct lk_line_item *rp_refused_option(const struct lk_line *line, enum lk_linker linker, int lld_new, long skip,
					     struct lk_buf *msg, struct lk_buf *suggest)
{
	enum lk_ldopt_linker table = table_of(linker, lld_new);
	int depth = 0;

	if (!judged_by_table(line, linker))
		return NULL;
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];

		if (it->parent >= 0 || (skip >= 0 && it->position == skip) || !it->word)
			continue;
		/* By the word: the line model reads a nested one as an option (ld ignores it). */
		if (is_group_start(it->word) && depth++ && linker == LK_LINKER_LLD) {
			lk_buf_addstr(msg, "a --start-group inside another");
			return it;
		}
		if (is_group_end(it->word) && depth)
			depth--;
		if (it->kind != LK_ITEM_OPTION || is_group_start(it->word) || is_group_end(it->word) ||
		    collect2_own(it->word))
			continue;
		if (lk_ldopt_refused(table, it->word, it->value, msg, suggest))
			return it;
	}
	return NULL;
}
