/*
 * A record's line in the directory's index (recindex.h): from the record
 * the shim has just written (its JSON tree, redacted as written), or from
 * a record read back (the analyzer's rebuild). Both give the same line
 * for the same record: list's fields as lk_record_load reads them.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <jansson.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/json.h"
#include "linkscope/recindex.h"
#include "linkscope/record.h"
#include "linkscope/vec.h"

/* The outcome as list tells it, from the record's "result". */
static void entry_outcome(json_t *result, struct lk_index_entry *e)
{
	json_t *status = json_object_get(result, "exit_status");

	e->has_exit = json_is_integer(status);
	e->exit_status = (int)json_integer_value(status);
	e->signal = (int)json_integer_value(json_object_get(result, "signal"));
}

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

/*
 * The record's index line, from what was written (redacted as the record
 * is): what lk_record_load and lk_record_index_entry would give.
 */
static void index_entry_of(json_t *root, const struct lk_record_draft *rec, size_t bytes,
			   struct lk_index_entry *e)
{
	json_t *caller = json_object_get(root, "caller");
	json_t *name = json_object_get(caller, "name");
	json_t *output = json_object_get(json_object_get(root, "line"), "output");
	json_t *start = json_object_get(json_object_get(root, "time"), "start");
	const char *kind = json_string_value(json_object_get(caller, "kind"));

	memset(e, 0, sizeof(*e));
	e->name = rec->id;
	e->mtime_s = (int64_t)time(NULL);
	e->bytes = (int64_t)bytes;
	e->summary = 1;
	e->start_ns = rec->start_ns;
	e->start = json_is_string(start) ? lk_xstrdup(json_string_value(start)) : NULL;
	entry_outcome(json_object_get(root, "result"), e);
	e->caller = kind && !strcmp(kind, "rustc") ? lk_xstrdup("rustc") :
		    json_is_null(name) || !name ? NULL : lk_json_bytes(name);
	e->driver = lk_json_bytes(json_array_get(json_object_get(root, "argv_expanded"), 0));
	e->output = json_is_null(output) || !output ? NULL : lk_json_bytes(output);
	e->blobs_listed = 1;
	for (size_t i = 0; i < rec->kept.nr; i++) {
		LK_GROW(e->blobs.items, e->blobs.nr + 1, e->blobs.alloc);
		memcpy(e->blobs.items[e->blobs.nr].sha256, rec->kept.items[i].sha256, 65);
		e->blobs.items[e->blobs.nr++].size = rec->kept.items[i].size;
	}
}

void lk_record_index_append(json_t *root, const struct lk_record_draft *rec, const char *dir, size_t bytes)
{
	struct lk_buf path = LK_BUF_INIT;
	struct lk_index_entry e;
	struct stat st;

	index_entry_of(root, rec, bytes, &e);
	/* lld's reproducer, written beside the record during the link. */
	if (rec->reproducer && !strncmp(rec->reproducer, dir, strlen(dir)) &&
	    stat(rec->reproducer, &st) == 0 && S_ISREG(st.st_mode))
		e.bytes += st.st_size;
	if (!e.driver)
		e.summary = 0;
	lk_buf_addf(&path, "%s/%s", dir, LK_INDEX_NAME);
	lk_index_append(AT_FDCWD, path.buf, &e);
	lk_buf_release(&path);
	e.name = NULL;
	lk_index_entry_release(&e);
}
