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
#include "policy.h"

/* A line of `linker` words for driver `cc -nostdlib`; release with line_free(). */
static void build(const char *const *linker, size_t n, struct lk_record *rec, struct lk_line *line)
{
	static const char *const driver[] = { "cc", "-nostdlib" };
	struct lk_rspfiles files = { NULL, 0, 0 };
	struct lk_line_options opt = { 0 };
	struct lk_err err = LK_ERR_INIT;

	memset(rec, 0, sizeof(*rec));
	assert_int_equal(lk_rsp_expand(driver, 2, &rec->args, &files, &err), 0);
	lk_rspfiles_release(&files);
	rec->prov = calloc(rec->args.nr, sizeof(*rec->prov));
	rec->cwd = (char *)"/tmp";	/* borrowed: lk_line_build only reads it */
	rec->link_args_start = rec->link_args_end = -1;
	for (size_t i = 0; i < n; i++)
		lk_strvec_push(&rec->linker_argv, linker[i]);
	assert_int_equal(lk_line_build(rec, &opt, line, &err), 0);
}

static void line_free(struct lk_record *rec, struct lk_line *line)
{
	lk_line_release(line);
	lk_strvec_release(&rec->linker_argv);
	free(rec->prov);
	lk_args_release(&rec->args);
}

static void test_line_options_parsed_once(void **state)
{
	/* Every spelling ld takes: one dash or two, NAME=V, NAME V, -zKEYWORD. */
	static const char *const linker[] = {
		"ld", "--copy-dt-needed-entries", "-z", "muldefs", "--version-script=v.map",
		"-add-needed", "--allow-multiple-definition", "-z", "now", "--as-needed",
		"--version-script", "w.map", "-zdefs", "-no-undefined", "-z=undefs",
		"--entry=go", "-e", "start", "--unresolved-symbols=ignore-all",
		"-u", "sym", "--require-defined=req", "-export-dynamic", "-E", "-Bshareable",
		"--pic-executable", "-entry",
	};
	static const struct { enum lk_ld_option id; const char *value; } want[] = {
		{ LK_LD_COPY_DT_NEEDED, NULL }, { LK_LD_MULDEFS, "muldefs" },
		{ LK_LD_VERSION_SCRIPT, "v.map" }, { LK_LD_COPY_DT_NEEDED, NULL },
		{ LK_LD_MULDEFS, NULL }, { LK_LD_OTHER, NULL }, { LK_LD_OTHER, NULL },
		{ LK_LD_VERSION_SCRIPT, "w.map" }, { LK_LD_NO_UNDEFINED, "defs" },
		{ LK_LD_NO_UNDEFINED, NULL }, { LK_LD_UNDEFS, "undefs" }, { LK_LD_ENTRY, "go" },
		{ LK_LD_ENTRY, "start" },
		{ LK_LD_UNRESOLVED_SYMBOLS, "ignore-all" }, { LK_LD_UNDEFINED, "sym" },
		{ LK_LD_REQUIRE_DEFINED, "req" }, { LK_LD_EXPORT_DYNAMIC, NULL },
		{ LK_LD_EXPORT_DYNAMIC, NULL }, { LK_LD_SHARED, NULL }, { LK_LD_PIE, NULL },
		/* -entry without its value, last: not an entry (before another word, that word is its value, as in ld) */
		{ LK_LD_OTHER, NULL },
	};
	struct lk_record rec;
	struct lk_line line;

	(void)state;
	build(linker, sizeof(linker) / sizeof(*linker), &rec, &line);
	assert_int_equal(line.items.nr, sizeof(want) / sizeof(*want));
	for (size_t i = 0; i < line.items.nr; i++) {
		const struct lk_line_item *it = &line.items.items[i];

		assert_int_equal(it->kind, LK_ITEM_OPTION);
		if (it->ld_option != want[i].id)
			fail_msg("item %zu '%s': %d, want %d", i, it->word, (int)it->ld_option, (int)want[i].id);
		if (want[i].value && (!it->ld_value || strcmp(it->ld_value, want[i].value)))
			fail_msg("item %zu '%s': value '%s', want '%s'", i, it->word,
				 it->ld_value ? it->ld_value : "(null)", want[i].value);
	}
	/* The line-wide facts come from the same parse. */
	assert_true(line.facts & LK_LINE_SHARED);
	assert_true(line.facts & LK_LINE_PIE);
	assert_true(line.facts & LK_LINE_NO_UNDEFINED);
	line_free(&rec, &line);
}

/* The link-wide rules read the parsed options in order, as ld/lexsup.c does. */
static void test_line_options_policy(void **state)
{
	static const char *const shared_defs[] = { "ld", "-z", "defs", "-shared", "--gc-sections", "-e", "go" };
	static const char *const undefs_last[] = { "ld", "--no-undefined", "-zundefs", "-u", "a",
						   "--require-defined", "b", "-no-gc-sections" };
	struct lk_policy p;
	struct lk_record rec;
	struct lk_line line;

	(void)state;
	build(shared_defs, sizeof(shared_defs) / sizeof(*shared_defs), &rec, &line);
	lk_policy_read(&line, &p);
	assert_true(p.report_objects);	/* -z defs before -shared still reports */
	assert_false(p.report_shlibs);
	assert_true(p.gc_sections);
	assert_string_equal(p.entry, "go");
	lk_policy_release(&p);
	line_free(&rec, &line);

	build(undefs_last, sizeof(undefs_last) / sizeof(*undefs_last), &rec, &line);
	lk_policy_read(&line, &p);
	assert_false(p.report_objects);	/* the last of --no-undefined and -z undefs wins */
	assert_false(p.gc_sections);
	assert_int_equal(p.undefined.nr, 2);
	assert_int_equal(p.required.nr, 1);
	assert_string_equal(p.required.items[0], "b");
	assert_string_equal(p.entry, "_start");
	lk_policy_release(&p);
	line_free(&rec, &line);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_options_parsed_once),
		cmocka_unit_test(test_line_options_policy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
