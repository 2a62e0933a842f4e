/*
 * The ELF reader (analyzer/model/elf.c): objects, archives with and without a
 * symbol index, a shared object with symbol versions, and truncated or
 * corrupt inputs, which must give a one-line error naming the file. The
 * fixtures are built at test time with the real cc, ar and ld.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf.h"
#include "testdir.h"


/*
 * a.o: a global data definition, a common, a TLS variable, a weak and a
 * hidden function, an undefined reference, a static function and a section
 * named like a C identifier. libv.so: f@V1 (a hidden version), f@@V2 (the
 * default) and plain@@V1, with a SONAME and a DT_NEEDED (libdep.so.2).
 */
#define FILL \
	"printf '%s\\n' 'int data_def = 1;' 'int common_sym;' '__thread int tls_sym;' " \
	"'__attribute__((weak)) int weak_fn(void) { return 0; }' " \
	"'__attribute__((visibility(\"hidden\"))) int hidden_fn(void) { return 1; }' " \
	"'extern int undef_fn(void);' 'static int local_fn(void) { return 2; }' " \
	"'int a_fn(void) { return undef_fn() + weak_fn() + local_fn(); }' " \
	"'__attribute__((section(\"my_sec\"))) int in_my_sec = 3;' >a.c && " \
	"cc -c -fcommon a.c -o a.o && " \
	"printf 'int b_fn(void) { return 2; }\\n' >b.c && cc -c b.c -o b.o && " \
	"ar rcs liball.a a.o b.o && ar rcS libnoindex.a a.o b.o && " \
	"printf '%s\\n' 'int old_f(void) { return 1; }' 'int new_f(void) { return 2; }' " \
	"'int plain(void) { return 3; }' '__asm__(\".symver old_f,f@V1\");' " \
	"'__asm__(\".symver new_f,f@@V2\");' >v.c && " \
	"printf 'V1 { global: plain; f; local: *; };\\nV2 { global: f; } V1;\\n' >v.map && " \
	"printf 'int dep(void) { return 4; }\\n' >dep.c && " \
	"cc -shared -fPIC dep.c -Wl,-soname,libdep.so.2 -o libdep.so && " \
	"cc -shared -fPIC v.c -Wl,--version-script=v.map -Wl,-soname,libv.so.1 " \
	"-Wl,--no-as-needed libdep.so -o libv.so && " \
	"head -c 100 a.o >trunc-head.o && head -c 1000 a.o >trunc-mid.o && " \
	"head -c $(($(stat -c %s liball.a) - 200)) liball.a >trunc.a && printf '\\177ELF\\002\\001' >tiny.o && " \
	"printf '!<arch>\\nnot a member header at all, just text\\n' >bad.a && " \
	"printf 'GROUP ( libc.so.6 )\\n' >script.so && mkdir adir && " \
	"cp b.o a_member_named_past_sixteen.o && printf 'odd' >odd.txt && printf 'x' >another_long_member_name.txt && " \
	"ar rcs liblong.a a_member_named_past_sixteen.o odd.txt a.o another_long_member_name.txt"

TEST_DIR_GROUP("lk-elf", FILL)

static const struct lk_elf_sym *find(const struct lk_elf_syms *s, const char *name,
				     const char *version)
{
	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->items[i].name, name) &&
		    (!version || (s->items[i].version && !strcmp(s->items[i].version, version))))
			return &s->items[i];
	return NULL;
}

/* An error names the file, says why, and is one line. */
static void assert_one_line_error(const struct lk_err *err, const char *path)
{
	if (!err->msg[0])
		fail_msg("no error message for '%s'", path);
	if (!strstr(err->msg, path))
		fail_msg("error '%s' does not name '%s'", err->msg, path);
	if (strchr(err->msg, '\n'))
		fail_msg("error is not one line: '%s'", err->msg);
}

/* A copy of the fixture `from` as `to` in the test dir, to be cut: its own file, not a link. */
static int copy_fixture(const char *from, const char *to)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "cp '%s/%s' '%s/%s'", dir, from, dir, to);
	return system(cmd);
}

static void test_elf_identify_kinds(void **state)
{
	static const struct { const char *name; enum lk_file_kind kind; } cases[] = {
		{ "a.o", LK_FILE_OBJECT }, { "liball.a", LK_FILE_ARCHIVE },
		{ "libnoindex.a", LK_FILE_ARCHIVE }, { "libv.so", LK_FILE_SHARED },
		{ "script.so", LK_FILE_TEXT }, { "a.c", LK_FILE_TEXT },
		{ "nope.o", LK_FILE_MISSING }, { "adir", LK_FILE_UNREADABLE },
	};
	struct lk_elf_info info;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		lk_elf_identify(at(cases[i].name), &info);
		if (info.kind != cases[i].kind)
			fail_msg("'%s' is %s, want %s", cases[i].name, lk_file_kind_name(info.kind),
				 lk_file_kind_name(cases[i].kind));
		if (info.kind == LK_FILE_OBJECT || info.kind == LK_FILE_SHARED) {
			assert_int_equal(info.machine, TEST_HOST_MACHINE);
			assert_int_equal(info.elf_class, 64);
		}
		lk_elf_info_release(&info);
	}
	lk_elf_identify(at("liball.a"), &info);
	assert_int_equal(info.has_armap, 1);
	assert_int_equal(info.members, 2);
	assert_int_equal(info.machine, TEST_HOST_MACHINE);
	lk_elf_info_release(&info);
	lk_elf_identify(at("libnoindex.a"), &info);
	assert_int_equal(info.has_armap, 0);
	assert_int_equal(info.members, 2);
	lk_elf_info_release(&info);
}

static void test_elf_object_symbols(void **state)
{
	struct lk_elf_syms s = { 0 };
	struct lk_err err = LK_ERR_INIT;
	const struct lk_elf_sym *y;

	(void)state;
	assert_int_equal(lk_elf_read_syms(at("a.o"), &s, &err), 0);
	assert_non_null(y = find(&s, "data_def", NULL));
	assert_true(y->defined && y->data_def && !y->weak && !y->common);
	assert_non_null(y = find(&s, "common_sym", NULL));
	assert_true(y->defined && y->common);
	assert_non_null(y = find(&s, "tls_sym", NULL));
	assert_true(y->tls);
	assert_non_null(y = find(&s, "weak_fn", NULL));
	assert_true(y->defined && y->weak && !y->data_def);
	assert_non_null(y = find(&s, "hidden_fn", NULL));
	assert_true(y->defined && y->local_vis);
	assert_non_null(y = find(&s, "undef_fn", NULL));
	assert_false(y->defined);
	assert_int_equal(y->section, 0);
	/* Locals are not the replay's business. */
	assert_null(find(&s, "local_fn", NULL));
	/* ld defines __start_my_sec/__stop_my_sec for it; not for .text. */
	assert_int_equal(s.start_stop.nr, 1);
	assert_string_equal(s.start_stop.items[0], "my_sec");
	lk_elf_syms_release(&s);
}

static void test_elf_archive_armap_and_members(void **state)
{
	struct lk_elf_archive ar;
	struct lk_err err = LK_ERR_INIT;
	int seen_a = 0, seen_b = 0;

	(void)state;
	assert_int_equal(lk_elf_archive_open(at("liball.a"), &ar, &err), 0);
	assert_int_equal(ar.has_index, 1);
	assert_int_equal(ar.members.nr, 2);
	/* The index lists every defined global with its member's offset. */
	for (size_t i = 0; i < ar.armap.nr; i++) {
		char *name = NULL;
		struct lk_elf_syms m = { 0 };

		if (strcmp(ar.armap.items[i].name, "b_fn") && strcmp(ar.armap.items[i].name, "a_fn"))
			continue;
		assert_int_equal(lk_elf_archive_member(&ar, ar.armap.items[i].offset, &name, &m, &err), 0);
		if (!strcmp(ar.armap.items[i].name, "b_fn")) {
			assert_string_equal(name, "b.o");
			assert_non_null(find(&m, "b_fn", NULL));
			seen_b = 1;
		} else {
			assert_string_equal(name, "a.o");
			assert_non_null(find(&m, "undef_fn", NULL));
			seen_a = 1;
		}
		free(name);
		lk_elf_syms_release(&m);
	}
	assert_true(seen_a && seen_b);
	/* The index's names are the defined globals only: no undefined, no local. */
	for (size_t i = 0; i < ar.armap.nr; i++) {
		assert_string_not_equal(ar.armap.items[i].name, "undef_fn");
		assert_string_not_equal(ar.armap.items[i].name, "local_fn");
	}
	lk_elf_archive_close(&ar);

	assert_int_equal(lk_elf_archive_open(at("libnoindex.a"), &ar, &err), 0);
	assert_int_equal(ar.has_index, 0);
	assert_int_equal(ar.armap.nr, 0);
	assert_int_equal(ar.members.nr, 2);
	lk_elf_archive_close(&ar);

	/* An object is not an archive. */
	assert_int_equal(lk_elf_archive_open(at("a.o"), &ar, &err), -1);
	assert_one_line_error(&err, at("a.o"));
}

/*
 * The member list comes from the ar headers (elf_archive.c's
 * member_offsets), not libelf's walk: long names (the "//" table), a
 * member of odd size (its padding byte) and the ones after it, each
 * offset opening the member `ar t` lists there.
 */
static void test_elf_archive_member_offsets(void **state)
{
	static const char *const want[] = { "a_member_named_past_sixteen.o", "odd.txt", "a.o",
					     "another_long_member_name.txt" };
	struct lk_elf_archive ar;
	struct lk_err err = LK_ERR_INIT;

	(void)state;
	assert_int_equal(lk_elf_archive_open(at("liblong.a"), &ar, &err), 0);
	assert_int_equal(ar.members.nr, 4);
	for (size_t i = 0; i < ar.members.nr; i++) {
		struct lk_elf_syms m = { 0 };
		char *name = NULL;

		assert_int_equal(lk_elf_archive_member(&ar, ar.members.items[i], &name, &m, &err), 0);
		assert_string_equal(name, want[i]);
		if (i == 2)
			assert_non_null(find(&m, "a_fn", NULL));
		free(name);
		lk_elf_syms_release(&m);
	}
	lk_elf_archive_close(&ar);
}

static void test_elf_shared_versions(void **state)
{
	struct lk_elf_syms s = { 0 };
	struct lk_elf_info info;
	struct lk_err err = LK_ERR_INIT;
	const struct lk_elf_sym *y;

	(void)state;
	lk_elf_identify(at("libv.so"), &info);
	assert_string_equal(info.soname, "libv.so.1");
	assert_true(info.needed.nr >= 1);
	assert_string_equal(info.needed.items[0], "libdep.so.2");
	lk_elf_info_release(&info);

	assert_int_equal(lk_elf_read_syms(at("libv.so"), &s, &err), 0);
	/* f@V1 binds only references that ask for V1; f@@V2 is the default. */
	assert_non_null(y = find(&s, "f", "V1"));
	assert_true(y->defined && y->hidden_version);
	assert_non_null(y = find(&s, "f", "V2"));
	assert_true(y->defined && !y->hidden_version);
	assert_non_null(y = find(&s, "plain", "V1"));
	assert_false(y->hidden_version);
	/* local: * hid the implementations. */
	assert_null(find(&s, "old_f", NULL));
	assert_null(find(&s, "new_f", NULL));
	lk_elf_syms_release(&s);
}

static void test_elf_truncated_and_corrupt(void **state)
{
	static const char *const bad[] = { "trunc-head.o", "trunc-mid.o", "tiny.o" };
	struct lk_elf_syms s = { 0 };
	struct lk_elf_info info;
	struct lk_err err = LK_ERR_INIT;
	struct lk_elf_archive ar;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		lk_elf_identify(at(bad[i]), &info);
		if (info.kind != LK_FILE_CORRUPT)
			fail_msg("'%s' is %s, want corrupt", bad[i], lk_file_kind_name(info.kind));
		assert_non_null(info.problem);
		assert_null(strchr(info.problem, '\n'));
		lk_elf_info_release(&info);
		if (lk_elf_read_syms(at(bad[i]), &s, &err) != -1)
			fail_msg("'%s': symbols read from a broken file", bad[i]);
		assert_one_line_error(&err, at(bad[i]));
		lk_elf_syms_release(&s);
	}

	/* An archive cut inside its second member: that member cannot be read. */
	assert_int_equal(lk_elf_archive_open(at("trunc.a"), &ar, &err), 0);
	assert_int_equal(ar.members.nr, 2);
	{
		char *name = NULL;
		char where[192];

		memset(&err, 0, sizeof(err));
		assert_int_equal(lk_elf_archive_member(&ar, ar.members.items[1], &name, &s, &err), -1);
		snprintf(where, sizeof(where), "%s(b.o)", at("trunc.a"));
		assert_one_line_error(&err, where);
		free(name);
		lk_elf_syms_release(&s);
	}
	lk_elf_archive_close(&ar);
	lk_elf_identify(at("bad.a"), &info);
	assert_int_equal(info.kind, LK_FILE_CORRUPT);
	lk_elf_info_release(&info);

	/* Reading a member at an offset that is not one fails with a one-line error. */
	assert_int_equal(lk_elf_archive_open(at("liball.a"), &ar, &err), 0);
	{
		char *name = NULL;

		memset(&err, 0, sizeof(err));
		assert_int_equal(lk_elf_archive_member(&ar, 3, &name, &s, &err), -1);
		assert_one_line_error(&err, at("liball.a"));
		free(name);
	}
	lk_elf_archive_close(&ar);

	/* Missing and text files. */
	memset(&err, 0, sizeof(err));
	assert_int_equal(lk_elf_read_syms(at("nope.o"), &s, &err), -1);
	assert_one_line_error(&err, at("nope.o"));
	memset(&err, 0, sizeof(err));
	assert_int_equal(lk_elf_read_syms(at("script.so"), &s, &err), -1);
	assert_one_line_error(&err, at("script.so"));
}

/*
 * An input cut while the analyzer holds it (a build rewriting it in place,
 * a disk filling up): the reader holds the bytes it read, so what it
 * returned stays readable, and what it reads after the cut is an error
 * naming the file, never a crash. The names of a read object are borrowed
 * from its libelf handle long after the read (the relocation room asks
 * for them): a file libelf had mapped raised SIGBUS there (issue #30).
 */
static void test_elf_cut_while_held(void **state)
{
	struct lk_elf_gc gc;
	struct lk_elf_syms s = { 0 };
	struct lk_elf_archive ar;
	struct lk_err err = LK_ERR_INIT;
	struct lk_elf_syms m = { 0 };
	size_t b_at = 0;
	char *name = NULL, *producer;
	int local_seen = 0;

	(void)state;
	assert_int_equal(copy_fixture("a.o", "held.o"), 0);
	memset(&gc, 0, sizeof(gc));
	gc.fd = -1;
	gc.want = LK_ELF_GC_RELOCS;
	assert_int_equal(lk_elf_read_syms_gc(at("held.o"), &s, &gc, &err), 0);
	assert_int_equal(truncate(at("held.o"), 0), 0);
	for (uint32_t i = 0; i < gc.nnames; i++) {
		const char *n = lk_elf_gc_symbol_name(&gc, i);

		local_seen |= n && !strcmp(n, "local_fn");
	}
	assert_true(local_seen);
	producer = lk_elf_gc_producer(&gc);
	assert_non_null(producer);
	assert_non_null(strstr(producer, "GCC"));
	free(producer);
	lk_elf_gc_release(&gc);
	lk_elf_syms_release(&s);

	/* An archive cut inside its second member after it was opened. */
	assert_int_equal(copy_fixture("liball.a", "held.a"), 0);
	assert_int_equal(lk_elf_archive_open(at("held.a"), &ar, &err), 0);
	for (size_t i = 0; i < ar.armap.nr; i++)
		if (!strcmp(ar.armap.items[i].name, "b_fn"))
			b_at = ar.armap.items[i].offset;
	assert_true(b_at > 0);
	assert_int_equal(truncate(at("held.a"), (off_t)b_at + 60 + 100), 0);
	memset(&err, 0, sizeof(err));
	assert_int_equal(lk_elf_archive_member(&ar, b_at, &name, &m, &err), -1);
	assert_one_line_error(&err, at("held.a"));
	free(name);
	lk_elf_syms_release(&m);
	lk_elf_archive_close(&ar);
}

/* An object's COMDAT groups by signature, and the group of each definition in one (g++'s C5 constructor group). */
static void test_elf_comdat_groups(void **state)
{
	struct lk_elf_syms s = { 0 };
	struct lk_err err = LK_ERR_INIT;
	const struct lk_elf_sym *c1, *c2, *plain;
	char gdir[64], path[128];

	(void)state;
	test_dir_make(gdir, sizeof(gdir), "lk-elf-comdat",
		      "printf 'template <class T> struct Box { T v; Box(T x) : v(x) {} };\\n"
		      "template struct Box<int>;\\nint plain_fn(void) { return 1; }\\n' >b.cpp && g++ -c b.cpp -o b.o");
	snprintf(path, sizeof(path), "%s/b.o", gdir);
	assert_int_equal(lk_elf_read_syms(path, &s, &err), 0);
	assert_int_equal(s.groups.nr, 1);
	assert_string_equal(s.groups.items[0], "_ZN3BoxIiEC5Ei");
	assert_non_null(c1 = find(&s, "_ZN3BoxIiEC1Ei", NULL));
	assert_non_null(c2 = find(&s, "_ZN3BoxIiEC2Ei", NULL));
	assert_int_equal(c1->group, 1);
	assert_int_equal(c2->group, 1);
	assert_true(c1->weak && c1->mergeable);
	assert_non_null(plain = find(&s, "_Z8plain_fnv", NULL));
	assert_int_equal(plain->group, 0);
	lk_elf_syms_release(&s);
	test_dir_remove(gdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elf_comdat_groups),
		cmocka_unit_test(test_elf_identify_kinds),
		cmocka_unit_test(test_elf_object_symbols),
		cmocka_unit_test(test_elf_archive_armap_and_members),
		cmocka_unit_test(test_elf_archive_member_offsets),
		cmocka_unit_test(test_elf_shared_versions),
		cmocka_unit_test(test_elf_truncated_and_corrupt),
		cmocka_unit_test(test_elf_cut_while_held),
	};
	return cmocka_run_group_tests_name("elf", tests, setup, teardown);
}
