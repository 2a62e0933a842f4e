/*
 * Where a fix of a make build is made: the variable of the link's
 * Makefile (in the record's cwd) that carries the word, or the one that
 * should. make's link rule is `$(CC) $(LDFLAGS) OBJECTS $(LOADLIBES)
 * $(LDLIBS)` (and automake's `$(LINK) $(prog_OBJECTS) $(prog_LDADD)
 * $(LIBS)`): a -l in LDFLAGS comes before the objects, where ld has no
 * reference for it yet (under --as-needed, or a static library, it is
 * then no use); the fix is to move it to LDLIBS, after them. A word the
 * Makefile lacks goes in `prog_LDADD` (automake, in Makefile.am), else
 * LDLIBS, or LIBS when the Makefile's rules use that; when the output has
 * a rule of its own, the variable its recipe names after the objects (a
 * rule that never says $(LDLIBS) gets nothing from it), or that recipe
 * line itself when it names none.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "parts.h"

struct mvar {
	char *name;
	char *value;
	long line;		/* 1-based, where its definition starts */
};

struct mvars {
	struct mvar *items;
	size_t nr, alloc;
};

static int name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

/* One logical line (backslash-newlines joined, a comment cut): a variable assignment, added to `vars`. */
static void assignment(struct mvars *vars, const char *p, size_t n, long nr)
{
	const char *end = p + n, *name = p, *op, *hash;
	struct lk_buf v = LK_BUF_INIT;
	struct mvar m;

	if (n && *p == '\t')
		return;		/* a recipe */
	while (name < end && (*name == ' ' || *name == '\t'))
		name++;
	op = name;
	while (op < end && name_char(*op))
		op++;
	if (op == name)
		return;
	m.name = lk_xstrndup(name, (size_t)(op - name));
	while (op < end && (*op == ' ' || *op == '\t'))
		op++;
	if (op < end && (*op == '+' || *op == '?' || *op == ':'))
		op++;
	if (op < end && *op == ':')
		op++;
	if (op >= end || *op != '=') {
		free(m.name);
		return;
	}
	hash = memchr(op, '#', (size_t)(end - op));
	for (const char *q = op + 1; q < (hash ? hash : end); q++)
		lk_buf_addch(&v, *q == '\\' && q + 1 < end && q[1] == '\n' ? ' ' : *q);
	m.value = lk_buf_detach(&v);
	m.line = nr;
	LK_GROW(vars->items, vars->nr + 1, vars->alloc);
	vars->items[vars->nr++] = m;
}

static void parse(const char *text, struct mvars *vars)
{
	long nr = 1;

	memset(vars, 0, sizeof(*vars));
	for (const char *p = text; *p;) {
		const char *e = p;
		long start = nr;

		/* a logical line runs past each backslash-newline */
		for (; *e && !(*e == '\n' && (e == p || e[-1] != '\\')); e++)
			nr += *e == '\n';
		assignment(vars, p, (size_t)(e - p), start);
		if (*e)
			nr++, e++;
		p = e;
	}
}

static void mvars_release(struct mvars *vars)
{
	for (size_t i = 0; i < vars->nr; i++) {
		free(vars->items[i].name);
		free(vars->items[i].value);
	}
	free(vars->items);
}

static const struct mvar *carrying(const struct mvars *vars, const char *word)
{
	for (size_t i = 0; i < vars->nr; i++)
		if (wh_has_word(vars->items[i].value, NULL, word))
			return &vars->items[i];
	return NULL;
}

static const struct mvar *named(const struct mvars *vars, const char *name)
{
	for (size_t i = 0; i < vars->nr; i++)
		if (!strcmp(vars->items[i].name, name))
			return &vars->items[i];
	return NULL;
}

static int ldflags_var(const char *name)
{
	size_t n = strlen(name);

	return !strcmp(name, "LDFLAGS") || (n > 8 && !strcmp(name + n - 8, "_LDFLAGS"));
}

/* automake's name of a program's variables: "my-prog" -> "my_prog". */
static char *canonical(const char *output)
{
	char *c = lk_xstrdup(lk_path_base(output));

	for (char *p = c; *p; p++)
		if (!name_char(*p) || *p == '.')
			*p = '_';
	return c;
}

/* The Makefile of the link's dir, as make looks for it; its path, or NULL. */
static char *makefile(const char *cwd)
{
	static const char *const names[] = { "GNUmakefile", "makefile", "Makefile" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *p = wh_join(cwd, names[i]);

		if (wh_is_file(p))
			return p;
		free(p);
	}
	return NULL;
}

/* Does the Makefile name the link's output (as a target or a program)? */
static int builds(const char *text, const char *output)
{
	const char *base = lk_path_base(output);
	size_t n = strlen(base);

	for (const char *p = strstr(text, base); p; p = strstr(p + 1, base))
		if ((p == text || !name_char(p[-1])) && !name_char(p[n]) && p[n] != '-')
			return 1;
	return 0;
}

/* Does [p, e) contain `s`? */
static int contains(const char *p, const char *e, const char *s)
{
	return memmem(p, (size_t)(e - p), s, strlen(s)) != NULL;
}

/* Flag-like variables, never where libraries go. */
static int flags_var(const char *name, size_t n)
{
	static const char *const flags[] = { "CC", "CXX", "LD", "LINK", "CFLAGS", "CXXFLAGS", "CPPFLAGS",
		"LDFLAGS", "TARGET_ARCH", "OUTPUT_OPTION", NULL };

	for (const char *const *f = flags; *f; f++)
		if (strlen(*f) == n && !strncmp(name, *f, n))
			return 1;
	return n > 6 && !strncmp(name + n - 6, "FLAGS", 5);
}

/*
 * The recipe line that links `output` in a rule of its own ("app: main.o"
 * then a tab-indented line that names -o and $@ or the output), into
 * `line` (1-based) and `recipe` (borrowed: the line, without its end);
 * and the last variable it names after its objects ($^, $+, or a word
 * ending in .o), into `var`/`n` (n 0 when none). 0 when there is no such rule.
 */
static int link_recipe(const char *text, const char *output, long *line, const char **recipe, size_t *len,
		       const char **var, size_t *n)
{
	const char *base = lk_path_base(output);
	size_t bl = strlen(base);
	long nr = 1;
	int in_rule = 0;

	for (const char *p = text; *p; nr++) {
		const char *e = strchr(p, '\n'), *objs = NULL;

		if (!e)
			e = p + strlen(p);
		if (*p != '\t') {
			in_rule = !strncmp(p, base, bl) && strchr(" \t:", p[bl]) && strchr(p, ':') && strchr(p, ':') < e &&
				  strchr(p, ':')[1] != '=';
		} else if (in_rule && (contains(p, e, "$@") || contains(p, e, base)) && contains(p, e, "-o")) {
			for (const char *q = p; q < e; q++) {
				if ((q[0] == '$' && (q[1] == '^' || q[1] == '+')) ||
				    (q + 2 <= e && q[0] == '.' && q[1] == 'o' && (q + 2 == e || strchr(" \t", q[2]))))
					objs = q;
			}
			*var = NULL;
			*n = 0;
			for (const char *q = objs ? objs : e; q + 3 < e; q++) {
				const char *s = q + 2, *t;

				if (q[0] != '$' || (q[1] != '(' && q[1] != '{'))
					continue;
				for (t = s; t < e && name_char(*t); t++)
					;
				if (t < e && (*t == ')' || *t == '}') && t > s && !flags_var(s, (size_t)(t - s)))
					*var = s, *n = (size_t)(t - s);
			}
			*line = nr;
			*recipe = p;
			*len = (size_t)(e - p);
			return 1;
		}
		p = *e ? e + 1 : e;
	}
	return 0;
}

/* The words joined by blanks, owned. */
static char *words_text(const struct lk_strvec *words)
{
	struct lk_buf b = LK_BUF_INIT;

	for (size_t i = 0; i < words->nr; i++)
		lk_buf_addf(&b, "%s%s", i ? " " : "", words->items[i]);
	return lk_buf_detach(&b);
}

/* `VAR = VALUE` with `old` replaced by `new`, a word of VALUE. */
static char *replaced(const struct mvar *v, const char *old, const char *new)
{
	struct lk_buf b = LK_BUF_INIT;
	size_t n = strlen(old);
	const char *p = v->value;

	while (*p == ' ' || *p == '\t')
		p++;
	lk_buf_addf(&b, "%s = ", v->name);
	while (*p) {
		if (!strncmp(p, old, n) && (p == v->value || p[-1] == ' ' || p[-1] == '\t') &&
		    (!p[n] || p[n] == ' ' || p[n] == '\t')) {
			lk_buf_addstr(&b, new);
			p += n;
		} else {
			lk_buf_addch(&b, *p++);
		}
	}
	return lk_buf_detach(&b);
}

/* The word the user wrote for a file the fix names again: "-lshapes" for the ./libshapes.a it found; else `w`. */
static const char *user_word(const struct lk_line *line, const char *w)
{
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];

		if (it->kind == LK_ITEM_LIB && it->parent < 0 && it->position >= 0 && it->path && !strcmp(it->path, w))
			return it->word;
	}
	return w;
}

struct lk_fix_where *wh_make(const struct wh_ask *a)
{
	char *path = makefile(a->rec->cwd), *text = path ? wh_read(path) : NULL, *prog, *words, *file = NULL;
	struct lk_buf var = LK_BUF_INIT, t = LK_BUF_INIT, s = LK_BUF_INIT;
	struct lk_fix_where *w = NULL;
	const struct mvar *v, *srcdir;
	struct lk_strvec said = LK_STRVEC_INIT;	/* the fix's words as the Makefile has them */
	struct mvars vars;
	const char *recipe, *rvar;
	size_t recipe_len, rvar_len;
	long recipe_line;

	/* CMake's own Makefiles are no user's: a line of theirs not in a link.txt is not said */
	if (!text || !a->rec->output || !builds(text, a->rec->output) || a->f->driver || !a->words->nr ||
	    strstr(text, "\"Unix Makefiles\" Generator")) {
		free(text);
		free(path);
		return NULL;
	}
	parse(text, &vars);
	for (size_t i = 0; i < a->words->nr; i++)
		lk_strvec_push(&said, user_word(a->line, a->words->items[i]));
	words = words_text(&said);
	prog = canonical(a->rec->output);
	lk_buf_addf(&var, "%s_LDADD", prog);
	if (a->old && (v = carrying(&vars, a->old))) {
		/* the word to change is the Makefile's: change it where it is */
		char *line = replaced(v, a->old, a->words->items[0]);

		w = wh_new("make", path, "variable", v->name, line);
		w->line = v->line;
		w->replaces = lk_xstrdup(a->old);
		lk_buf_addf(&s, "in %s, line %ld: %s carries %s; write %s", path, v->line, v->name, a->old, line);
		free(line);
	} else if (!a->old && !((v = carrying(&vars, said.items[0])) && !ldflags_var(v->name))) {
		/* (a word a library variable has already is read too early for another reason: not said here) */
		const struct mvar *in = v;
		const char *envflags = lk_record_env(a->rec, "LDFLAGS");

		/* the variable the libraries go in: automake's prog_LDADD, else LDLIBS, or LIBS when the rules use it */
		if (!named(&vars, var.buf) && !named(&vars, "LDLIBS") && strstr(text, "$(LIBS)") && !strstr(text, "$(LDLIBS)")) {
			lk_buf_reset(&var);
			lk_buf_addstr(&var, "LIBS");
		} else if (!named(&vars, var.buf)) {
			lk_buf_reset(&var);
			lk_buf_addstr(&var, "LDLIBS");
		} else if ((srcdir = named(&vars, "srcdir"))) {
			/* automake: the variable is Makefile.am's, in the source dir */
			char *dir = wh_join(a->rec->cwd, srcdir->value + strspn(srcdir->value, " \t"));
			char *am = wh_join(dir, "Makefile.am");

			if (wh_is_file(am))
				file = am;
			else
				free(am);
			free(dir);
		}
		if (!file && !named(&vars, var.buf) &&
		    link_recipe(text, a->rec->output, &recipe_line, &recipe, &recipe_len, &rvar, &rvar_len)) {
			/* The output's own rule: what its recipe reads after the objects, or the recipe itself. */
			if (!rvar_len) {
				lk_buf_addf(&t, "%.*s %s", (int)recipe_len, recipe, words);
				w = wh_new("make", path, "variable", NULL, t.buf);
				w->line = recipe_line;
				w->replaces = lk_xstrndup(recipe, recipe_len);
				lk_buf_addf(&s, "in %s, line %ld: the rule that links %s names no variable after its objects; add %s at the end of its recipe",
					    path, recipe_line, lk_path_base(a->rec->output), words);
				goto said;
			}
			lk_buf_reset(&var);
			lk_buf_add(&var, rvar, rvar_len);
		}
		lk_buf_addf(&t, "%s += %s", var.buf, words);
		w = wh_new("make", file ? file : path, "variable", var.buf, t.buf);
		if (in && ldflags_var(in->name)) {
			w->moves_from = lk_xstrdup(in->name);
			w->line = in->line;
			lk_buf_addf(&s, "in %s, line %ld: %s is in %s, which the link rule puts before the objects, where nothing needs it yet; move it to %s, which comes after them: remove it from %s and write %s",
				    path, in->line, said.items[0], in->name, var.buf, in->name, t.buf);
		} else if (!in && envflags && wh_has_word(envflags, NULL, said.items[0])) {
			w->moves_from = lk_xstrdup("LDFLAGS");
			lk_buf_addf(&s, "%s is in the LDFLAGS the build was given (the environment), which the link rule puts before the objects; give it in %s instead (make %s='%s')",
				    said.items[0], var.buf, var.buf, words);
		} else {
			const struct mvar *at = named(&vars, var.buf);

			w->line = at ? at->line : 0;
			lk_buf_addf(&s, "in %s, write %s: %s comes after the objects on the link rule's line",
				    w->file, t.buf, var.buf);
		}
	}
said:
	if (w)
		w->sentence = lk_buf_detach(&s);
	mvars_release(&vars);
	lk_strvec_release(&said);
	lk_buf_release(&var);
	lk_buf_release(&t);
	lk_buf_release(&s);
	free(file);
	free(words);
	free(prog);
	free(text);
	free(path);
	return w;
}
