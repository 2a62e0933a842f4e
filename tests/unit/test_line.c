/* The line model: driver-position matching (scripts: test_script.c; -l search: test_resolve.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver_words.h"
#include "line.h"
#include "linkscope/rsp.h"

static void test_line_match_gcc_hoisting(void **state)
{
	/* The driver line and the collect2 line gcc 12 made of it (cc -### ...). */
	const char *driver[] = {
		"cc", "m.o", "-L/opt/x", "-lfoo", "-Wl,--as-needed,-lbar", "-Xlinker",
		"--no-as-needed", "-L", "/opt/y", "-l", "c", "-rdynamic", "-o", "out",
	};
	const char *linker[] = {
		"collect2", "-plugin", "p.so", "--eh-frame-hdr", "-m", "elf_x86_64",
		"--as-needed", "-export-dynamic", "-pie", "-o", "out", "Scrt1.o", "crti.o",
		"-L/opt/x", "-L/opt/y", "-L/usr/lib", "m.o", "-lfoo", "--as-needed", "-lbar",
		"--no-as-needed", "-lc", "-lgcc", "-lc", "crtn.o",
	};
	static const long want[] = {
		-1, -1, -1, -1, -1, -1, -1, 11, -1, 12, 13, -1, -1,
		2, 7, -1, 1, 3, 4, 4, 6, 9, -1, -1, -1,
	};
	struct lk_rspfiles files = { NULL, 0, 0 };
	struct lk_strvec lv = LK_STRVEC_INIT;
	struct lk_err err = LK_ERR_INIT;
	struct lk_args args = { NULL, 0, 0 };
	long pos[25];

	(void)state;
	assert_int_equal(lk_rsp_expand(driver, 14, &args, &files, &err), 0);
	for (size_t i = 0; i < 25; i++)
		lk_strvec_push(&lv, linker[i]);
	lk_line_match(&args, &lv, pos);
	for (size_t i = 0; i < 25; i++)
		if (pos[i] != want[i])
			fail_msg("linker word %zu '%s': position %ld, want %ld", i, linker[i], pos[i], want[i]);
	lk_strvec_release(&lv);
	lk_args_release(&args);
	lk_rspfiles_release(&files);
}


/* The driver's additions of a recorded line, made again for another line of the same driver (whatif). */
static void test_driver_expand_again(void **state)
{
	const char *driver[] = {
		"cc", "m.o", "-L/opt/x", "-lfoo", "-Wl,--as-needed,-lbar", "-Xlinker",
		"--no-as-needed", "-L", "/opt/y", "-l", "c", "-rdynamic", "-o", "out",
	};
	const char *linker[] = {
		"collect2", "-plugin", "p.so", "--eh-frame-hdr", "-m", "elf_x86_64",
		"--as-needed", "-export-dynamic", "-pie", "-o", "out", "Scrt1.o", "crti.o",
		"-L/opt/x", "-L/opt/y", "-L/usr/lib", "m.o", "-lfoo", "--as-needed", "-lbar",
		"--no-as-needed", "-lc", "-lgcc", "-lc", "crtn.o",
	};
	const char *next[] = { "cc", "m.o", "n.o", "-L/opt/z", "-lbaz", "-rdynamic", "-o", "out2" };
	const char *shared[] = { "cc", "-shared", "m.o", "-rdynamic", "-o", "out2" };
	const char *want = "collect2 -plugin p.so --eh-frame-hdr -m elf_x86_64 --as-needed -L/opt/z -export-dynamic "
			   "-o out2 -pie Scrt1.o crti.o -L/usr/lib m.o n.o -lbaz -lgcc -lc crtn.o";
	struct lk_rspfiles files = { NULL, 0, 0 };
	struct lk_err err = LK_ERR_INIT;
	struct lk_args args = { NULL, 0, 0 };
	struct lk_record base;
	struct lk_strvec out = LK_STRVEC_INIT;
	struct lk_buf why = LK_BUF_INIT, got = LK_BUF_INIT;

	(void)state;
	memset(&base, 0, sizeof(base));
	assert_int_equal(lk_rsp_expand(driver, 14, &base.args, &files, &err), 0);
	lk_rspfiles_release(&files);
	for (size_t i = 0; i < 25; i++)
		lk_strvec_push(&base.linker_argv, linker[i]);
	assert_int_equal(lk_rsp_expand(next, 8, &args, &files, &err), 0);
	lk_rspfiles_release(&files);
	assert_int_equal(lk_driver_expand_again(&base, &args, &out, &why), 0);
	for (size_t i = 0; i < out.nr; i++)
		lk_buf_addf(&got, "%s%s", i ? " " : "", out.items[i]);
	assert_string_equal(got.buf, want);
	lk_args_release(&args);
	lk_strvec_release(&out);
	/* -shared changes the crt files and more: not made up. */
	assert_int_equal(lk_rsp_expand(shared, 6, &args, &files, &err), 0);
	lk_rspfiles_release(&files);
	assert_int_equal(lk_driver_expand_again(&base, &args, &out, &why), -1);
	assert_non_null(strstr(why.buf, "-shared"));
	lk_args_release(&args);
	lk_args_release(&base.args);
	lk_strvec_release(&base.linker_argv);
	lk_strvec_release(&out);
	lk_buf_release(&why);
	lk_buf_release(&got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_match_gcc_hoisting),
		cmocka_unit_test(test_driver_expand_again),
	};
	return cmocka_run_group_tests_name("line", tests, NULL, NULL);
}
