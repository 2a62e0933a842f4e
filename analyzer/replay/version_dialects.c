/*
 * Version scripts as each linker parses them (issue #33 point 3d), and
 * what they decide at the end of GNU ld's replay (version_script.c calls
 * rp_version_dialects; decide.c turns the findings into each linker's
 * verdict). Every rule was checked against GNU ld 2.40, lld 14, rust-lld
 * and mold 1.10 (tests/integ/153-version-scripts.sh):
 *
 * - GNU ld (ldgram.y's vers_tag): a node's body is a plain list of
 *   patterns, or "global:" patterns, optionally then "local:" patterns,
 *   or "local:" patterns; every pattern ends with ';', and so does every
 *   node; an empty file is a syntax error; an anonymous node cannot be
 *   combined with others; a dependency must name a node defined before.
 * - lld (ScriptParser.cpp's readVersionScript): "global:" and "local:"
 *   in any order, as often as wanted; at most one dependency; an
 *   anonymous node must be the whole script; an empty file is "unexpected
 *   EOF". Newer lld (rust-lld) refuses a global pattern without wildcards
 *   that names no symbol a regular input defines (--no-undefined-version
 *   is its default; lld 14 only with it), unless --undefined-version.
 * - mold: labels in any order, a stray ';', a last pattern without ';'
 *   before '}' and an empty file all taken; at most one dependency.
 * - All three: a regular input's "sym@VER"/"sym@@VER" definition whose
 *   VER no version script of the line defines fails ("version node not
 *   found", lld's and mold's "undefined version").
 * - extern "C++" blocks are read as patterns; their names are demangled
 *   ones, so lld's undefined-version check is not made for them.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "rp.h"
#include "version_dialects.h"

enum dialect { D_BFD, D_LLD, D_MOLD };

struct vlex {
	const char *p;
	int line;
	char tok[256];
	int quoted;		/* tok was a "string" */
	int eof;
};

static void skip_blank(struct vlex *lx)
{
	for (;;) {
		while (isspace((unsigned char)*lx->p)) {
			lx->line += *lx->p == '\n';
			lx->p++;
		}
		if (lx->p[0] == '/' && lx->p[1] == '*') {
			const char *end = strstr(lx->p + 2, "*/");

			for (const char *q = lx->p; end && q < end; q++)
				lx->line += *q == '\n';
			lx->p = end ? end + 2 : lx->p + strlen(lx->p);
		} else if (*lx->p == '#') {
			lx->p += strcspn(lx->p, "\n");
		} else {
			return;
		}
	}
}

/* The next token: one of { } ; : , a "string" (its contents), a name (with any "::" in it), or eof. */
static void next(struct vlex *lx)
{
	size_t n = 0;

	skip_blank(lx);
	lx->quoted = 0;
	lx->eof = !*lx->p;
	lx->tok[0] = '\0';
	if (lx->eof)
		return;
	if (strchr("{};", *lx->p) || (*lx->p == ':' && lx->p[1] != ':')) {
		lx->tok[0] = *lx->p++;
		lx->tok[1] = '\0';
		return;
	}
	if (*lx->p == '"') {
		const char *end = strchr(lx->p + 1, '"');

		lx->quoted = 1;
		lx->p++;
		while (*lx->p && lx->p != end) {
			if (n + 1 < sizeof(lx->tok))
				lx->tok[n++] = *lx->p;
			lx->p++;
		}
		if (*lx->p)
			lx->p++;
		lx->tok[n] = '\0';
		return;
	}
	while (*lx->p && !isspace((unsigned char)*lx->p) && !strchr("{};\"#", *lx->p) &&
	       !(lx->p[0] == '/' && lx->p[1] == '*') && !(*lx->p == ':' && lx->p[1] != ':')) {
		if (*lx->p == ':') {
			/* "::" of a C++ name */
			if (n + 2 < sizeof(lx->tok)) {
				lx->tok[n++] = ':';
				lx->tok[n++] = ':';
			}
			lx->p += 2;
			continue;
		}
		if (n + 1 < sizeof(lx->tok))
			lx->tok[n++] = *lx->p;
		lx->p++;
	}
	lx->tok[n] = '\0';
}

static int is(const struct vlex *lx, const char *t)
{
	return !lx->eof && !lx->quoted && !strcmp(lx->tok, t);
}

struct vparse {
	struct vlex lx;
	enum dialect d;
	const char *path;
	struct lk_buf why;	/* set: the linker refuses the script */
	struct lk_strvec *nodes;	/* the nodes defined, every script of the line (may be NULL) */
	struct lk_strvec *globals;	/* the global patterns without wildcards, each with its node (may be NULL) */
	struct lk_strvec *cxx;		/* ... of them those of an extern "C++" block, demangled names */
	int in_extern;
};

static int fail(struct vparse *v, const char *what)
{
	if (!v->why.len)
		lk_buf_addf(&v->why, "'%s' line %d: %s", lk_path_base(v->path), v->lx.line, what);
	return -1;
}

/* "global:" or "local:": 1 or 2 (its ':' read), else 0 (the token kept: a pattern of that name). */
static int label(struct vparse *v)
{
	const char *save = v->lx.p;
	int line = v->lx.line, which;

	if (is(&v->lx, "global"))
		which = 1;
	else if (is(&v->lx, "local"))
		which = 2;
	else
		return 0;
	next(&v->lx);
	if (is(&v->lx, ":"))
		return which;
	v->lx.p = save;
	v->lx.line = line;
	v->lx.eof = v->lx.quoted = 0;
	snprintf(v->lx.tok, sizeof(v->lx.tok), "%s", which == 1 ? "global" : "local");
	return 0;
}

static int wildcard(const char *p)
{
	return strpbrk(p, "*?[") != NULL;
}

/* A pattern and its ';' (the token after the pattern is read). Returns 1 at '}' that mold takes without ';'. */
static int pattern_end(struct vparse *v)
{
	next(&v->lx);
	if (is(&v->lx, ";"))
		return 0;
	if (v->d == D_MOLD && is(&v->lx, "}"))
		return 1;
	return fail(v, "';' expected after a pattern");
}

/* extern "LANG" { patterns } ; */
static int extern_block(struct vparse *v)
{
	next(&v->lx);
	if (!v->lx.quoted)
		return fail(v, "a language name expected after extern");
	next(&v->lx);
	if (!is(&v->lx, "{"))
		return fail(v, "'{' expected after extern \"...\"");
	for (;;) {
		int r;

		next(&v->lx);
		if (is(&v->lx, "}"))
			break;
		if (v->lx.eof || (!v->lx.quoted && strchr("{};:", v->lx.tok[0])))
			return fail(v, "a pattern expected in an extern block");
		if (v->cxx && v->in_extern && !wildcard(v->lx.tok))
			lk_strvec_push(v->cxx, v->lx.tok);
		if ((r = pattern_end(v)) < 0)
			return -1;
		if (r)
			break;
	}
	next(&v->lx);
	return is(&v->lx, ";") ? 0 : fail(v, "';' expected after an extern block");
}

/* A node's body after its '{', up to and with its '}'. */
static int body(struct vparse *v, const char *node)
{
	/* GNU ld: 0 nothing yet, 1 a plain list, 2 "global:" with patterns to come, 3 global's, 4 "local:" */
	int phase = 0, local = 0, pending = 0;

	for (;;) {
		int r, which;

		next(&v->lx);
		if (v->lx.eof)
			return fail(v, "'}' expected before the end of the file");
		if (is(&v->lx, "}"))
			return pending && v->d != D_MOLD ? fail(v, "a pattern expected after a label") : 0;
		if ((which = label(v))) {
			local = which == 2;
			if (pending && v->d != D_MOLD)
				return fail(v, "a pattern expected after a label");
			if (v->d == D_BFD) {
				if (!local && phase == 0)
					phase = 2;
				else if (local && (phase == 0 || phase == 3))
					phase = 4;
				else
					return fail(v, "\"global:\" and \"local:\" not in GNU ld's order");
			}
			pending = 1;
			continue;
		}
		if (is(&v->lx, ";")) {
			if (v->d == D_MOLD)
				continue;
			return fail(v, "a pattern expected, not ';'");
		}
		if (!v->lx.quoted && strchr("{:", v->lx.tok[0]))
			return fail(v, "a pattern expected");
		if (v->d == D_BFD) {
			if (phase == 0)
				phase = 1;
			else if (phase == 2)
				phase = 3;
		}
		pending = 0;
		if (is(&v->lx, "extern")) {
			v->in_extern = !local;
			r = extern_block(v);
			v->in_extern = 0;
			if (r < 0)
				return -1;
			continue;
		}
		if (!local && v->globals && !wildcard(v->lx.tok)) {
			lk_strvec_push(v->globals, v->lx.tok);
			lk_strvec_push(v->globals, node);
		}
		if ((r = pattern_end(v)) < 0)
			return -1;
		if (r)
			return 0;
	}
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* `sorted` (qsort'ed with name_cmp) holds `name`. */
static int defined_node(const struct lk_strvec *sorted, const char *name)
{
	return sorted->nr && bsearch(&name, sorted->items, sorted->nr, sizeof(*sorted->items), name_cmp);
}

/* A node's name and where it stands: a dependency must name one defined before it (GNU ld). */
struct node_at {
	const char *name;
	size_t k;
};

static int node_cmp(const void *a, const void *b)
{
	const struct node_at *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->k > y->k) - (x->k < y->k);
}

/*
 * GNU ld's dependencies, checked once every node is read (sorted, not
 * each against every earlier node: a script may hold 100,000 of them):
 * `deps` holds triples: the dependency's name, the index of its node, its line.
 */
static int dependencies_defined(struct vparse *v, const struct lk_strvec *mine, const struct lk_strvec *deps)
{
	struct node_at *by = lk_xcalloc(mine->nr + 1, sizeof(*by));
	int rc = 0;

	for (size_t k = 0; k < mine->nr; k++)
		by[k] = (struct node_at){ mine->items[k], k };
	qsort(by, mine->nr, sizeof(*by), node_cmp);
	for (size_t i = 0; i + 2 < deps->nr && !rc; i += 3) {
		struct node_at key = { deps->items[i], 0 };
		size_t lo = 0, hi = mine->nr, at = (size_t)strtoul(deps->items[i + 1], NULL, 10);

		/* the first node of that name: the smallest k, as node_cmp orders them */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (node_cmp(&by[mid], &key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == mine->nr || strcmp(by[lo].name, key.name) || by[lo].k >= at) {
			struct lk_buf b = LK_BUF_INIT;

			lk_buf_addf(&b, "unable to find version dependency `%s'", key.name);
			v->lx.line = atoi(deps->items[i + 2]);
			fail(v, b.buf);
			lk_buf_release(&b);
			rc = -1;
		}
	}
	free(by);
	return rc;
}

/* One script in dialect v->d: 0, or -1 with v->why. */
static int parse(struct vparse *v, const char *text)
{
	int named = 0, anonymous = 0;
	struct lk_strvec mine = LK_STRVEC_INIT, deplist = LK_STRVEC_INIT;

	v->lx = (struct vlex){ text, 1, "", 0, 0 };
	for (;;) {
		char node[256];
		int deps = 0;

		next(&v->lx);
		if (v->lx.eof)
			break;
		if (is(&v->lx, "{")) {
			if (v->d == D_LLD && named)
				goto bad;
			if (body(v, "global") < 0)
				goto out;
			next(&v->lx);
			if (!is(&v->lx, ";") && fail(v, "';' expected after a node") < 0)
				goto out;
			anonymous++;
			if (v->d == D_LLD) {
				next(&v->lx);
				if (!v->lx.eof && fail(v, "the end of the file expected after an anonymous node") < 0)
					goto out;
			}
			continue;
		}
		if (v->lx.quoted || strchr("};:", v->lx.tok[0]))
			goto bad;
		snprintf(node, sizeof(node), "%s", v->lx.tok);
		next(&v->lx);
		if (!is(&v->lx, "{"))
			goto bad;
		if (body(v, node) < 0)
			goto out;
		for (;;) {
			next(&v->lx);
			if (is(&v->lx, ";") || v->lx.eof || v->lx.quoted || strchr("{}:", v->lx.tok[0]))
				break;
			deps++;
			if (v->d == D_BFD) {
				char at[32], line[32];

				snprintf(at, sizeof(at), "%zu", mine.nr);
				snprintf(line, sizeof(line), "%d", v->lx.line);
				lk_strvec_push(&deplist, v->lx.tok);
				lk_strvec_push(&deplist, at);
				lk_strvec_push(&deplist, line);
			}
		}
		if (!is(&v->lx, ";"))
			goto bad;
		if (deps > 1 && v->d != D_BFD && fail(v, "more than one dependency") < 0)
			goto out;
		lk_strvec_push(&mine, node);
		named++;
	}
	if (!named && !anonymous && v->d != D_MOLD)
		fail(v, "an empty version script");
	else if (v->d == D_BFD && dependencies_defined(v, &mine, &deplist) < 0)
		;
	else if (anonymous && named && v->d == D_BFD)
		fail(v, "anonymous version tag cannot be combined with other version tags");
	goto out;
bad:
	fail(v, "syntax error");
out:
	for (size_t i = 0; v->nodes && !v->why.len && i < mine.nr; i++)
		lk_strvec_push(v->nodes, mine.items[i]);
	lk_strvec_release(&mine);
	lk_strvec_release(&deplist);
	return v->why.len ? -1 : 0;
}

/* A regular definition "sym@VER" or "sym@@VER" whose VER no script defines: that one, else NULL. */
static char *node_not_found(struct rp *r, const struct lk_strvec *nodes)
{
	size_t cursor = 0;
	const struct lk_sym *s;

	while ((s = lk_symtab_next(r->tab, &cursor))) {
		const char *at = strchr(s->name, '@'), *ver;
		struct lk_buf b = LK_BUF_INIT;

		if (!at || !s->defined || s->dynamic || s->def_input < 0)
			continue;
		ver = at[1] == '@' ? at + 2 : at + 1;
		if (!*ver || defined_node(nodes, ver))
			continue;
		lk_buf_addf(&b, "%s in '%s'", s->name, lk_path_base(r->out->inputs.items[s->def_input].path));
		return lk_buf_detach(&b);
	}
	return NULL;
}

/*
 * lld's undefined-version check: the first global pattern no regular
 * input defines (as itself, or as "sym@VER"/"sym@@VER"), said "'V' to 'sym'".
 */
static char *undefined_version(struct rp *r, const struct lk_strvec *globals)
{
	struct lk_strvec versioned = LK_STRVEC_INIT;
	size_t cursor = 0;
	const struct lk_sym *t;

	while (globals->nr && (t = lk_symtab_next(r->tab, &cursor)))
		if (strchr(t->name, '@') && t->defined && !t->dynamic)
			lk_strvec_push_owned(&versioned, lk_xstrndup(t->name, (size_t)(strchr(t->name, '@') - t->name)));
	if (versioned.nr)
		qsort(versioned.items, versioned.nr, sizeof(*versioned.items), name_cmp);
	for (size_t i = 0; i + 1 < globals->nr; i += 2) {
		const struct lk_sym *s = lk_symtab_lookup(r->tab, globals->items[i]);
		struct lk_buf b = LK_BUF_INIT;
		const char *key = globals->items[i];

		if ((s && s->defined && !s->dynamic) ||
		    (versioned.nr && bsearch(&key, versioned.items, versioned.nr, sizeof(*versioned.items), name_cmp)))
			continue;
		lk_strvec_release(&versioned);
		lk_buf_addf(&b, "'%s' to symbol '%s'", globals->items[i + 1], globals->items[i]);
		return lk_buf_detach(&b);
	}
	lk_strvec_release(&versioned);
	return NULL;
}

int lk_vscript_parse(const char *text, const char *path, enum lk_vscript_dialect dialect,
		     struct lk_strvec *nodes, struct lk_buf *why)
{
	struct vparse v = { .d = (enum dialect)dialect, .path = path, .why = LK_BUF_INIT, .nodes = nodes,
			    .globals = NULL, .cxx = NULL, .in_extern = 0 };
	int rc = parse(&v, text);

	if (rc < 0)
		lk_buf_addstr(why, v.why.buf);
	lk_buf_release(&v.why);
	return rc;
}

void rp_version_dialects(struct rp *r, const char *const *texts, char *const *paths, size_t n)
{
	struct lk_replay_warned *w = &r->out->warned;
	struct lk_strvec nodes = LK_STRVEC_INIT, globals = LK_STRVEC_INIT, cxx = LK_STRVEC_INIT;

	for (int d = D_BFD; d <= D_MOLD; d++) {
		for (size_t i = 0; i < n && !w->vs_refused[d]; i++) {
			struct vparse v = { .d = (enum dialect)d, .path = paths[i], .why = LK_BUF_INIT,
					    .nodes = d == D_BFD ? &nodes : NULL, .globals = d == D_LLD ? &globals : NULL,
					    .cxx = d == D_LLD ? &cxx : NULL, .in_extern = 0 };

			if (parse(&v, texts[i]) < 0)
				w->vs_refused[d] = lk_buf_detach(&v.why);
			lk_buf_release(&v.why);
		}
	}
	if (nodes.nr)
		qsort(nodes.items, nodes.nr, sizeof(*nodes.items), name_cmp);
	if (!w->vs_refused[D_BFD] && (r->line->facts & LK_LINE_SHARED))
		w->vnode_missing = node_not_found(r, &nodes);
	if (!w->vs_refused[D_LLD])
		w->undefined_version = undefined_version(r, &globals);
	if (!w->vs_refused[D_LLD] && cxx.nr)
		w->undefined_cxx = lk_xstrdup(cxx.items[0]);
	lk_strvec_release(&cxx);
	lk_strvec_release(&nodes);
	lk_strvec_release(&globals);
}
