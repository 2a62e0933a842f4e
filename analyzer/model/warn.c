/*
 * Line model -> line-level warnings, which need no symbol tables.
 *
 * Each check is one function. They model GNU ld rules that decide a link
 * before any symbol is looked at: --copy-dt-needed-entries applies only to
 * inputs after it; -Bstatic makes -l skip the .so; ld refuses archives
 * without a symbol index, inputs for another machine, bitcode without the
 * plugin; and rustc's -lc comes before everything a build script appends.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "warn.h"

static void add(struct lk_line *line, struct lk_buf *msg)
{
	lk_strvec_push_owned(&line->warnings, lk_buf_detach(msg));
}

/* "at 29", or "(added by the driver)" for a position of -1. */
static void where(struct lk_buf *b, long position)
{
	if (position >= 0)
		lk_buf_addf(b, "at %ld", position);
	else
		lk_buf_addstr(b, "(added by the driver)");
}

/* A top-level item that is, or expands to, a shared object. */
static int brings_shared(const struct lk_line *line, size_t i)
{
	if (line->items.items[i].info.kind == LK_FILE_SHARED)
		return 1;
	for (size_t k = i + 1; k < line->items.nr; k++)
		if (line->items.items[k].parent == (long)i && line->items.items[k].info.kind == LK_FILE_SHARED)
			return 1;
	return 0;
}

static void copy_dt_needed_too_late(struct lk_line *line)
{
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *opt = &line->items.items[i];

		if (opt->ld_option != LK_LD_COPY_DT_NEEDED)
			continue;
		for (size_t k = 0; k < i; k++) {
			const struct lk_line_item *lib = &line->items.items[k];
			struct lk_buf msg = LK_BUF_INIT;

			if (lib->parent >= 0 || (lib->state & LK_ST_COPY_DT_NEEDED) ||
			    !brings_shared(line, k) || lib->kind != LK_ITEM_LIB)
				continue;
			lk_buf_addf(&msg, "%s ", opt->word);
			where(&msg, opt->position);
			lk_buf_addf(&msg, " comes after %s ", lib->word);
			where(&msg, lib->position);
			lk_buf_addstr(&msg, " and does not apply to it: ld follows the DT_NEEDED entries only of shared objects read after the option");
			add(line, &msg);
		}
	}
}

static int dir_has_so(const char *tried_static, const char *name)
{
	const char *slash = strrchr(tried_static, '/');
	struct lk_buf so = LK_BUF_INIT;
	int found;

	if (!slash || name[0] == ':')
		return 0;
	lk_buf_add(&so, tried_static, (size_t)(slash - tried_static) + 1);
	lk_buf_addf(&so, "lib%s.so", name);
	found = access(so.buf, F_OK) == 0;
	lk_buf_release(&so);
	return found;
}

static void static_resolution(struct lk_line *line)
{
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];
		long since = it->since[1];
		struct lk_buf msg = LK_BUF_INIT;

		if (it->kind != LK_ITEM_LIB || !(it->state & LK_ST_STATIC) || !it->path ||
		    !dir_has_so(it->path, it->word + 2))
			continue;
		lk_buf_addf(&msg, "%s resolved to %s because -Bstatic is in force since ", it->word, it->path);
		if (since >= 0) {
			lk_buf_addf(&msg, "%s ", line->items.items[since].word);
			where(&msg, line->items.items[since].position);
		} else
			lk_buf_addstr(&msg, "the start (-static)");
		lk_buf_addstr(&msg, "; a shared one is in the same dir");
		add(line, &msg);
	}
}

static void unusable_inputs(struct lk_line *line)
{
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];
		struct lk_buf msg = LK_BUF_INIT;
		const char *name = it->path ? it->path : it->word;

		if (it->kind == LK_ITEM_LIB && it->info.kind == LK_FILE_MISSING) {
			lk_buf_addf(&msg, "%s ", it->word);
			where(&msg, it->position);
			lk_buf_addf(&msg, " is not found: %zu files tried (ld: \"cannot find %s\")",
				    it->tried.nr, it->word);
		} else if (it->kind == LK_ITEM_FILE && it->info.kind == LK_FILE_MISSING && !it->note) {
			lk_buf_addf(&msg, "%s ", it->word);
			where(&msg, it->position);
			lk_buf_addstr(&msg, " does not exist");
		} else if (it->info.kind == LK_FILE_UNREADABLE || it->info.kind == LK_FILE_CORRUPT) {
			lk_buf_addf(&msg, "'%s' cannot be read: %s", name, it->info.problem ? it->info.problem : "?");
		} else if ((it->info.kind == LK_FILE_ARCHIVE || it->info.kind == LK_FILE_RLIB) &&
			   !it->info.has_armap && it->info.members) {
			lk_buf_addf(&msg, "'%s' has no symbol index (ld: \"archive has no index; run ranlib to add one\")", name);
		} else if (it->info.kind == LK_FILE_BITCODE) {
			lk_buf_addf(&msg, "'%s' is LLVM bitcode: GNU ld reads it only through an LTO plugin that understands it", name);
		} else if (line->machine && it->info.machine && it->info.machine != line->machine &&
			   (it->kind == LK_ITEM_FILE || it->parent >= 0)) {
			lk_buf_addf(&msg, "'%s' is for %s, the link is for %s", name,
				    lk_elf_machine_name(it->info.machine), lk_elf_machine_name(line->machine));
		} else if (it->info.kind == LK_FILE_EXECUTABLE) {
			lk_buf_addf(&msg, "'%s' is an executable, not a link input", name);
		} else if (it->kind == LK_ITEM_OPTION && it->note) {
			lk_buf_addf(&msg, "%s ", it->word);
			where(&msg, it->position);
			lk_buf_addf(&msg, ": %s", it->note);
		} else {
			continue;
		}
		add(line, &msg);
	}
}

/* rustc's own -lc is read before anything cargo:rustc-link-arg appends. */
static void appended_after_libc(const struct lk_record *rec, struct lk_line *line)
{
	long last_lc = -1;
	long first_archive = -1, last_archive = -1;
	struct lk_buf msg = LK_BUF_INIT;

	if (rec->link_args_start < 0)
		return;
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];
		int archive = it->info.kind == LK_FILE_ARCHIVE || it->info.kind == LK_FILE_THIN_ARCHIVE;

		if (it->parent >= 0)
			continue;
		if (lk_line_item_is_libc(it) && it->position >= 0 && it->position < rec->link_args_start)
			last_lc = it->position;
		if (archive && it->position >= rec->link_args_start && it->position < rec->link_args_end) {
			if (first_archive < 0)
				first_archive = it->position;
			last_archive = it->position;
		}
		if (lk_line_item_is_libc(it) && it->position >= rec->link_args_start)
			return;	/* the appended args bring their own -lc */
	}
	if (last_lc < 0 || first_archive < 0)
		return;
	lk_buf_addf(&msg, "the archives appended with -C link-arg (cargo:rustc-link-arg) at %ld..%ld come after rustc's last -lc at %ld: "
		    "what libc.so brings (libc.so.6, libc_nonshared.a, the dynamic loader AS_NEEDED) is read before them and not again, "
		    "so GNU ld can resolve their references to those only if something earlier already needed them",
		    first_archive, last_archive, last_lc);
	add(line, &msg);
}

void lk_warn_line(const struct lk_record *rec, struct lk_line *line)
{
	appended_after_libc(rec, line);
	copy_dt_needed_too_late(line);
	static_resolution(line);
	unusable_inputs(line);
}
