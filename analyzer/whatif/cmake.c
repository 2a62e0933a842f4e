/*
 * `linkscope whatif BASELINE --cmake BUILD_DIR`: the link a configured
 * CMake build dir would run for a target, read from what the configure
 * wrote, before anything is built.
 *
 * Takes: the baseline's record (its output chooses the target, unless
 * --target NAME does) and the build dir. Gives: the target's link command
 * as a struct lk_whatif_line: the driver argv (a linker launcher left
 * out) and the directory it runs in.
 * Models what CMake writes (cmMakefileExecutableTargetGenerator,
 * cmMakefileLibraryTargetGenerator, cmNinjaNormalTargetGenerator):
 *  - Makefile generators: CMakeFiles/<target>.dir/link.txt under the
 *    target's binary dir, one command a line, each run by
 *    `cmake -E cmake_link_script` through sh from that dir (build.make's
 *    `cd <bindir> && ...`); the dirs are CMakeFiles/TargetDirectories.txt's.
 *  - Ninja: build.ninja's `build <out>: <LANG>_<TYPE>_LINKER__<target>_<config>`
 *    (the target encoded: '.' and other bytes as .xx), its rule's
 *    `command` with ninja's own variable rules ($in, $out, the build's
 *    bindings, then the rule's, then the file's), rspfile_content in
 *    place of @$RSP_FILE; the command is a `&&` chain
 *    ($PRE_LINK && link && $POST_BUILD) run by sh from the build dir, and
 *    the link is the command in it that writes the output. Ninja
 *    Multi-Config: each build-<Config>.ninja (build.ninja repeats the default).
 * Runs nothing: a command only a shell could read is an error naming it.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/rsp.h"
#include "linkscope/vec.h"
#include "src_parts.h"

/* Targets listed in the ambiguity error (at most). */
#define CM_LIST_MAX 12
/* Nested variable lookups in ninja (a rule binding naming another): deeper is a loop. */
#define NJ_EVAL_DEPTH 32
/* Variable lookups in one build dir's files, at most (a few per statement in a real one). */
#define NJ_STEPS_MAX ((size_t)50 << 20)
/* include/subninja nesting. */
#define NJ_INCLUDE_DEPTH 16

/* One target's link, as a candidate. */
struct cm_cand {
	char *target;
	char *output;		/* the -o value (or the build's output), relative to cwd */
	char *cwd;
	char *file;		/* where it was read, for the report */
	size_t lineno;
	struct lk_strvec words;	/* the driver first */
	char *bad;		/* why it cannot be read, or NULL */
	int unknown_cd;
	int assigns;
};

struct cm_cands {
	struct cm_cand *items;
	size_t nr, alloc;
};

static struct cm_cand *cand_new(struct cm_cands *c, const char *target, const char *file, size_t lineno)
{
	struct cm_cand *n;

	LK_GROW(c->items, c->nr + 1, c->alloc);
	n = &c->items[c->nr++];
	memset(n, 0, sizeof(*n));
	n->target = lk_xstrdup(target);
	n->file = lk_xstrdup(file);
	n->lineno = lineno;
	return n;
}

static void cands_release(struct cm_cands *c)
{
	for (size_t i = 0; i < c->nr; i++) {
		free(c->items[i].target);
		free(c->items[i].output);
		free(c->items[i].cwd);
		free(c->items[i].file);
		free(c->items[i].bad);
		lk_strvec_release(&c->items[i].words);
	}
	free(c->items);
}

/*
 * The link in the shell text `text` run from `dir`: the command that
 * links and writes `want` (or, without `want`, the last that links).
 * Fills `n`'s words, cwd and output; 0 when there is none.
 */
static int link_in(struct cm_cand *n, const char *text, size_t len, const char *dir, const char *want,
		   const struct lk_record *base)
{
	struct lk_sh_tokens t = LK_SH_TOKENS_INIT;
	struct lk_err err = LK_ERR_INIT;
	struct ws_cmds cmds = { NULL, 0, 0 };
	long best = -1;
	int best_tier = -1;

	if (lk_sh_split(text, len, &t, &err) < 0) {
		free(n->bad);
		n->bad = lk_xstrdup(err.msg);
		lk_sh_tokens_release(&t);
		return 0;
	}
	ws_cmds_of(&t, dir, &cmds);
	for (size_t i = 0; i < cmds.nr; i++) {
		const struct ws_cmd *c = &cmds.items[i];
		size_t from = ws_launcher_words(c->words, c->nr);
		const char *o;
		int tier;

		if (!strcmp(c->words[from], "cd") || !strcmp(c->words[from], ":"))
			continue;
		o = ws_link_output(c->words + from, c->nr - from);
		if (!o || (!ws_may_link(c->words[from], base) && !want))
			continue;
		tier = want ? ws_output_match(o, c->cwd, want, dir) : 0;
		if (tier >= best_tier) {
			best = (long)i;
			best_tier = tier;
		}
	}
	if (best >= 0) {
		const struct ws_cmd *c = &cmds.items[best];
		size_t from = ws_launcher_words(c->words, c->nr);

		for (size_t i = from; i < c->nr; i++)
			lk_strvec_push(&n->words, c->words[i]);
		n->cwd = c->cwd ? lk_xstrdup(c->cwd) : NULL;
		n->output = lk_xstrdup(ws_link_output(c->words + from, c->nr - from));
		n->unknown_cd = c->unknown_cd;
		n->assigns = c->assigns;
	}
	ws_cmds_release(&cmds);
	lk_sh_tokens_release(&t);
	return best >= 0;
}

/* ---- Makefile generators ---- */

/* One target dir (.../CMakeFiles/NAME.dir): its link.txt's link, if it has one. */
static void makefile_target(struct cm_cands *c, const char *tdir, const struct lk_record *base)
{
	const char *b = lk_path_base(tdir);
	size_t bl = strlen(b), dl = strlen(tdir);
	struct lk_buf path = LK_BUF_INIT, text = LK_BUF_INIT;
	struct lk_err err = LK_ERR_INIT;
	char *name, *bindir;
	size_t lineno = 0;
	int found = 0;

	/* NAME.dir under CMakeFiles/ */
	if (bl <= 4 || strcmp(b + bl - 4, ".dir") || dl < bl + 11 || strncmp(tdir + dl - bl - 11, "CMakeFiles/", 11))
		return;
	name = lk_xstrndup(b, bl - 4);
	bindir = dl == bl + 11 ? lk_xstrdup(".") : lk_xstrndup(tdir, dl - bl - 12);
	lk_buf_addf(&path, "%s/link.txt", tdir);
	if (ws_read(path.buf, WS_FILE_MAX, &text, &err) == 0) {
		struct cm_cand *n = NULL;

		/* one command a line, each its own sh -c from the target's binary dir */
		for (const char *p = text.buf, *e; *p && !found; p = *e ? e + 1 : e) {
			e = strchrnul(p, '\n');
			lineno++;
			if (!n)
				n = cand_new(c, name, path.buf, lineno);
			n->lineno = lineno;
			found = link_in(n, p, (size_t)(e - p), bindir, NULL, base);
		}
		if (found) {
			free(n->bad);
			n->bad = NULL;
		} else if (n && !n->bad) {
			/* a static library's (ar), an object library's: not a link */
			free(n->target);
			free(n->file);
			c->nr--;
		}
	}
	free(name);
	free(bindir);
	lk_buf_release(&path);
	lk_buf_release(&text);
}

static int makefile_cands(const char *build_dir, struct cm_cands *c, const struct lk_record *base,
			  struct lk_err *err)
{
	struct lk_buf list = LK_BUF_INIT, p = LK_BUF_INIT;
	struct lk_err e2 = LK_ERR_INIT;

	lk_buf_addf(&p, "%s/CMakeFiles/TargetDirectories.txt", build_dir);
	if (ws_read(p.buf, WS_FILE_MAX, &list, &e2) == 0) {
		for (const char *s = list.buf, *e; *s; s = *e ? e + 1 : e) {
			char *tdir;

			e = strchrnul(s, '\n');
			if (e == s)
				continue;
			tdir = lk_xstrndup(s, (size_t)(e - s));
			makefile_target(c, tdir, base);
			free(tdir);
		}
	} else {
		/* an older CMake: the top dir's targets only */
		DIR *dh;
		struct dirent *d;
		size_t seen = 0;

		lk_buf_reset(&p);
		lk_buf_addf(&p, "%s/CMakeFiles", build_dir);
		dh = opendir(p.buf);
		if (!dh) {
			lk_buf_release(&p);
			lk_buf_release(&list);
			return lk_err_set(err, LK_E_USAGE, "'%s' is not a configured CMake build dir (no build.ninja, no CMakeFiles/)",
					  build_dir);
		}
		while ((d = readdir(dh)) && seen++ < 65536) {
			struct lk_buf t = LK_BUF_INIT;

			lk_buf_addf(&t, "%s/%s", p.buf, d->d_name);
			makefile_target(c, t.buf, base);
			lk_buf_release(&t);
		}
		closedir(dh);
	}
	lk_buf_release(&p);
	lk_buf_release(&list);
	return 0;
}

/* ---- Ninja ---- */

struct nj_var {
	char *name, *value;
};

struct nj_vars {
	struct nj_var *items;
	size_t nr, alloc;
};

struct nj_rule {
	char *name;
	struct nj_vars bind;	/* raw: evaluated in the build's scope when asked */
};

struct nj_build {
	struct lk_strvec outs, ins;	/* evaluated; ins: the explicit ones ($in) */
	char *rule;
	struct nj_vars bind;		/* evaluated when read */
	char *file;
	size_t lineno;
};

/* Names to their latest definition's index: file variables and rules are looked up often. */
struct nj_slot {
	const char *name;	/* borrowed from the definition */
	size_t len, idx;
};

struct nj_index {
	struct nj_slot *slots;
	size_t cap, nr;
};

struct nj {
	const char *build_dir;
	struct nj_vars vars;
	struct nj_index vars_ix, rules_ix;
	size_t steps, bytes;	/* lookups made, bytes of file variables: bounded */
	int over;		/* a bound was passed: the files cannot be read */
	struct { struct nj_rule *items; size_t nr, alloc; } rules;
	struct { struct nj_build *items; size_t nr, alloc; } builds;
	size_t files;
};

static uint64_t ix_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	return h ^ (h >> 33);
}

static struct nj_slot *ix_find(const struct nj_index *ix, const char *name, size_t n)
{
	size_t i;

	if (!ix->cap)
		return NULL;
	for (i = ix_hash(name, n) & (ix->cap - 1);; i = (i + 1) & (ix->cap - 1)) {
		struct nj_slot *sl = &ix->slots[i];

		if (!sl->name || (sl->len == n && !memcmp(sl->name, name, n)))
			return sl;
	}
}

static void ix_put(struct nj_index *ix, const char *name, size_t idx)
{
	struct nj_slot *sl;

	if ((ix->nr + 1) * 2 > ix->cap) {
		struct nj_index bigger = { NULL, ix->cap ? ix->cap * 2 : 64, 0 };

		bigger.slots = lk_xcalloc(bigger.cap, sizeof(*bigger.slots));
		for (size_t i = 0; i < ix->cap; i++)
			if (ix->slots[i].name)
				*ix_find(&bigger, ix->slots[i].name, ix->slots[i].len) = ix->slots[i];
		bigger.nr = ix->nr;
		free(ix->slots);
		*ix = bigger;
	}
	sl = ix_find(ix, name, strlen(name));
	if (!sl->name)
		ix->nr++;
	sl->name = name;
	sl->len = strlen(name);
	sl->idx = idx;
}

static void vars_set(struct nj_vars *v, const char *name, size_t nlen, char *value)
{
	LK_GROW(v->items, v->nr + 1, v->alloc);
	v->items[v->nr].name = lk_xstrndup(name, nlen);
	v->items[v->nr++].value = value;
}

static const char *vars_get(const struct nj_vars *v, const char *name, size_t nlen)
{
	for (size_t i = v->nr; i-- > 0;)
		if (strlen(v->items[i].name) == nlen && !memcmp(v->items[i].name, name, nlen))
			return v->items[i].value;
	return NULL;
}

static void vars_release(struct nj_vars *v)
{
	for (size_t i = 0; i < v->nr; i++) {
		free(v->items[i].name);
		free(v->items[i].value);
	}
	free(v->items);
}

static const struct nj_rule *rule_get(const struct nj *nj, const char *name)
{
	const struct nj_slot *sl = ix_find(&nj->rules_ix, name, strlen(name));

	return sl && sl->name ? &nj->rules.items[sl->idx] : NULL;
}

static const char *file_var(const struct nj *nj, const char *name, size_t n)
{
	const struct nj_slot *sl = ix_find(&nj->vars_ix, name, n);

	return sl && sl->name ? nj->vars.items[sl->idx].value : NULL;
}

static int nj_varchar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* ninja's shell quoting of one path in $in/$out (GetShellEscapedString): as is when every byte is safe. */
static void add_shell_path(struct lk_buf *b, const char *p)
{
	const char *q;

	for (q = p; *q && (nj_varchar(*q) || *q == '+' || *q == '.' || *q == '/'); q++)
		;
	if (!*q) {
		lk_buf_addstr(b, p);
		return;
	}
	lk_buf_addch(b, '\'');
	for (q = p; *q; q++) {
		if (*q == '\'')
			lk_buf_addstr(b, "'\\''");
		else
			lk_buf_addch(b, *q);
	}
	lk_buf_addch(b, '\'');
}

static void eval(struct nj *nj, const struct nj_build *bd, const char *s, size_t len, struct lk_buf *out,
		 int depth);

static void lookup(struct nj *nj, const struct nj_build *bd, const char *name, size_t n, struct lk_buf *out,
		   int depth)
{
	const struct nj_rule *r;
	const char *v;

	/* a loop of rule variables, or one doubling at each level: a bound, not a hang */
	if (depth > NJ_EVAL_DEPTH || ++nj->steps > NJ_STEPS_MAX) {
		nj->over = 1;
		return;
	}
	if (nj->over)
		return;
	if (bd) {
		int in = n == 2 && !memcmp(name, "in", 2), nl = n == 10 && !memcmp(name, "in_newline", 10);

		if (in || nl || (n == 3 && !memcmp(name, "out", 3))) {
			const struct lk_strvec *l = in || nl ? &bd->ins : &bd->outs;

			for (size_t i = 0; i < l->nr; i++) {
				if (i)
					lk_buf_addch(out, nl ? '\n' : ' ');
				add_shell_path(out, l->items[i]);
			}
			return;
		}
		if ((v = vars_get(&bd->bind, name, n))) {
			lk_buf_addstr(out, v);
			return;
		}
		r = rule_get(nj, bd->rule);
		if (r && (v = vars_get(&r->bind, name, n))) {
			eval(nj, bd, v, strlen(v), out, depth + 1);
			return;
		}
	}
	if ((v = file_var(nj, name, n)))
		lk_buf_addstr(out, v);
	if (out->len > WS_LINE_MAX)
		nj->over = 1;
}

/* ninja's $-escapes: $$ $  $: $\n ${name} $name; file vars are stored evaluated. */
static void eval(struct nj *nj, const struct nj_build *bd, const char *s, size_t len, struct lk_buf *out,
		 int depth)
{
	const char *end = s + len;

	while (s < end && !nj->over) {
		if (*s != '$' || s + 1 >= end) {
			lk_buf_addch(out, *s++);
			continue;
		}
		s++;
		if (*s == '$' || *s == ' ' || *s == ':') {
			lk_buf_addch(out, *s++);
		} else if (*s == '\n') {
			for (s++; s < end && *s == ' '; s++)
				;
		} else if (*s == '{') {
			const char *e = memchr(s, '}', (size_t)(end - s));

			if (!e)
				return;
			lookup(nj, bd, s + 1, (size_t)(e - s - 1), out, depth);
			s = e + 1;
		} else {
			const char *e = s;

			while (e < end && nj_varchar(*e))
				e++;
			lookup(nj, bd, s, (size_t)(e - s), out, depth);
			s = e;
		}
	}
}

/* The unescaped-space separated paths of `s` up to `end`, each evaluated into `into`. */
static const char *paths(struct nj *nj, const char *s, const char *end, struct lk_strvec *into, int stop_colon)
{
	while (s < end) {
		const char *e = s;

		while (s < end && *s == ' ')
			s++;
		if (s >= end || (stop_colon && *s == ':') || (!stop_colon && *s == '|'))
			return s;
		for (e = s; e < end && *e != ' ' && !(stop_colon && *e == ':'); e++)
			if (*e == '$' && e + 1 < end)
				e++;
		{
			struct lk_buf b = LK_BUF_INIT;

			eval(nj, NULL, s, (size_t)(e - s), &b, 0);
			lk_strvec_push_owned(into, lk_buf_detach(&b));
		}
		s = e;
	}
	return s;
}

/* Is this rule a link of CMake's (an executable, shared library or module; not a static library's ar)? */
static int link_rule(const char *rule)
{
	const char *l = strstr(rule, "_LINKER__");

	return l && !strstr(rule, "STATIC_LIBRARY") && l > rule;
}

static int nj_parse(struct nj *nj, const char *path, int depth, struct lk_err *err);

static int nj_statement(struct nj *nj, const char *file, size_t lineno, const char *line, size_t len,
			void **scope, int depth, struct lk_err *err)
{
	const char *end = line + len, *p;
	int indented = len && (line[0] == ' ' || line[0] == '\t');

	for (p = line; p < end && (*p == ' ' || *p == '\t'); p++)
		;
	if (p >= end || *p == '#')
		return 0;
	if (indented) {
		/* a binding of the rule or build above */
		const char *eq = memchr(p, '=', (size_t)(end - p)), *ne, *v;

		if (!eq || !*scope)
			return 0;
		for (ne = eq; ne > p && (ne[-1] == ' ' || ne[-1] == '\t'); ne--)
			;
		for (v = eq + 1; v < end && *v == ' '; v++)
			;
		if (*scope == (void *)&nj->rules) {
			struct nj_rule *r = &nj->rules.items[nj->rules.nr - 1];

			vars_set(&r->bind, p, (size_t)(ne - p), lk_xstrndup(v, (size_t)(end - v)));
		} else {
			struct nj_build *b = &nj->builds.items[nj->builds.nr - 1];
			struct lk_buf val = LK_BUF_INIT;

			eval(nj, NULL, v, (size_t)(end - v), &val, 0);
			vars_set(&b->bind, p, (size_t)(ne - p), lk_buf_detach(&val));
		}
		return 0;
	}
	*scope = NULL;
	if (!strncmp(p, "rule ", 5)) {
		const char *n = p + 5;

		while (n < end && *n == ' ')
			n++;
		LK_GROW(nj->rules.items, nj->rules.nr + 1, nj->rules.alloc);
		memset(&nj->rules.items[nj->rules.nr], 0, sizeof(struct nj_rule));
		nj->rules.items[nj->rules.nr++].name = lk_xstrndup(n, (size_t)(end - n));
		ix_put(&nj->rules_ix, nj->rules.items[nj->rules.nr - 1].name, nj->rules.nr - 1);
		*scope = &nj->rules;
	} else if (!strncmp(p, "build ", 6)) {
		struct lk_strvec outs = LK_STRVEC_INIT;
		const char *q = paths(nj, p + 6, end, &outs, 1), *r, *re;

		if (q >= end || *q != ':') {
			lk_strvec_release(&outs);
			return lk_err_set(err, LK_E_FORMAT, "'%s' line %zu: a build statement without ':'", file, lineno);
		}
		/* "out | implicit-out:": $out is the explicit ones only */
		for (size_t k = 0; k < outs.nr; k++) {
			if (!strcmp(outs.items[k], "|")) {
				while (outs.nr > k)
					free(outs.items[--outs.nr]);
				outs.items[k] = NULL;
				break;
			}
		}
		for (r = q + 1; r < end && *r == ' '; r++)
			;
		for (re = r; re < end && *re != ' '; re++)
			;
		{
			char *rule = lk_xstrndup(r, (size_t)(re - r));

			if (link_rule(rule)) {
				struct nj_build *b;

				LK_GROW(nj->builds.items, nj->builds.nr + 1, nj->builds.alloc);
				b = &nj->builds.items[nj->builds.nr++];
				memset(b, 0, sizeof(*b));
				b->outs = outs;
				b->rule = rule;
				b->file = lk_xstrdup(file);
				b->lineno = lineno;
				paths(nj, re, end, &b->ins, 0);
				*scope = &nj->builds;
			} else {
				free(rule);
				lk_strvec_release(&outs);
				/* its bindings are not wanted: a scope that takes nothing */
				*scope = NULL;
			}
		}
	} else if (!strncmp(p, "include ", 8) || !strncmp(p, "subninja ", 9)) {
		const char *n = p + (p[0] == 'i' ? 8 : 9);
		struct lk_buf inc = LK_BUF_INIT;
		char *full;
		int rc;

		while (n < end && *n == ' ')
			n++;
		eval(nj, NULL, n, (size_t)(end - n), &inc, 0);
		/* ninja opens them from where it runs: the build dir */
		full = ws_path(nj->build_dir, inc.buf);
		rc = nj_parse(nj, full, depth + 1, err);
		free(full);
		lk_buf_release(&inc);
		return rc;
	} else if (!strncmp(p, "default ", 8) || !strncmp(p, "pool ", 5)) {
		return 0;
	} else {
		const char *eq = memchr(p, '=', (size_t)(end - p)), *ne, *v;
		struct lk_buf val = LK_BUF_INIT;

		if (!eq)
			return 0;
		for (ne = eq; ne > p && (ne[-1] == ' ' || ne[-1] == '\t'); ne--)
			;
		for (v = eq + 1; v < end && *v == ' '; v++)
			;
		eval(nj, NULL, v, (size_t)(end - v), &val, 0);
		nj->bytes += val.len;
		if (nj->bytes > WS_FILE_MAX)
			nj->over = 1;
		vars_set(&nj->vars, p, (size_t)(ne - p), lk_buf_detach(&val));
		ix_put(&nj->vars_ix, nj->vars.items[nj->vars.nr - 1].name, nj->vars.nr - 1);
	}
	return 0;
}

static int nj_parse(struct nj *nj, const char *path, int depth, struct lk_err *err)
{
	struct lk_buf text = LK_BUF_INIT;
	void *scope = NULL;
	size_t lineno = 1;
	int rc = 0;

	if (depth > NJ_INCLUDE_DEPTH || ++nj->files > WS_NINJA_FILES_MAX)
		return lk_err_set(err, LK_E_FORMAT, "'%s': includes nested deeper than %d or more than %zu files", path,
				  NJ_INCLUDE_DEPTH, WS_NINJA_FILES_MAX);
	if (ws_read(path, WS_FILE_MAX, &text, err) < 0) {
		lk_buf_release(&text);
		return -1;
	}
	for (const char *p = text.buf, *end = text.buf + text.len; p < end && !rc;) {
		const char *e = p;
		size_t first = lineno;
		struct lk_buf line = LK_BUF_INIT;

		/* a line ending in an unescaped '$' goes on, the next line's indent dropped */
		for (;;) {
			const char *nl = memchr(e, '\n', (size_t)(end - e));
			const char *stop = nl ? nl : end;
			size_t dollars = 0;

			while (stop - (long)dollars > e && stop[-1 - (long)dollars] == '$')
				dollars++;
			lk_buf_add(&line, e, (size_t)(stop - e) - (dollars & 1));
			if (!nl) {
				e = end;
				break;
			}
			lineno++;
			e = nl + 1;
			if (!(dollars & 1))
				break;
			while (e < end && *e == ' ')
				e++;
		}
		if (line.len && line.buf[line.len - 1] == '\r')
			line.buf[--line.len] = '\0';
		rc = nj_statement(nj, path, first, line.buf, line.len, &scope, depth, err);
		if (!rc && nj->over)
			rc = lk_err_set(err, LK_E_FORMAT, "'%s' line %zu: its variables expand past %zu MiB or %d levels",
					path, first, WS_LINE_MAX >> 20, NJ_EVAL_DEPTH);
		lk_buf_release(&line);
		p = e;
	}
	lk_buf_release(&text);
	return rc;
}

static void nj_release(struct nj *nj)
{
	vars_release(&nj->vars);
	free(nj->vars_ix.slots);
	free(nj->rules_ix.slots);
	for (size_t i = 0; i < nj->rules.nr; i++) {
		free(nj->rules.items[i].name);
		vars_release(&nj->rules.items[i].bind);
	}
	free(nj->rules.items);
	for (size_t i = 0; i < nj->builds.nr; i++) {
		struct nj_build *b = &nj->builds.items[i];

		lk_strvec_release(&b->outs);
		lk_strvec_release(&b->ins);
		free(b->rule);
		free(b->file);
		vars_release(&b->bind);
	}
	free(nj->builds.items);
}

/* The CMake target of a link rule: "C_EXECUTABLE_LINKER__my.2eapp_Debug" is "my.app". Owned. */
static char *rule_target(const char *rule)
{
	const char *s = strstr(rule, "_LINKER__") + 9, *e = strrchr(s, '_');
	struct lk_buf b = LK_BUF_INIT;

	if (!e)
		e = s + strlen(s);
	for (; s < e; s++) {
		unsigned v;

		if (*s == '.' && e - s >= 3 && sscanf(s + 1, "%2x", &v) == 1) {
			lk_buf_addch(&b, (char)v);
			s += 2;
		} else {
			lk_buf_addch(&b, *s);
		}
	}
	return lk_buf_detach(&b);
}

static int ninja_cands(const char *build_dir, const char *ninja_file, struct cm_cands *c,
		       const struct lk_record *base, struct lk_err *err)
{
	struct nj nj;

	memset(&nj, 0, sizeof(nj));
	nj.build_dir = build_dir;
	if (nj_parse(&nj, ninja_file, 0, err) < 0) {
		nj_release(&nj);
		return -1;
	}
	for (size_t i = 0; i < nj.builds.nr; i++) {
		const struct nj_build *b = &nj.builds.items[i];
		struct lk_buf cmd = LK_BUF_INIT, rsp = LK_BUF_INIT;
		char *target = rule_target(b->rule);
		struct cm_cand *n = cand_new(c, target, b->file, b->lineno);

		free(target);
		lookup(&nj, b, "command", 7, &cmd, 0);
		if (!link_in(n, cmd.buf, cmd.len, build_dir, b->outs.nr ? b->outs.items[0] : NULL, base) && !n->bad)
			n->bad = lk_xstrdup("its command has no link that writes its output");
		if (!n->output && b->outs.nr)
			n->output = lk_xstrdup(b->outs.items[0]);
		if (!n->cwd)
			n->cwd = lk_xstrdup(build_dir);
		/* @$RSP_FILE: ninja writes rspfile_content there just before the command */
		lookup(&nj, b, "rspfile", 7, &rsp, 0);
		if (rsp.len) {
			struct lk_strvec words = LK_STRVEC_INIT;
			struct lk_buf at = LK_BUF_INIT, content = LK_BUF_INIT;

			lk_buf_addf(&at, "@%s", rsp.buf);
			lookup(&nj, b, "rspfile_content", 15, &content, 0);
			for (size_t k = 0; k < n->words.nr; k++) {
				if (!strcmp(n->words.items[k], at.buf)) {
					struct lk_strvec in = LK_STRVEC_INIT;

					lk_rsp_split(content.buf, &in);
					for (size_t m = 0; m < in.nr; m++)
						lk_strvec_push(&words, in.items[m]);
					lk_strvec_release(&in);
				} else {
					lk_strvec_push(&words, n->words.items[k]);
				}
			}
			lk_strvec_release(&n->words);
			n->words = words;
			lk_buf_release(&at);
			lk_buf_release(&content);
		}
		lk_buf_release(&cmd);
		lk_buf_release(&rsp);
		if (nj.over) {
			lk_err_set(err, LK_E_FORMAT, "'%s' line %zu: the link command's variables expand past %zu MiB or %d levels",
				   b->file, b->lineno, WS_LINE_MAX >> 20, NJ_EVAL_DEPTH);
			nj_release(&nj);
			return -1;
		}
	}
	nj_release(&nj);
	return 0;
}

/*
 * Ninja Multi-Config writes one build-<Config>.ninja per configuration
 * (build.ninja is the default one's again): each is read, so the
 * baseline's Release/app finds its own; a plain Ninja dir has build.ninja alone.
 */
static int ninja_all(const char *build_dir, const char *build_ninja, struct cm_cands *c,
		     const struct lk_record *base, struct lk_err *err)
{
	DIR *dh = opendir(build_dir);
	struct dirent *d;
	size_t seen = 0, configs = 0;
	int rc = 0;

	while (dh && !rc && (d = readdir(dh)) && seen++ < 65536) {
		size_t n = strlen(d->d_name);
		struct lk_buf p = LK_BUF_INIT;

		if (n <= 12 || strncmp(d->d_name, "build-", 6) || strcmp(d->d_name + n - 6, ".ninja"))
			continue;
		lk_buf_addf(&p, "%s/%s", build_dir, d->d_name);
		rc = ninja_cands(build_dir, p.buf, c, base, err);
		configs++;
		lk_buf_release(&p);
	}
	if (dh)
		closedir(dh);
	return rc < 0 || configs ? rc : ninja_cands(build_dir, build_ninja, c, base, err);
}

/* ---- the target ---- */

static void list_targets(const struct cm_cands *c, const int *tiers, int tier, struct lk_buf *b)
{
	size_t shown = 0;

	for (size_t i = 0; i < c->nr; i++) {
		if (tiers && tiers[i] != tier)
			continue;
		if (shown++ == CM_LIST_MAX) {
			lk_buf_addstr(b, ", ...");
			break;
		}
		lk_buf_addf(b, "%s%s (-o %s)", shown > 1 ? ", " : "", c->items[i].target,
			    c->items[i].output ? c->items[i].output : "?");
	}
	if (!shown)
		lk_buf_addstr(b, "none");
}

int lk_whatif_from_cmake(const struct lk_record *base, const char *build_dir, const char *target,
			 struct lk_whatif_line *out, struct lk_err *err)
{
	struct cm_cands c = { NULL, 0, 0 };
	struct lk_buf ninja = LK_BUF_INIT, names = LK_BUF_INIT;
	char *dir = ws_abs(build_dir);
	const char *want = base->output ? base->output : "a.out";
	int *tiers = NULL, best = 0, rc = 0;
	size_t nbest = 0, pick = 0;
	const struct cm_cand *n;

	lk_buf_addf(&ninja, "%s/build.ninja", dir);
	if (access(ninja.buf, F_OK) == 0)
		rc = ninja_all(dir, ninja.buf, &c, base, err);
	else
		rc = makefile_cands(dir, &c, base, err);
	if (rc < 0)
		goto done;
	tiers = lk_xcalloc(c.nr + 1, sizeof(*tiers));
	for (size_t i = 0; i < c.nr; i++) {
		const struct cm_cand *k = &c.items[i];

		if (target)
			tiers[i] = !strcmp(k->target, target) ? 1 + ws_output_match(k->output, k->cwd, want, base->cwd) : 0;
		else
			tiers[i] = ws_output_match(k->output, k->cwd, want, base->cwd);
		if (tiers[i] > best) {
			best = tiers[i];
			nbest = 0;
		}
		if (tiers[i] == best && best) {
			nbest++;
			pick = i;
		}
	}
	if (!best) {
		list_targets(&c, NULL, 0, &names);
		rc = target ? lk_err_set(err, LK_E_NOTFOUND, "'%s' has no target '%s' that links (targets that link: %s)",
					 dir, target, names.buf)
			    : lk_err_set(err, LK_E_NOTFOUND,
					 "no target of '%s' links '%s' (targets that link: %s); --target NAME chooses",
					 dir, want, names.buf);
		goto done;
	}
	if (nbest > 1 && target) {
		/* one target in several configurations (Ninja Multi-Config): the one whose output sits where the baseline's did */
		char *want_dir = ws_path(base->cwd, want), *slash = strrchr(want_dir, '/');
		size_t same = 0;

		if (slash)
			*slash = '\0';
		for (size_t i = 0; i < c.nr; i++) {
			char *o, *os;

			if (tiers[i] != best || !c.items[i].output)
				continue;
			o = ws_path(c.items[i].cwd, c.items[i].output);
			os = strrchr(o, '/');
			if (os)
				*os = '\0';
			if (slash && os && !strcmp(o, want_dir)) {
				same++;
				pick = i;
			}
			free(o);
		}
		free(want_dir);
		if (same == 1)
			nbest = 1;
	}
	if (nbest > 1) {
		list_targets(&c, tiers, best, &names);
		rc = lk_err_set(err, LK_E_USAGE, "several targets of '%s' link '%s': %s; --target NAME chooses", dir,
				target ? target : want, names.buf);
		goto done;
	}
	n = &c.items[pick];
	if (n->bad) {
		rc = lk_err_set(err, LK_E_FORMAT, "'%s' line %zu: the link of target '%s' cannot be read: %s", n->file,
				n->lineno, n->target, n->bad);
		goto done;
	}
	{
		struct lk_buf read = LK_BUF_INIT, said = LK_BUF_INIT;

		lk_buf_addf(&read, "%s:%zu", n->file, n->lineno);
		ws_fill(out, base, (const char *const *)n->words.items, n->words.nr, n->cwd, n->cwd, "cmake", read.buf);
		lk_buf_addf(&said, "the link is the target %s's, line %zu of '%s', run in '%s'", n->target, n->lineno,
			    n->file, n->cwd ? n->cwd : dir);
		lk_strvec_push_owned(&out->said, lk_buf_detach(&said));
		if (n->unknown_cd)
			lk_strvec_push(&out->unknown, "a `cd` before the link goes where the build files do not say");
		if (n->assigns)
			lk_strvec_push(&out->cannot_see,
				       "the link command sets variables of its own environment (VAR=value before the "
				       "driver): the prediction runs with the baseline's");
		lk_buf_release(&read);
	}
done:
	free(tiers);
	free(dir);
	lk_buf_release(&ninja);
	lk_buf_release(&names);
	cands_release(&c);
	return rc;
}
