/*
 * Diagnostics -> the cause of a multiple definition (issue #17, point 7).
 *
 * Takes the replay's multiple-definition diagnostics (two strong
 * definitions in regular inputs: d->def_input first, d->ref_input again)
 * and reads both definitions whole (lk_elf_read_every: section, size, the
 * hash of a function's bytes, the source file's STT_FILE name, the
 * compiler's .comment) to say why there are two, in this order:
 *
 *   whole-archive-unclosed  one archive member twice: --whole-archive still in
 *                         force when the driver adds -lgcc (twice), so every
 *                         member of libgcc.a is loaded each time
 *   whole-archive-twice   one archive member twice: the archive twice on the
 *                         line under --whole-archive
 *   start-file            the program defines _start (or _init, _fini) and the
 *                         driver adds its start files, which define it too
 *   rust-std-twice        two Rust staticlibs, each with its own copy of std
 *   duplicate-source      two objects compiled from the same source file
 *   tentative-definition  a variable without initializer in .bss of both: a
 *                         header's `int x;` under GCC 10's -fno-common default
 *   function-in-header    the same bytes in two objects of different sources:
 *                         a function defined, not inline, in a header
 *   archive-members       two archive members that were both pulled, each for
 *                         the symbol named
 *
 * Each cause has its stated fix (a source edit or a recompile: never
 * verified; the --whole-archive ones are line edits, which the fix stage
 * tries); what fits none is left without a cause.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "demangle.h"
#include "elf.h"
#include "explain.h"
#include "multidef.h"

#define MULTIDEF_EXPLAINED_MAX 64	/* diagnostics given a cause: a --whole-archive of two std copies has thousands */

/* The files read, once each (an archive of std is read once for its thousands of diagnostics). */
struct read_files {
	struct lk_strvec paths;
	struct { struct lk_elf_every *items; size_t nr, alloc; } evs;
	struct { char *items; size_t nr, alloc; } ok;
};

static const struct lk_elf_every *file_of(struct read_files *rf, const char *path)
{
	struct lk_err err = LK_ERR_INIT;
	struct lk_elf_every ev;
	int ok;

	for (size_t i = 0; i < rf->paths.nr; i++)
		if (!strcmp(rf->paths.items[i], path))
			return rf->ok.items[i] ? &rf->evs.items[i] : NULL;
	ok = lk_elf_read_every(path, &ev, &err) == 0;
	if (!ok)
		memset(&ev, 0, sizeof(ev));
	lk_strvec_push(&rf->paths, path);
	LK_GROW(rf->evs.items, rf->evs.nr + 1, rf->evs.alloc);
	rf->evs.items[rf->evs.nr++] = ev;
	LK_GROW(rf->ok.items, rf->ok.nr + 1, rf->ok.alloc);
	rf->ok.items[rf->ok.nr++] = (char)ok;
	return ok ? &rf->evs.items[rf->evs.nr - 1] : NULL;
}

static void read_files_release(struct read_files *rf)
{
	for (size_t i = 0; i < rf->evs.nr; i++)
		lk_elf_every_release(&rf->evs.items[i]);
	free(rf->evs.items);
	free(rf->ok.items);
	lk_strvec_release(&rf->paths);
}

/* The object (or member) of a replay input, as read whole. */
static const struct lk_elf_every_file *object_of(struct read_files *rf, const struct lk_rinput *in)
{
	const struct lk_elf_every *ev = file_of(rf, in->path);

	for (size_t i = 0; ev && i < ev->nr; i++)
		if (in->member ? ev->items[i].member && !strcmp(ev->items[i].member, in->member) : !ev->items[i].member)
			return &ev->items[i];
	return NULL;
}

static const struct lk_elf_every_sym *definition(const struct lk_elf_every_file *f, const char *name)
{
	for (size_t i = 0; f && i < f->syms.nr; i++)
		if (f->syms.items[i].defined && !f->syms.items[i].local && !strcmp(f->syms.items[i].name, name))
			return &f->syms.items[i];
	return NULL;
}

/* An archive whose members are Rust codegen units with std in them: a staticlib. */
static int rust_staticlib(const struct lk_elf_every *ev)
{
	int rcgu = 0, personality = 0;

	for (size_t i = 0; ev && i < ev->nr; i++) {
		rcgu |= ev->items[i].member && strstr(ev->items[i].member, ".rcgu.o") != NULL;
		personality |= definition(&ev->items[i], "rust_eh_personality") != NULL;
	}
	return rcgu && personality;
}

static const char *base_name(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;

	return s ? s + 1 : p;
}

static void site(struct lk_buf *b, const struct lk_rinput *in)
{
	if (in->member)
		lk_buf_addf(b, "%s(%s)", in->path, in->member);
	else
		lk_buf_addstr(b, in->path);
}

static void set_cause(struct lk_diag *d, const char *kind, const struct lk_buf *detail, const char *fix)
{
	struct lk_buf b = LK_BUF_INIT;

	d->cause = lk_xcalloc(1, sizeof(*d->cause));
	d->cause->kind = lk_xstrdup(kind);
	d->cause->detail = lk_xstrdup(detail->buf);
	d->cause->fix = lk_xstrdup(fix);
	lk_strvec_push(&d->explanation, detail->buf);
	if (!strncmp(kind, "whole-archive-", 14) || !strcmp(kind, "start-file"))
		return;	/* an edit of the line: the fix stage offers it (fix.c) */
	lk_buf_addf(&b, "stated fix (outside the line, not verified): %s", fix);
	lk_strvec_push_owned(&d->explanation, lk_buf_detach(&b));
}

/* The argv position of the line's last `word` before item `before`, or -1. */
static long last_word_before(const struct lk_line *line, long before, const char *word)
{
	long at = -1;

	for (long i = 0; i < before; i++) {
		const struct lk_line_item *o = &line->items.items[i];

		if (o->kind == LK_ITEM_OPTION && o->position >= 0 && !strcmp(o->word, word))
			at = o->position;
	}
	return at;
}

/*
 * One member of one archive defined twice: ld loaded the archive whole
 * twice. When the second is the driver's (gcc adds -lgcc twice), the
 * line's --whole-archive was never closed; else the line names the
 * archive twice under it. Returns 1 when that is the cause.
 */
static int whole_archive_cause(const struct lk_line *line, const struct lk_rinput *first,
			       const struct lk_rinput *again, struct lk_diag *d, const char *name)
{
	const struct lk_line_item *it;
	struct lk_buf s = LK_BUF_INIT;
	long on;

	if (!first->member || !again->member || strcmp(first->path, again->path) ||
	    strcmp(first->member, again->member) || again->item < 0 ||
	    !(line->items.items[again->item].state & LK_ST_WHOLE_ARCHIVE))
		return 0;
	it = &line->items.items[again->item];
	on = last_word_before(line, again->item, "--whole-archive");
	lk_buf_addf(&s, "%s(%s) is loaded twice: %s is read twice under --whole-archive", first->path, first->member,
		    lk_path_base(first->path));
	if (on >= 0)
		lk_buf_addf(&s, " (from %ld)", on);
	if (it->position < 0) {
		lk_buf_addf(&s, ", the second time as the driver's %s, after the line's own words: --whole-archive is never closed, so it also loads every member of the libraries the driver adds, and each of their symbols (%s among them) is defined twice",
			    it->word, name);
		set_cause(d, "whole-archive-unclosed", &s,
			  "close it: -Wl,--no-whole-archive after the archives meant to be loaded whole");
	} else {
		lk_buf_addf(&s, ", at %ld and at %ld: each time every member is loaded, so %s is defined twice",
			    line->items.items[first->item].position, it->position, name);
		set_cause(d, "whole-archive-twice", &s, "name the archive once under --whole-archive");
	}
	lk_buf_release(&s);
	return 1;
}

/* crt1.o, Scrt1.o, rcrt1.o, gcrt1.o, Mcrt1.o, crti.o: a start file the driver adds. */
static int start_file(const struct lk_line *line, const struct lk_rinput *in)
{
	const char *base = lk_path_base(in->path);
	size_t n = strlen(base);

	if (in->member || in->item < 0 || line->items.items[in->item].position >= 0)
		return 0;
	return (n >= 6 && !strcmp(base + n - 6, "crt1.o")) || !strcmp(base, "crti.o");
}

/*
 * The program's own _start (or _init, _fini) against the driver's start
 * file: freestanding or runtime code that means to be the entry point, on
 * a line where the driver still adds its own. Returns 1 when that is the cause.
 */
static int start_file_cause(const struct lk_line *line, const struct lk_rinput *first,
			    const struct lk_rinput *again, struct lk_diag *d)
{
	const struct lk_rinput *crt = start_file(line, first) ? first : start_file(line, again) ? again : NULL;
	const struct lk_rinput *own = crt == first ? again : first;
	struct lk_buf s = LK_BUF_INIT;

	if (!crt || (strcmp(d->symbol, "_start") && strcmp(d->symbol, "_init") && strcmp(d->symbol, "_fini")))
		return 0;
	site(&s, own);
	lk_buf_addf(&s, " defines %s, the program's entry, and the driver adds its start file %s, which defines it too: the program means to start itself, and the line still asks the driver for the C runtime's start",
		    d->symbol, crt->path);
	set_cause(d, "start-file", &s, "link with -nostartfiles (the driver then adds no start files), or name the program's entry otherwise and pass it with -e");
	lk_buf_release(&s);
	return 1;
}

static void cause_of(struct read_files *rf, const struct lk_replay *out, const struct lk_line *line,
		     struct lk_diag *d)
{
	const struct lk_rinput *first = &out->inputs.items[d->def_input], *again = &out->inputs.items[d->ref_input];
	const struct lk_elf_every_file *a = object_of(rf, first), *b = object_of(rf, again);
	const struct lk_elf_every_sym *ya = definition(a, d->symbol), *yb = definition(b, d->symbol);
	struct lk_buf s = LK_BUF_INIT, fix = LK_BUF_INIT;
	char *human = lk_demangle(d->symbol);
	const char *name = human ? human : d->symbol;

	if (whole_archive_cause(line, first, again, d, name) || start_file_cause(line, first, again, d))
		goto done;
	if (!a || !b || !ya || !yb)
		goto done;
	if (first->member && again->member && strcmp(first->path, again->path) &&
	    rust_staticlib(file_of(rf, first->path)) && rust_staticlib(file_of(rf, again->path))) {
		lk_buf_addf(&s, "%s and %s are both Rust staticlibs, and each carries its own copy of Rust's std (rust_eh_personality, the allocator shims, core and alloc): %s is defined in both",
			    first->path, again->path, name);
		set_cause(d, "rust-std-twice", &s,
			  "build one staticlib crate that depends on both crates (one copy of std), or make them cdylibs (each a shared library with its std inside)");
	} else if (a->source && b->source && !strcmp(base_name(a->source), base_name(b->source))) {
		lk_buf_addstr(&s, "");
		site(&s, first);
		lk_buf_addstr(&s, " and ");
		site(&s, again);
		lk_buf_addf(&s, " are both compiled from a source named %s: the build links two copies of one source file", a->source);
		lk_buf_addf(&fix, "link one of them only: remove the duplicate of %s from the build (its list of sources, or an object left over in an archive)",
			    a->source);
		set_cause(d, "duplicate-source", &s, fix.buf);
	} else if (ya->bss && yb->bss && !ya->func && !yb->func) {
		lk_buf_addf(&s, "%s is a variable in .bss (no initializer, or zero) in both ", name);
		site(&s, first);
		lk_buf_addstr(&s, " and ");
		site(&s, again);
		lk_buf_addstr(&s, ": a tentative definition (`int x;` in a header that both include), which GCC 10 and later compile as a definition (-fno-common), so ld no longer merges them");
		if (a->comment)
			lk_buf_addf(&s, "; %s says it was compiled by \"%s\"", base_name(first->member ? first->member : first->path), a->comment);
		lk_buf_addf(&fix, "declare it `extern` in the header and define it in one .c file; or compile every object with -fcommon (a recompile)");
		set_cause(d, "tentative-definition", &s, fix.buf);
	} else if (ya->func && yb->func && ya->hash && ya->hash == yb->hash && ya->size == yb->size) {
		lk_buf_addf(&s, "%s is the same function, byte for byte (%llu bytes), in ", name, (unsigned long long)ya->size);
		site(&s, first);
		lk_buf_addf(&s, "%s%s%s and ", a->source ? " (from " : "", a->source ? a->source : "", a->source ? ")" : "");
		site(&s, again);
		lk_buf_addf(&s, "%s%s%s: a function defined in a header that both include, not inline", b->source ? " (from " : "",
			    b->source ? b->source : "", b->source ? ")" : "");
		set_cause(d, "function-in-header", &s,
			  "make the function in the header `static inline` (or `inline` in C++), or declare it there and define it in one source file");
	} else if (first->member && again->member) {
		site(&s, first);
		lk_buf_addf(&s, " was pulled for %s, ", first->pulled_for ? first->pulled_for : "a symbol undefined then");
		site(&s, again);
		lk_buf_addf(&s, " for %s; both members define %s, so both are in the link", again->pulled_for ? again->pulled_for : "a symbol undefined then",
			    name);
		lk_buf_addf(&fix, "keep %s in one archive only, or split the member so that pulling %s does not bring a second %s",
			    name, again->pulled_for ? again->pulled_for : "it", name);
		set_cause(d, "archive-members", &s, fix.buf);
	}
done:
	free(human);
	lk_buf_release(&s);
	lk_buf_release(&fix);
}

void lk_multidef_causes(struct lk_replay *out, const struct lk_line *line)
{
	struct read_files rf;
	size_t done = 0;

	memset(&rf, 0, sizeof(rf));
	for (size_t i = 0; i < out->diags.nr && done < MULTIDEF_EXPLAINED_MAX; i++) {
		struct lk_diag *d = &out->diags.items[i];

		if (d->kind != LK_DIAG_MULTIPLE || d->def_input < 0 || d->ref_input < 0 || d->cause)
			continue;
		cause_of(&rf, out, line, d);
		done++;
	}
	read_files_release(&rf);
}
