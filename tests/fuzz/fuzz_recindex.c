/*
 * libFuzzer target: the record dir's index (common/recindex.c), read from
 * a record dir as untrusted input. What the parser takes must write back to
 * lines that parse to the same entries (a line too long for PIPE_BUF is
 * written shorter, with fewer fields known: then those it keeps must agree).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/recindex.h"

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static void check_same(const struct lk_index_entry *a, const struct lk_index_entry *b)
{
	if (strcmp(a->name, b->name) || a->mtime_s != b->mtime_s || a->bytes != b->bytes)
		abort();
	if (b->summary && (!a->summary || !same_str(a->id, b->id) || a->start_ns != b->start_ns ||
			   !same_str(a->start, b->start) || a->has_exit != b->has_exit ||
			   a->exit_status != b->exit_status || a->signal != b->signal ||
			   !same_str(a->caller, b->caller) || !same_str(a->driver, b->driver) ||
			   !same_str(a->output, b->output)))
		abort();
	if (b->blobs_listed && (!a->blobs_listed || a->blobs.nr != b->blobs.nr))
		abort();
	for (size_t i = 0; b->blobs_listed && i < b->blobs.nr; i++)
		if (strcmp(a->blobs.items[i].sha256, b->blobs.items[i].sha256) ||
		    a->blobs.items[i].size != b->blobs.items[i].size)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lk_err err = LK_ERR_INIT;
	struct lk_index idx, again;
	struct lk_buf text = LK_BUF_INIT;

	if (lk_index_parse((const char *)data, size, "fuzz", &idx, &err) == 0) {
		for (size_t i = 0; i < idx.entries.nr; i++)
			lk_index_format(&idx.entries.items[i], &text);
		if (lk_index_parse(text.buf ? text.buf : "", text.len, "again", &again, &err) < 0 ||
		    again.entries.nr != idx.entries.nr)
			abort();
		for (size_t i = 0; i < idx.entries.nr; i++)
			check_same(&idx.entries.items[i], &again.entries.items[i]);
		lk_index_sort_by_name(&again);
		for (size_t i = 0; i < idx.entries.nr; i++)
			if (!lk_index_find(&again, idx.entries.items[i].name))
				abort();
		lk_index_release(&again);
	}
	lk_index_release(&idx);
	lk_buf_release(&text);
	return 0;
}
