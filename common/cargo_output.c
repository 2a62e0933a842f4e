/*
 * cargo build-script output files: the link directives they carry.
 * Takes: the text cargo saved of a build script's stdout. Gives: its
 * rustc-link-* lines, in order, as "KEY=VALUE". Models: cargo's
 * BuildOutput::parse (src/cargo/core/compiler/custom_build.rs): a line is
 * a directive when it starts with "cargo::" (the 1.77 syntax) or "cargo:";
 * anything else is the script's chatter and is ignored.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/cargo_output.h"
#include "linkscope/vec.h"

/* The keys that shape a link line (cargo's reference, "Outputs of the Build Script"). */
static const char *const link_keys[] = {
	"rustc-link-arg", "rustc-link-arg-bins", "rustc-link-arg-bin", "rustc-link-arg-tests",
	"rustc-link-arg-examples", "rustc-link-arg-benches", "rustc-cdylib-link-arg",
	"rustc-link-lib", "rustc-link-search", "rustc-flags",
};

int lk_cargo_directive_split(const char *line, struct lk_cargo_directive *d)
{
	const char *eq = strchr(line, '=');

	if (!eq || eq == line)
		return -1;
	d->key = line;
	d->key_len = (size_t)(eq - line);
	d->value = eq + 1;
	return 0;
}

int lk_cargo_directive_is(const struct lk_cargo_directive *d, const char *key)
{
	return strlen(key) == d->key_len && !memcmp(d->key, key, d->key_len);
}

static int is_link_key(const struct lk_cargo_directive *d)
{
	for (size_t i = 0; i < sizeof(link_keys) / sizeof(link_keys[0]); i++)
		if (lk_cargo_directive_is(d, link_keys[i]))
			return 1;
	return 0;
}

/* One line of the file: kept when it is a link directive. */
static void take_line(const char *line, size_t len, struct lk_strvec *out)
{
	struct lk_cargo_directive d;
	char *text;

	if (len > 7 && !memcmp(line, "cargo::", 7)) {
		line += 7;
		len -= 7;
	} else if (len > 6 && !memcmp(line, "cargo:", 6)) {
		line += 6;
		len -= 6;
	} else {
		return;
	}
	if (len && line[len - 1] == '\r')
		len--;
	text = lk_xstrndup(line, len);
	if (lk_cargo_directive_split(text, &d) == 0 && is_link_key(&d))
		lk_strvec_push_owned(out, text);
	else
		free(text);
}

int lk_cargo_output_read(const char *path, struct lk_strvec *out)
{
	struct lk_buf text = LK_BUF_INIT;
	const char *line, *end, *nl;

	if (lk_buf_read_file(&text, path, LK_CARGO_OUTPUT_MAX) < 0) {
		int e = errno;

		lk_buf_release(&text);
		errno = e;
		return -1;
	}
	end = text.buf + text.len;
	for (line = text.buf; line < end; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(end - line));
		if (!nl)
			nl = end;
		take_line(line, (size_t)(nl - line), out);
	}
	lk_buf_release(&text);
	return 0;
}

char *lk_cargo_output_of_out_dir(const char *out_dir)
{
	size_t len = out_dir ? strlen(out_dir) : 0;
	struct lk_buf path = LK_BUF_INIT;

	while (len > 1 && out_dir[len - 1] == '/')
		len--;
	if (len < 5 || memcmp(out_dir + len - 4, "/out", 4))
		return NULL;
	lk_buf_add(&path, out_dir, len - 3);
	lk_buf_addstr(&path, "output");
	return lk_buf_detach(&path);
}
