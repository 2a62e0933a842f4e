/*
 * The GNU ld options lld and mold refuse (lld/ELF/Options.td, mold's
 * cmdline.cc): with one of them the link fails before any input is read
 * ("unknown argument", "unknown command line option"). Each row was
 * checked against the installed linkers: ld.lld 14.0.6, rust-lld of rustc
 * 1.95 (LLD 22.1.2) and mold 1.10.1; GNU ld 2.40 takes them all. A newer
 * lld learnt some (--print-memory-usage, --package-metadata), so the row
 * says which lld refuses it.
 */
#include <string.h>

#include "linkscope/banned.h"
#include "rp.h"

enum refused_by {
	BY_LLD14 = 1 << 0,	/* ld.lld 14 */
	BY_LLD_NEW = 1 << 1,	/* rust-lld (LLVM 22) */
	BY_MOLD = 1 << 2,	/* mold 1.10 */
};
#define BY_LLD (BY_LLD14 | BY_LLD_NEW)

static const struct {
	const char *name;	/* without dashes, up to '=' */
	unsigned by;
} refused[] = {
	{ "copy-dt-needed-entries", BY_LLD | BY_MOLD },
	{ "add-needed", BY_LLD | BY_MOLD },
	{ "no-warn-execstack", BY_LLD },
	{ "no-warn-rwx-segments", BY_LLD | BY_MOLD },
	{ "warn-rwx-segments", BY_LLD | BY_MOLD },
	{ "dynamic-list-data", BY_LLD | BY_MOLD },
	{ "dynamic-list-cpp-new", BY_LLD | BY_MOLD },
	{ "Ttext-segment", BY_LLD | BY_MOLD },
	{ "traditional-format", BY_LLD | BY_MOLD },
	{ "print-memory-usage", BY_LLD14 | BY_MOLD },
	{ "package-metadata", BY_LLD14 },
	{ "depaudit", BY_LLD | BY_MOLD },
	{ "accept-unknown-input-arch", BY_LLD | BY_MOLD },
	{ "ctf-variables", BY_LLD | BY_MOLD },
};

static unsigned mask_of(enum lk_linker linker, int lld_new)
{
	if (linker == LK_LINKER_MOLD)
		return BY_MOLD;
	return lld_new ? BY_LLD_NEW : BY_LLD14;
}

/* "--name=v", "-name v", "--name": 1 when the word spells `name`. */
static int spells(const char *word, const char *name)
{
	size_t n = strlen(name);

	if (word[0] != '-')
		return 0;
	word += word[1] == '-' ? 2 : 1;
	return !strncmp(word, name, n) && (word[n] == '\0' || word[n] == '=');
}

/*
 * The first item of `line` that `linker` refuses (lld_new: a newer lld
 * than 14, rust-lld), or NULL; a --start-group inside another is refused
 * by lld (mold takes it).
 */
const struct lk_line_item *rp_refused_option(const struct lk_line *line, enum lk_linker linker, int lld_new, long skip)
{
	unsigned mask = mask_of(linker, lld_new);
	int depth = 0;

	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];

		if (it->parent >= 0 || (skip >= 0 && it->position == skip))
			continue;
		/* By the word: the line model reads a nested one as an option (ld ignores it). */
		if (it->word && (!strcmp(it->word, "--start-group") || !strcmp(it->word, "-(")) &&
		    depth++ && linker == LK_LINKER_LLD)
			return it;
		if (it->word && (!strcmp(it->word, "--end-group") || !strcmp(it->word, "-)")) && depth)
			depth--;
		if (it->kind != LK_ITEM_OPTION || !it->word)
			continue;
		for (size_t k = 0; k < sizeof(refused) / sizeof(refused[0]); k++)
			if ((refused[k].by & mask) && spells(it->word, refused[k].name))
				return it;
	}
	return NULL;
}
