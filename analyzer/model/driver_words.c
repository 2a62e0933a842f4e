/*
 * Driver argv -> the linker words it gives (gcc's link spec), the
 * linker's argv matched back to driver positions, and a recorded
 * expansion made again for another line of the same driver.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/argv.h"
#include "linkscope/banned.h"
#include "linkscope/driveropt.h"
#include "linkscope/vec.h"
#include "driver_words.h"
#include "line.h"


static void expect_word(struct lk_driver_words *e, const char *word, size_t len,
			long position, int ordered, int source)
{
	LK_GROW(e->items, e->nr + 1, e->alloc);
	e->items[e->nr].word = lk_xstrndup(word, len);
	e->items[e->nr].position = position;
	e->items[e->nr].ordered = ordered;
	e->items[e->nr].source = source;
	e->nr++;
}

struct wl_ctx {
	struct lk_driver_words *e;
	long position;
};

static void wl_word(const char *word, size_t len, void *data)
{
	struct wl_ctx *c = data;

	expect_word(c->e, word, len, c->position, 1, 0);
}

static void translate_option(struct lk_driver_words *e, const struct lk_args *args,
			     size_t *i)
{
	const char *a = args->items[*i].text;
	const char *next = *i + 1 < args->nr ? args->items[*i + 1].text : NULL;
	const struct lk_driveropt *o = lk_driveropt_find(a), *joined;
	const char *value;
	long pos = (long)*i;
	struct lk_buf w = LK_BUF_INIT;

	if (lk_str_starts_with(a, "-Wl,")) {
		struct wl_ctx c = { e, pos };

		lk_argv_wl_words(a, wl_word, &c);
	} else if (!strcmp(a, "-Xlinker") && next) {
		expect_word(e, next, strlen(next), pos + 1, 1, 0);
		++*i;
	} else if (!strcmp(a, "-l") && next) {
		lk_buf_addf(&w, "-l%s", next);
		expect_word(e, w.buf, w.len, pos, 1, 0);
		++*i;
	} else if (lk_str_starts_with(a, "-l")) {
		expect_word(e, a, strlen(a), pos, 1, 0);
	} else if (!strcmp(a, "-L") && next) {
		lk_buf_addf(&w, "-L%s", next);
		expect_word(e, w.buf, w.len, pos, 0, 0);
		++*i;
	} else if (lk_str_starts_with(a, "-L")) {
		expect_word(e, a, strlen(a), pos, 0, 0);
	} else if (o && (o->flags & LK_DOPT_HOISTED) && (o->flags & LK_DOPT_SEPARATE)) {
		if (next) {
			expect_word(e, a, strlen(a), pos, 0, 0);
			expect_word(e, next, strlen(next), pos + 1, 0, 0);
			++*i;
		}
	} else if ((joined = lk_driveropt_joined(a, &value)) && (joined->flags & LK_DOPT_SPLIT)) {
		/* -oFILE and -Tscript reach ld as two words. */
		expect_word(e, joined->name, strlen(joined->name), pos, 0, 0);
		expect_word(e, value, strlen(value), pos, 0, 0);
	} else if (o && (o->flags & LK_DOPT_HOISTED) && (o->flags & LK_DOPT_LD)) {
		const char *ld = o->ld_word ? o->ld_word : a;

		expect_word(e, ld, strlen(ld), pos, 0, 0);
	}
	lk_buf_release(&w);
}

void lk_driver_words(const struct lk_args *args, struct lk_driver_words *e)
{
	struct lk_argv_info info;
	/* Per argument: 0 not an input, 1 an input, 2 a source (one pass: was quadratic). */
	char *input_at = lk_xcalloc(args->nr + 1, 1);

	lk_argv_classify(args, &info);
	for (size_t k = 0; k < info.inputs.nr; k++)
		if (info.inputs.items[k].index < args->nr && info.inputs.items[k].kind != LK_IN_SCRIPT)
			input_at[info.inputs.items[k].index] = lk_argv_compiles(&info.inputs.items[k]) ? 2 : 1;
	for (size_t i = 1; i < args->nr; i++) {
		const char *a = args->items[i].text;

		if (input_at[i])
			expect_word(e, a, strlen(a), (long)i, 1, input_at[i] == 2);
		else if (a[0] == '-' && a[1])
			translate_option(e, args, &i);
	}
	free(input_at);
	lk_argv_info_release(&info);
}

void lk_driver_words_release(struct lk_driver_words *e)
{
	for (size_t i = 0; i < e->nr; i++)
		free(e->items[i].word);
	free(e->items);
}

/* ---- matching the linker argv back to driver positions ---- */

static int word_matches(const char *word, const struct lk_driver_word *x)
{
	if (x->source)
		return lk_argv_is_driver_temp(word);
	return !strcmp(word, x->word);
}

/* Greedy in-order match of the ordered words from linker index `start`. */
static size_t match_from(const struct lk_strvec *linker, size_t start,
			 const struct lk_driver_word *const *ord, size_t nord, long *pos)
{
	size_t j = 0, matched = 0;

	for (size_t i = start; i < linker->nr && j < nord; i++) {
		for (size_t skip = 0; skip < LK_LINE_MATCH_MAX_SKIP && j + skip < nord; skip++) {
			if (word_matches(linker->items[i], ord[j + skip])) {
				if (pos)
					pos[i] = ord[j + skip]->position;
				j += skip + 1;
				matched++;
				break;
			}
		}
	}
	return matched;
}

void lk_line_match(const struct lk_args *driver, const struct lk_strvec *linker,
		   long *pos)
{
	struct lk_driver_words e = { NULL, 0, 0 };
	const struct lk_driver_word **ord;
	size_t nord = 0, best = 0, best_start = 0;
	char *used;

	for (size_t i = 0; i < linker->nr; i++)
		pos[i] = -1;
	lk_driver_words(driver, &e);
	ord = lk_xcalloc(e.nr + 1, sizeof(*ord));
	for (size_t i = 0; i < e.nr; i++)
		if (e.items[i].ordered)
			ord[nord++] = &e.items[i];
	/* gcc emits the in-order words as one run (%o); find where it starts. */
	for (size_t k = 1; nord && k < linker->nr; k++) {
		size_t m;

		if (!word_matches(linker->items[k], ord[0]))
			continue;
		m = match_from(linker, k, ord, nord, NULL);
		if (m > best) {
			best = m;
			best_start = k;
		}
		/* Nothing beats a whole match: a word repeated 20,000 times made this quadratic. */
		if (best == nord)
			break;
	}
	if (best)
		match_from(linker, best_start, ord, nord, pos);
	/* Hoisted words (-L, -o FILE, -static, ...) anywhere, each used once. */
	used = lk_xcalloc(e.nr + 1, 1);
	for (size_t i = 1; i < linker->nr; i++) {
		if (pos[i] >= 0)
			continue;
		for (size_t k = 0; k < e.nr; k++) {
			if (!e.items[k].ordered && !used[k] && !strcmp(linker->items[i], e.items[k].word)) {
				pos[i] = e.items[k].position;
				used[k] = 1;
				break;
			}
		}
	}
	free(used);
	free(ord);
	lk_driver_words_release(&e);
}


/* ---- the expansion of another line of the same driver ---- */

/*
 * Driver options that change what gcc adds around the user's words (its
 * LINK_COMMAND_SPEC and STARTFILE/ENDFILE/LIB specs: crt files, the
 * dynamic linker, -lgcc/-lgcc_s, -lc, -lstdc++, the LTO plugin): a line
 * that differs in one of them needs the driver's own -### to be known.
 */
static const char *const shaping_prefixes[] = {
	"-shared", "-static", "-pie", "-no-pie", "-nostdlib", "-nostartfiles", "-nodefaultlibs",
	"-nolibc", "-nostdlib++", "-m32", "-m64", "-mx32", "-mabi", "-march", "--sysroot", "-B",
	"-fuse-ld", "--ld-path", "-fprofile-arcs", "--coverage", "-fprofile-generate", "-pthread",
	"-fopenmp", "-fsanitize", "-r", "-rdynamic", "-flto", "-ffat-lto", "-fuse-linker-plugin",
	"-fno-use-linker-plugin", "-specs", "--specs", "-stdlib", "-p", "-pg", "-mcmodel",
};

static int shapes_additions(const char *a)
{
	for (size_t i = 0; i < sizeof(shaping_prefixes) / sizeof(shaping_prefixes[0]); i++) {
		size_t n = strlen(shaping_prefixes[i]);

		if (!strncmp(a, shaping_prefixes[i], n) && (a[n] == '\0' || a[n] == '=' || a[n] == '-' ||
							    shaping_prefixes[i][1] == 'B' || n > 3))
			return 1;
	}
	return 0;
}

/* The options of `args` that shape the driver's additions, in order, joined by spaces. */
static void shaping_options(const struct lk_args *args, struct lk_buf *out)
{
	for (size_t i = 1; i < args->nr; i++) {
		const char *a = args->items[i].text;

		if (a[0] != '-' || !shapes_additions(a))
			continue;
		lk_buf_addf(out, "%s%s", out->len ? " " : "", a);
		/* -B DIR: its value is part of it */
		if (!strcmp(a, "-B") && i + 1 < args->nr)
			lk_buf_addf(out, " %s", args->items[++i].text);
	}
}

/* Does the linker word at `i` (matched to driver position pos[i]) stand for an ordered word of `w`? */
static int is_ordered_at(const struct lk_driver_words *w, const char *word, long pos)
{
	for (size_t k = 0; k < w->nr; k++)
		if (w->items[k].position == pos && w->items[k].ordered &&
		    (w->items[k].source ? lk_argv_is_driver_temp(word) : !strcmp(w->items[k].word, word)))
			return 1;
	return 0;
}

/* Are the two lines' drivers the same, and the options that shape the additions? 0, or -1 with `why`. */
static int same_shape(const struct lk_args *a, const struct lk_args *b, struct lk_buf *why)
{
	struct lk_buf sa = LK_BUF_INIT, sb = LK_BUF_INIT;
	int same;

	if (strcmp(lk_path_base(a->items[0].text), lk_path_base(b->items[0].text))) {
		lk_buf_addf(why, "the driver changed from '%s' to '%s'", a->items[0].text, b->items[0].text);
		return -1;
	}
	shaping_options(a, &sa);
	shaping_options(b, &sb);
	same = !strcmp(sa.buf ? sa.buf : "", sb.buf ? sb.buf : "");
	if (!same)
		lk_buf_addf(why, "the options that decide the driver's crt files and libraries changed ('%s' -> '%s')",
			    sa.len ? sa.buf : "", sb.len ? sb.buf : "");
	lk_buf_release(&sa);
	lk_buf_release(&sb);
	return same ? 0 : -1;
}

/*
 * The linker word of the temporary object the baseline's call compiled
 * `source` into (its -### line names it; the shim keeps the object under
 * the source's name), or NULL when that call compiled no such source.
 */
static const char *baseline_object(const struct lk_driver_words *wb, const struct lk_strvec *linker, const long *pos,
				   const char *source)
{
	for (size_t k = 0; k < wb->nr; k++) {
		if (!wb->items[k].source || strcmp(wb->items[k].word, source))
			continue;
		for (size_t i = 1; i < linker->nr; i++)
			if (pos[i] == wb->items[k].position && lk_argv_is_driver_temp(linker->items[i]))
				return linker->items[i];
	}
	return NULL;
}

int lk_driver_expand_again(const struct lk_record *base, const struct lk_args *args,
			   struct lk_strvec *out, struct lk_buf *why)
{
	const struct lk_strvec *linker = &base->linker_argv;
	struct lk_driver_words wb = LK_DRIVER_WORDS_INIT, wn = LK_DRIVER_WORDS_INIT;
	long *pos, first = -1, last = -1, hoist_at = -1;
	int rc = -1;

	if (!linker->nr || !args->nr || !base->args.nr) {
		lk_buf_addstr(why, "the baseline's record has no -### expansion of its driver");
		return -1;
	}
	if (same_shape(&base->args, args, why) < 0)
		return -1;
	pos = lk_xcalloc(linker->nr + 1, sizeof(*pos));
	lk_line_match(&base->args, linker, pos);
	lk_driver_words(&base->args, &wb);
	lk_driver_words(args, &wn);
	for (size_t i = 1; i < linker->nr; i++)
		if (pos[i] >= 0 && is_ordered_at(&wb, linker->items[i], pos[i])) {
			if (first < 0)
				first = (long)i;
			last = (long)i;
		}
	/* A source the line compiles: the object the baseline's call made of it, if it compiled the same one. */
	for (size_t k = 0; k < wn.nr; k++)
		if (wn.items[k].source && !baseline_object(&wb, linker, pos, wn.items[k].word)) {
			lk_buf_addf(why, "the line compiles '%s' itself, which the baseline's did not: the object's name is the driver's to choose",
				    wn.items[k].word);
			goto out;
		}
	/* Inside the run the driver adds nothing: a word there that is not the user's breaks the model. */
	for (long i = first; first >= 0 && i <= last; i++)
		if (pos[i] < 0) {
			lk_buf_addf(why, "the baseline's linker command has '%s' among the line's own words", linker->items[i]);
			goto out;
		}
	lk_strvec_push(out, linker->items[0]);
	for (size_t i = 1; i < (first < 0 ? linker->nr : (size_t)first); i++) {
		if (pos[i] >= 0) {
			if (hoist_at < 0)
				hoist_at = (long)out->nr;
			continue;	/* a hoisted word of the baseline's line: the new line's go here */
		}
		if (hoist_at < 0 && !strncmp(linker->items[i], "-L", 2))
			hoist_at = (long)out->nr;	/* user -L dirs come before the driver's own */
		lk_strvec_push(out, linker->items[i]);
	}
	{
		/* The new line's hoisted words, at hoist_at (else at the end of the prefix). */
		struct lk_strvec tail = LK_STRVEC_INIT;

		for (size_t i = hoist_at < 0 ? out->nr : (size_t)hoist_at; i < out->nr; i++)
			lk_strvec_push(&tail, out->items[i]);
		while (hoist_at >= 0 && out->nr > (size_t)hoist_at)
			free(out->items[--out->nr]);
		for (size_t k = 0; k < wn.nr; k++)
			if (!wn.items[k].ordered)
				lk_strvec_push(out, wn.items[k].word);
		for (size_t i = 0; i < tail.nr; i++)
			lk_strvec_push(out, tail.items[i]);
		lk_strvec_release(&tail);
	}
	for (size_t k = 0; k < wn.nr; k++)
		if (wn.items[k].source)
			lk_strvec_push(out, baseline_object(&wb, linker, pos, wn.items[k].word));
		else if (wn.items[k].ordered)
			lk_strvec_push(out, wn.items[k].word);
	for (size_t i = first < 0 ? linker->nr : (size_t)last + 1; i < linker->nr; i++)
		if (pos[i] < 0)
			lk_strvec_push(out, linker->items[i]);
	rc = 0;
out:
	free(pos);
	lk_driver_words_release(&wb);
	lk_driver_words_release(&wn);
	return rc;
}
