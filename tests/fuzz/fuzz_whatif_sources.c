/*
 * libFuzzer target: whatif's readers of a build that has not linked
 * (analyzer/whatif/cmake.c, make.c, argv_file.c, cargo.c with
 * cargo_config.c and common/cargo_output.c) and the shell splitter under
 * them (common/shwords.c). Their files come from a build tree or a CI
 * log: untrusted. Input: the files' texts, separated by NUL bytes, in
 * this order: make-n.txt, b/build.ninja, b/CMakeFiles/rules.ninja,
 * b/CMakeFiles/TargetDirectories.txt, b/CMakeFiles/app.dir/link.txt,
 * argv.txt, the build script's output now (cargo check's), the
 * baseline's build-script directives (one a line), b/.cargo/config.toml;
 * "@D@" in them becomes the scratch dir they are written to. The
 * baseline links `cc main.o -o app` in b/, and for cargo is rustc's link
 * of bin crate app of package app. Each reader is asked with and without
 * --target app; the first file is also split as sh would.
 * make fuzz gives it inputs of up to 4 MiB: a reader superlinear in its
 * file is a libFuzzer timeout (issue #29).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/buf.h"
#include "linkscope/env.h"
#include "linkscope/shwords.h"
#include "linkscope/vec.h"
#include "source.h"

static const char *const files[] = {
	"make-n.txt", "b/build.ninja", "b/CMakeFiles/rules.ninja", "b/CMakeFiles/TargetDirectories.txt",
	"b/CMakeFiles/app.dir/link.txt", "argv.txt", "t/debug/build/app-0123456789abcdef/output",
	"old-directives.txt", "b/.cargo/config.toml",
};
#define OLD_DIRECTIVES 7
#define NFILES (sizeof(files) / sizeof(files[0]))

static char dir[] = "/tmp/lk-fuzz-whatif.XXXXXX";

static void scratch_remove(void)
{
	struct lk_buf p = LK_BUF_INIT;

	lk_buf_addf(&p, "rm -rf '%s'", dir);
	if (system(p.buf) != 0)
		fprintf(stderr, "fuzz_whatif_sources: cannot remove %s\n", dir);
	lk_buf_release(&p);
}

/* The scratch dir, made at the first input (libFuzzer runs one process per target). */
static const char *scratch(void)
{
	static int made;

	if (!made) {
		struct lk_buf p = LK_BUF_INIT;

		if (!mkdtemp(dir))
			abort();
		atexit(scratch_remove);
		lk_buf_addf(&p, "mkdir -p %s/b/CMakeFiles/app.dir %s/b/.cargo %s/t/debug/build/app-0123456789abcdef %s/t/debug/deps",
			    dir, dir, dir, dir);
		if (system(p.buf) != 0)
			abort();
		lk_buf_release(&p);
		made = 1;
	}
	return dir;
}

/* `text` (n bytes) into the file `name` of `root`, each "@D@" made `root`. */
static void put(const char *root, const char *name, const uint8_t *text, size_t n, struct lk_buf *body)
{
	struct lk_buf path = LK_BUF_INIT;
	FILE *f;

	lk_buf_reset(body);
	for (size_t i = 0; i < n; i++) {
		if (i + 3 <= n && !memcmp(text + i, "@D@", 3)) {
			lk_buf_addstr(body, root);
			i += 2;
		} else {
			lk_buf_addch(body, (char)text[i]);
		}
	}
	lk_buf_addf(&path, "%s/%s", root, name);
	if (!(f = fopen(path.buf, "w")))
		abort();
	fwrite(body->buf, 1, body->len, f);
	fclose(f);
	lk_buf_release(&path);
}

/* A line a reader gave has a driver, and its said strings. */
static void check_line(int rc, struct lk_whatif_line *l)
{
	static const struct lk_whatif_line empty = LK_WHATIF_LINE_INIT;

	if (rc == 0 && (!l->argv.nr || !l->argv.items[0] || !l->source))
		abort();
	lk_whatif_line_release(l);
	*l = empty;
}

/*
 * The cargo reader, of a baseline that rustc linked: its argv, its
 * package (CARGO_PKG_NAME), its build script's output then and its
 * directives (`old`, one a line); the target dir is the scratch dir's t/.
 */
static void ask_cargo(struct lk_record *rec, const char *d, const struct lk_buf *old, struct lk_whatif_line *l)
{
	struct lk_envvar pkg = { (char *)"CARGO_PKG_NAME", (char *)"app" };
	struct lk_buf outdir = LK_BUF_INIT, target = LK_BUF_INIT, then = LK_BUF_INIT;
	struct lk_err err = LK_ERR_INIT;
	const char *p = old->buf, *nl;

	lk_buf_addf(&outdir, "%s/t/debug/deps", d);
	lk_buf_addf(&target, "%s/t", d);
	lk_buf_addf(&then, "%s/t/debug/build/app-0123456789abcdef/output", d);
	rec->caller_is_rustc = 1;
	lk_strvec_push(&rec->caller_argv, "rustc");
	lk_strvec_push(&rec->caller_argv, "--crate-name");
	lk_strvec_push(&rec->caller_argv, "app");
	lk_strvec_push(&rec->caller_argv, "--crate-type");
	lk_strvec_push(&rec->caller_argv, "bin");
	lk_strvec_push(&rec->caller_argv, "--out-dir");
	lk_strvec_push(&rec->caller_argv, outdir.buf);
	rec->env.items = &pkg;
	rec->env.nr = 1;
	for (; old->len && p < old->buf + old->len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(old->buf + old->len - p));
		if (!nl)
			nl = old->buf + old->len;
		lk_strvec_push_owned(&rec->build_directives, lk_xstrndup(p, (size_t)(nl - p)));
	}
	for (int withtarget = 0; withtarget < 2; withtarget++) {
		rec->build_output = withtarget ? NULL : then.buf;	/* an old record keeps no directives */
		check_line(lk_whatif_from_cargo(rec, target.buf, withtarget ? "app" : NULL, NULL, l, &err), l);
	}
	rec->build_output = NULL;
	rec->env.items = NULL;
	rec->env.nr = 0;
	rec->caller_is_rustc = 0;
	lk_strvec_release(&rec->caller_argv);
	lk_strvec_release(&rec->build_directives);
	lk_buf_release(&outdir);
	lk_buf_release(&target);
	lk_buf_release(&then);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *d = scratch();
	struct lk_record rec;
	struct lk_whatif_line l = LK_WHATIF_LINE_INIT;
	struct lk_err err = LK_ERR_INIT;
	struct lk_buf cwd = LK_BUF_INIT, path = LK_BUF_INIT, first = LK_BUF_INIT, body = LK_BUF_INIT, old = LK_BUF_INIT;
	struct lk_sh_tokens t = LK_SH_TOKENS_INIT;
	size_t at = 0;

	for (size_t k = 0; k < NFILES; k++) {
		const uint8_t *end = at < size ? memchr(data + at, 0, size - at) : NULL;
		size_t n = at < size ? (end ? (size_t)(end - data) : size) - at : 0;

		put(d, files[k], data + at, n, &body);
		if (k == 0)
			lk_buf_add(&first, body.buf, body.len);
		if (k == OLD_DIRECTIVES)
			lk_buf_add(&old, body.buf, body.len);
		at += n + 1;
	}
	lk_sh_split(first.buf, first.len, &t, &err);
	lk_sh_tokens_release(&t);

	memset(&rec, 0, sizeof(rec));
	lk_buf_addf(&cwd, "%s/b", d);
	rec.cwd = cwd.buf;
	rec.output = (char *)"app";
	rec.link_args_start = rec.link_args_end = -1;
	LK_GROW(rec.args.items, 1, rec.args.alloc);
	rec.args.items[0].text = (char *)"cc";
	rec.args.items[0].rsp = -1;
	rec.args.nr = 1;
	for (int withtarget = 0; withtarget < 2; withtarget++) {
		const char *target = withtarget ? "app" : NULL;

		lk_buf_reset(&path);
		lk_buf_addf(&path, "%s/make-n.txt", d);
		check_line(lk_whatif_from_make(&rec, path.buf, target, &l, &err), &l);
		check_line(lk_whatif_from_cmake(&rec, cwd.buf, target, &l, &err), &l);
		/* the Makefile generators' reading: build.ninja gone */
		lk_buf_reset(&path);
		lk_buf_addf(&path, "%s/b/build.ninja", d);
		if (withtarget)
			remove(path.buf);
	}
	check_line(lk_whatif_from_cmake(&rec, cwd.buf, NULL, &l, &err), &l);
	lk_buf_reset(&path);
	lk_buf_addf(&path, "%s/argv.txt", d);
	check_line(lk_whatif_from_argv_file(&rec, path.buf, &l, &err), &l);
	ask_cargo(&rec, d, &old, &l);
	free(rec.args.items);
	lk_buf_release(&cwd);
	lk_buf_release(&path);
	lk_buf_release(&first);
	lk_buf_release(&body);
	lk_buf_release(&old);
	return 0;
}
