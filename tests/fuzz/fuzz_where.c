/*
 * libFuzzer target: the build-file readers of analyzer/fix/where/ (make,
 * meson, CMake), which read files a record's cwd points at: untrusted.
 * Input: the files' texts, separated by NUL bytes (a build file with a
 * NUL is not read), in this order: b/Makefile, meson.build,
 * b/meson-info/intro-targets.json, b/CMakeFiles/app.dir/link.txt,
 * b/build.ninja, b/CMakeCache.txt, CMakeLists.txt; "@D@" in them becomes
 * the scratch dir they are written to (the paths meson and CMake write).
 * The record links `cc main.o -o app` in b/; each reader is asked for a
 * fix that adds -lz and ../libshapes.a, and for one that replaces -lm.
 * make fuzz gives it inputs of up to 4 MiB (-max_len): a reader
 * superlinear in a build file is a libFuzzer timeout (issue #29).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "where/parts.h"

static const char *const files[] = {
	"b/Makefile", "meson.build", "b/meson-info/intro-targets.json", "b/CMakeFiles/app.dir/link.txt",
	"b/build.ninja", "b/CMakeCache.txt", "CMakeLists.txt",
};
#define NFILES (sizeof(files) / sizeof(files[0]))

static char dir[] = "/tmp/lk-fuzz-where.XXXXXX";

/* The scratch dir gone when the fuzzer exits. */
static void scratch_remove(void)
{
	struct lk_buf p = LK_BUF_INIT;

	lk_buf_addf(&p, "rm -rf '%s'", dir);
	if (system(p.buf) != 0)
		fprintf(stderr, "fuzz_where: cannot remove %s\n", dir);
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
		lk_buf_addf(&p, "mkdir -p %s/b/meson-info %s/b/CMakeFiles/app.dir", dir, dir);
		if (system(p.buf) != 0)
			abort();
		lk_buf_release(&p);
		made = 1;
	}
	return dir;
}

/* `text` (n bytes) into the file `name` of `dir`, each "@D@" made `dir`. */
static void put(const char *root, const char *name, const uint8_t *text, size_t n)
{
	struct lk_buf path = LK_BUF_INIT, body = LK_BUF_INIT;
	FILE *f;

	for (size_t i = 0; i < n; i++) {
		if (i + 3 <= n && !memcmp(text + i, "@D@", 3)) {
			lk_buf_addstr(&body, root);
			i += 2;
		} else {
			lk_buf_addch(&body, (char)text[i]);
		}
	}
	lk_buf_addf(&path, "%s/%s", root, name);
	if (!(f = fopen(path.buf, "w")))
		abort();
	fwrite(body.buf, 1, body.len, f);
	fclose(f);
	lk_buf_release(&path);
	lk_buf_release(&body);
}

static void ask_all(struct wh_ask *a)
{
	struct lk_fix_where *(*const readers[])(const struct wh_ask *) = { wh_make, wh_meson, wh_cmake };

	for (size_t i = 0; i < sizeof(readers) / sizeof(readers[0]); i++) {
		struct lk_fix_where *w = readers[i](a);

		/* a where always says what to write */
		if (w && !w->text)
			abort();
		lk_where_free(w);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const argv[] = { "cc", "main.o", "-o", "app" };
	const char *d = scratch();
	struct lk_record rec;
	struct lk_line line;
	struct lk_replay out;
	struct lk_fix fix;
	struct wh_memo memo = { NULL, NULL };
	struct wh_ask a;
	struct lk_buf cwd = LK_BUF_INIT;
	size_t at = 0;

	for (size_t k = 0; k < NFILES; k++) {
		const uint8_t *end = at < size ? memchr(data + at, 0, size - at) : NULL;
		size_t n = at < size ? (end ? (size_t)(end - data) : size) - at : 0;

		put(d, files[k], data + at, n);
		at += n + 1;
	}
	memset(&rec, 0, sizeof(rec));
	memset(&line, 0, sizeof(line));
	memset(&out, 0, sizeof(out));
	memset(&fix, 0, sizeof(fix));
	lk_buf_addf(&cwd, "%s/b", d);
	rec.cwd = cwd.buf;
	rec.output = (char *)"app";
	rec.link_args_start = rec.link_args_end = -1;
	for (size_t i = 0; i < sizeof(argv) / sizeof(argv[0]); i++) {
		LK_GROW(rec.args.items, rec.args.nr + 1, rec.args.alloc);
		rec.args.items[rec.args.nr].text = (char *)argv[i];
		rec.args.items[rec.args.nr++].rsp = -1;
	}
	lk_strvec_push(&fix.args, "-lz");
	lk_strvec_push(&fix.args, "../libshapes.a");
	fix.position = (long)rec.args.nr;
	a = (struct wh_ask){ &rec, &line, &out, NULL, &fix, NULL, &fix.args, &memo };
	ask_all(&a);
	/* a fix replacing a word, asked of the same memo: the record's facts are kept between fixes */
	a.old = "-lm";
	ask_all(&a);
	wh_cargo_memo_free(memo.cargo);
	wh_cmake_memo_free(memo.cmake);
	lk_strvec_release(&fix.args);
	free(rec.args.items);
	lk_buf_release(&cwd);
	return 0;
}
