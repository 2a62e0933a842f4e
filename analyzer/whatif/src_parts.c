/*
 * The readers' shared parts (src_parts.h): bounded reads, a shell line's
 * simple commands with their `cd`s, launchers, the output match, and the
 * line filled in. Takes files and tokens; gives words. Runs nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linkscope/argv.h"
#include "linkscope/banned.h"
#include "linkscope/file.h"
#include "linkscope/rsp.h"
#include "linkscope/vec.h"
#include "src_parts.h"

/* @files within @files: GCC's own limit is on expansions; this bounds the depth. */
#define WS_RSP_DEPTH 16

int ws_read(const char *path, size_t limit, struct lk_buf *b, struct lk_err *err)
{
	if (lk_buf_read_file(b, path, limit) < 0) {
		if (errno == EFBIG)
			return lk_err_set(err, LK_E_IO, "cannot read '%s': larger than %zu MiB", path, limit >> 20);
		return lk_err_set(err, LK_E_IO, "cannot read '%s': %s", path, lk_file_strerror(errno));
	}
	if (memchr(b->buf, '\0', b->len))
		return lk_err_set(err, LK_E_FORMAT, "cannot read '%s': it holds a NUL byte (not text)", path);
	return 0;
}

char *ws_path(const char *dir, const char *name)
{
	struct lk_buf in = LK_BUF_INIT, out = LK_BUF_INIT;
	struct { size_t *items; size_t nr, alloc; } ends = { NULL, 0, 0 };	/* out.len before each component */
	int abs;
	const char *p;

	if (name[0] == '/' || !dir)
		lk_buf_addstr(&in, name);
	else
		lk_buf_addf(&in, "%s/%s", dir, name);
	/* lexically: "a/./b" is "a/b", "a/x/../b" is "a/b", "/.." is "/" (nothing is looked at: no symlinks followed) */
	abs = in.buf[0] == '/';
	for (p = in.buf; *p;) {
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		int dotdot = n == 2 && p[0] == '.' && p[1] == '.';

		if (n == 0 || (n == 1 && p[0] == '.')) {
			/* nothing */
		} else if (dotdot && ends.nr && strcmp(out.buf + ends.items[ends.nr - 1] + (ends.items[ends.nr - 1] > 0), "..")) {
			out.len = ends.items[--ends.nr];
			out.buf[out.len] = '\0';
		} else if (!(dotdot && abs)) {
			LK_GROW(ends.items, ends.nr + 1, ends.alloc);
			ends.items[ends.nr++] = out.len;
			if (out.len)
				lk_buf_addch(&out, '/');
			lk_buf_add(&out, p, n);
		}
		p += n;
		if (*p == '/')
			p++;
	}
	lk_buf_reset(&in);
	if (abs)
		lk_buf_addch(&in, '/');
	lk_buf_add(&in, out.buf, out.len);
	if (!in.len)
		lk_buf_addch(&in, '.');
	lk_buf_release(&out);
	free(ends.items);
	return lk_buf_detach(&in);
}

char *ws_abs(const char *path)
{
	char *cwd, *r;

	if (path[0] == '/' || !(cwd = getcwd(NULL, 0)))
		return ws_path(NULL, path);
	r = ws_path(cwd, path);
	free(cwd);
	return r;
}

int ws_names_file(const char *text, const char *base)
{
	size_t n = strlen(base);

	if (!n)
		return 0;
	for (const char *p = strstr(text, base); p; p = strstr(p + 1, base)) {
		char before = p == text ? ' ' : p[-1], after = p[n];

		if (strchr(" \t/'\"=", before) && (!after || strchr(" \t'\";&|)>", after)))
			return 1;
	}
	return 0;
}

static int is_assignment(const char *w)
{
	const char *p = w;

	if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_'))
		return 0;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_')
		p++;
	return *p == '=';
}

void ws_cmds_of(const struct lk_sh_tokens *t, const char *cwd, struct ws_cmds *out)
{
	char *dir = cwd ? lk_xstrdup(cwd) : NULL;
	int unknown = 0;
	size_t i = 0;

	while (i < t->nr) {
		struct ws_cmd c = { NULL, 0, NULL, 0, 0 };
		size_t alloc = 0;

		for (; i < t->nr && (t->items[i].op == LK_SH_WORD || t->items[i].op == LK_SH_REDIR); i++) {
			if (t->items[i].op == LK_SH_REDIR) {
				i++;	/* its word */
				continue;
			}
			if (!c.nr && is_assignment(t->items[i].text)) {
				c.assigns++;
				continue;
			}
			LK_GROW(c.words, c.nr + 2, alloc);
			c.words[c.nr++] = t->items[i].text;
			c.words[c.nr] = NULL;
		}
		if (i < t->nr)
			i++;	/* the operator */
		if (!c.nr)
			continue;
		c.cwd = dir ? lk_xstrdup(dir) : NULL;
		c.unknown_cd = unknown;
		if (!strcmp(c.words[0], "cd")) {
			/* "cd DIR": the rest of the line runs there; "cd", "cd -", a cd option: the reader cannot tell */
			if (c.nr == 2 && c.words[1][0] != '-' && (dir || c.words[1][0] == '/')) {
				char *next = ws_path(dir, c.words[1]);

				free(dir);
				dir = next;
			} else {
				unknown = 1;
			}
		}
		LK_GROW(out->items, out->nr + 1, out->alloc);
		out->items[out->nr++] = c;
	}
	free(dir);
}

void ws_cmds_release(struct ws_cmds *c)
{
	for (size_t i = 0; i < c->nr; i++) {
		free(c->items[i].words);
		free(c->items[i].cwd);
	}
	free(c->items);
	c->items = NULL;
	c->nr = c->alloc = 0;
}

size_t ws_launcher_words(const char *const *words, size_t nr)
{
	static const char *const launchers[] = { "ccache", "sccache", "distcc", "icecc", NULL };
	size_t i = 0;

	while (i + 1 < nr) {
		const char *b = lk_path_base(words[i]);

		if (!strcmp(b, "linkscope-cc")) {
			/* as the shim reads itself: "-- DRIVER", or a first word naming a driver; else it is the driver (linker mode) */
			if (!strcmp(words[i + 1], "--") && i + 2 < nr)
				i += 2;
			else if (words[i + 1][0] != '-' && lk_argv_is_driver_name(lk_path_base(words[i + 1])))
				i++;
			else
				break;
		} else if (lk_str_in_list(b, launchers)) {
			i++;
		} else {
			break;
		}
	}
	return i;
}

static int is_ld_name(const char *b)
{
	static const char *const lds[] = { "ld", "ld.bfd", "ld.gold", "ld.lld", "ld.mold", "mold", "lld", NULL };
	size_t n = strlen(b);

	if (lk_str_in_list(b, lds))
		return 1;
	/* a target prefix: aarch64-linux-gnu-ld, x86_64-linux-gnu-ld.bfd */
	for (size_t i = 0; lds[i]; i++) {
		size_t m = strlen(lds[i]);

		if (n > m + 1 && b[n - m - 1] == '-' && !strcmp(b + n - m, lds[i]) && lds[i][0] == 'l')
			return 1;
	}
	return 0;
}

int ws_may_link(const char *word, const struct lk_record *base)
{
	const char *b = lk_path_base(word);

	if (lk_argv_is_driver_name(b) || is_ld_name(b) || !strcmp(b, "linkscope-cc"))
		return 1;
	if (base && base->args.nr && !strcmp(b, lk_path_base(base->args.items[0].text)))
		return 1;
	return base && base->driver_given && !strcmp(b, lk_path_base(base->driver_given));
}

int ws_output_match(const char *output, const char *cwd, const char *want, const char *want_cwd)
{
	int m = 0;

	if (!output || !want)
		return 0;
	if ((output[0] == '/' || cwd) && (want[0] == '/' || want_cwd)) {
		char *a = ws_path(cwd, output), *b = ws_path(want_cwd, want);

		m = !strcmp(a, b);
		free(a);
		free(b);
		if (m)
			return 3;
	}
	if (!strcmp(output, want))
		return 2;
	return !strcmp(lk_path_base(output), lk_path_base(want)) ? 1 : 0;
}

const char *ws_link_output(const char *const *words, size_t nr)
{
	struct lk_args args = { NULL, 0, 0 };
	struct lk_argv_info info;
	const char *got = NULL;

	for (size_t i = 0; i < nr; i++) {
		LK_GROW(args.items, args.nr + 1, args.alloc);
		args.items[args.nr].text = lk_xstrdup(words[i]);
		args.items[args.nr].argv_index = i;
		args.items[args.nr++].rsp = -1;
	}
	memset(&info, 0, sizeof(info));
	lk_argv_classify(&args, &info);
	if (info.links && info.output >= 0 && (size_t)info.output < nr)
		got = words[info.output];
	lk_argv_info_release(&info);
	lk_args_release(&args);
	return got;
}

static void push_expanded(struct lk_whatif_line *out, const char *word, const char *dir, int depth)
{
	struct lk_buf text = LK_BUF_INIT;
	struct lk_strvec words = LK_STRVEC_INIT;
	struct lk_err err = LK_ERR_INIT;
	char *path;

	if (word[0] != '@' || !word[1] || depth > WS_RSP_DEPTH) {
		lk_strvec_push(&out->argv, word);
		return;
	}
	path = ws_path(dir, word + 1);
	if (ws_read(path, LK_RSP_MAX_BYTES, &text, &err) < 0) {
		struct lk_buf s = LK_BUF_INIT;

		/* GCC keeps an @file it cannot open as an argument: so does the prediction */
		lk_buf_addf(&s, "the response file '%s' cannot be read now (%s): the line keeps '%s' as an argument, as GCC would",
			    path, err.msg, word);
		lk_strvec_push_owned(&out->said, lk_buf_detach(&s));
		lk_strvec_push(&out->argv, word);
	} else {
		lk_rsp_split(text.buf, &words);
		for (size_t i = 0; i < words.nr; i++)
			push_expanded(out, words.items[i], dir, depth + 1);
	}
	lk_strvec_release(&words);
	lk_buf_release(&text);
	free(path);
}

void ws_fill(struct lk_whatif_line *out, const struct lk_record *base, const char *const *words, size_t nr,
	     const char *cwd, const char *rsp_dir, const char *source, const char *read)
{
	for (size_t i = 0; i < nr; i++) {
		if (i == 0 && !strcmp(lk_path_base(words[0]), "linkscope-cc")) {
			/* the shim as the driver (CC=linkscope-cc): it runs LINKSCOPE_LINKER or cc, found as the baseline's was */
			const char *d = !base ? "cc" : base->driver_resolved ? base->driver_resolved :
				base->driver_given ? base->driver_given : "cc";
			struct lk_buf s = LK_BUF_INIT;

			lk_strvec_push(&out->argv, d);
			lk_buf_addf(&s, "the line runs linkscope-cc as its driver: the prediction runs the baseline's driver '%s'", d);
			lk_strvec_push_owned(&out->said, lk_buf_detach(&s));
		} else if (i == 0) {
			lk_strvec_push(&out->argv, words[i]);
		} else
			push_expanded(out, words[i], rsp_dir, 0);
	}
	out->cwd = cwd ? lk_xstrdup(cwd) : NULL;
	out->source = source;
	out->read = read ? lk_xstrdup(read) : NULL;
}
