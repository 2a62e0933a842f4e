/*
 * The driver's view of one link, from its profile's template.
 *
 * Stage: argv -> record (the shim). Takes: the link's -### argv, and the
 * -### output of a probe run (common/expansion.c parses both). Gives: the
 * profile's template (struct lk_view_template), which filled with a link's
 * own words is the view a fresh `-###` gives that link, word for word.
 *
 * Models gcc's driver (gcc/gcc.cc): the collect2 command is the profile's
 * words (crt files, the plugin, default -L dirs, -lgcc -lc ...: they
 * depend on the driver binary, the options that are not the link's own
 * words, and a few variables) with the link's own words put in three
 * places, translated as driver_handle_option does:
 *   %{o*}    -o FILE                         -> -o FILE
 *   %{L*}    -L DIR, -LDIR, in order          -> -LDIR
 *   %o       input files, -l NAME, -lNAME,    -> FILE, -lNAME,
 *            -Wl,A,B, -Xlinker X, in order       A B (split at every comma), X
 * Those words are opaque to the driver (add_infile with language "*", or a
 * switch no spec tests), except that g++ moves the first -lm and -lc after
 * -lstdc++ (g++spec.cc), and that the driver fails a link whose output is
 * one of its inputs (a view is reused only for a link that succeeded, which
 * passed that check: reuse_view() in main.c).
 *
 * Where the three places are in a profile's command is not guessed: a
 * probe runs the same driver with the profile's words and markers in the
 * link's words' stead (lk-view-slot-*, in each translated shape: -Wl with
 * an empty word, -Xlinker, -l NAME, -lNAME, -L DIR, -LDIR, an input after
 * each profile word the link has an input after), and the template is
 * kept only if every marker comes out where the model says, in order and
 * nowhere else, and if the template filled with the link's own words
 * gives exactly the link's fresh view. gcc's temporary name
 * (-plugin-opt=-fresolution=/tmp/ccXXXXXX.res), the one word that differs
 * from run to run, becomes a slot of its own, filled with a new name of
 * the same shape. Any line whose words the model does not cover (a source,
 * -x, a specs file, a long option, an @file, a newline in a word, g++ with
 * -lm or -lc) is not modelled: its view is taken fresh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "view.h"
#include "linkscope/argv.h"
#include "linkscope/banned.h"
#include "linkscope/driveropt.h"
#include "linkscope/vec.h"

#define MARK "lk-view-slot-"
#define TEMP_RANDOM 6

/* ---- the link's words ---- */

static void unmodelled(struct lk_view_line *l, const char *why)
{
	if (!l->unmodelled)
		l->unmodelled = why;
}

/* Options the model does not follow: each changes how later words read, or reads a file. */
static const char *unmodelled_option(const char *w)
{
	static const char *const long_ok[] = { "--sysroot", "--param", "--coverage", NULL };

	if (lk_str_starts_with(w, "-x"))
		return "-x changes what the files after it are";
	if (lk_str_starts_with(w, "-specs") || lk_str_starts_with(w, "--specs"))
		return "a specs file";
	if (!strcmp(w, "-wrapper"))
		return "-wrapper";
	if (lk_str_starts_with(w, "-save-temps"))
		return "-save-temps";
	if (lk_str_starts_with(w, "-o"))
		return "-oFILE in one word";
	if (!strcmp(w, "-Wl"))
		return "-Wl without a comma";
	if (lk_str_starts_with(w, "--") && !lk_str_in_list(w, long_ok) &&
	    !lk_str_starts_with(w, "--sysroot=") && !lk_str_starts_with(w, "--param="))
		return "a long option (gcc maps --output, --library, --for-linker to the link's own words)";
	return NULL;
}

static int is_linker_input(const char *w)
{
	enum lk_input_kind k = lk_argv_file_kind(w);

	return k == LK_IN_OBJECT || k == LK_IN_ARCHIVE || k == LK_IN_RLIB || k == LK_IN_SHARED;
}

static void push_joined(struct lk_strvec *v, const char *prefix, const char *value)
{
	struct lk_buf b = LK_BUF_INIT;

	lk_buf_addstr(&b, prefix);
	lk_buf_addstr(&b, value);
	lk_strvec_push_owned(v, lk_buf_detach(&b));
}

static void wl_word(const char *word, size_t len, void *data)
{
	lk_strvec_push_owned(data, lk_xstrndup(word, len));
}

/* A -l NAME: g++ moves the first -lm and -lc (g++spec.cc: MATHLIB, WITHLIBC). */
static void add_lib(struct lk_view_line *l, const char *name)
{
	if (!*name)
		unmodelled(l, "-l without a name");
	else if (l->cxx && (!strcmp(name, "m") || !strcmp(name, "c")))
		unmodelled(l, "g++ with -lm or -lc, which it moves");
	push_joined(&l->infiles, "-l", name);
}

/*
 * One of the link's own words at argv[*i]; returns 0 when argv[*i] is
 * not one (a profile word). Advances *i past a separate value.
 */
static int read_own_word(struct lk_view_line *l, char *const *argv, size_t *i)
{
	const char *w = argv[*i], *next = argv[*i + 1];

	if (w[0] != '-' || !w[1]) {
		if (!is_linker_input(w))
			unmodelled(l, "a source, stdin or a file of another kind");
		lk_strvec_push(&l->infiles, w);
		return 1;
	}
	if (!strcmp(w, "-o") || !strcmp(w, "-L") || !strcmp(w, "-l") || !strcmp(w, "-Xlinker")) {
		if (!next) {
			unmodelled(l, "an option without its value at the end");
			return 1;
		}
		++*i;
		if (w[1] == 'o') {
			if (l->output || !*next)
				unmodelled(l, "more than one -o, or an empty one");
			l->output = next;
		} else if (w[1] == 'L') {
			if (!*next)
				unmodelled(l, "an empty -L");
			push_joined(&l->libdirs, "-L", next);
		} else if (w[1] == 'l') {
			add_lib(l, next);
		} else {
			lk_strvec_push(&l->infiles, next);
		}
		return 1;
	}
	if (lk_str_starts_with(w, "-L"))
		lk_strvec_push(&l->libdirs, w);
	else if (lk_str_starts_with(w, "-l"))
		add_lib(l, w + 2);
	else if (lk_str_starts_with(w, "-Wl,"))
		lk_argv_wl_words(w, wl_word, &l->infiles);
	else
		return 0;
	return 1;
}

/* A profile word (and its separate value, per the driver option table) goes to the probe as is. */
static void read_profile_word(struct lk_view_line *l, char *const *argv, size_t *i)
{
	const char *w = argv[*i];
	const struct lk_driveropt *o = lk_driveropt_find(w);
	const char *why = unmodelled_option(w);

	if (why)
		unmodelled(l, why);
	lk_strvec_push(&l->probe, w);
	if (!strcmp(w, "-B") || !strcmp(w, "--sysroot"))
		lk_strvec_push(&l->paths, argv[*i + 1] ? argv[*i + 1] : "");
	else if (lk_str_starts_with(w, "-B"))
		lk_strvec_push(&l->paths, w + 2);
	else if (lk_str_starts_with(w, "--sysroot="))
		lk_strvec_push(&l->paths, w + 10);
	if (o && (o->flags & LK_DOPT_SEPARATE) && argv[*i + 1])
		lk_strvec_push(&l->probe, argv[++*i]);
}

/*
 * The probe's own words in every shape the model translates, after the
 * profile's. Markers that open and close the -L and the input places come
 * before the profile's words and after them: a profile word whose
 * translation lands inside a place shows there.
 */
static void finish_probe(struct lk_view_line *l, struct lk_strvec *head)
{
	static const char *const tail[] = {
		"-Wl," MARK "ia,," MARK "ib", "-Xlinker", MARK "ix", "-l", MARK "ls",
		"-l" MARK "lj", "-L", "/" MARK "l1", NULL,
	};

	for (size_t i = 0; i < l->probe.nr; i++)
		lk_strvec_push(head, l->probe.items[i]);
	for (const char *const *t = tail; *t; t++)
		lk_strvec_push(head, *t);
	if (l->output) {
		lk_strvec_push(head, "-o");
		lk_strvec_push(head, MARK "o");
	}
	lk_strvec_push(head, "-Wl," MARK "iz");
	lk_strvec_release(&l->probe);
	l->probe = *head;
}

void lk_view_line_read(struct lk_view_line *l, char *const *argv, int cxx)
{
	struct lk_strvec head = LK_STRVEC_INIT;
	int after_profile = 0;
	size_t inputs = 0;

	memset(l, 0, sizeof(*l));
	l->cxx = cxx;
	lk_strvec_push(&head, "-Wl," MARK "i0");
	lk_strvec_push(&head, "-L/" MARK "l0");
	for (size_t i = 1; argv[i]; i++) {
		if (strchr(argv[i], '\n'))
			unmodelled(l, "a word with a newline (gcc's -### output would split it)");
		else if (argv[i][0] == '@')
			unmodelled(l, "an @file the driver would read");
		if (read_own_word(l, argv, &i)) {
			/* Where the link has its own word after a profile word, so has the probe. */
			if (after_profile) {
				char mark[64];

				snprintf(mark, sizeof(mark), MARK "i%zu.o", ++inputs);
				lk_strvec_push(&l->probe, mark);
			}
			after_profile = 0;
		} else {
			read_profile_word(l, argv, &i);
			after_profile = 1;
		}
	}
	/* gcc says "no input files" where only -o, -L or -T come. */
	if (!l->infiles.nr)
		unmodelled(l, "no input for the linker");
	finish_probe(l, &head);
}

void lk_view_line_release(struct lk_view_line *l)
{
	lk_strvec_release(&l->libdirs);
	lk_strvec_release(&l->infiles);
	lk_strvec_release(&l->probe);
	lk_strvec_release(&l->paths);
	memset(l, 0, sizeof(*l));
}

/* ---- the template ---- */

void lk_view_tok_add(struct lk_view_cmd *c, enum lk_view_tok_kind kind, const char *text, size_t split)
{
	LK_GROW(c->items, c->nr + 1, c->alloc);
	c->items[c->nr].kind = kind;
	c->items[c->nr].text = text ? lk_xstrdup(text) : NULL;
	c->items[c->nr].split = split;
	c->nr++;
}

struct lk_view_cmd *lk_view_cmd_add(struct lk_view_template *t)
{
	LK_GROW(t->cmds.items, t->cmds.nr + 1, t->cmds.alloc);
	memset(&t->cmds.items[t->cmds.nr], 0, sizeof(struct lk_view_cmd));
	return &t->cmds.items[t->cmds.nr++];
}

void lk_view_template_release(struct lk_view_template *t)
{
	for (size_t i = 0; i < t->cmds.nr; i++) {
		for (size_t j = 0; j < t->cmds.items[i].nr; j++)
			free(t->cmds.items[i].items[j].text);
		free(t->cmds.items[i].items);
	}
	free(t->cmds.items);
	free(t->library_path);
	free(t->compiler_path);
	free(t->linker_program);
	memset(t, 0, sizeof(*t));
}

static char *dup_or_null(const char *s)
{
	return s ? lk_xstrdup(s) : NULL;
}

static void temp_name(const struct lk_view_tok *tok, struct lk_buf *out)
{
	static const char letters[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char rnd[TEMP_RANDOM];

	if (getrandom(rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd))
		for (size_t i = 0; i < sizeof(rnd); i++)
			rnd[i] = (unsigned char)(rand() ^ getpid());
	lk_buf_add(out, tok->text, tok->split);
	for (size_t i = 0; i < sizeof(rnd); i++)
		lk_buf_addch(out, letters[rnd[i] % (sizeof(letters) - 1)]);
	lk_buf_addstr(out, tok->text + tok->split);
}

/* The words one token stands for, in the link `line`. */
static void tok_expand(const struct lk_view_tok *tok, const struct lk_view_line *line,
		       struct lk_strvec *out)
{
	const struct lk_strvec *slot = NULL;
	struct lk_buf b = LK_BUF_INIT;

	switch (tok->kind) {
	case LK_VIEW_WORD:
		lk_strvec_push(out, tok->text);
		return;
	case LK_VIEW_TEMP:
		temp_name(tok, &b);
		lk_strvec_push_owned(out, lk_buf_detach(&b));
		return;
	case LK_VIEW_OUTPUT:
		lk_strvec_push(out, "-o");
		lk_strvec_push(out, line->output);
		return;
	case LK_VIEW_LIBDIRS:
		slot = &line->libdirs;
		break;
	case LK_VIEW_INFILES:
		slot = &line->infiles;
		break;
	}
	for (size_t i = 0; i < slot->nr; i++)
		lk_strvec_push(out, slot->items[i]);
}

void lk_view_expand(const struct lk_view_template *t, const struct lk_view_line *line,
		    struct lk_expansion *exp)
{
	exp->done = 1;
	exp->exit_status = t->exit_status;
	exp->linker_command = t->linker_command;
	exp->library_path = dup_or_null(t->library_path);
	exp->compiler_path = dup_or_null(t->compiler_path);
	exp->linker_program = dup_or_null(t->linker_program);
	for (size_t i = 0; i < t->cmds.nr; i++) {
		struct lk_strvec cmd = LK_STRVEC_INIT;

		for (size_t j = 0; j < t->cmds.items[i].nr; j++)
			tok_expand(&t->cmds.items[i].items[j], line, &cmd);
		LK_GROW(exp->commands.items, exp->commands.nr + 1, exp->commands.alloc);
		exp->commands.items[exp->commands.nr++] = cmd;
	}
}

/* ---- learning a profile's template from the probe ---- */

static int holds_mark(const char *s)
{
	return s && strstr(s, MARK) != NULL;
}

/* Where `want` (n words) stands in cmd, if it is there once; -1 otherwise. */
static long find_run(const struct lk_strvec *cmd, char *const *want, size_t n)
{
	long at = -1;

	for (size_t i = 0; n && i + n <= cmd->nr; i++) {
		size_t k = 0;

		while (k < n && !strcmp(cmd->items[i + k], want[k]))
			k++;
		if (k < n)
			continue;
		if (at >= 0)
			return -1;
		at = (long)i;
	}
	return at;
}

struct place {
	long at;
	size_t len;
	enum lk_view_tok_kind kind;
};

/* The probe's linker command with its three places as slots; -1 if a marker is anywhere else. */
static int template_of_linker(const struct lk_strvec *cmd, const struct lk_view_line *probe,
			      struct lk_view_cmd *out, const char **why)
{
	char *const output[] = { (char *)"-o", (char *)probe->output };
	struct place p[3] = {
		{ find_run(cmd, probe->libdirs.items, probe->libdirs.nr), probe->libdirs.nr, LK_VIEW_LIBDIRS },
		{ find_run(cmd, probe->infiles.items, probe->infiles.nr), probe->infiles.nr, LK_VIEW_INFILES },
		{ probe->output ? find_run(cmd, output, 2) : -2, 2, LK_VIEW_OUTPUT },
	};

	for (int k = 0; k < 3; k++)
		if (p[k].at == -1) {
			*why = "the probe's own words are not where the model puts them";
			return -1;
		}
	for (size_t i = 0; i < cmd->nr; ) {
		int k;

		for (k = 0; k < 3 && p[k].at != (long)i; k++)
			;
		if (k < 3) {
			lk_view_tok_add(out, p[k].kind, NULL, 0);
			i += p[k].len;
			continue;
		}
		if (holds_mark(cmd->items[i])) {
			*why = "a probe word comes out where the model does not put it";
			return -1;
		}
		lk_view_tok_add(out, LK_VIEW_WORD, cmd->items[i], 0);
		i++;
	}
	return 0;
}

static int is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/*
 * gcc's make_temp_file: DIR/ccXXXXXX.SUFFIX, the X's random. Where `a`
 * and `b` (same length) differ only inside one such run, its start; else -1.
 */
static long temp_run(const char *a, const char *b)
{
	size_t n = strlen(a), first, last;

	if (strlen(b) != n || !strcmp(a, b))
		return -1;
	for (first = 0; a[first] == b[first]; first++)
		;
	for (last = n - 1; a[last] == b[last]; last--)
		;
	for (size_t s = first >= TEMP_RANDOM ? first - TEMP_RANDOM + 1 : 0; s <= first; s++) {
		size_t k;

		if (s < 3 || s + TEMP_RANDOM > n || last >= s + TEMP_RANDOM ||
		    strncmp(a + s - 3, "/cc", 3))
			continue;
		for (k = 0; k < TEMP_RANDOM && is_alnum(a[s + k]) && is_alnum(b[s + k]); k++)
			;
		if (k == TEMP_RANDOM)
			return (long)s;
	}
	return -1;
}

static int same_opt(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/*
 * Walk `t` filled with `line` against `fresh` word by word. `learning`:
 * a profile word that differs from the fresh one only in a temporary
 * name becomes a LK_VIEW_TEMP token. Returns 1 when they match.
 */
static int walk(struct lk_view_template *t, const struct lk_view_line *line,
		const struct lk_expansion *fresh, int learning, struct lk_buf *diff)
{
	if (!fresh->done || fresh->exit_status != t->exit_status ||
	    fresh->linker_command != t->linker_command || fresh->commands.nr != t->cmds.nr) {
		lk_buf_addstr(diff, "the commands or the exit status differ");
		return 0;
	}
	if (!same_opt(fresh->library_path, t->library_path) ||
	    !same_opt(fresh->compiler_path, t->compiler_path) ||
	    !same_opt(fresh->linker_program, t->linker_program)) {
		lk_buf_addstr(diff, "LIBRARY_PATH, COMPILER_PATH or -print-prog-name differs");
		return 0;
	}
	for (size_t c = 0; c < t->cmds.nr; c++) {
		const struct lk_strvec *f = &fresh->commands.items[c];
		struct lk_view_cmd *tc = &t->cmds.items[c];
		size_t w = 0;

		for (size_t k = 0; k < tc->nr; k++) {
			struct lk_view_tok *tok = &tc->items[k];
			struct lk_strvec words = LK_STRVEC_INIT;
			long s;

			tok_expand(tok, line, &words);
			for (size_t j = 0; j < words.nr; j++, w++) {
				const char *want = words.items[j];

				if (w >= f->nr) {
					lk_buf_addf(diff, "commands[%zu] is shorter", c);
					lk_strvec_release(&words);
					return 0;
				}
				if (tok->kind == LK_VIEW_TEMP) {
					/* Any name of the temporary's shape: ours and the fresh one are both random. */
					if (!strcmp(want, f->items[w]) || temp_run(want, f->items[w]) == (long)tok->split)
						continue;
				} else if (!strcmp(want, f->items[w])) {
					continue;
				} else if (learning && tok->kind == LK_VIEW_WORD &&
					   (s = temp_run(want, f->items[w])) >= 0) {
					/* The text keeps prefix and suffix only. */
					memmove(tok->text + s, tok->text + s + TEMP_RANDOM,
						strlen(tok->text + s + TEMP_RANDOM) + 1);
					tok->kind = LK_VIEW_TEMP;
					tok->split = (size_t)s;
					continue;
				}
				lk_buf_addf(diff, "commands[%zu][%zu]: '%s', fresh '%s'", c, w, want, f->items[w]);
				lk_strvec_release(&words);
				return 0;
			}
			lk_strvec_release(&words);
		}
		if (w != f->nr) {
			lk_buf_addf(diff, "commands[%zu] is longer", c);
			return 0;
		}
	}
	return 1;
}

int lk_view_matches(const struct lk_view_template *t, const struct lk_view_line *line,
		    const struct lk_expansion *fresh, struct lk_buf *diff)
{
	return walk((struct lk_view_template *)t, line, fresh, 0, diff);
}

/* The linker program of a command: gcc's collect2, the one driver this model is about. */
static int runs_collect2(const struct lk_strvec *cmd)
{
	return cmd->nr && !strcmp(lk_path_base(cmd->items[0]), "collect2");
}

int lk_view_learn(const struct lk_expansion *probe, const struct lk_view_line *probe_line,
		  const struct lk_expansion *fresh, const struct lk_view_line *line,
		  struct lk_view_template *t, const char **why)
{
	struct lk_buf diff = LK_BUF_INIT;
	int ok;

	memset(t, 0, sizeof(*t));
	*why = NULL;
	if (!probe->done || probe->exit_status || !fresh->done || fresh->exit_status)
		*why = "the probe or the fresh -### did not succeed";
	else if (probe->linker_command < 0 || !runs_collect2(&probe->commands.items[probe->linker_command]))
		*why = "the probe runs no collect2";
	else if (!fresh->linker_program)
		*why = "-print-prog-name gave no answer";
	else if (holds_mark(probe->library_path) || holds_mark(probe->compiler_path))
		*why = "a probe word comes out in LIBRARY_PATH or COMPILER_PATH";
	if (*why)
		return -1;
	t->exit_status = probe->exit_status;
	t->linker_command = probe->linker_command;
	t->library_path = dup_or_null(probe->library_path);
	t->compiler_path = dup_or_null(probe->compiler_path);
	t->linker_program = lk_xstrdup(fresh->linker_program);
	for (size_t c = 0; c < probe->commands.nr && !*why; c++) {
		const struct lk_strvec *cmd = &probe->commands.items[c];
		struct lk_view_cmd *tc = lk_view_cmd_add(t);

		if ((long)c == probe->linker_command) {
			template_of_linker(cmd, probe_line, tc, why);
			continue;
		}
		for (size_t w = 0; w < cmd->nr && !*why; w++) {
			if (holds_mark(cmd->items[w]))
				*why = "a probe word comes out in another command";
			lk_view_tok_add(tc, LK_VIEW_WORD, cmd->items[w], 0);
		}
	}
	ok = !*why && walk(t, line, fresh, 1, &diff);
	lk_buf_release(&diff);
	if (!ok) {
		if (!*why)
			*why = "the template does not give the link's own fresh view";
		lk_view_template_release(t);
		return -1;
	}
	return 0;
}
