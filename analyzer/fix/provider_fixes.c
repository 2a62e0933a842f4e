/*
 * The fixes of the causes (explain/cause.c grouped the undefined symbols,
 * read here): the library off the line that defines a group, by the
 * argument a user writes (-lm for libm.so.6 when ld's search finds it),
 * or g++ as the driver for C++ objects linked with a C driver (replayed
 * with what g++ adds to that line), or a Rust crate's build-script line;
 * the build tree's objects the near misses found; one edit for the whole
 * link when no single fix links; and the filter that drops a fix that
 * does not help.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "crate.h"
#include "explain.h"
#include "fix_parts.h"
#include "provider.h"
#include "resolve.h"
#include "symtab.h"

/* "cc", "gcc", "x86_64-linux-gnu-gcc-12", "clang": a C driver, which does not add libstdc++. */
static int c_driver(const struct lk_record *rec)
{
	const char *d = rec->args.nr ? lk_path_base(rec->args.items[0].text) : "";

	if (strstr(d, "++"))
		return 0;
	return !strcmp(d, "cc") || !strncmp(d, "gcc", 3) || !strncmp(d, "clang", 5) ||
	       strstr(d, "-gcc") != NULL || !strcmp(d, "linkscope-cc");
}

/*
 * The Rust crate the diagnostic's first reference belongs to (crate.h):
 * an rlib's or a codegen unit's; on a rustc line, also the package whose
 * build script made the referencing library in its OUT_DIR (a bin crate
 * whose build.rs compiles C with the cc crate, no `links =`). *out_dir
 * says which. Owned, or NULL.
 */
static char *crate_of(const struct lk_fixer *fx, const struct lk_diag *d, int *out_dir)
{
	long ri = d->ref_input, item;
	const struct lk_record *rec = fx->rec;
	const char *path;

	*out_dir = 0;
	if (ri < 0 || (item = fx->rp->inputs.items[ri].item) < 0)
		return NULL;
	path = fx->line->items.items[item].path;
	if (lk_crate_out_dir(path)) {
		if (!rec->caller_is_rustc && !(rec->prov_method && !strncmp(rec->prov_method, "rustc", 5)))
			return NULL;	/* a C link of a cargo-built archive: the fix is that link's */
		while (fx->line->items.items[item].parent >= 0)
			item = fx->line->items.items[item].parent;
		/*
		 * An archive a build script put on the line by cargo:rustc-link-arg
		 * sits after every -l rustc writes: a rustc-link-lib line would come
		 * before it. The word then goes after it, as a link-arg too (where/cargo.c).
		 */
		if (rec->link_args_start >= 0 && fx->line->items.items[item].position >= rec->link_args_start &&
		    fx->line->items.items[item].position < rec->link_args_end)
			return NULL;
		*out_dir = 1;
	}
	return lk_crate_of_path(path);
}

static int dir_searched(const struct lk_line *line, const char *dir)
{
	for (size_t i = 0; i < line->libdirs.nr; i++)
		if (!strcmp(line->libdirs.items[i], dir))
			return 1;
	for (size_t i = 0; i < line->default_dirs.nr; i++)
		if (!strcmp(line->default_dirs.items[i], dir))
			return 1;
	return 0;
}

/*
 * For a versioned provider (libm.so.6), the -l name a user writes (-lm)
 * when ld's search finds a file for it: the dev symlink, or a linker
 * script that reads the provider. Returns the word and fills *found, or NULL.
 */
static char *short_lib(const struct lk_line *line, const char *provider, unsigned state, char **found)
{
	const char *lib = lk_path_base(provider), *so = strstr(lib, ".so.");
	struct lk_line_item it;
	struct lk_buf w = LK_BUF_INIT;

	*found = NULL;
	if (strncmp(lib, "lib", 3) || !so)
		return NULL;
	lk_buf_addf(&w, "-l%.*s", (int)(so - lib - 3), lib + 3);
	memset(&it, 0, sizeof(it));
	it.kind = LK_ITEM_LIB;
	it.word = w.buf;
	it.state = state;
	lk_resolve_search_lib(line, &it);
	lk_strvec_release(&it.tried);
	lk_elf_info_release(&it.info);
	if (!it.path) {
		lk_buf_release(&w);
		return NULL;
	}
	{
		char real[PATH_MAX];

		*found = realpath(it.path, real) ? lk_xstrdup(real) : lk_xstrdup(it.path);
		free(it.path);
	}
	return lk_buf_detach(&w);
}

static void provider_fixes(const struct lk_fixer *fx, const struct lk_diag *d)
{
	const struct lk_record *rec = fx->rec;
	const struct lk_line *line = fx->line;
	const struct lk_replay *out = fx->rp;
	struct lk_fix_list *fixes = lk_fixer_list(fx, d);
	struct lk_buf desc = LK_BUF_INIT;
	const struct lk_line_item *last = lk_fix_last_reference(fx, d);
	unsigned state = lk_line_state_at_end(line);
	char *arg = lk_provider_arg(line, d->provider, state), *found = NULL;
	char *shorter = arg[0] == '-' && arg[1] == 'l' && arg[2] != ':' ? NULL : short_lib(line, d->provider, state, &found);
	int out_dir;
	char *crate = crate_of(fx, d, &out_dir);
	const char *lib = lk_path_base(d->provider);

	if (!strncmp(lib, "libstdc++", 9) && c_driver(rec) && !crate) {
		/* C++ objects linked with a C driver: the driver is the cause. */
		struct lk_edit e = { LK_EDIT_KIND_DRIVER, 0, -1, LK_STRVEC_INIT, lk_xstrdup("g++"), NULL, NULL, 0 };

		lk_edit_driver_adds(rec, e.driver, &e.words);
		if (!e.words.nr)
			e.needs = lk_xstrdup("-nodefaultlibs and -nostdlib off the line: with them g++ adds nothing");
		lk_buf_addf(&desc, "link with g++ instead of %s: the inputs are C++, and only the C++ driver adds the C++ runtime (g++ adds -lstdc++ -lm after the inputs)",
			    lk_path_base(rec->args.items[0].text));
		lk_fix_offer(fx, d, &e, desc.buf);
		lk_buf_reset(&desc);
	}
	for (int pass = shorter ? 0 : 1; pass < 2; pass++) {
		const char *word = pass ? arg : shorter;
		struct lk_strvec script = LK_STRVEC_INIT;
		struct lk_fix *f;

		if (crate) {
			char *dir = lk_xstrndup(d->provider, (size_t)(lib - d->provider - 1));
			int static_lib = strlen(lib) > 2 && !strcmp(lib + strlen(lib) - 2, ".a");
			const char *stem = lib + 3;
			size_t stem_len = strcspn(stem, ".");

			struct lk_buf l = LK_BUF_INIT;

			lk_buf_addf(&l, "cargo:rustc-link-lib=%s%.*s", static_lib ? "static=" : "", (int)stem_len, stem);
			lk_strvec_push_owned(&script, lk_buf_detach(&l));
			/*
			 * rustc finds a static= library itself, in its own -L dirs only
			 * (find_native_static_library: not the linker's, not the
			 * system's): it needs the dir whether the linker searches it or not.
			 */
			if (static_lib || !dir_searched(line, dir)) {
				lk_buf_addf(&l, "cargo:rustc-link-search=native=%s", dir);
				lk_strvec_push_owned(&script, lk_buf_detach(&l));
			}
			if (out_dir)
				lk_buf_addf(&desc, "the C code the build script of the package %s compiled (%s, in its OUT_DIR) references %s: that build script should print \"%s\"",
					    crate, lk_path_base(line->items.items[out->inputs.items[d->ref_input].item].path),
					    d->symbols.nr == 1 ? "it" : "them", script.items[0]);
			else
				lk_buf_addf(&desc, "the crate %s references %s: the build script of the crate that links the library (its -sys crate, when it has one) should print \"%s\"",
					    crate, d->symbols.nr == 1 ? "it" : "them", script.items[0]);
			if (script.nr > 1)
				lk_buf_addf(&desc, " and \"%s\"", script.items[1]);
			lk_buf_addf(&desc, " (on this line: %s, after the crate's objects)", word);
			free(dir);
		} else {
			lk_buf_addf(&desc, "append %s, after %s", word, last && last->path ? last->path : "the inputs");
			if (last && last->position >= 0)
				lk_buf_addf(&desc, " (at %ld, the last input that references %s)", last->position,
					    d->symbols.nr == 1 ? "it" : "them");
			if (!pass) {
				char *cache = lk_provider_cache_dir();
				char *pkg = lk_provider_package(found, cache);
				struct lk_elf_info info;

				lk_elf_identify(found, &info);
				lk_buf_addf(&desc, ": %s reads %s%s%s%s, %s %s, which defines %s", word, found,
					    pkg ? " (" : "", pkg ? pkg : "", pkg ? ")" : "",
					    info.kind == LK_FILE_TEXT ? "a linker script for" : "another name of", lib,
					    d->symbols.nr == 1 ? "it" : "them");
				lk_elf_info_release(&info);
				free(pkg);
				free(cache);
			} else {
				lk_buf_addf(&desc, ": %s%s%s%s defines %s", lib, d->provider_package ? " (" : "",
					    d->provider_package ? d->provider_package : "", d->provider_package ? ")" : "",
					    d->symbols.nr == 1 ? "it" : "them");
			}
		}
		f = lk_fix_try_append(fx, d, word, desc.buf);
		f->build_script = script;
		lk_buf_reset(&desc);
		if (f->verified || f->partial)
			break;	/* the shorter word works: the path is not needed */
		if (!pass) {
			lk_fix_release(f);
			fixes->nr--;
		}
	}
	lk_buf_release(&desc);
	free(crate);
	free(found);
	free(shorter);
	free(arg);
}

/* Did the link fail on `sym` ("kind symbol") before any fix? */
static int failed_before(const struct lk_replay *out, const char *sym)
{
	for (size_t i = 0; i < out->diags.nr; i++) {
		const struct lk_diag *d = &out->diags.items[i];

		if (!strcmp(d->symbol, sym))
			return 1;
		for (size_t k = 0; k < d->symbols.nr; k++)
			if (!strcmp(d->symbols.items[k], sym))
				return 1;
	}
	return 0;
}

/*
 * A partial fix that brings more new failures than the symbols it
 * defines (libncurses++.a for `main`: 1 defined, 53 new) is worse than
 * none: saying nothing is better than an edit that leaves dozens of errors.
 */
static int helps(const struct lk_replay *out, const struct lk_diag *d, const struct lk_fix *f)
{
	size_t added = 0;

	if (f->verified || f->stated)
		return 1;	/* a stated rebuild is said, never tried */
	if (!f->partial)
		return 0;
	for (size_t i = 0; i < f->remaining.nr; i++) {
		const char *sym = strchr(f->remaining.items[i], ' ');

		added += !failed_before(out, sym ? sym + 1 : f->remaining.items[i]);
	}
	return added <= (d->symbols.nr ? d->symbols.nr : 1);
}

/* When no single fix links, the best fix of each diagnostic together. */
static void whole_fix(const struct lk_fixer *fx)
{
	const struct lk_record *rec = fx->rec;
	const struct lk_replay *out = fx->rp;
	struct lk_strvec words = LK_STRVEC_INIT, left = LK_STRVEC_INIT;
	struct lk_buf desc = LK_BUF_INIT;
	size_t parts = 0;

	if (fx->foresee)
		return;	/* its words are the outcomes' */
	for (size_t i = 0; i < out->diags.nr; i++) {
		const struct lk_fix_list *l = &fx->out->of[i];
		const struct lk_fix *best = NULL;

		for (size_t k = 0; k < l->nr; k++) {
			if (l->items[k].verified)
				goto out;	/* one edit already links */
			if (!best && l->items[k].partial && l->items[k].edit.kind == LK_EDIT_KIND_INSERT)
				best = &l->items[k];
		}
		if (!best)
			continue;
		for (size_t a = 0; a < best->args.nr; a++)
			lk_strvec_push(&words, best->args.items[a]);
		lk_buf_addf(&desc, "%s%s", parts ? "; " : "", best->description);
		parts++;
	}
	if (parts > 1) {
		struct lk_fix *f = lk_xcalloc(1, sizeof(*f));

		f->edit.kind = LK_EDIT_KIND_INSERT;
		f->edit.position = f->position = (long)rec->args.nr;
		f->edit.to = -1;
		f->edit.words = words;
		memset(&words, 0, sizeof(words));
		if (lk_edit_try(out, rec, fx->line, &f->edit, &left) == 1) {
			f->description = lk_buf_detach(&desc);
			for (size_t i = 0; i < f->edit.words.nr; i++)
				lk_strvec_push(&f->args, f->edit.words.items[i]);
			lk_edit_argv(rec, &f->edit, &f->argv);
			f->verified = 1;
			fx->out->whole = f;
		} else {
			lk_fix_release(f);
			free(f);
		}
	}
out:
	lk_strvec_release(&words);
	lk_strvec_release(&left);
	lk_buf_release(&desc);
}

/*
 * A near miss whose fix is outside the line (explain/nearmiss.c: a header,
 * a recompile), as the diagnostic's stated fix, with the edit's kind; the
 * kinds whose fix is an edit of the line are tried below instead.
 */
static void stated_near_miss(const struct lk_fixer *fx, const struct lk_diag *d, const struct lk_finding *f)
{
	static const struct { const char *kind; enum lk_edit_kind edit; } outside[] = {
		{ "no-rtti", LK_EDIT_KIND_REBUILD }, { "cxx11-abi", LK_EDIT_KIND_REBUILD },
		{ "key-function", LK_EDIT_KIND_DECLARATION }, { "extern-c", LK_EDIT_KIND_DECLARATION },
		{ "signature", LK_EDIT_KIND_DECLARATION }, { "local", LK_EDIT_KIND_DECLARATION },
		{ "template", LK_EDIT_KIND_DECLARATION }, { "static-member", LK_EDIT_KIND_DECLARATION },
		{ "inline-definition", LK_EDIT_KIND_DECLARATION }, { "comdat-discarded", LK_EDIT_KIND_REBUILD }, { "gcc-lto", LK_EDIT_KIND_REBUILD },
	};

	if (!f->fix)
		return;
	for (size_t k = 0; k < sizeof(outside) / sizeof(*outside); k++)
		if (!strcmp(f->kind, outside[k].kind)) {
			lk_fix_stated(fx, d, outside[k].edit, f->in,
				      outside[k].edit == LK_EDIT_KIND_REBUILD ? "the object's sources, and the build's compile command for it" :
				      "the sources that declare or define it", f->fix);
			return;
		}
}

/*
 * comdat-discarded: the input whose incomplete copy of the group ld kept
 * moved to the end of the line, so that the complete copy, read first
 * now, is the one kept. A workaround: the copies still differ.
 */
static void kept_group_moved(const struct lk_fixer *fx, const struct lk_diag *d, const struct lk_finding *f)
{
	const struct lk_sym *s = f->found && fx->rp->symtab ? lk_symtab_lookup(fx->rp->symtab, f->found) : NULL;
	const struct lk_line_item *it;
	struct lk_edit e = { LK_EDIT_KIND_MOVE, -1, -1, LK_STRVEC_INIT, NULL, NULL, NULL, 0 };
	struct lk_buf desc = LK_BUF_INIT;
	long item;

	if (!s || !s->discarded_def || s->discarded_kept < 0 || (size_t)s->discarded_kept >= fx->rp->inputs.nr)
		return;
	for (item = fx->rp->inputs.items[s->discarded_kept].item; item >= 0 && fx->line->items.items[item].parent >= 0;)
		item = fx->line->items.items[item].parent;
	if (item < 0 || (it = &fx->line->items.items[item])->position < 0 || !it->word)
		return;
	e.position = it->position;
	lk_strvec_push(&e.words, it->word);
	lk_buf_addf(&desc, "move %s (at %ld) to the end of the line, so that the complete copy of the COMDAT group %s is read first and kept (the copies still differ)",
		    it->word, it->position, s->discarded_group);
	lk_fix_offer(fx, d, &e, desc.buf)->workaround = 1;
	lk_buf_release(&desc);
}

void lk_fix_near_misses(const struct lk_fixer *fx, const struct lk_diag *d)
{
	struct lk_buf b = LK_BUF_INIT;

	for (size_t i = 0; i < d->near_misses.nr; i++) {
		const struct lk_finding *f = &d->near_misses.items[i];
		size_t k;

		stated_near_miss(fx, d, f);
		if (!strcmp(f->kind, "comdat-discarded"))
			kept_group_moved(fx, d, f);
		if (!f->in || !f->found)
			continue;
		if (!strcmp(f->kind, "main")) {
			lk_buf_addf(&b, "append %s, the object that defines main", f->in);
		} else if (!strcmp(f->kind, "not-on-line")) {
			/* The first object found for each symbol. */
			for (k = 0; k < i && (strcmp(d->near_misses.items[k].kind, "not-on-line") ||
					      strcmp(d->near_misses.items[k].found, f->found)); k++)
				;
			if (k < i)
				continue;
			lk_buf_addf(&b, "append %s, which defines %s", f->in, f->found);
		} else {
			continue;
		}
		lk_fix_try_append(fx, d, f->in, b.buf);
		lk_buf_reset(&b);
	}
	lk_buf_release(&b);
}

void lk_fix_providers(const struct lk_fixer *fx)
{
	for (size_t i = 0; i < fx->rp->diags.nr; i++) {
		const struct lk_diag *d = &fx->rp->diags.items[i];

		if (d->kind == LK_DIAG_UNDEFINED && d->provider)
			provider_fixes(fx, d);
	}
	whole_fix(fx);
	/* Never offered: an edit that neither links nor defines its diagnostic's symbols (a fix only said is kept). */
	for (size_t i = 0; i < fx->rp->diags.nr; i++) {
		const struct lk_diag *d = &fx->rp->diags.items[i];
		struct lk_fix_list *l = &fx->out->of[i];
		size_t w = 0;

		for (size_t k = 0; k < l->nr; k++) {
			if (!helps(fx->rp, d, &l->items[k])) {
				lk_fix_release(&l->items[k]);
				continue;
			}
			l->items[w++] = l->items[k];
		}
		l->nr = w;
	}
}
