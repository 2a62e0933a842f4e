/*
 * A record's line in the directory's index (recindex.h): from the record
 * the shim has just written (what record_write.c says it wrote), or from
 * a record read back (the analyzer's rebuild). Both give the same line
 * for the same record: list's fields as lk_record_load reads them.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/recindex.h"
#include "linkscope/record.h"
#include "linkscope/vec.h"

void lk_record_index_entry(const struct lk_record *rec, struct lk_index_entry *e)
{
	memset(e, 0, sizeof(*e));
	e->summary = 1;
	e->blobs_listed = 1;
	e->start_ns = rec->start_ns;
	e->start = rec->start ? lk_xstrdup(rec->start) : NULL;
	e->has_exit = rec->has_exit;
	e->exit_status = rec->exit_status;
	e->signal = rec->signal;
	e->caller = rec->caller_name ? lk_xstrdup(rec->caller_name) : NULL;
	e->driver = lk_xstrdup(rec->args.items[0].text);
	e->output = rec->output ? lk_xstrdup(rec->output) : NULL;
}

/* The record's index line, from what was written: what lk_record_load and lk_record_index_entry would give. */
static void index_entry_of(const struct lk_record_draft *rec, const struct lk_record_written *as,
			   size_t bytes, struct lk_index_entry *e)
{
	memset(e, 0, sizeof(*e));
	e->name = rec->id;
	e->mtime_s = (int64_t)time(NULL);
	e->bytes = (int64_t)bytes;
	e->summary = 1;
	e->start_ns = rec->start_ns;
	e->start = as->start ? lk_xstrdup(as->start) : NULL;
	/* "exit_status" is an integer only when the driver ran and was not killed. */
	e->has_exit = rec->ran && !rec->signal;
	e->exit_status = e->has_exit ? rec->exit_status : 0;
	e->signal = rec->signal;
	e->caller = as->caller ? lk_xstrdup(as->caller) : NULL;
	e->driver = as->driver ? lk_xstrdup(as->driver) : NULL;
	e->output = as->output ? lk_xstrdup(as->output) : NULL;
	e->blobs_listed = 1;
	for (size_t i = 0; i < rec->kept.nr; i++) {
		LK_GROW(e->blobs.items, e->blobs.nr + 1, e->blobs.alloc);
		memcpy(e->blobs.items[e->blobs.nr].sha256, rec->kept.items[i].sha256, 65);
		e->blobs.items[e->blobs.nr++].size = rec->kept.items[i].size;
	}
}

void lk_record_index_append(const struct lk_record_draft *rec, const struct lk_record_written *as,
			    const char *dir, size_t bytes, int index_fd)
{
	struct lk_buf path = LK_BUF_INIT;
	struct lk_index_entry e;
	struct stat st;

	index_entry_of(rec, as, bytes, &e);
	/* lld's reproducer, written beside the record during the link. */
	if (rec->reproducer && !strncmp(rec->reproducer, dir, strlen(dir)) &&
	    stat(rec->reproducer, &st) == 0 && S_ISREG(st.st_mode))
		e.bytes += st.st_size;
	if (!e.driver)
		e.summary = 0;
	if (index_fd >= 0) {
		lk_index_append_fd(index_fd, &e);
	} else {
		lk_buf_addf(&path, "%s/%s", dir, LK_INDEX_NAME);
		lk_index_append(AT_FDCWD, path.buf, &e);
	}
	lk_buf_release(&path);
	e.name = NULL;
	lk_index_entry_release(&e);
}
