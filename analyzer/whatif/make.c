/*
 * `linkscope whatif BASELINE --line FILE`: the link a make build would
 * run, read from what `make -n` (or `make -n -B`, `make --trace`) printed.
 *
 * Takes: the baseline's record (its output names the link wanted) and
 * FILE. Gives: the driver argv of the last command in FILE that links and
 * writes that output (or --target NAME), the directory it runs in, as a
 * struct lk_whatif_line.
 * Models: each recipe line is one `sh -c` (a `cd` lasts to its end);
 * make's "Entering directory"/"Leaving directory" lines (-w, -C,
 * recursion) say where the lines between them run; a line that only a
 * shell can read ($VAR, $(...), a glob) is skipped unless it may be the
 * link, and then it is an error naming it: nothing is expanded, nothing
 * run. A libtool --mode=link line is found but cannot be told (libtool
 * builds the real line itself).
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/vec.h"
#include "src_parts.h"

/* The links that are not the one, named in the error that none is (at most). */
#define MK_SEEN_MAX 6

/* The chosen command so far: a copy, the tokens are the line's. */
struct mk_pick {
	struct lk_strvec words;
	char *cwd;
	size_t lineno;
	int tier;
	int libtool;
	int assigns, unknown_cd;
};

struct mk_state {
	const struct lk_record *base;
	const char *file;
	const char *want, *want_cwd;
	struct { char **items; size_t nr, alloc; } dirs;	/* Entering directory, innermost last */
	struct mk_pick pick;
	struct lk_buf seen;		/* outputs of other links, for the error */
	size_t nseen;
	/* the last line that could not be split and names the output: its number and why */
	size_t bad_line;
	struct lk_err bad;
	int cmake_script;	/* a CMake Makefile's `cmake -E cmake_link_script`: the line is in link.txt */
};

static const char *cur_dir(const struct mk_state *s)
{
	return s->dirs.nr ? s->dirs.items[s->dirs.nr - 1] : s->base->cwd;
}

/* "make[2]: Entering directory '/x'" (or `/x'): 1 and the dir pushed or popped, else 0. */
static int directory_line(struct mk_state *s, const char *line, size_t len)
{
	static const char *const verbs[] = { ": Entering directory ", ": Leaving directory " };

	for (int v = 0; v < 2; v++) {
		const char *at = strstr(line, verbs[v]), *d, *e;

		if (!at || memchr(line, ' ', (size_t)(at - line)) || at - line < 4)
			continue;
		/* the program: make, gmake, /usr/bin/make, make[N] */
		if (at[-1] == ']') {
			const char *b = at - 1;

			while (b > line && b[-1] != '[')
				b--;
			if (b <= line || b - 1 - line < 4 || strncmp(b - 5, "make", 4))
				continue;
		} else if (strncmp(at - 4, "make", 4)) {
			continue;
		}
		d = at + strlen(verbs[v]);
		e = line + len;
		if (d >= e || (*d != '\'' && *d != '`') || e[-1] != '\'' || e - 1 <= d)
			return 1;
		if (v == 0) {
			LK_GROW(s->dirs.items, s->dirs.nr + 1, s->dirs.alloc);
			s->dirs.items[s->dirs.nr++] = lk_xstrndup(d + 1, (size_t)(e - 1 - d - 1));
		} else if (s->dirs.nr) {
			free(s->dirs.items[--s->dirs.nr]);
		}
		return 1;
	}
	return 0;
}

/* make's own words: "make: Nothing to be done", "make[1]: 'x' is up to date.", --trace's "Makefile:3: update target". */
static int make_says(const char *line)
{
	const char *colon = strchr(line, ':');
	const char *p;

	if (!colon || colon == line || memchr(line, ' ', (size_t)(colon - line)))
		return 0;
	if ((colon - line >= 4 && !strncmp(colon - 4, "make", 4)) || colon[-1] == ']')
		return !strncmp(colon, ": ", 2);
	/* FILE:LINE: update target 'x' / target 'x' does not exist / ... (--trace) */
	for (p = colon + 1; *p >= '0' && *p <= '9'; p++)
		;
	return p > colon + 1 && !strncmp(p, ": update target ", 16) ? 1 : p > colon + 1 && !strncmp(p, ": target ", 9);
}

/* Is this command libtool in link mode ("libtool --mode=link gcc ...", "/bin/sh ./libtool ...")? The words of its driver then. */
static int libtool_link(const char *const *w, size_t nr, size_t *driver)
{
	size_t i = 0;
	int link = 0;

	if (i + 1 < nr && (!strcmp(lk_path_base(w[i]), "sh") || !strcmp(lk_path_base(w[i]), "bash")))
		i++;
	if (strcmp(lk_path_base(w[i]), "libtool") && !lk_str_starts_with(lk_path_base(w[i]), "libtool"))
		return 0;
	for (i++; i < nr && w[i][0] == '-'; i++) {
		if (!strcmp(w[i], "--mode=link") || !strcmp(w[i], "--link"))
			link = 1;
		else if (!strcmp(w[i], "--mode") && i + 1 < nr && !strcmp(w[i + 1], "link"))
			link = 1, i++;
	}
	*driver = i;
	return link && i < nr;
}

static void take(struct mk_state *s, const struct ws_cmd *c, size_t from, size_t lineno, int tier, int libtool)
{
	lk_strvec_release(&s->pick.words);
	free(s->pick.cwd);
	for (size_t i = from; i < c->nr; i++)
		lk_strvec_push(&s->pick.words, c->words[i]);
	s->pick.cwd = c->cwd ? lk_xstrdup(c->cwd) : NULL;
	s->pick.lineno = lineno;
	s->pick.tier = tier;
	s->pick.libtool = libtool;
	s->pick.assigns = c->assigns;
	s->pick.unknown_cd = c->unknown_cd;
}

static void note_seen(struct mk_state *s, const char *output)
{
	if (s->nseen++ < MK_SEEN_MAX)
		lk_buf_addf(&s->seen, "%s'%s'", s->seen.len ? ", " : "", output);
}

static void one_line(struct mk_state *s, const char *line, size_t len, size_t lineno)
{
	struct lk_sh_tokens t = LK_SH_TOKENS_INIT;
	struct lk_err err = LK_ERR_INIT;
	struct ws_cmds cmds = { NULL, 0, 0 };

	if (lk_sh_split(line, len, &t, &err) < 0) {
		/* it matters only if it may be the link: it names the output's file name */
		if (ws_names_file(line, lk_path_base(s->want))) {
			s->bad_line = lineno;
			s->bad = err;
		}
		lk_sh_tokens_release(&t);
		return;
	}
	ws_cmds_of(&t, cur_dir(s), &cmds);
	for (size_t i = 0; i < cmds.nr; i++) {
		const struct ws_cmd *c = &cmds.items[i];
		size_t from = ws_launcher_words(c->words, c->nr), drv;
		const char *output;
		int tier, lt = 0;

		if (c->nr - from >= 3 && !strcmp(c->words[from + 1], "-E") &&
		    !strcmp(c->words[from + 2], "cmake_link_script"))
			s->cmake_script = 1;
		if (libtool_link(c->words + from, c->nr - from, &drv)) {
			lt = 1;
			from += drv;
		} else if (!ws_may_link(c->words[from], s->base)) {
			continue;
		}
		output = ws_link_output(c->words + from, c->nr - from);
		if (!output)
			continue;
		tier = ws_output_match(output, c->cwd, s->want, s->want_cwd);
		if (tier && tier >= s->pick.tier)
			take(s, c, from, lineno, tier, lt);
		else if (!tier)
			note_seen(s, output);
	}
	ws_cmds_release(&cmds);
	lk_sh_tokens_release(&t);
}

static void state_release(struct mk_state *s)
{
	for (size_t i = 0; i < s->dirs.nr; i++)
		free(s->dirs.items[i]);
	free(s->dirs.items);
	lk_strvec_release(&s->pick.words);
	free(s->pick.cwd);
	lk_buf_release(&s->seen);
}

int lk_whatif_from_make(const struct lk_record *base, const char *file, const char *target,
			struct lk_whatif_line *out, struct lk_err *err)
{
	struct mk_state s;
	struct lk_buf text = LK_BUF_INIT;
	size_t lineno = 1;
	int rc = 0;

	memset(&s, 0, sizeof(s));
	s.base = base;
	s.file = file;
	s.want = target ? target : base->output ? base->output : "a.out";
	s.want_cwd = target ? NULL : base->cwd;
	lk_buf_init(&s.seen);
	if (ws_read(file, WS_FILE_MAX, &text, err) < 0) {
		lk_buf_release(&text);
		state_release(&s);
		return -1;
	}
	for (const char *p = text.buf, *end = text.buf + text.len; p < end && !rc;) {
		const char *e = p;
		size_t first = lineno, len;

		/* a logical line: newlines after an odd run of backslashes continue it (the shell drops them) */
		for (;;) {
			const char *nl = memchr(e, '\n', (size_t)(end - e));
			size_t bs = 0;

			if (!nl) {
				e = end;
				break;
			}
			lineno++;
			while (nl - bs > p && nl[-1 - (long)bs] == '\\')
				bs++;
			e = nl + 1;
			if (!(bs & 1))
				break;
		}
		len = (size_t)(e - p);
		if (len && p[len - 1] == '\n')
			len--;
		if (len > WS_LINE_MAX) {
			rc = lk_err_set(err, LK_E_FORMAT, "'%s' line %zu: longer than %zu MiB", file, first,
					WS_LINE_MAX >> 20);
			break;
		}
		{
			char *line = lk_xstrndup(p, len);

			if (!directory_line(&s, line, len) && !make_says(line))
				one_line(&s, line, len, first);
			free(line);
		}
		p = e;
	}
	if (!rc && s.bad_line && s.bad_line > s.pick.lineno)
		rc = lk_err_set(err, LK_E_FORMAT, "'%s' line %zu may be the link of '%s' and cannot be read: %s", file,
				s.bad_line, s.want, s.bad.msg);
	else if (!rc && !s.pick.tier)
		rc = lk_err_set(err, LK_E_NOTFOUND, "'%s' shows no link that writes '%s'%s%s%s%s", file, s.want,
				s.nseen ? " (links seen: " : "", s.seen.buf, s.nseen ? ")" : "",
				s.cmake_script ? "; it is a CMake build's, whose links are in link.txt files: --cmake BUILD_DIR reads them" : "");
	if (!rc) {
		struct lk_buf said = LK_BUF_INIT, read = LK_BUF_INIT;

		lk_buf_addf(&read, "%s:%zu", file, s.pick.lineno);
		ws_fill(out, base, (const char *const *)s.pick.words.items, s.pick.words.nr, s.pick.cwd,
			s.pick.cwd ? s.pick.cwd : base->cwd, "make", read.buf);
		lk_buf_addf(&said, "the link is line %zu of '%s', run in '%s'", s.pick.lineno, file,
			    s.pick.cwd ? s.pick.cwd : "the baseline's directory");
		lk_strvec_push_owned(&out->said, lk_buf_detach(&said));
		if (s.pick.libtool)
			lk_strvec_push(&out->unknown,
				       "libtool --mode=link makes the real link line itself (its .la files, its "
				       "-rpath and .libs/ choices): make -n shows only libtool's own command");
		if (s.pick.assigns)
			lk_strvec_push(&out->cannot_see,
				       "the link line sets variables of its own environment (VAR=value before the "
				       "driver): the prediction runs with the baseline's");
		if (s.pick.unknown_cd)
			lk_strvec_push(&out->unknown,
				       "a `cd` before the link goes where make -n's output does not say");
		lk_buf_release(&read);
	}
	lk_buf_release(&text);
	state_release(&s);
	return rc;
}
