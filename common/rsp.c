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
	if (lk_buf_read_file(text, f->path, LK_RSP_MAX_BYTES) < 0) {
		f->status = errno == ENOENT ? LK_RSP_MISSING : LK_RSP_UNREADABLE;
		f->error = errno;
		return -1;
	}
	f->status = LK_RSP_READ;
	return 0;
}

/* Replace out->items[i] by `words`, all descending from the same origin. */
static void splice(struct lk_args *out, size_t i, struct lk_strvec *words,
		   int rsp)
{
	struct lk_arg origin = out->items[i];
	size_t n = words->nr;

	free(origin.text);
	if (n != 1) {
		LK_GROW(out->items, out->nr + n, out->alloc);
		memmove(&out->items[i + n], &out->items[i + 1],
			(out->nr - i - 1) * sizeof(*out->items));
		out->nr = out->nr + n - 1;
	}
	for (size_t k = 0; k < n; k++) {
		out->items[i + k].text = words->items[k];
		out->items[i + k].argv_index = origin.argv_index;
		out->items[i + k].rsp = rsp;
	}
	/* The strings now belong to `out`. */
	free(words->items);
	words->items = NULL;
	words->nr = words->alloc = 0;
}

int lk_rsp_expand(const char *const *argv, size_t argc, struct lk_args *out,
		  struct lk_rspfiles *files, struct lk_err *err)
{
	struct lk_buf text = LK_BUF_INIT;
	size_t expansions = 0;
	size_t i;

	LK_GROW(out->items, argc, out->alloc);
	for (i = 0; i < argc; i++) {
		out->items[i].text = lk_xstrdup(argv[i]);
		out->items[i].argv_index = i;
		out->items[i].rsp = -1;
	}
	out->nr = argc;

	for (i = 1; i < out->nr;) {
		struct lk_strvec words = LK_STRVEC_INIT;
		const char *arg = out->items[i].text;
		int idx;

		if (arg[0] != '@' || !arg[1]) {
			i++;
			continue;
		}
		if (expansions++ >= LK_RSP_MAX_EXPANSIONS) {
			lk_buf_release(&text);
			return lk_err_set(err, LK_E_FORMAT,
					  "too many @-files (more than %d): '%s'",
					  LK_RSP_MAX_EXPANSIONS, arg + 1);
		}
		idx = add_rspfile(files, arg + 1, &out->items[i]);
		lk_buf_reset(&text);
		if (read_rspfile(&files->items[idx], &text) < 0) {
			i++;	/* kept literally */
			continue;
		}
		lk_rsp_split(text.buf, &words);
		files->items[idx].nargs = words.nr;
		splice(out, i, &words, idx);
		/* Do not advance: the first inserted argument may itself be an @file. */
	}
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
