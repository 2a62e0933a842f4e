/*
 * The unit tests' line items: a file of a test dir appended to a line as
 * the line model would give it (test_replay.c, test_trial.c).
 */
#ifndef TESTS_UNIT_TESTLINE_H
#define TESTS_UNIT_TESTLINE_H

#include <stdio.h>
#include <string.h>

#include "elf.h"
#include "line.h"
#include "linkscope/vec.h"

static inline struct lk_line_item *add_file(struct lk_line *line, const char *dir, const char *name)
{
	struct lk_line_item *it;
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	LK_GROW(line->items.items, line->items.nr + 1, line->items.alloc);
	it = &line->items.items[line->items.nr];
	memset(it, 0, sizeof(*it));
	it->kind = LK_ITEM_FILE;
	it->word = lk_xstrdup(path);
	it->path = lk_xstrdup(path);
	it->position = (long)line->items.nr + 1;
	it->group = -1;
	it->parent = -1;
	for (int i = 0; i < LK_ST_COUNT; i++)
		it->since[i] = -1;
	lk_elf_identify(path, &it->info);
	line->items.nr++;
	return it;
}

#endif
