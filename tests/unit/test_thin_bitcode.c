/*
 * Thin archives (analyzer/model/elf_thin.c) and the producer of LLVM
 * bitcode (analyzer/model/bitcode.c): a thin archive's index and members
 * read from the files it names (in dirs below it, and a normal archive's
 * member through "/N:ORIGIN"); a member changed since the archive was
 * made is an error naming it; the producer of clang's -flto output, and
 * nothing (no crash) for bitcode cut short or made up. Fixtures are built
 * at test time with the real cc, ar and clang.
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

#include "bitcode.h"
#include "elf.h"
#include "testdir.h"


#define FILL \
	"mkdir -p sub/deep && printf 'int g(void) { return 2; }\\n' >sub/deep/g.c && " \
	"printf 'int f(void) { return 1; }\\n' >sub/f.c && cc -c sub/deep/g.c -o sub/deep/g.o && " \
	"cc -c sub/f.c -o sub/f.o && (cd sub && ar rcT libthin.a deep/g.o f.o && ar rc libfat.a f.o) && " \
	"ar rcT libnest.a sub/libfat.a && cp sub/f.o sub/f2.o && (cd sub && ar rcT libchanged.a f2.o) && " \
	"printf 'int more(void) { return 3; }\\n' >>sub/f.c && cc -c sub/f.c -o sub/f2.o && " \
	"clang -flto -c sub/f.c -o bc.o && head -c 12 bc.o >bc-cut.o && " \
	"printf 'BC\\300\\336\\377\\377\\377\\377\\377\\377\\377\\377' >bc-junk.o"

TEST_DIR_GROUP("lk-thin", FILL)

/* Every member's name and whether it defines `sym`. */
static int member_defining(struct lk_elf_archive *ar, const char *sym, char **member)
{
	for (size_t m = 0; m < ar->members.nr; m++) {
		struct lk_elf_syms syms = { 0 };
		struct lk_err err = LK_ERR_INIT;
		char *name = NULL;
		int found = 0;

		assert_int_equal(lk_elf_archive_member(ar, ar->members.items[m], &name, &syms, &err), 0);
		for (size_t i = 0; i < syms.nr; i++)
			found |= syms.items[i].defined && !strcmp(syms.items[i].name, sym);
		lk_elf_syms_release(&syms);
		if (found) {
			*member = name;
			return 1;
		}
		free(name);
	}
	return 0;
}

static void test_thin_identify_and_read(void **state)
{
	struct lk_elf_info info;
	struct lk_elf_archive ar;
	struct lk_err err = LK_ERR_INIT;
	char *member = NULL;

	(void)state;
	lk_elf_identify(at("sub/libthin.a"), &info);
	assert_int_equal(info.kind, LK_FILE_THIN_ARCHIVE);
	assert_int_equal(info.has_armap, 1);
	assert_int_equal(info.members, 2);
	assert_int_equal(info.machine, TEST_HOST_MACHINE);
	lk_elf_info_release(&info);

	assert_int_equal(lk_elf_archive_open(at("sub/libthin.a"), &ar, &err), 0);
	assert_int_equal(ar.thin, 1);
	assert_int_equal(ar.armap.nr, 2);
	assert_true(member_defining(&ar, "g", &member));
	assert_string_equal(member, "deep/g.o");
	free(member);
	lk_elf_archive_close(&ar);

	/* A normal archive inside a thin one: its member, at the offset the name gives. */
	assert_int_equal(lk_elf_archive_open(at("libnest.a"), &ar, &err), 0);
	assert_true(member_defining(&ar, "f", &member));
	assert_string_equal(member, "f.o");
	free(member);
	lk_elf_archive_close(&ar);
}

static void test_thin_member_changed(void **state)
{
	struct lk_elf_archive ar;
	struct lk_elf_syms syms = { 0 };
	struct lk_err err = LK_ERR_INIT;
	char *name = NULL;

	(void)state;
	assert_int_equal(lk_elf_archive_open(at("sub/libchanged.a"), &ar, &err), 0);
	assert_int_equal(lk_elf_archive_member(&ar, ar.members.items[0], &name, &syms, &err), -1);
	assert_non_null(strstr(err.msg, "libchanged.a(f2.o)"));
	assert_non_null(strstr(err.msg, "when the archive was made"));
	lk_elf_syms_release(&syms);
	free(name);
	lk_elf_archive_close(&ar);
}

static void test_bitcode_producer(void **state)
{
	char *p;

	(void)state;
	p = lk_bitcode_producer(at("bc.o"));
	assert_non_null(p);
	assert_int_equal(strncmp(p, "LLVM", 4), 0);
	free(p);
	assert_null(lk_bitcode_producer(at("bc-cut.o")));
	assert_null(lk_bitcode_producer(at("bc-junk.o")));
	assert_null(lk_bitcode_producer(at("sub/f.o")));
	assert_null(lk_bitcode_producer(at("nope.o")));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thin_identify_and_read),
		cmocka_unit_test(test_thin_member_changed),
		cmocka_unit_test(test_bitcode_producer),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
