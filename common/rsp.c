/*
 * Response files: `@file` expansion with the rules of GCC's driver
 * (libiberty's expandargv and buildargv), with provenance.
 *
 * Takes: the received argv. Gives: the argv the driver really acts on, and
 * for each argument the argv element and response file it came from.
 * Models: GCC keeps an `@file` it cannot open as a literal argument; it
 * expands nested files in place (relative to the working directory, not to
 * the including file); it stops with an error after 2000 expansions; a file
 * of only whitespace expands to nothing.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/rsp.h"
#include "linkscope/strvec.h"
#include "linkscope/vec.h"

static int only_whitespace(const char *s)
{
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			return 0;
	return 1;
}

void lk_rsp_split(const char *input, struct lk_strvec *out)
{
	struct lk_buf arg = LK_BUF_INIT;
	int squote = 0, dquote = 0, bsquote = 0;

	if (only_whitespace(input))
		return;
	while (isspace((unsigned char)*input))
		input++;
	while (*input) {
		lk_buf_reset(&arg);
		for (; *input; input++) {
			char c = *input;

			if (isspace((unsigned char)c) && !squote && !dquote && !bsquote)
				break;
			if (bsquote) {
				bsquote = 0;
				lk_buf_addch(&arg, c);
			} else if (c == '\\') {
				bsquote = 1;
			} else if (squote) {
				if (c == '\'')
					squote = 0;
				else
					lk_buf_addch(&arg, c);
			} else if (dquote) {
				if (c == '"')
					dquote = 0;
				else
					lk_buf_addch(&arg, c);
			} else if (c == '\'') {
				squote = 1;
			} else if (c == '"') {
				dquote = 1;
			} else {
				lk_buf_addch(&arg, c);
			}
		}
		lk_strvec_push(out, arg.buf);
		while (isspace((unsigned char)*input))
			input++;
	}
	lk_buf_release(&arg);
}

static int add_rspfile(struct lk_rspfiles *files, const char *path,
		       const struct lk_arg *from)
{
	struct lk_rspfile *f;

	LK_GROW(files->items, files->nr + 1, files->alloc);
	f = &files->items[files->nr];
	memset(f, 0, sizeof(*f));
	f->path = lk_xstrdup(path);
	f->argv_index = from->argv_index;
	f->parent = from->rsp;
	return (int)files->nr++;
}

/* Read one response file; 0 and its text, or -1 with the status set. */
static int read_rspfile(struct lk_rspfile *f, struct lk_buf *text)
{
	struct stat st;

	if (stat(f->path, &st) < 0) {
		f->status = LK_RSP_MISSING;
		f->error = errno;
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		f->status = LK_RSP_UNREADABLE;
		f->error = EISDIR;
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		/* A FIFO's bytes are the driver's: reading them would steal them (and may block). */
		f->status = LK_RSP_UNREADABLE;
		f->error = EINVAL;
		return -1;
	}
	if (lk_buf_read_file(text, f->path, LK_RSP_MAX_BYTES) < 0) {
		f->status = errno == ENOENT ? LK_RSP_MISSING : LK_RSP_UNREADABLE;
		f->error = errno;
		return -1;
	}
	f->status = LK_RSP_READ;
	return 0;
}

/* Arguments still to read, last on top: an @file's words replace it on the stack. */
struct pending {
	struct lk_arg *items;
	size_t nr, alloc;
};

static void push_words(struct pending *st, struct lk_strvec *words, size_t argv_index, int rsp)
{
	LK_GROW(st->items, st->nr + words->nr, st->alloc);
	for (size_t k = words->nr; k-- > 0;) {
		st->items[st->nr].text = words->items[k];
		st->items[st->nr].argv_index = argv_index;
		st->items[st->nr].rsp = rsp;
		st->nr++;
	}
	/* The strings now belong to the stack. */
	free(words->items);
	words->items = NULL;
	words->nr = words->alloc = 0;
}

static void append(struct lk_args *out, struct lk_arg arg)
{
	LK_GROW(out->items, out->nr + 1, out->alloc);
	out->items[out->nr++] = arg;
}

/* On a failed expansion: the received argv as it is, so the record stays its size. */
static void unexpanded(const char *const *argv, size_t argc, struct lk_args *out, struct pending *st)
{
	for (size_t i = 0; i < st->nr; i++)
		free(st->items[i].text);
	free(st->items);
	lk_args_release(out);
	for (size_t i = 0; i < argc; i++)
		append(out, (struct lk_arg){ lk_xstrdup(argv[i]), i, -1 });
}

int lk_rsp_expand(const char *const *argv, size_t argc, struct lk_args *out,
		  struct lk_rspfiles *files, struct lk_err *err)
{
	struct pending st = { NULL, 0, 0 };
	struct lk_buf text = LK_BUF_INIT;
	size_t expansions = 0;

	memset(out, 0, sizeof(*out));
	if (argc)
		append(out, (struct lk_arg){ lk_xstrdup(argv[0]), 0, -1 });
	LK_GROW(st.items, argc, st.alloc);
	for (size_t i = argc; i-- > 1;)
		st.items[st.nr++] = (struct lk_arg){ lk_xstrdup(argv[i]), i, -1 };

	/*
	 * Left to right, each @file's words read next (GCC expands nested files
	 * in place): linear in the result, where splicing into one array was
	 * quadratic (a self-including @file of 1,000 words took 24 s).
	 */
	while (st.nr) {
		struct lk_arg arg = st.items[--st.nr];
		struct lk_strvec words = LK_STRVEC_INIT;
		int idx;

		if (arg.text[0] != '@' || !arg.text[1]) {
			append(out, arg);
			continue;
		}
		if (expansions++ >= LK_RSP_MAX_EXPANSIONS || out->nr + st.nr > LK_RSP_MAX_ARGS) {
			lk_err_set(err, LK_E_FORMAT, expansions > LK_RSP_MAX_EXPANSIONS ?
				   "too many @-files (more than %d): '%s'" :
				   "too many arguments from @-files (more than %d): '%s'",
				   expansions > LK_RSP_MAX_EXPANSIONS ? LK_RSP_MAX_EXPANSIONS : LK_RSP_MAX_ARGS,
				   arg.text + 1);
			free(arg.text);
			unexpanded(argv, argc, out, &st);
			lk_buf_release(&text);
			return -1;
		}
		idx = add_rspfile(files, arg.text + 1, &arg);
		lk_buf_reset(&text);
		if (read_rspfile(&files->items[idx], &text) < 0) {
			append(out, arg);	/* kept literally */
			continue;
		}
		lk_rsp_split(text.buf, &words);
		files->items[idx].nargs = words.nr;
		push_words(&st, &words, arg.argv_index, idx);
		free(arg.text);
	}
	free(st.items);
	lk_buf_release(&text);
	return 0;
}

void lk_args_release(struct lk_args *args)
{
	for (size_t i = 0; i < args->nr; i++)
		free(args->items[i].text);
	free(args->items);
	args->items = NULL;
	args->nr = args->alloc = 0;
}

void lk_rspfiles_release(struct lk_rspfiles *files)
{
	for (size_t i = 0; i < files->nr; i++)
		free(files->items[i].path);
	free(files->items);
	files->items = NULL;
	files->nr = files->alloc = 0;
}
