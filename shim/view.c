/*
 * The driver's view of a link, taken once per profile and reused.
 *
 * Stage: argv -> record (the shim). Takes: the link's -### argv, the
 * driver and the environment. Gives: the record's `expansion` and
 * `linker.print_prog_name`, byte for byte what a fresh `-###` and
 * `-print-prog-name` beside the link give, without running them.
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
 * one of its inputs (a link that succeeded passed that check).
 *
 * Where the three places are in a profile's command is not guessed: a
 * probe runs the same driver with the profile's words and markers in the
 * link's words' stead (lk-view-slot-*, in each translated shape: -Wl with
 * an empty word, -Xlinker, -l NAME, -lNAME, -L DIR, -LDIR, an input after
 * each profile word the link has an input after), and the template is
 * kept only if every marker comes out where the model says, in order and
 * nowhere else, and if the template filled with the link's own words
 * gives exactly the link's fresh view (gcc's temporary name, the one word
 * that differs from run to run, then becomes a slot of its own). Any line
 * whose words the model does not cover (a source, -x, a specs file, a long
 * option, an @file, a newline in a word, g++ with -lm or -lc, a driver
 * that is not gcc or g++) is taken fresh, as are failed links, and one
 * link in LK_VIEW_VERIFY_EVERY and every entry older than LK_VIEW_MAX_AGE
 * are checked against a fresh run.
 *
 * The cache: DIR/views/<hash of the key>, one file per profile, written
 * atomically (0600), read as untrusted input (regular files only, bounded,
 * parsed strictly, its key compared whole): anything else is no entry.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "view.h"
#include "linkscope/argv.h"
#include "linkscope/banned.h"
#include "linkscope/driveropt.h"
#include "linkscope/file.h"
#include "linkscope/vec.h"

#define MARK "lk-view-slot-"
#define VIEW_MAGIC "linkscope-view/1\n"
#define VIEW_MAX_BYTES ((size_t)1 << 20)
#define VIEW_MAX_CMDS 64
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
		LK_GROW(l->files.items, l->files.nr + 1, l->files.alloc);
		l->files.items[l->files.nr++] = w;
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
	free(l->files.items);
	memset(l, 0, sizeof(*l));
}

/* ---- the template ---- */

static void tok_push(struct lk_view_cmd *c, enum lk_view_tok_kind kind, const char *text, size_t split)
{
	LK_GROW(c->items, c->nr + 1, c->alloc);
	c->items[c->nr].kind = kind;
	c->items[c->nr].text = text ? lk_xstrdup(text) : NULL;
	c->items[c->nr].split = split;
	c->nr++;
}

static struct lk_view_cmd *cmd_push(struct lk_view_template *t)
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
			tok_push(out, p[k].kind, NULL, 0);
			i += p[k].len;
			continue;
		}
		if (holds_mark(cmd->items[i])) {
			*why = "a probe word comes out where the model does not put it";
			return -1;
		}
		tok_push(out, LK_VIEW_WORD, cmd->items[i], 0);
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
		struct lk_view_cmd *tc = cmd_push(t);

		if ((long)c == probe->linker_command) {
			template_of_linker(cmd, probe_line, tc, why);
			continue;
		}
		for (size_t w = 0; w < cmd->nr && !*why; w++) {
			if (holds_mark(cmd->items[w]))
				*why = "a probe word comes out in another command";
			tok_push(tc, LK_VIEW_WORD, cmd->items[w], 0);
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

/* ---- the cache file: netstrings, LEN:BYTES\n ---- */

static void put(struct lk_buf *out, const char *s, size_t len)
{
	lk_buf_addf(out, "%zu:", len);
	lk_buf_add(out, s, len);
	lk_buf_addch(out, '\n');
}

static void put_str(struct lk_buf *out, const char *s)
{
	put(out, s, strlen(s));
}

static void put_num(struct lk_buf *out, long long n)
{
	char num[32];

	snprintf(num, sizeof(num), "%lld", n);
	put_str(out, num);
}

/* An optional string: "=" and the value, or "!" for none. */
static void put_opt(struct lk_buf *out, const char *s)
{
	struct lk_buf b = LK_BUF_INIT;

	lk_buf_addstr(&b, s ? "=" : "!");
	if (s)
		lk_buf_addstr(&b, s);
	put(out, b.buf, b.len);
	lk_buf_release(&b);
}

static const char tok_tag[] = { 'w', 'o', 'L', 'I', 't' };

void lk_view_template_write(const struct lk_view_template *t, const struct lk_buf *key,
			    struct lk_buf *out)
{
	lk_buf_addstr(out, VIEW_MAGIC);
	put(out, key->buf, key->len);
	put_num(out, t->created);
	put_str(out, t->negative ? "none" : "view");
	if (!t->negative) {
		put_num(out, t->exit_status);
		put_num(out, t->linker_command);
		put_opt(out, t->library_path);
		put_opt(out, t->compiler_path);
		put_opt(out, t->linker_program);
		put_num(out, (long long)t->cmds.nr);
		for (size_t c = 0; c < t->cmds.nr; c++) {
			put_num(out, (long long)t->cmds.items[c].nr);
			for (size_t k = 0; k < t->cmds.items[c].nr; k++) {
				const struct lk_view_tok *tok = &t->cmds.items[c].items[k];

				put(out, &tok_tag[tok->kind], 1);
				if (tok->kind == LK_VIEW_WORD)
					put_str(out, tok->text);
				else if (tok->kind == LK_VIEW_TEMP) {
					put(out, tok->text, tok->split);
					put_str(out, tok->text + tok->split);
				}
			}
		}
	}
	put_str(out, "end");
}

struct reader {
	const char *p, *end;
	const char *field;	/* the last field read, not NUL-terminated */
	size_t len;
};

static int get(struct reader *r)
{
	size_t len = 0;
	int digits = 0;

	while (r->p < r->end && *r->p >= '0' && *r->p <= '9' && digits < 8) {
		len = len * 10 + (size_t)(*r->p++ - '0');
		digits++;
	}
	if (!digits || r->p >= r->end || *r->p++ != ':' || len >= (size_t)(r->end - r->p) ||
	    r->p[len] != '\n')
		return -1;
	r->field = r->p;
	r->len = len;
	r->p += len + 1;
	return 0;
}

/* A field that is a string without NUL (argv words never hold one). */
static char *get_str(struct reader *r)
{
	if (get(r) < 0 || memchr(r->field, '\0', r->len))
		return NULL;
	return lk_xstrndup(r->field, r->len);
}

static int get_num(struct reader *r, long long lo, long long hi, long long *n)
{
	char num[24], *end;

	if (get(r) < 0 || !r->len || r->len >= sizeof(num))
		return -1;
	memcpy(num, r->field, r->len);
	num[r->len] = '\0';
	errno = 0;
	*n = strtoll(num, &end, 10);
	return *end || errno || *n < lo || *n > hi ? -1 : 0;
}

static int get_opt(struct reader *r, char **out)
{
	char *s = get_str(r);

	if (!s || (s[0] != '=' && strcmp(s, "!"))) {
		free(s);
		return -1;
	}
	*out = s[0] == '=' ? lk_xstrdup(s + 1) : NULL;
	free(s);
	return 0;
}

static int get_tok(struct reader *r, struct lk_view_cmd *c)
{
	const char *tag;
	char *a, *b;

	if (get(r) < 0 || r->len != 1 || !(tag = memchr(tok_tag, r->field[0], sizeof(tok_tag))))
		return -1;
	switch ((enum lk_view_tok_kind)(tag - tok_tag)) {
	case LK_VIEW_WORD:
		if (!(a = get_str(r)))
			return -1;
		tok_push(c, LK_VIEW_WORD, a, 0);
		free(a);
		return 0;
	case LK_VIEW_TEMP:
		if (!(a = get_str(r)))
			return -1;
		if (!(b = get_str(r))) {
			free(a);
			return -1;
		}
		{
			struct lk_buf both = LK_BUF_INIT;

			lk_buf_addstr(&both, a);
			lk_buf_addstr(&both, b);
			tok_push(c, LK_VIEW_TEMP, both.buf, strlen(a));
			lk_buf_release(&both);
		}
		free(a);
		free(b);
		return 0;
	default:
		tok_push(c, (enum lk_view_tok_kind)(tag - tok_tag), NULL, 0);
		return 0;
	}
}

/* Each slot once, in the linker command only: what lk_view_learn makes. */
static int slots_are_sound(const struct lk_view_template *t)
{
	if (t->linker_command < 0 || (size_t)t->linker_command >= t->cmds.nr)
		return 0;
	for (size_t c = 0; c < t->cmds.nr; c++) {
		size_t n[5] = { 0 };

		for (size_t k = 0; k < t->cmds.items[c].nr; k++)
			n[t->cmds.items[c].items[k].kind]++;
		if ((long)c == t->linker_command ? (n[LK_VIEW_LIBDIRS] != 1 || n[LK_VIEW_INFILES] != 1 ||
						    n[LK_VIEW_OUTPUT] > 1)
						 : n[LK_VIEW_LIBDIRS] + n[LK_VIEW_INFILES] + n[LK_VIEW_OUTPUT] != 0)
			return 0;
	}
	return 1;
}

static int parse_view(struct reader *r, struct lk_view_template *t)
{
	long long n, words;

	if (get_num(r, 0, 255, &n) < 0)
		return -1;
	t->exit_status = (int)n;
	if (get_num(r, -1, VIEW_MAX_CMDS, &n) < 0)
		return -1;
	t->linker_command = (long)n;
	if (get_opt(r, &t->library_path) < 0 || get_opt(r, &t->compiler_path) < 0 ||
	    get_opt(r, &t->linker_program) < 0 || get_num(r, 0, VIEW_MAX_CMDS, &n) < 0)
		return -1;
	for (long long c = 0; c < n; c++) {
		struct lk_view_cmd *cmd = cmd_push(t);

		/* Every token takes at least four bytes: the count cannot outgrow the file. */
		if (get_num(r, 0, (long long)(r->end - r->p) / 4, &words) < 0)
			return -1;
		for (long long k = 0; k < words; k++)
			if (get_tok(r, cmd) < 0)
				return -1;
	}
	return slots_are_sound(t) ? 0 : -1;
}

int lk_view_template_parse(const char *data, size_t len, const struct lk_buf *key,
			   struct lk_view_template *t)
{
	struct reader r = { data, data + len, NULL, 0 };
	size_t magic = strlen(VIEW_MAGIC);
	long long created;
	int rc = -1;

	memset(t, 0, sizeof(*t));
	if (len < magic || memcmp(data, VIEW_MAGIC, magic))
		return -1;
	r.p += magic;
	if (get(&r) < 0 || r.len != key->len || memcmp(r.field, key->buf, key->len) ||
	    get_num(&r, 0, INT64_MAX, &created) < 0 || get(&r) < 0)
		goto out;
	t->created = created;
	if (r.len == 4 && !memcmp(r.field, "none", 4))
		t->negative = 1;
	else if (r.len != 4 || memcmp(r.field, "view", 4) || parse_view(&r, t) < 0)
		goto out;
	if (get(&r) < 0 || r.len != 3 || memcmp(r.field, "end", 3) || r.p != r.end)
		goto out;
	rc = 0;
out:
	if (rc < 0)
		lk_view_template_release(t);
	return rc;
}

/* ---- the profile's key ---- */

static void key_put(struct lk_buf *key, const char *tag, const char *value)
{
	lk_buf_addstr(key, tag);
	if (value)
		put_str(key, value);
	else
		lk_buf_addstr(key, "!\n");
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * Whether each dir gcc would look in is there ('d') or not ('-'): gcc
 * prints -L only for startfile dirs that exist, and a prefix named
 * relative to the cwd (or an empty PATH-list entry, the cwd) makes the
 * cwd part of the profile.
 */
static void key_dirs(struct lk_buf *key, const char *list, int split, int *needs_cwd)
{
	const char *p = list;

	if (!list)
		return;
	lk_buf_addstr(key, "dirs ");
	for (;;) {
		const char *colon = split ? strchr(p, ':') : NULL;
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		char *dir = lk_xstrndup(p, len);

		if (dir[0] != '/')
			*needs_cwd = 1;
		lk_buf_addch(key, is_dir(*dir ? dir : ".") ? 'd' : '-');
		free(dir);
		if (!colon)
			break;
		p = colon + 1;
	}
	lk_buf_addch(key, '\n');
}

/* The variables gcc's driver reads that change what -### prints (gcc.cc, libiberty's choose_tmpdir). */
static const char *const gcc_vars[] = {
	"GCC_EXEC_PREFIX", "COMPILER_PATH", "LIBRARY_PATH", "LPATH", "TMPDIR", "TMP", "TEMP",
	"GCC_COMPARE_DEBUG", "DEB_BUILD_OPTIONS", NULL,
};

static int key_driver(struct lk_buf *key, const struct lk_view_request *req)
{
	const char *exe = req->driver_real ? req->driver_real : req->driver;
	struct stat st;

	/* The binary by identity: an upgrade in place changes its inode, size or times. */
	if (stat(exe, &st) < 0 || !S_ISREG(st.st_mode))
		return -1;
	key_put(key, "driver ", req->driver);
	key_put(key, "real ", req->driver_real);
	lk_buf_addf(key, "id %llu %llu %lld %lld.%09ld %lld.%09ld\n", (unsigned long long)st.st_dev,
		    (unsigned long long)st.st_ino, (long long)st.st_size,
		    (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
		    (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
	/* gcc finds its own install from argv[0], searching PATH when it has no '/'. */
	key_put(key, "argv0 ", req->argv[0]);
	if (!strchr(req->argv[0], '/'))
		key_put(key, "PATH=", getenv("PATH"));
	return 0;
}

static int key_build(struct lk_buf *key, const struct lk_view_request *req,
		     const struct lk_view_line *line)
{
	int needs_cwd = req->argv[0][0] != '/' && strchr(req->argv[0], '/');

	lk_buf_addstr(key, VIEW_MAGIC);
	lk_buf_addstr(key, line->cxx ? "g++\n" : "gcc\n");
	if (key_driver(key, req) < 0)
		return -1;
	for (const char *const *v = gcc_vars; *v; v++) {
		lk_buf_addf(key, "%s=", *v);
		key_put(key, "", getenv(*v));
	}
	key_dirs(key, getenv("COMPILER_PATH"), 1, &needs_cwd);
	key_dirs(key, getenv("LIBRARY_PATH"), 1, &needs_cwd);
	key_dirs(key, getenv("GCC_EXEC_PREFIX"), 0, &needs_cwd);
	key_dirs(key, getenv("TMPDIR"), 0, &needs_cwd);
	key_dirs(key, getenv("TMP"), 0, &needs_cwd);
	key_dirs(key, getenv("TEMP"), 0, &needs_cwd);
	for (size_t i = 0; i < line->paths.nr; i++)
		key_dirs(key, line->paths.items[i], 0, &needs_cwd);
	/* -flto=jobserver and -flto=auto read make's jobserver. */
	for (size_t i = 0; i < line->probe.nr; i++)
		if (lk_str_starts_with(line->probe.items[i], "-flto")) {
			key_put(key, "MAKEFLAGS=", getenv("MAKEFLAGS"));
			break;
		}
	if (needs_cwd) {
		if (!req->cwd)
			return -1;
		key_put(key, "cwd ", req->cwd);
	}
	for (size_t i = 0; i < line->probe.nr; i++)
		put_str(key, line->probe.items[i]);
	return 0;
}

/* ---- the driver family ---- */

/* 1 for g++, 0 for gcc, -1 for anything else, by the real binary's name (gcc-12, x86_64-linux-gnu-g++-12). */
static int driver_family(const char *path)
{
	const char *base = lk_path_base(path);
	char name[256];
	char *dash;
	size_t len = strlen(base);

	if (len >= sizeof(name))
		return -1;
	memcpy(name, base, len + 1);
	dash = strrchr(name, '-');
	if (dash && dash[1] && strspn(dash + 1, "0123456789.") == strlen(dash + 1))
		*dash = '\0';
	len = strlen(name);
	for (int cxx = 0; cxx < 2; cxx++) {
		const char *want = cxx ? "g++" : "gcc";

		if (!strcmp(name, want) || (len > 4 && !strcmp(name + len - 4, cxx ? "-g++" : "-gcc")))
			return cxx;
	}
	return -1;
}

/* An ELF binary, not a script that could choose its compiler from a variable. */
static int is_elf(const char *path)
{
	char magic[4];
	int fd = lk_file_open_regular(path, NULL);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, magic, sizeof(magic));
	close(fd);
	return n == 4 && !memcmp(magic, "\177ELF", 4);
}

/* ---- one link ---- */

static void check_log(const struct lk_view *v, const char *what, const char *detail)
{
	struct lk_buf line = LK_BUF_INIT;
	int fd;

	if (!v->check_log)
		return;
	lk_buf_addf(&line, "%s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	fd = open(v->check_log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd >= 0) {
		/* One write with O_APPEND: parallel links never interleave their lines. */
		ssize_t n = write(fd, line.buf, line.len);

		(void)n;
		close(fd);
	}
	lk_buf_release(&line);
}

/*
 * DIR/views/<FNV-1a 64 of the key>: a name, not a proof. The key is in
 * the entry and compared whole; two keys with one name only take turns.
 */
static char *entry_path(const char *dir, const struct lk_buf *key)
{
	struct lk_buf path = LK_BUF_INIT;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < key->len; i++)
		h = (h ^ (unsigned char)key->buf[i]) * 0x100000001b3ull;
	lk_buf_addf(&path, "%s/views/%016llx", dir, (unsigned long long)h);
	return lk_buf_detach(&path);
}

/* The views dir, private like the record dir; 0 when it is there to write in. */
static int views_dir(const char *entry)
{
	char *dir = lk_xstrdup(entry);
	int rc;

	*strrchr(dir, '/') = '\0';
	rc = mkdir(dir, 0700) == 0 || (errno == EEXIST && is_dir(dir)) ? 0 : -1;
	free(dir);
	return rc;
}

/* 1 with v->tmpl read, 0 for no entry (or a corrupt one, to be written anew), -1 for one that is no regular file. */
static int read_entry(struct lk_view *v)
{
	struct lk_buf data = LK_BUF_INIT;
	int rc = 0;

	if (lk_buf_read_file(&data, v->path, VIEW_MAX_BYTES) < 0)
		rc = errno == LK_ENOTREG ? -1 : 0;
	else if (lk_view_template_parse(data.buf, data.len, &v->key, &v->tmpl) == 0)
		rc = 1;
	lk_buf_release(&data);
	return rc;
}

void lk_view_begin(struct lk_view *v, const struct lk_view_request *req)
{
	int family = driver_family(req->driver_real ? req->driver_real : req->driver);
	int found;

	memset(v, 0, sizeof(*v));
	v->now = req->now;
	v->argv0 = req->argv[0];
	v->exe = req->driver_real ? req->driver_real : req->driver;
	v->check_log = req->check_log;
	v->use = LK_VIEW_FRESH;
	if (family < 0) {
		v->why = "the driver is not gcc or g++";
		return;
	}
	lk_view_line_read(&v->line, req->argv, family);
	if ((v->why = v->line.unmodelled))
		return;
	if (key_build(&v->key, req, &v->line) < 0) {
		v->why = "the driver or the cwd cannot be known";
		return;
	}
	v->path = entry_path(req->dir, &v->key);
	found = read_entry(v);
	if (found < 0) {
		/* A FIFO or a directory where the entry goes: no cache, and no probe that could not be kept. */
		v->why = "the cache entry is not a regular file";
		return;
	}
	if (!found) {
		/* No entry: learn one, if there is a place to keep it. */
		if (views_dir(v->path) < 0) {
			v->why = "the views dir cannot be made";
			free(v->path);
			v->path = NULL;
		} else {
			v->use = LK_VIEW_LEARN;
		}
		return;
	}
	if (v->tmpl.negative) {
		/* Learnt before: this profile's view cannot be reused. Tried again after a day. */
		v->why = "the profile's view cannot be reused";
		v->use = v->now - v->tmpl.created > LK_VIEW_MAX_AGE || v->tmpl.created > v->now ?
			 LK_VIEW_LEARN : LK_VIEW_FRESH;
		lk_view_template_release(&v->tmpl);
		return;
	}
	v->use = LK_VIEW_REUSE;
	if (v->check_log || (req->rnd >> 8) % LK_VIEW_VERIFY_EVERY == 0 ||
	    v->now - v->tmpl.created > LK_VIEW_MAX_AGE || v->tmpl.created > v->now)
		v->use = LK_VIEW_VERIFY;
}

void lk_view_start_probe(struct lk_view *v, const char *driver, char *const envp[])
{
	struct lk_strvec argv = LK_STRVEC_INIT;

	lk_strvec_push(&argv, v->argv0);
	lk_strvec_push(&argv, "-###");
	for (size_t i = 0; i < v->line.probe.nr; i++)
		lk_strvec_push(&argv, v->line.probe.items[i]);
	/* The words are copied at the start, as for the link's own -###. */
	v->probing = lk_expansion_start(&v->probe, driver, (const char *const *)argv.items, NULL,
					envp, LK_VIEW_PROBE_TIMEOUT_MS) == 0;
	if (!v->probing)
		lk_expansion_finish(&v->probe, NULL);
	lk_strvec_release(&argv);
}

void lk_view_fill(const struct lk_view *v, struct lk_expansion *exp)
{
	lk_view_expand(&v->tmpl, &v->line, exp);
}

/* Write the entry atomically: readers see the old one, the new one, or none. */
static void write_entry(struct lk_view *v, const struct lk_view_template *t)
{
	struct lk_buf data = LK_BUF_INIT, tmp = LK_BUF_INIT;
	struct lk_err err = LK_ERR_INIT;
	char *slash = strrchr(v->path, '/');

	lk_view_template_write(t, &v->key, &data);
	lk_buf_add(&tmp, v->path, (size_t)(slash + 1 - v->path));
	lk_buf_addf(&tmp, ".%s.%ld.tmp", slash + 1, (long)getpid());
	if (lk_file_write_new(tmp.buf, v->path, data.buf, data.len, &err) < 0)
		check_log(v, "cannot write the entry", err.msg);
	lk_buf_release(&data);
	lk_buf_release(&tmp);
}

/*
 * The cached view against the fresh one. When they match, the record gets
 * the cached one (`reuse`: what a link that is not verified records), so
 * the records of a verified link are those of a reused view.
 */
static void verify(struct lk_view *v, struct lk_expansion *exp, int reuse, struct lk_buf *warning)
{
	struct lk_buf diff = LK_BUF_INIT;

	if (!exp->done) {
		check_log(v, "verify skipped", "the fresh -### did not finish");
	} else if (lk_view_matches(&v->tmpl, &v->line, exp, &diff)) {
		/* Confirmed: young again. */
		v->tmpl.created = v->now;
		write_entry(v, &v->tmpl);
		check_log(v, "reuse verified", NULL);
		if (reuse) {
			const char *trigger = exp->trigger;

			lk_expansion_release(exp);
			lk_view_expand(&v->tmpl, &v->line, exp);
			exp->trigger = trigger;
		}
	} else {
		lk_buf_addf(warning, "the driver's view cached for this profile differs from a fresh -### (%s): the fresh one is recorded and the entry dropped",
			    diff.buf);
		unlink(v->path);
		check_log(v, "MISMATCH", diff.buf);
	}
	lk_buf_release(&diff);
}

static void learn(struct lk_view *v, const struct lk_expansion *fresh)
{
	struct lk_expansion probe = { 0 };
	struct lk_view_template t = { 0 };
	struct lk_view_line probe_line;
	struct lk_strvec argv = LK_STRVEC_INIT;
	const char *why;

	if (v->probing)
		lk_expansion_finish(&v->probe, &probe);
	v->probing = 0;
	/* A link whose own -### fails (a bad option, an output that is an input) teaches nothing. */
	if (!fresh->done || fresh->exit_status || !probe.done) {
		check_log(v, "learn skipped", "the fresh -### or the probe did not succeed");
		lk_expansion_release(&probe);
		return;
	}
	lk_strvec_push(&argv, v->argv0);
	for (size_t i = 0; i < v->line.probe.nr; i++)
		lk_strvec_push(&argv, v->line.probe.items[i]);
	lk_view_line_read(&probe_line, argv.items, v->line.cxx);
	if (lk_view_learn(&probe, &probe_line, fresh, &v->line, &t, &why) == 0 && !is_elf(v->exe)) {
		lk_view_template_release(&t);
		why = "the driver is not an ELF binary (a script may choose its compiler)";
	}
	t.negative = why != NULL;
	t.created = v->now;
	write_entry(v, &t);
	check_log(v, why ? "learn negative" : "learn ok", why);
	lk_view_template_release(&t);
	lk_view_line_release(&probe_line);
	lk_strvec_release(&argv);
	lk_expansion_release(&probe);
}

void lk_view_end(struct lk_view *v, struct lk_expansion *exp, int reuse, struct lk_buf *warning)
{
	if (v->use == LK_VIEW_VERIFY)
		verify(v, exp, reuse, warning);
	else if (v->use == LK_VIEW_LEARN)
		learn(v, exp);
	else if (v->use == LK_VIEW_FRESH)
		check_log(v, "fresh", v->why);
}

void lk_view_release(struct lk_view *v)
{
	if (v->probing) {
		struct lk_expansion unused = { 0 };

		lk_expansion_finish(&v->probe, &unused);
		lk_expansion_release(&unused);
	}
	lk_view_line_release(&v->line);
	lk_view_template_release(&v->tmpl);
	lk_buf_release(&v->key);
	free(v->path);
	memset(v, 0, sizeof(*v));
}
