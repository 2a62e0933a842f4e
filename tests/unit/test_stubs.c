/*
 * Where each linker puts the stub of a far AArch64 call (analyzer/replay/
 * stubs.c) and each linker's layout (reloc_layout.c), on layouts built
 * here: GNU ld's stub groups (127 MiB from a group's start, the sections
 * after the stubs joining), lld's thunk before or after the call's own
 * section, mold's unchecked branch; lld's --section-start sections first,
 * mold's moved section followed by what comes after it. The figures the
 * real linkers give for the same shapes are in tests/integ/158 and 159.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "linkscope/vec.h"
#include "reloc.h"

#define MIB (1ull << 20)

/* A layout of code sections of `sizes` MiB (input i, section 1 each), placed as `kind` places them. */
static struct rr_layout *code_layout(const double *sizes, size_t n, enum rr_layout_kind kind,
				     const struct lk_strvec *starts)
{
	struct rr_layout *l = rr_layout_new();
	struct lk_strvec none = LK_STRVEC_INIT;

	for (size_t i = 0; i < n; i++) {
		struct lk_elf_gc_section s;

		memset(&s, 0, sizeof(s));
		s.alloc = s.exec = 1;
		s.size = (uint64_t)(sizes[i] * (double)MIB);
		s.align = 4;
		rr_layout_add(l, (long)i, 1, i == n - 1 && starts ? ".far" : ".text", &s);
	}
	rr_layout_place(l, 0x400000, starts ? starts : &none, kind);
	return l;
}

static enum rr_stub_answer judge(const struct rr_layout *l, enum rr_stub_linker linker, long at, double offset_mib,
				 struct rr_stub *st)
{
	struct rr_stubs *s = rr_stubs_new(l, 0);

	rr_stub_judge(s, linker, at, (uint64_t)(offset_mib * (double)MIB), st);
	rr_stubs_free(s);
	return st->answer;
}

static void test_stubs_gnu_groups(void **state)
{
	static const double three[] = { 65, 65, 65, 0.01 };
	static const double one[] = { 130, 0.01 };
	struct rr_layout *l = code_layout(three, 4, RR_LAYOUT_GNU, NULL);
	struct rr_stub st;

	(void)state;
	/* 65 + 65 >= 127: the first group is the first section; its stubs after it serve the second too. */
	assert_int_equal(judge(l, RR_STUBS_GNU, 0, 0, &st), RR_STUB_REACHES);
	assert_int_equal(st.section, 0);
	assert_int_equal(judge(l, RR_STUBS_GNU, 1, 64, &st), RR_STUB_REACHES);
	assert_int_equal(st.section, 0);
	assert_true(st.distance < 0);	/* behind the call */
	/* The third starts a group of its own with the last one. */
	assert_int_equal(judge(l, RR_STUBS_GNU, 2, 0, &st), RR_STUB_REACHES);
	assert_int_equal(st.section, 3);
	rr_layout_free(l);

	l = code_layout(one, 2, RR_LAYOUT_GNU, NULL);
	assert_int_equal(judge(l, RR_STUBS_GNU, 0, 0, &st), RR_STUB_OUT);
	assert_int_equal(st.section, 0);
	assert_int_equal(judge(l, RR_STUBS_GNU, 0, 1, &st), RR_STUB_OUT);
	assert_int_equal(judge(l, RR_STUBS_GNU, 0, 3, &st), RR_STUB_REACHES);
	/* 128 MiB from the end of the section: within what the estimate can tell. */
	assert_int_equal(judge(l, RR_STUBS_GNU, 0, 2, &st), RR_STUB_CLOSE);
	rr_layout_free(l);
}

static void test_stubs_lld_and_mold(void **state)
{
	static const double huge[] = { 258, 0.01 };
	static const double big[] = { 200, 0.01 };
	struct rr_layout *l = code_layout(huge, 2, RR_LAYOUT_LLD, NULL);
	struct rr_stub st;

	(void)state;
	/* Neither end of its section within 128 MiB: lld has no place for a thunk. */
	assert_int_equal(judge(l, RR_STUBS_LLD, 0, 129, &st), RR_STUB_OUT);
	assert_int_equal(judge(l, RR_STUBS_LLD, 0, 0, &st), RR_STUB_REACHES);
	assert_true(st.before);
	assert_int_equal(judge(l, RR_STUBS_LLD, 0, 250, &st), RR_STUB_REACHES);
	assert_false(st.before);
	/* mold links every one; its thunk after the section is out of reach from the start. */
	assert_int_equal(judge(l, RR_STUBS_MOLD, 0, 129, &st), RR_STUB_REACHES);
	assert_true(st.broken);
	assert_int_equal(judge(l, RR_STUBS_MOLD, 0, 250, &st), RR_STUB_REACHES);
	assert_false(st.broken);
	rr_layout_free(l);

	l = code_layout(big, 2, RR_LAYOUT_LLD, NULL);
	assert_int_equal(judge(l, RR_STUBS_LLD, 0, 100, &st), RR_STUB_REACHES);
	rr_layout_free(l);
}

static void test_layout_section_start(void **state)
{
	static const double secs[] = { 1, 0.5 };
	struct lk_strvec starts = LK_STRVEC_INIT;
	struct rr_layout *l;
	int ok;

	(void)state;
	lk_strvec_push(&starts, ".far=0x800000");
	/* GNU ld: .far where it is told, .text where it was. */
	l = code_layout(secs, 2, RR_LAYOUT_GNU, &starts);
	assert_int_equal(rr_layout_addr(l, 1, 1, &ok), 0x800000);
	assert_true(rr_layout_addr(l, 0, 1, &ok) < 0x500000);
	rr_layout_free(l);
	/* lld: .far first, .text after it. */
	l = code_layout(secs, 2, RR_LAYOUT_LLD, &starts);
	assert_int_equal(rr_layout_addr(l, 1, 1, &ok), 0x800000);
	assert_true(rr_layout_addr(l, 0, 1, &ok) > 0x800000);
	rr_layout_free(l);
	/* mold: code by name, .far before .text, and .text after it. */
	l = code_layout(secs, 2, RR_LAYOUT_MOLD, &starts);
	assert_int_equal(rr_layout_addr(l, 1, 1, &ok), 0x800000);
	assert_true(rr_layout_addr(l, 0, 1, &ok) > 0x800000);
	rr_layout_free(l);
	lk_strvec_release(&starts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stubs_gnu_groups),
		cmocka_unit_test(test_stubs_lld_and_mold),
		cmocka_unit_test(test_layout_section_start),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
