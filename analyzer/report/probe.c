/*
 * Records -> probe or build link (see probe.h). Each build system names
 * its probes' files and directories in its own way, fixed in its sources:
 * autoconf's AC_LINK_IFELSE links conftest.c (or .cc, .f) to
 * conftest$ac_exeext in the configure directory; CMake's try_compile
 * builds in CMakeFiles/CMakeScratch/TryCompile-XXXXXX (3.25 on) or
 * CMakeFiles/CMakeTmp (before); meson's sanity check links
 * meson-private/sanitycheckc.exe, its compiler checks a testfile.c into
 * output.exe in a meson-private/tmpXXXXXXXX directory; cc-rs's
 * is_flag_supported compiles flag_check.c in the build script's OUT_DIR.
 * Only names are looked at: nothing is read or run.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/err.h"
#include "linkscope/vec.h"
#include "probe.h"

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* "conftest", "conftest.exe", "conftest.c", "conftest.o", "conftest2.o": autoconf's names. */
static int conftest_name(const char *p)
{
	const char *b = base(p);

	return !strncmp(b, "conftest", 8) && (!b[8] || b[8] == '.' || (b[8] >= '0' && b[8] <= '9'));
}

/* What a path (the output, the cwd, an input) says of the probe it belongs to, or NULL. */
static const char *probe_of_path(const char *p)
{
	const char *mp = strstr(p, "meson-private/");

	if (strstr(p, "/CMakeScratch/TryCompile-") || strstr(p, "CMakeFiles/CMakeTmp"))
		return "CMake try_compile";
	if (mp && (!strncmp(mp + 14, "sanitycheck", 11) || !strncmp(mp + 14, "tmp", 3)))
		return "meson compiler check";
	if (!strncmp(base(p), "flag_check", 10))
		return "cargo build-script probe";
	if (conftest_name(p))
		return "autoconf conftest";
	return NULL;
}

const char *lk_probe_of(const struct lk_record *rec)
{
	const char *kind;

	if (rec->output && (kind = probe_of_path(rec->output)))
		return kind;
	if (rec->cwd && (kind = probe_of_path(rec->cwd)))
		return kind;
	/* A probe's cwd may be the build dir (meson, autoconf's): its inputs still say it. */
	for (size_t i = 1; i < rec->args.nr; i++)
		if (rec->args.items[i].text[0] != '-' && (kind = probe_of_path(rec->args.items[i].text)))
			return kind;
	return NULL;
}

char *lk_probe_output_path(const struct lk_record *rec)
{
	const char *out = rec->output ? rec->output : "a.out";
	struct lk_buf b = LK_BUF_INIT;

	if (out[0] != '/' && rec->cwd)
		lk_buf_addf(&b, "%s/", rec->cwd);
	lk_buf_addstr(&b, out);
	return lk_buf_detach(&b);
}

/* The successful links that may supersede a failure: when, and the output's absolute path. */
struct success {
	int64_t start_ns;
	char *output;
};

struct successes {
	struct success *items;
	size_t nr, alloc;
};

/* Is `name`'s base the base of one of the failed records' outputs? */
static int output_base_of(const struct lk_record *recs, size_t nr, const char *name)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(base(recs[i].output ? recs[i].output : "a.out"), base(name)))
			return 1;
	return 0;
}

/* The successful links of `rd` that may be a failure's later link: only those of a failed output's name are read. */
static void read_successes(const struct lk_recdir *rd, const struct lk_record *recs, size_t nr, struct successes *out)
{
	for (size_t i = 0; i < rd->entries.nr; i++) {
		const struct lk_index_entry *e = &rd->entries.items[i];
		struct lk_err err = LK_ERR_INIT;
		struct lk_record rec;
		char *path;

		if (lk_recdir_failed(e) || (e->output && !output_base_of(recs, nr, e->output)))
			continue;
		path = lk_recdir_path(rd, e);
		/* One that cannot be read supersedes nothing; `list` says why. */
		if (lk_record_load(path, &rec, &err) == 0) {
			LK_GROW(out->items, out->nr + 1, out->alloc);
			out->items[out->nr].start_ns = rec.start_ns;
			out->items[out->nr++].output = lk_probe_output_path(&rec);
			lk_record_release(&rec);
		}
		free(path);
	}
}

static int superseded(const struct successes *ok, const struct lk_record *rec)
{
	char *out = lk_probe_output_path(rec);
	int found = 0;

	for (size_t i = 0; !found && i < ok->nr; i++)
		found = ok->items[i].start_ns > rec->start_ns && !strcmp(ok->items[i].output, out);
	free(out);
	return found;
}

void lk_probe_filter(const struct lk_recdir *rd, struct lk_record *recs, size_t *nr, struct lk_probe_filter *f)
{
	struct successes ok = { NULL, 0, 0 };
	size_t kept = 0;

	if (!f->keep_superseded && *nr)
		read_successes(rd, recs, *nr, &ok);
	for (size_t i = 0; i < *nr; i++) {
		if (!f->keep_probes && lk_probe_of(&recs[i])) {
			f->probes++;
			lk_record_release(&recs[i]);
		} else if (!f->keep_superseded && superseded(&ok, &recs[i])) {
			f->superseded++;
			lk_record_release(&recs[i]);
		} else {
			recs[kept++] = recs[i];
		}
	}
	*nr = kept;
	for (size_t i = 0; i < ok.nr; i++)
		free(ok.items[i].output);
	free(ok.items);
}
