/*
 * The record's fingerprints against the files as they are now.
 *
 * The shim notes, for each input the driver's argv names (and for a -l,
 * each candidate it looked at), whether it existed, its size and mtime.
 * certainty.c uses them to tell what the analysis cannot know; resolve.c
 * to read the copy the shim kept instead of a file rewritten since.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fingerprint.h"
#include "linkscope/banned.h"
#include "linkscope/buf.h"

const struct lk_record_seen *lk_fingerprint_of(const struct lk_record *rec, const struct lk_line_item *it)
{
	if (it->parent >= 0)
		return NULL;
	for (size_t i = 0; i < rec->seen.nr; i++)
		if (rec->seen.items[i].index == it->position)
			return &rec->seen.items[i];
	return NULL;
}

char *lk_fingerprint_path(const struct lk_record *rec, const char *path)
{
	struct lk_buf b = LK_BUF_INIT;

	while (path[0] == '.' && path[1] == '/')
		path += 2;
	if (path[0] == '/' || !rec->cwd)
		lk_buf_addstr(&b, path);
	else
		lk_buf_addf(&b, "%s/%s", rec->cwd, path);
	return lk_buf_detach(&b);
}

int lk_fingerprint_changed(const struct lk_record *rec, const struct lk_line_item *it)
{
	const struct lk_record_seen *s = lk_fingerprint_of(rec, it);
	struct stat st;
	char *path;
	int changed;

	if (!s || !s->existed || !s->path || !it->path || it->info.kind == LK_FILE_MISSING)
		return 0;
	path = lk_fingerprint_path(rec, s->path);
	changed = !strcmp(path, it->path) && stat(path, &st) == 0 &&
		  (st.st_size != s->size ||
		   (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec != s->mtime_ns);
	free(path);
	return changed;
}
