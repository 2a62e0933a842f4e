/*
 * Where a fix of a make build is made: the variable of the link's
 * Makefile (in the record's cwd) that carries the word, or the one that
 * should, chosen from the words of the rule that links the output.
 * make's built-in link rule is `$(CC) $(LDFLAGS) OBJECTS $(LOADLIBES)
 * $(LDLIBS)` (and automake's `$(LINK) $(prog_OBJECTS) $(prog_LDADD)
 * $(LIBS)`): a -l in LDFLAGS comes before the objects, where ld has no
 * reference for it yet (under --as-needed, or a static library, it is
 * then no use); the fix is to move it after them. A word the Makefile
 * lacks goes in `prog_LDADD` (automake, in Makefile.am); else, when the
 * output has a recipe of its own (an explicit rule, its target a
 * variable holding the name, or a pattern rule that matches it), the
 * variable that recipe names after its objects (a rule that never says
 * $(LDLIBS) gets nothing from it, whatever else the Makefile defines),
 * or that recipe line itself when it names none; else LDLIBS, the
 * built-in rule's.
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

/* The recipe that links the output: its last physical line (where words are added) and the variable it reads libraries from. */
struct recipe {
	long line;		/* 1-based, the last line of the recipe's command */
	const char *text;	/* that line, borrowed from the Makefile's text, without its end */
	size_t len;
	const char *var;	/* the last library variable it names after its objects, borrowed, or NULL */
	size_t var_len;
	int pattern;		/* the rule is a pattern rule (%: %.o) */
};

/* $(NAME) or ${NAME} at p (before e): NAME's start and length, or 0. */
static size_t var_ref(const char *p, const char *e, const char **name)
{
	const char *t;

	if (e - p < 4 || p[0] != '$' || (p[1] != '(' && p[1] != '{'))
		return 0;
	for (t = p + 2; t < e && name_char(*t); t++)
		;
	if (t >= e || (*t != ')' && *t != '}') || t == p + 2)
		return 0;
	*name = p + 2;
	return (size_t)(t - p - 2);
}

static const struct mvar *named_n(const struct mvars *vars, const char *name, size_t n)
{
	for (size_t i = vars->nr; i-- > 0;)
		if (strlen(vars->items[i].name) == n && !strncmp(vars->items[i].name, name, n))
			return &vars->items[i];
	return NULL;
}

/*
 * Does the rule target word [p, e) name the output `base`: the name itself
 * (automake's prog$(EXEEXT) too), a variable whose value has it as a word,
 * or a pattern (`%`, `%.exe`, `bin/%`) that matches it? 2 for a name, 1
 * for a pattern, 0 for no.
 */
static int target_names(const struct mvars *vars, const char *p, const char *e, const char *base)
{
	size_t bl = strlen(base), n = (size_t)(e - p);
	const char *pct = memchr(p, '%', n), *name;
	const struct mvar *v;
	size_t vn;

	if (n >= bl && !strncmp(p, base, bl) && (n == bl || (n == bl + 9 && !strncmp(p + bl, "$(EXEEXT)", 9))))
		return 2;
	if ((vn = var_ref(p, e, &name)) && vn + 3 == n && (v = named_n(vars, name, vn)) && wh_has_word(v->value, NULL, base))
		return 2;
	if (pct) {
		size_t pre = (size_t)(pct - p), suf = n - pre - 1;

		if (bl > pre + suf && !strncmp(base, p, pre) && !strncmp(base + bl - suf, pct + 1, suf))
			return 1;
	}
	return 0;
}

/* Is the recipe variable NAME the rule's objects: named in its prerequisites, or a list of .o files, or *OBJS / *OBJECTS? */
static int objects_var(const struct mvars *vars, const char *name, size_t n, const char *prereq, const char *prereq_end)
{
	const struct mvar *v = named_n(vars, name, n);
	struct lk_buf ref = LK_BUF_INIT;
	int yes;

	lk_buf_addf(&ref, "$(%.*s)", (int)n, name);
	yes = prereq && contains(prereq, prereq_end, ref.buf);
	lk_buf_reset(&ref);
	lk_buf_addf(&ref, "${%.*s}", (int)n, name);
	yes |= prereq && contains(prereq, prereq_end, ref.buf);
	lk_buf_release(&ref);
	if (v && strstr(v->value, ".o"))
		for (const char *q = strstr(v->value, ".o"); q && !yes; q = strstr(q + 1, ".o"))
			yes = !q[2] || strchr(" \t", q[2]);
	return yes || (n >= 4 && !strncmp(name + n - 4, "OBJS", 4)) || (n >= 7 && !strncmp(name + n - 7, "OBJECTS", 7));
}

/*
 * The recipe command that links `output`, read from the Makefile's own
 * words: of a rule whose target names it (else of a pattern rule that
 * matches it), the command that says -o with $@ or the output, or
 * $(LINK) (automake's); a command continued over lines is one. Its
 * objects are the last $^, $+, $<, word ending in .o, or variable of them
 * (objects_var); the library variable is the last one it names after
 * them that is not a flags variable. 0 when no such recipe: make's
 * built-in rule links, `$(LINK.o) $^ $(LOADLIBES) $(LDLIBS) -o $@`.
 */
static int link_recipe(const char *text, const struct mvars *vars, const char *output, struct recipe *r)
{
	const char *base = lk_path_base(output), *prereq = NULL, *prereq_end = NULL;
	long nr = 1;
	int in_rule = 0, found = 0;

	memset(r, 0, sizeof(*r));
	for (const char *p = text; *p;) {
		const char *e = p, *last = p, *objs = NULL;
		long last_nr = nr;

		/* a logical line runs past each backslash-newline */
		for (; *e && !(*e == '\n' && (e == p || e[-1] != '\\')); e++)
			if (*e == '\n') {
				nr++;
				last = e + 1;
				last_nr = nr;
			}
		if (*p != '\t') {
			const char *colon = memchr(p, ':', (size_t)(e - p)), *eq = memchr(p, '=', (size_t)(e - p));

			in_rule = 0;
			if (colon && colon[1] != '=' && (!eq || eq > colon) && *p != '#') {
				for (const char *w = p; w < colon;) {
					const char *we;

					w += strspn(w, " \t");
					for (we = w; we < colon && *we != ' ' && *we != '\t'; we++)
						;
					if (we > w)
						in_rule = in_rule > target_names(vars, w, we, base) ? in_rule :
												   target_names(vars, w, we, base);
					w = we;
				}
				prereq = colon + 1;
				prereq_end = e;
			}
		} else if (in_rule && (found < in_rule) &&
			   (((contains(p, e, "$@") || contains(p, e, base)) && contains(p, e, "-o")) ||
			    contains(p, e, "$(LINK)"))) {
			const char *name;
			size_t n;

			for (const char *q = p; q < e; q++) {
				if ((q[0] == '$' && (q[1] == '^' || q[1] == '+' || q[1] == '<')) ||
				    (q + 2 <= e && q[0] == '.' && q[1] == 'o' && (q + 2 == e || strchr(" \t\\\n", q[2]))))
					objs = q;
				else if ((n = var_ref(q, e, &name)) && objects_var(vars, name, n, prereq, prereq_end))
					objs = q;
			}
			r->var = NULL;
			r->var_len = 0;
			for (const char *q = objs ? objs + 1 : e; q < e; q++)
				if ((n = var_ref(q, e, &name)) && !flags_var(name, n) &&
				    !objects_var(vars, name, n, prereq, prereq_end))
					r->var = name, r->var_len = n;
			r->line = last_nr;
			r->text = last;
			r->len = (size_t)(e - last);
			r->pattern = in_rule == 1;
			found = in_rule;
		}
		p = *e ? e + 1 : e;
		if (*e)
			nr++;
	}
	return found > 0;
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

/*
 * The C++ driver for a link of C++ objects by the C driver: the output's
 * own recipe's $(CC) (or ${CC}) becomes $(CXX); with make's built-in rule,
 * LINK.o (`$(CC) $(LDFLAGS) $(TARGET_ARCH)`) is set to the C++ driver's.
 * NULL when the recipe names no $(CC) (a driver written out is the
 * user's to change).
 */
static struct lk_fix_where *driver_where(const struct wh_ask *a, const char *path, const char *text)
{
	struct mvars vars;
	struct recipe r;
	struct lk_fix_where *w = NULL;
	struct lk_buf t = LK_BUF_INIT, s = LK_BUF_INIT;
	const char *cc;

	parse(text, &vars);
	if (link_recipe(text, &vars, a->rec->output, &r)) {
		char *line = lk_xstrndup(r.text, r.len);

		if ((cc = strstr(line, "$(CC)")) || (cc = strstr(line, "${CC}"))) {
			lk_buf_addf(&t, "%.*s$(CXX)%s", (int)(cc - line), line, cc + 5);
			w = wh_new("make", path, "variable", NULL, t.buf);
			w->line = r.line;
			w->replaces = lk_xstrdup(line);
			lk_buf_addf(&s, "in %s, line %ld: the %srule that links %s runs the C driver, %.5s; write $(CXX) there, the C++ driver, which adds the C++ runtime",
				    path, r.line, r.pattern ? "pattern " : "", lk_path_base(a->rec->output), cc);
		}
		free(line);
	} else if (!strstr(text, "$(LINK)")) {
		w = wh_new("make", path, "variable", "LINK.o", "LINK.o = $(CXX) $(LDFLAGS) $(TARGET_ARCH)");
		lk_buf_addf(&s, "in %s, write LINK.o = $(CXX) $(LDFLAGS) $(TARGET_ARCH): make's built-in rule links %s with LINK.o, which runs the C driver, $(CC); the C++ driver adds the C++ runtime",
			    path, lk_path_base(a->rec->output));
	}
	if (w)
		w->sentence = lk_buf_detach(&s);
	lk_buf_release(&s);
	lk_buf_release(&t);
	mvars_release(&vars);
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
	struct recipe r;
	int own = 0;		/* the variable is the one the output's own recipe reads */
	int flags = wh_flags_only(a->words);	/* options, not libraries: LDFLAGS */

	/* CMake's own Makefiles are no user's: a line of theirs not in a link.txt is not said */
	if (!text || !a->rec->output || !builds(text, a->rec->output) || strstr(text, "\"Unix Makefiles\" Generator") ||
	    (a->f->driver && !strstr(a->f->driver, "++")) || (!a->f->driver && !a->words->nr)) {
		free(text);
		free(path);
		return NULL;
	}
	if (a->f->driver) {
		w = driver_where(a, path, text);
		free(text);
		free(path);
		return w;
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
	} else if (!a->old && flags && !carrying(&vars, said.items[0]) &&
		   (!link_recipe(text, &vars, a->rec->output, &r) || memmem(r.text, r.len, "$(LDFLAGS)", 10))) {
		/* an option (-nostartfiles): with the flags, which the link rule reads */
		const struct mvar *at = named(&vars, "LDFLAGS");

		lk_buf_addf(&t, "LDFLAGS += %s", words);
		w = wh_new("make", path, "variable", "LDFLAGS", t.buf);
		w->line = at ? at->line : 0;
		lk_buf_addf(&s, "in %s, write %s: an option of the link, not a library, goes with the flags the link rule reads",
			    path, t.buf);
	} else if (!a->old && !(flags && carrying(&vars, said.items[0])) &&
		   !((v = carrying(&vars, said.items[0])) && !ldflags_var(v->name))) {
		/* (a word a library variable has already is read too early for another reason: not said here) */
		const struct mvar *in = v;
		const char *envflags = lk_record_env(a->rec, "LDFLAGS");

		/*
		 * The variable the libraries go in: automake's prog_LDADD (in
		 * Makefile.am), else what the output's own link recipe reads
		 * after its objects (or that recipe itself, when it reads
		 * none), else make's built-in rule's LDLIBS. A rule that never
		 * says $(LDLIBS) gets nothing from it.
		 */
		if (named(&vars, var.buf)) {
			if ((srcdir = named(&vars, "srcdir"))) {
				char *dir = wh_join(a->rec->cwd, srcdir->value + strspn(srcdir->value, " \t"));
				char *am = wh_join(dir, "Makefile.am");

				if (wh_is_file(am))
					file = am;
				else
					free(am);
				free(dir);
			}
		} else if (link_recipe(text, &vars, a->rec->output, &r)) {
			if (!r.var_len) {
				lk_buf_addf(&t, "%.*s %s", (int)r.len, r.text, words);
				w = wh_new("make", path, "variable", NULL, t.buf);
				w->line = r.line;
				w->replaces = lk_xstrndup(r.text, r.len);
				lk_buf_addf(&s, "in %s, line %ld: the %srule that links %s names no variable after its objects; add %s at the end of its recipe",
					    path, r.line, r.pattern ? "pattern " : "", lk_path_base(a->rec->output), words);
				goto said;
			}
			lk_buf_reset(&var);
			lk_buf_add(&var, r.var, r.var_len);
			own = 1;
		} else {
			lk_buf_reset(&var);
			lk_buf_addstr(&var, "LDLIBS");
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
			if (own)
				lk_buf_addf(&s, "in %s, write %s: the %srule that links %s (line %ld) reads $(%s) after its objects",
					    w->file, t.buf, r.pattern ? "pattern " : "", lk_path_base(a->rec->output), r.line, var.buf);
			else
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
