/*
 * The rustflags cargo would give rustc now, for whatif --cargo: their
 * link args go in front of the build script's on the line.
 *
 * Models cargo's precedence (the Cargo Book, "build.rustflags"):
 * CARGO_ENCODED_RUSTFLAGS (split on 0x1f), else RUSTFLAGS (on
 * whitespace), else every `target.<triple>.rustflags` and
 * `target.'cfg(...)'.rustflags` of the config files joined, else
 * `build.rustflags`. Config files: `.cargo/config.toml` (or `config`) in
 * the dir cargo runs in and each ancestor, then $CARGO_HOME's; arrays are
 * joined with the deeper dir's last. A `cfg(...)` table is not evaluated:
 * when it has rustflags, the answer says so (the caller cannot tell).
 * Only the TOML that rustflags are written in is read: a table header, a
 * `rustflags` (or dotted `build.rustflags`) key, and its string or array
 * of strings, over lines; anything else is skipped.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "cargo_config.h"

/* A TOML basic ("...") or literal ('...') string at *p: its text appended to `out`; *p past it. 0, or -1. */
static int toml_string(const char **p, struct lk_buf *out)
{
	char q = **p;
	const char *s = *p + 1;

	for (; *s && *s != q && *s != '\n'; s++) {
		if (q == '"' && *s == '\\' && s[1]) {
			s++;
			lk_buf_addch(out, *s == 'n' ? '\n' : *s == 't' ? '\t' : *s);
		} else {
			lk_buf_addch(out, *s);
		}
	}
	if (*s != q)
		return -1;
	*p = s + 1;
	return 0;
}

static void skip_blank(const char **p)
{
	for (;;) {
		while (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r')
			(*p)++;
		if (**p != '#')
			return;
		while (**p && **p != '\n')
			(*p)++;
	}
}

/* A rustflags value at `p`: a string (split on spaces, as cargo splits it) or an array of strings. */
static void read_value(const char *p, struct lk_strvec *out)
{
	struct lk_buf s = LK_BUF_INIT;

	skip_blank(&p);
	if (*p == '"' || *p == '\'') {
		if (toml_string(&p, &s) == 0) {
			struct lk_buf w = LK_BUF_INIT;

			for (const char *c = s.buf ? s.buf : ""; ; c++) {
				if (*c == ' ' || *c == '\t' || !*c) {
					if (w.len)
						lk_strvec_push(out, w.buf);
					lk_buf_reset(&w);
					if (!*c)
						break;
				} else {
					lk_buf_addch(&w, *c);
				}
			}
			lk_buf_release(&w);
		}
	} else if (*p == '[') {
		for (p++;; p++) {
			skip_blank(&p);
			if (*p != '"' && *p != '\'')
				break;
			lk_buf_reset(&s);
			if (toml_string(&p, &s) < 0)
				break;
			lk_strvec_push(out, s.buf ? s.buf : "");
			skip_blank(&p);
			if (*p != ',')
				break;
		}
	}
	lk_buf_release(&s);
}

/* Which rustflags a table holds: 'b' build, 't' this target's, 'c' a cfg(...) target's, 0 none. */
static char table_kind(const char *header, size_t len, const char *triple)
{
	struct lk_buf t = LK_BUF_INIT;
	char kind = 0;

	lk_buf_add(&t, header, len);
	if (!strcmp(t.buf, "build"))
		kind = 'b';
	else if (triple && lk_str_starts_with(t.buf, "target.") && !strcmp(t.buf + 7, triple))
		kind = 't';
	else if (lk_str_starts_with(t.buf, "target.'cfg(") || lk_str_starts_with(t.buf, "target.\"cfg("))
		kind = 'c';
	lk_buf_release(&t);
	return kind;
}

/* One config file's rustflags into build / target / cfg lists. */
static void read_config(const char *text, const char *triple, struct lk_strvec *build, struct lk_strvec *target,
			int *cfg_flags)
{
	char kind = 0;

	for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *p = line, *key;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '[') {
			const char *end = strchr(p, ']');

			kind = end ? table_kind(p + 1, (size_t)(end - p - 1), triple) : 0;
			continue;
		}
		key = p;
		if (lk_str_starts_with(key, "build.rustflags") && kind == 0) {
			p = key + 15;
			kind = 'B';	/* a dotted key at the top: build's, for this line only */
		} else if (lk_str_starts_with(key, "rustflags")) {
			p = key + 9;
		} else {
			continue;
		}
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '=')
			continue;
		if (kind == 'b' || kind == 'B')
			read_value(p + 1, build);
		else if (kind == 't')
			read_value(p + 1, target);
		else if (kind == 'c')
			*cfg_flags = 1;
		if (kind == 'B')
			kind = 0;
	}
}

/* The config files cargo reads for `cwd`, lowest precedence first ($CARGO_HOME's, then / down to cwd). */
static void config_files(const char *cwd, struct lk_strvec *out)
{
	static const char *const names[] = { "/.cargo/config.toml", "/.cargo/config" };
	struct lk_strvec dirs = LK_STRVEC_INIT;
	struct lk_buf b = LK_BUF_INIT;
	const char *home = getenv("CARGO_HOME");
	char *dir = lk_xstrdup(cwd ? cwd : "/");

	for (;;) {
		char *slash = strrchr(dir, '/');

		lk_strvec_push(&dirs, *dir ? dir : "");
		if (!slash)
			break;
		*slash = '\0';
		if (slash == dir) {
			lk_strvec_push(&dirs, "");
			break;
		}
	}
	if (home) {
		lk_buf_addf(&b, "%s/config.toml", home);
		lk_strvec_push(out, b.buf);
	} else if (getenv("HOME")) {
		lk_buf_addf(&b, "%s/.cargo/config.toml", getenv("HOME"));
		lk_strvec_push(out, b.buf);
	}
	for (size_t i = dirs.nr; i-- > 0;)
		for (size_t k = 0; k < 2; k++) {
			lk_buf_reset(&b);
			lk_buf_addf(&b, "%s%s", dirs.items[i], names[k]);
			lk_strvec_push(out, b.buf);
		}
	free(dir);
	lk_strvec_release(&dirs);
	lk_buf_release(&b);
}

int lk_cargo_rustflags(const char *cwd, const char *triple, struct lk_strvec *flags, const char **from)
{
	const char *enc = getenv("CARGO_ENCODED_RUSTFLAGS"), *plain = getenv("RUSTFLAGS");
	struct lk_strvec files = LK_STRVEC_INIT, build = LK_STRVEC_INIT, target = LK_STRVEC_INIT;
	int cfg_flags = 0;

	if (enc || plain) {
		const char *s = enc ? enc : plain, sep = enc ? '\x1f' : ' ';
		struct lk_buf w = LK_BUF_INIT;

		for (;; s++) {
			if (*s == sep || (!enc && *s == '\t') || !*s) {
				if (w.len)
					lk_strvec_push(flags, w.buf);
				lk_buf_reset(&w);
				if (!*s)
					break;
			} else {
				lk_buf_addch(&w, *s);
			}
		}
		lk_buf_release(&w);
		*from = enc ? "CARGO_ENCODED_RUSTFLAGS" : "RUSTFLAGS";
		return 0;
	}
	config_files(cwd, &files);
	for (size_t i = 0; i < files.nr; i++) {
		struct lk_buf text = LK_BUF_INIT;

		if (lk_buf_read_file(&text, files.items[i], (size_t)1 << 20) == 0 && text.buf)
			read_config(text.buf, triple, &build, &target, &cfg_flags);
		lk_buf_release(&text);
	}
	lk_strvec_release(&files);
	*from = target.nr || cfg_flags ? "target.<triple>.rustflags in .cargo/config.toml" :
		build.nr ? "build.rustflags in .cargo/config.toml" : "no rustflags";
	for (size_t i = 0; i < (target.nr || cfg_flags ? target.nr : build.nr); i++)
		lk_strvec_push(flags, (target.nr || cfg_flags ? &target : &build)->items[i]);
	lk_strvec_release(&build);
	lk_strvec_release(&target);
	return cfg_flags ? -1 : 0;
}
