/*
 * When the replay's "fails" is not a prediction of the link: outcome unknown.
 *
 * The replay reads the inputs as they are now. A failure it finds stands
 * for the link only if it does not rest on something the analysis cannot
 * see. It does when
 *  - an input cannot be read now, and the record does not prove it was
 *    missing at link time (builds delete conftest.o right after the link,
 *    CMake deletes each try_compile scratch dir): only a failed link whose
 *    fingerprint says the file was not there proves that;
 *  - an input has changed since the link (its size or mtime is not the
 *    fingerprint's): the replay reads another file than ld read;
 *  - a shared object's DT_NEEDED library is not found now, and the record
 *    does not show the link failing (ld's search for it leaves no
 *    fingerprint; a build may delete it after the link);
 *  - the object the driver compiled from a source on the line could not be
 *    made again (the source's own symbols, main among them, are unknown);
 *  - the driver's own additions (crt files, -lc) are unknown: the record
 *    has no -### expansion and the driver was not run, or its expansion
 *    passes the inputs through gcc's temporary response files (atfile.c).
 * A thin archive's member the replay could not tell (gone, or changed
 * since the archive was made) is one more such reason.
 * A predicted success needs no such check: what is missing can only take
 * definitions away, and with them the success. Nor does a failure when
 * the record proves an input missing when ld ran, or ld cannot use an input
 * unchanged since the link (usable.c: another machine, bitcode, a broken
 * script, a file cut short): ld fails at it, whatever the others would
 * have given.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atfile.h"
#include "certainty.h"
#include "fingerprint.h"
#include "linkscope/argv.h"
#include "linkscope/banned.h"
#include "linkscope/buf.h"

static int cannot_read(const struct lk_line_item *it)
{
	return (it->kind == LK_ITEM_FILE || it->kind == LK_ITEM_LIB) &&
	       (it->info.kind == LK_FILE_MISSING || it->info.kind == LK_FILE_UNREADABLE);
}

/* The driver compiled this object from the source at its position. */
static const char *compiled_from(const struct lk_record *rec, const struct lk_line_item *it)
{
	const char *arg;

	if (it->kind != LK_ITEM_FILE || it->parent >= 0 || it->position < 0 ||
	    (size_t)it->position >= rec->args.nr)
		return NULL;
	arg = rec->args.items[it->position].text;
	return strcmp(arg, it->word) && lk_argv_is_driver_temp(it->word) ? arg : NULL;
}

/* A file or -l of the line that was not there when the link failed. */
static int fingerprint_says_missing(const struct lk_record *rec, const struct lk_line_item *it)
{
	const struct lk_record_seen *s = lk_fingerprint_of(rec, it);

	return s && !s->existed && rec->has_exit && rec->exit_status != 0;
}

/*
 * The record proves ld could not open it either. A file: the link failed
 * and the fingerprint says the file was not there. A -l: the search is
 * ld's own over the same dirs, so not finding it stands unless a candidate
 * the fingerprint saw in the line's -L dirs is gone now (-Bstatic may have
 * ignored a .so that was there: that proves nothing either way).
 */
static int missing_at_link_time(const struct lk_record *rec, const struct lk_line_item *it)
{
	const struct lk_record_seen *s = lk_fingerprint_of(rec, it);
	char *path;
	int gone;

	/* A script's "$SYSROOT/x" its linker takes as a plain name (lld, mold: model/resolve.c) names no file. */
	if (it->kind == LK_ITEM_FILE && it->parent >= 0 && !strncmp(it->word, "$SYSROOT", 8) && it->path &&
	    strstr(it->path, "$SYSROOT"))
		return 1;
	if (it->kind == LK_ITEM_FILE)
		return fingerprint_says_missing(rec, it);
	if (!s || !s->existed || !s->path)
		return 1;
	path = lk_fingerprint_path(rec, s->path);
	gone = access(path, F_OK) != 0;
	free(path);
	return !gone;
}

/* The file a -l found when ld ran, per the fingerprint, or NULL. */
static const char *library_then(const struct lk_record *rec, const struct lk_line_item *it)
{
	const struct lk_record_seen *s = lk_fingerprint_of(rec, it);

	return it->kind == LK_ITEM_LIB && !it->path && s && s->existed ? s->path : NULL;
}

static void because_of_item(const struct lk_record *rec, const struct lk_line_item *it,
			    struct lk_buf *why)
{
	const char *source = compiled_from(rec, it);

	if (why->len)
		lk_buf_addstr(why, "; ");
	if (source)
		lk_buf_addf(why, "the object the driver compiled from '%s' (at %ld) is not available now (%s), so the symbols it defines are unknown",
			    source, it->position, it->note ? it->note : "not compiled again");
	else if (cannot_read(it))
		lk_buf_addf(why, "'%s'%s%s%s cannot be read now, and the record does not show it missing when ld ran",
			    it->path ? it->path : it->word, it->position >= 0 ? "" : " (added by the driver)",
			    library_then(rec, it) ? ", which was " : "", library_then(rec, it) ? library_then(rec, it) : "");
	else
		lk_buf_addf(why, "'%s' " LK_CERTAINTY_CHANGED " (size or time differs from the record's fingerprint)",
			    it->path);
}

static const char *needed_by_name(const struct lk_line *line, const struct lk_needed *n)
{
	const struct lk_line_item *it;

	if (n->needed_by < 0 || (size_t)n->needed_by >= line->items.nr)
		return n->parent >= 0 ? line->needed.items[n->parent].name : "?";
	it = &line->items.items[n->needed_by];
	return it->path ? it->path : it->word;
}

/* Why the replay does not read the inputs ld read (one changed since, one unreadable now), added to `why`. */
static void inputs_not_as_linked(const struct lk_record *rec, const struct lk_line *line, struct lk_buf *why)
{
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];

		if (cannot_read(it) ? !missing_at_link_time(rec, it) : lk_fingerprint_changed(rec, it))
			because_of_item(rec, it, why);
	}
}

char *lk_certainty_unknown(const struct lk_record *rec, const struct lk_line *line,
			   const struct lk_replay *rp)
{
	struct lk_buf why = LK_BUF_INIT;
	int failing = 0;

	for (int l = 0; l < LK_LINKER_COUNT; l++)
		failing += !rp->linkers[l].success;
	if (!failing)
		return NULL;
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];

		if ((cannot_read(it) && fingerprint_says_missing(rec, it)) ||
		    (it->unusable && !lk_fingerprint_changed(rec, it)))
			return NULL;
	}
	if (line->driver_part == LK_DRIVER_FROM_RECORD && lk_atfile_count(&rec->linker_argv))
		lk_buf_addstr(&why, "the record's -### expansion passes the inputs through gcc's own temporary response files, gone now: what the driver itself added among them (g++'s -lstdc++, -lm) is unknown");
	if (line->driver_part == LK_DRIVER_UNKNOWN)
		lk_buf_addf(&why, "%sthe driver's additions (crt files, default dirs, -lc) are unknown: the record has no -### expansion and the driver was not run",
			    why.len ? "; " : "");
	inputs_not_as_linked(rec, line, &why);
	for (size_t i = 0; i < rp->untold.nr; i++)
		lk_buf_addf(&why, "%s%s", why.len ? "; " : "", rp->untold.items[i]);
	/* What only GCC's LTO plugin reads leaves GNU ld's and mold's lines unknown; an lld line is told (lld reads none of it). */
	for (size_t i = 0; lk_linker_of_flavor(line->flavor) != LK_LINKER_LLD && i < rp->untold_plugin.nr; i++)
		lk_buf_addf(&why, "%s%s", why.len ? "; " : "", rp->untold_plugin.items[i]);
	for (size_t i = 0; i < line->needed.nr; i++) {
		const struct lk_needed *n = &line->needed.items[i];

		if (n->path || n->on_line_as || (rec->has_exit && rec->exit_status != 0))
			continue;
		if (why.len)
			lk_buf_addstr(&why, "; ");
		lk_buf_addf(&why, "'%s', needed by '%s', is not found now, and the record does not show ld failing",
			    n->name, needed_by_name(line, n));
	}
	return why.len ? lk_buf_detach(&why) : NULL;
}

char *lk_certainty_disagreement(const struct lk_record *rec, const struct lk_line *line,
				const struct lk_replay *rp, int *misread)
{
	enum lk_linker own = lk_linker_of_flavor(line->flavor);
	int linked = rec->has_exit && rec->exit_status == 0;
	struct lk_buf why = LK_BUF_INIT, inputs = LK_BUF_INIT;

	if (misread)
		*misread = 0;
	if (!rec->has_exit || rp->linkers[own].success == linked)
		return NULL;
	lk_buf_addf(&why, "the replay under %s's rules says the link %s, where the recorded link %s (exit %d)",
		    own == LK_LINKER_BFD ? "GNU ld" : lk_linker_name(own), rp->linkers[own].success ? "links" : "fails",
		    linked ? "succeeded" : "failed", rec->exit_status);
	/* A rebuild since the link (cargo's build scripts write their archives in place) is no misreading. */
	inputs_not_as_linked(rec, line, &inputs);
	if (inputs.len) {
		lk_buf_addf(&why, ": it reads other inputs than ld did: %s", inputs.buf);
	} else {
		lk_buf_addstr(&why, ": the model misreads this line");
		if (misread)
			*misread = 1;
	}
	lk_buf_release(&inputs);
	return lk_buf_detach(&why);
}
