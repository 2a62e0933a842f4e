/*
 * RECORD as the commands open it: the one place a command's RECORD is
 * read (a record file, a bundle, an id, last, -), its kept copies checked
 * (common/private.c), its line model built by the stages in turn; a
 * second load for whatif; and, for a bundle, its copies named in what the
 * command prints as the link named the files (records.h).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/err.h"
#include "linkscope/file.h"
#include "linkscope/private.h"
#include "linkscope/record.h"
#include "linkscope/runcmd.h"
#include "linkscope/vec.h"
#include "bundle.h"
#include "fingerprint.h"
#include "recdir.h"
#include "records.h"
#include "resolve.h"
#include "warn.h"

/*
 * Keep from `rec` only the kept copies that are the user's and hold what
 * their names say (common/private.c), saying once on stderr why any other
 * is not used. `said` (may be NULL: this record alone) holds what was said
 * already for other records of this run.
 */
void lk_records_check_kept(const struct lk_options *opt, struct lk_record *rec, struct lk_strvec *said)
{
	struct lk_strvec own = LK_STRVEC_INIT, *notes = said ? said : &own;
	size_t before = notes->nr;

	lk_private_check_kept(rec, opt->dir_shared, notes);
	for (size_t i = before; i < notes->nr; i++)
		fprintf(stderr, "linkscope: %s\n", notes->items[i]);
	lk_strvec_release(&own);
}

/*
 * A bundle named as RECORD (`file`, `bundle` as the user gave it): unpacked into a private dir that the record
 * owns from now on (rec->unpacked, removed by lk_record_release), its
 * files registered as kept copies of their original paths (bundle.c).
 * 0, or -1 with `err`.
 */
static int load_bundle(const char *file, const char *bundle, struct lk_record *rec, struct lk_err *err)
{
	struct lk_buf path = LK_BUF_INIT;
	char *dir = lk_bundle_unpack(file, bundle, err);

	if (!dir)
		return -1;
	lk_buf_addf(&path, "%s/record.json", dir);
	if (lk_record_load_as(path.buf, "record.json", rec, err) < 0) {
		char why[sizeof(err->msg)];

		memcpy(why, err->msg, sizeof(why));
		lk_err_set(err, err->code, "bundle '%s': %s", bundle, why);
		lk_scratch_remove(dir);
		free(dir);
		lk_buf_release(&path);
		return -1;
	}
	lk_buf_release(&path);
	rec->unpacked = dir;
	/* The outputs name the bundle as the user gave it; rec->dir stays where its blobs are. */
	free(rec->path);
	rec->path = lk_xstrdup(bundle);
	if (lk_bundle_adopt(rec, dir, bundle, err) < 0) {
		lk_record_release(rec);
		return -1;
	}
	return 0;
}

/* May `s` stand in the outputs as it is: nothing JSON would escape? */
static int plain(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == '"' || *s == '\\' || *s == 0x7f)
			return 0;
	return 1;
}

/*
 * The names the outputs give a bundle's copies (main() puts them back in
 * what the command printed): each copy's path by its original path, and
 * its bare SHA-256 (what a line names by its file name) by the original's
 * file name. Pairs in opt->shown; none when main() is not collecting them.
 */
static void name_copies(const struct lk_options *opt, const struct lk_record *rec)
{
	for (size_t i = 0; opt->shown && i < rec->kept.nr; i++) {
		const struct lk_record_kept *k = &rec->kept.items[i];
		struct lk_buf copy = LK_BUF_INIT;
		char *orig = lk_fingerprint_path(rec, k->path);

		/* A blob is named by 64 hex digits (lk_records_put_names_back finds them so); a longer name is left as its copy's. */
		if (plain(orig) && strlen(orig) < PATH_MAX && !strncmp(k->blob, "blobs/", 6) && strlen(k->blob) == 6 + 64) {
			lk_buf_addf(&copy, "%s/%s", rec->dir, k->blob);
			lk_strvec_push(opt->shown, copy.buf);
			lk_strvec_push(opt->shown, orig);
			lk_strvec_push(opt->shown, k->blob + 6);
			lk_strvec_push(opt->shown, lk_path_base(orig));
		}
		lk_buf_release(&copy);
		free(orig);
	}
}

/*
 * Load RECORD (`which`: as lk_recdir_resolve() takes it: a record file, a
 * bundle, an id, last, -), keeping its file's text in `text` when not
 * NULL. The one place every command's RECORD is read. 0, or 1 after
 * saying why.
 */
int lk_records_open(const struct lk_options *opt, const char *which, struct lk_record *rec, struct lk_buf *text)
{
	struct lk_err err = LK_ERR_INIT;
	char *path;
	int is_temp, loaded;

	if (!(path = lk_recdir_resolve(opt->dir, which, &is_temp, &err))) {
		fprintf(stderr, "linkscope: %s\n", err.msg);
		return 1;
	}
	/* Recognised by content: a bundle is a bundle whatever its name, or on stdin. */
	if (lk_bundle_is(path))
		loaded = load_bundle(path, is_temp ? "-" : path, rec, &err);
	else
		loaded = lk_record_load(path, rec, &err);
	if (loaded == 0 && text) {
		/* `bundle` carries the record's own text, byte for byte. */
		struct lk_buf file = LK_BUF_INIT;

		lk_buf_addf(&file, "%s%s", rec->unpacked ? rec->unpacked : path, rec->unpacked ? "/record.json" : "");
		if (lk_buf_read_file(text, file.buf, LK_RECORD_MAX_BYTES) < 0) {
			loaded = lk_err_errno(&err, "cannot read record '%s'", file.buf);
			lk_record_release(rec);
		}
		lk_buf_release(&file);
	}
	if (is_temp)
		unlink(path);	/* read: the record is in memory now */
	free(path);
	if (loaded < 0) {
		fprintf(stderr, "linkscope: %s\n", err.msg);
		return 1;
	}
	if (is_temp && !rec->unpacked) {
		/* The outputs name the record as the user gave it, not the temporary copy. */
		free(rec->path);
		rec->path = lk_xstrdup("-");
	}
	lk_records_check_kept(opt, rec, NULL);
	if (rec->unpacked)
		name_copies(opt, rec);
	return 0;
}

/* `again`'s kept copies: those lk_private_check_kept left `checked` (a second load of it), not hashed twice. */
static void keep_checked_copies(struct lk_record *again, const struct lk_record *checked)
{
	size_t kept = 0;

	for (size_t i = 0; i < again->kept.nr; i++) {
		struct lk_record_kept *k = &again->kept.items[i];
		int ok = 0;

		for (size_t j = 0; j < checked->kept.nr && !ok; j++)
			ok = k->blob && checked->kept.items[j].blob && !strcmp(k->blob, checked->kept.items[j].blob) &&
			     !strcmp(k->path, checked->kept.items[j].path);
		if (ok) {
			again->kept.items[kept++] = *k;
		} else {
			free(k->path);
			free(k->blob);
			free(k->reason);
		}
	}
	again->kept.nr = kept;
}

/* Build the line model of a loaded record; 0, or 1 after saying why (the record released). */
int lk_records_build_line(const struct lk_options *opt, struct lk_record *rec, struct lk_line *line)
{
	struct lk_line_options lopt = { opt->run_driver, opt->walls };
	struct lk_err err = LK_ERR_INIT;

	if (lk_line_build(rec, &lopt, line, &err) < 0) {
		fprintf(stderr, "linkscope: %s\n", err.msg);
		lk_record_release(rec);
		return 1;
	}
	lk_resolve_line(rec, line);
	lk_warn_line(rec, line);
	/* A bundle analysed elsewhere: what the link read and is neither here nor in it, said. */
	if (rec->unpacked)
		lk_bundle_say_absent(rec, line);
	return 0;
}

/* Load RECORD (`which`: as lk_recdir_resolve() takes it) and build its line model; 0, or 1 after saying why. */
int lk_records_load_line_of(const struct lk_options *opt, const char *which, struct lk_record *rec,
			struct lk_line *line)
{
	if (lk_records_open(opt, which, rec, NULL))
		return 1;
	return lk_records_build_line(opt, rec, line);
}

/*
 * RECORD into `rec` and a second time into `again` (whatif makes the
 * second its prediction's): from the first's text (RECORD may be stdin),
 * or for a bundle from the record it unpacked, its copies adopted again
 * (`rec` keeps the unpacked dir and removes it). 0, or 1 after saying why.
 */
int lk_records_load_twice(const struct lk_options *opt, const char *which, struct lk_record *rec, struct lk_record *again)
{
	struct lk_buf text = LK_BUF_INIT, tmp = LK_BUF_INIT;
	struct lk_err err = LK_ERR_INIT;
	int fd = -1, rc = -1;

	if (lk_records_open(opt, which, rec, &text))
		return 1;
	if (rec->unpacked) {
		lk_buf_addf(&tmp, "%s/record.json", rec->unpacked);
		rc = lk_record_load_as(tmp.buf, "record.json", again, &err);
		if (rc == 0 && (rc = lk_bundle_adopt(again, rec->unpacked, rec->path, &err)) < 0)
			lk_record_release(again);
	} else {
		lk_buf_addf(&tmp, "%s/linkscope-whatif.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if ((fd = mkstemp(tmp.buf)) < 0 || lk_fd_write_all(fd, text.buf, text.len) < 0)
			lk_err_errno(&err, "cannot write a copy of '%s' in '%s'", rec->path, tmp.buf);
		else if ((rc = lk_record_load(tmp.buf, again, &err)) == 0) {
			free(again->path);
			again->path = lk_xstrdup(rec->path);
			free(again->dir);
			again->dir = lk_xstrdup(rec->dir);	/* its blobs are the first's */
		}
		if (fd >= 0) {
			close(fd);
			unlink(tmp.buf);
		}
	}
	lk_buf_release(&text);
	lk_buf_release(&tmp);
	if (rc < 0) {
		fprintf(stderr, "linkscope: %s\n", err.msg);
		lk_record_release(rec);
		return 1;
	}
	keep_checked_copies(again, rec);
	return 0;
}

int lk_records_load_line(const struct lk_options *opt, struct lk_record *rec, struct lk_line *line)
{
	return lk_records_load_line_of(opt, opt->record, rec, line);
}

/* Does the command name a bundle as a file (stdin's is not looked at before it is read)? */
int lk_records_name_a_bundle(const struct lk_options *opt)
{
	const char *others[] = { opt->record_b, opt->baseline };

	if (opt->cmd == LK_CMD_BUNDLE)
		return 0;
	for (size_t i = 0; i < opt->records.nr; i++)
		if (strcmp(opt->records.items[i], "-") && lk_bundle_is(opt->records.items[i]))
			return 1;
	for (size_t i = 0; i < 2; i++)
		if (others[i] && strcmp(others[i], "-") && lk_bundle_is(others[i]))
			return 1;
	return 0;
}

/* One copy's names (name_copies' four strings): its path, its original's, its blob's SHA-256, the original's file name. */
struct copy_names {
	const char *copy, *orig, *sha, *base;
	size_t order;		/* its place in name_copies' list: the first of a SHA-256 given twice wins */
};

static int by_sha(const void *a, const void *b)
{
	const struct copy_names *x = a, *y = b;
	int c = strcmp(x->sha, y->sha);

	return c ? c : x->order < y->order ? -1 : x->order > y->order;
}

/* The first copy whose blob is the 64 bytes at `p`, or NULL. */
static const struct copy_names *copy_of(const struct copy_names *v, size_t nr, const char *p)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strncmp(v[mid].sha, p, 64) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nr && !strncmp(v[lo].sha, p, 64) ? &v[lo] : NULL;
}

static int is_lower_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/*
 * What a command printed about a bundle, to `out`, each copy named as the
 * link named it (name_copies' names): a copy's path by its original's
 * path, its bare SHA-256 (what a line names by its file name) by the
 * original's file name, so that the outputs of a bundle and of its record
 * say the same. The blobs' names are 64 hex digits: no other text is one.
 * One pass over `text`, each name found in it replaced once: a
 * replacement is never read again (the manifest chooses the names, and
 * rescanning let each of them double the output). The output is at most
 * `len` times 1 + PATH_MAX / 64 (name_copies' bound on a name).
 */
void lk_records_put_names_back(FILE *out, const char *text, size_t len, const struct lk_strvec *shown)
{
	size_t nr = shown->nr / 4, done = 0, hexend = 0;
	struct copy_names *v = lk_xcalloc(nr ? nr : 1, sizeof(*v));

	for (size_t i = 0; i < nr; i++)
		v[i] = (struct copy_names){ shown->items[4 * i], shown->items[4 * i + 1], shown->items[4 * i + 2],
					    shown->items[4 * i + 3], i };
	qsort(v, nr, sizeof(*v), by_sha);
	for (size_t i = 0; nr && i + 64 <= len; i++) {
		const struct copy_names *c;
		size_t clen, at;

		if (hexend <= i)
			for (hexend = i; hexend < len && is_lower_hex(text[hexend]); hexend++)
				;
		if (hexend - i < 64 || !(c = copy_of(v, nr, text + i)))
			continue;
		/* Its copy's path ends here ("DIR/blobs/SHA"): the whole path goes, else the SHA-256 alone. */
		clen = strlen(c->copy);
		at = i + 64 >= clen && i + 64 - clen >= done && !memcmp(text + i + 64 - clen, c->copy, clen) ?
		     i + 64 - clen : i;
		fwrite(text + done, 1, at - done, out);
		fputs(at < i ? c->orig : c->base, out);
		done = i + 64;
		i = done - 1;
	}
	fwrite(text + done, 1, len - done, out);
	free(v);
}
