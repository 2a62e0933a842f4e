/*
 * `linkscope whatif BASELINE --argv-file FILE`: the link line as the user
 * writes it, one argument a line, for a build system linkscope cannot
 * read (docs/whatif-sources.md).
 *
 * Takes: FILE. Gives: its argv (the driver first), and the directory it
 * runs in when FILE says one, as a struct lk_whatif_line.
 * The format, decided here (docs/whatif-sources.md says it to users):
 *  - a JSON array of strings (the first non-blank byte '['): each string an
 *    argument; or
 *  - text: a head of lines that are `# ` comments (or a lone `#`) and at
 *    most one `cwd: DIR` line (DIR relative to FILE's directory), then one
 *    argument a line, each taken whole: no quoting, no comments, blanks
 *    kept; an empty line is an empty argument; the newline ending the
 *    file ends the last argument; a CR before a newline is dropped.
 * Without `cwd:` the line runs where the baseline ran (cwd NULL).
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/json.h"
#include "linkscope/vec.h"
#include "src_parts.h"

/* Arguments in a file at most (GCC's own response files are bounded alike, rsp.h). */
#define AF_ARGS_MAX 4000000

static int from_json(const char *file, const struct lk_buf *text, struct lk_strvec *argv, struct lk_err *err)
{
	json_error_t je;
	json_t *root = json_loadb(text->buf, text->len, JSON_REJECT_DUPLICATES, &je);
	size_t i;
	json_t *v;

	if (!root)
		return lk_err_set(err, LK_E_FORMAT, "'%s' line %d: not JSON: %s", file, je.line, je.text);
	if (!json_is_array(root)) {
		json_decref(root);
		return lk_err_set(err, LK_E_FORMAT, "'%s': not a JSON array of strings", file);
	}
	json_array_foreach(root, i, v) {
		char *s = lk_json_bytes(v);

		if (!s || (json_is_string(v) && strlen(s) != json_string_length(v))) {
			free(s);
			json_decref(root);
			return lk_err_set(err, LK_E_FORMAT, "'%s': element %zu is not a string (or holds a NUL)", file, i);
		}
		lk_strvec_push_owned(argv, s);
	}
	json_decref(root);
	return 0;
}

static int from_lines(const char *file, const struct lk_buf *text, struct lk_strvec *argv, char **cwd,
		      struct lk_err *err)
{
	const char *p = text->buf, *end = text->buf + text->len;
	int head = 1;
	size_t lineno = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;
		size_t len = (size_t)(e - p);

		lineno++;
		if (len && p[len - 1] == '\r' && nl)
			len--;
		if (head && ((len >= 2 && p[0] == '#' && p[1] == ' ') || (len == 1 && p[0] == '#'))) {
			/* a comment */
		} else if (head && len >= 5 && !strncmp(p, "cwd: ", 5)) {
			if (*cwd)
				return lk_err_set(err, LK_E_FORMAT, "'%s' line %zu: a second 'cwd:' line", file, lineno);
			if (len == 5)
				return lk_err_set(err, LK_E_FORMAT, "'%s' line %zu: 'cwd:' names no directory", file,
						  lineno);
			{
				/* against FILE's own directory, made absolute */
				char *d = lk_xstrndup(p + 5, len - 5), *abs = ws_abs(file), *slash = strrchr(abs, '/');

				*(slash == abs ? slash + 1 : slash) = '\0';
				*cwd = ws_path(abs, d);
				free(d);
				free(abs);
			}
		} else {
			head = 0;
			if (argv->nr >= AF_ARGS_MAX)
				return lk_err_set(err, LK_E_FORMAT, "'%s': more than %d arguments", file, AF_ARGS_MAX);
			lk_strvec_push_owned(argv, lk_xstrndup(p, len));
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}

int lk_whatif_from_argv_file(const struct lk_record *base, const char *file, struct lk_whatif_line *out,
			     struct lk_err *err)
{
	struct lk_buf text = LK_BUF_INIT;
	struct lk_strvec argv = LK_STRVEC_INIT;
	char *cwd = NULL;
	const char *p;
	int rc;

	if (ws_read(file, WS_FILE_MAX, &text, err) < 0) {
		lk_buf_release(&text);
		return -1;
	}
	for (p = text.buf; *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'; p++)
		;
	rc = *p == '[' ? from_json(file, &text, &argv, err) : from_lines(file, &text, &argv, &cwd, err);
	if (!rc && (!argv.nr || !argv.items[0][0]))
		rc = lk_err_set(err, LK_E_FORMAT, "'%s' names no driver (its first argument is missing or empty)", file);
	if (!rc) {
		struct lk_buf said = LK_BUF_INIT;

		ws_fill(out, base, (const char *const *)argv.items, argv.nr, cwd, cwd ? cwd : base->cwd, "argv-file", file);
		lk_buf_addf(&said, "the link is the %zu arguments of '%s', run in '%s'", argv.nr, file,
			    cwd ? cwd : "the baseline's directory");
		lk_strvec_push_owned(&out->said, lk_buf_detach(&said));
	}
	lk_strvec_release(&argv);
	free(cwd);
	lk_buf_release(&text);
	return rc;
}
