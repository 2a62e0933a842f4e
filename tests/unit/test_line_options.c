/* The line model parses ld's options once: later stages read their meaning, not their words. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "line.h"
#include "linkscope/rsp.h"

static void test_line_options_parsed_once(void **state)
{
	static const char *const driver[] = { "cc", "-nostdlib", "-Wl,--as-needed" };
	static const char *const linker[] = {
		"ld", "--copy-dt-needed-entries", "-z", "muldefs", "--version-script=v.map",
		"--add-needed", "--allow-multiple-definition", "-z", "now", "--as-needed",
		"--version-script", "w.map",
	};
	static const enum lk_ld_option want[] = {
		LK_LD_COPY_DT_NEEDED, LK_LD_MULDEFS, LK_LD_VERSION_SCRIPT, LK_LD_COPY_DT_NEEDED,
		LK_LD_MULDEFS, LK_LD_OTHER, LK_LD_OTHER, LK_LD_VERSION_SCRIPT,
	};
	struct lk_rspfiles files = { NULL, 0, 0 };
	struct lk_line_options opt = { 0 };
	struct lk_err err = LK_ERR_INIT;
	struct lk_record rec;
	struct lk_line line;

	(void)state;
	memset(&rec, 0, sizeof(rec));
	assert_int_equal(lk_rsp_expand(driver, 3, &rec.args, &files, &err), 0);
	rec.prov = calloc(rec.args.nr, sizeof(*rec.prov));
	rec.cwd = (char *)"/tmp";	/* borrowed: lk_line_build only reads it */
	rec.link_args_start = rec.link_args_end = -1;
	for (size_t i = 0; i < sizeof(linker) / sizeof(*linker); i++)
		lk_strvec_push(&rec.linker_argv, linker[i]);
	assert_int_equal(lk_line_build(&rec, &opt, &line, &err), 0);
	assert_int_equal(line.items.nr, sizeof(want) / sizeof(*want));
	for (size_t i = 0; i < line.items.nr; i++) {
		assert_int_equal(line.items.items[i].kind, LK_ITEM_OPTION);
		if (line.items.items[i].ld_option != want[i])
			fail_msg("item %zu '%s': %d, want %d", i, line.items.items[i].word,
				 (int)line.items.items[i].ld_option, (int)want[i]);
	}
	lk_line_release(&line);
	lk_strvec_release(&rec.linker_argv);
	free(rec.prov);
	lk_args_release(&rec.args);
	lk_rspfiles_release(&files);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_options_parsed_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
