/*
 * The driver's view reused per profile: the model of the link's own words
 * (view.c), the template a probe teaches, and the cache entry's format
 * (viewcache.c). The probe and fresh outputs are gcc 12's (Debian 12), as
 * printed for the lines below.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"
#include "viewcache.h"
#include "linkscope/expansion.h"

#define COLLECT2 "/usr/lib/gcc/x86_64-linux-gnu/12/collect2"
#define HEAD " " COLLECT2 " -plugin /usr/lib/gcc/x86_64-linux-gnu/12/liblto_plugin.so " \
	"\"-plugin-opt=-fresolution=/tmp/%s.res\" --build-id -m elf_x86_64 -pie "
#define CRT "/usr/lib/gcc/x86_64-linux-gnu/12/../../../x86_64-linux-gnu/Scrt1.o "
#define DEFDIRS "-L/usr/lib/gcc/x86_64-linux-gnu/12 -L/lib/x86_64-linux-gnu "
#define TAIL " -lgcc --push-state --as-needed -lgcc_s --pop-state -lc crtendS.o\n"

static void line_of(struct lk_view_line *l, const char *const *words, int cxx)
{
	lk_view_line_read(l, (char *const *)words, cxx);
}

static void expansion_of(struct lk_expansion *exp, const char *text)
{
	memset(exp, 0, sizeof(*exp));
	lk_expansion_parse(text, exp);
	exp->done = 1;
	exp->linker_program = strdup("ld");
}

/* What gcc 12 prints for the line: -o OUT first of the user's words, then the -L, then the inputs. */
static char *gcc12_text(const char *temp, const char *out, const char *libdirs, const char *inputs)
{
	char *text;

	if (asprintf(&text, "LIBRARY_PATH=/usr/lib/gcc/x86_64-linux-gnu/12/:/lib/\n" HEAD "%s%s%s" CRT
		     "%s" DEFDIRS "%s" TAIL, temp, out ? "-o " : "", out ? out : "", out ? " " : "",
		     libdirs, inputs) < 0)
		abort();
	return text;
}

static void test_view_line_own_words(void **state)
{
	static const char *const argv[] = { "cc", "-O2", "main.o", "-o", "app", "-L/x", "-L", "y",
		"-lfoo", "-l", "bar", "-Wl,a,,b", "-Xlinker", "c", "x.a", "-pie", NULL };
	struct lk_view_line l;

	(void)state;
	line_of(&l, argv, 0);
	assert_null(l.unmodelled);
	assert_string_equal(l.output, "app");
	assert_int_equal(l.libdirs.nr, 2);
	assert_string_equal(l.libdirs.items[1], "-Ly");
	assert_int_equal(l.infiles.nr, 8);
	assert_string_equal(l.infiles.items[0], "main.o");
	assert_string_equal(l.infiles.items[2], "-lbar");
	assert_string_equal(l.infiles.items[4], "");
	assert_string_equal(l.infiles.items[7], "x.a");
	/* The probe: the profile's words, an input marker where the link has an input after one. */
	assert_string_equal(l.probe.items[2], "-O2");
	assert_string_equal(l.probe.items[3], "lk-view-slot-i1.o");
	assert_string_equal(l.probe.items[4], "-pie");
	lk_view_line_release(&l);
}

static void test_view_line_unmodelled(void **state)
{
	static const char *const lines[][6] = {
		{ "cc", "main.c", "-o", "a", NULL },
		{ "cc", "-x", "c", "main.o", NULL },
		{ "cc", "-specs=x.specs", "main.o", NULL },
		{ "cc", "--output", "a", "main.o", NULL },
		{ "cc", "@args", NULL },
		{ "cc", "main.o", "-Wl,-soname,a\nb", NULL },
		{ "cc", "main.o", "-oapp", NULL },
		{ "cc", "main.o", "-o", "a", "-o", NULL },
		{ "cc", "-o", "a", "-L/x", NULL },
		{ "cc", "main.o", "libtool.la", NULL },
		{ "cc", "main.o", "-l", NULL },
		{ "cc", "main.o", "-save-temps", NULL },
		{ "cc", "-", NULL },
	};
	static const char *const gxx_libm[] = { "g++", "main.o", "-lm", NULL };
	static const char *const gxx_libc[] = { "g++", "main.o", "-l", "c", NULL };
	struct lk_view_line l;

	(void)state;
	for (size_t i = 0; i < sizeof(lines) / sizeof(*lines); i++) {
		line_of(&l, lines[i], 0);
		if (!l.unmodelled)
			fail_msg("line %zu is modelled", i);
		lk_view_line_release(&l);
	}
	line_of(&l, gxx_libm, 1);
	assert_non_null(l.unmodelled);
	lk_view_line_release(&l);
	line_of(&l, gxx_libc, 1);
	assert_non_null(l.unmodelled);
	lk_view_line_release(&l);
	/* The C driver leaves -lm and -lc in place. */
	line_of(&l, gxx_libm, 0);
	assert_null(l.unmodelled);
	lk_view_line_release(&l);
}

/* The probe's line, read from its own words. */
static void probe_line_of(const struct lk_view_line *link, struct lk_view_line *probe, int cxx)
{
	const char **argv = calloc(link->probe.nr + 2, sizeof(*argv));

	argv[0] = "cc";
	for (size_t i = 0; i < link->probe.nr; i++)
		argv[i + 1] = link->probe.items[i];
	lk_view_line_read(probe, (char *const *)argv, cxx);
	free(argv);
}

struct learnt {
	struct lk_view_line link, probe_line;
	struct lk_expansion probe, fresh;
	struct lk_view_template t;
};

static const char probe_inputs[] = "lk-view-slot-i0 lk-view-slot-ia \"\" lk-view-slot-ib lk-view-slot-ix "
	"-llk-view-slot-ls -llk-view-slot-lj lk-view-slot-iz";
static const char probe_dirs[] = "-L/lk-view-slot-l0 -L/lk-view-slot-l1 ";

static int learn_from(struct learnt *x, const char *probe_text, const char *fresh_text,
		      const char **why)
{
	static const char *const argv[] = { "cc", "main.o", "-o", "app", "-L/x", "-lfoo", NULL };

	line_of(&x->link, argv, 0);
	probe_line_of(&x->link, &x->probe_line, 0);
	expansion_of(&x->probe, probe_text);
	expansion_of(&x->fresh, fresh_text);
	return lk_view_learn(&x->probe, &x->probe_line, &x->fresh, &x->link, &x->t, why);
}

static void learnt_release(struct learnt *x)
{
	lk_view_line_release(&x->link);
	lk_view_line_release(&x->probe_line);
	lk_expansion_release(&x->probe);
	lk_expansion_release(&x->fresh);
	lk_view_template_release(&x->t);
}

static void test_view_learn_and_reuse(void **state)
{
	static const char *const other[] = { "cc", "b.o", "c.o", "-L", "/y", "-L/z", "-o", "prog",
		"-Wl,--as-needed", "-lbar", NULL };
	char *probe = gcc12_text("ccAAAAAA", "lk-view-slot-o", probe_dirs, probe_inputs);
	char *fresh = gcc12_text("ccBBBBBB", "app", "-L/x ", "main.o -lfoo");
	char *want = gcc12_text("ccCCCCCC", "prog", "-L/y -L/z ", "b.o c.o --as-needed -lbar");
	struct lk_view_line l;
	struct lk_expansion got, expect;
	struct lk_buf diff = LK_BUF_INIT;
	struct learnt x;
	const char *why;

	(void)state;
	assert_int_equal(learn_from(&x, probe, fresh, &why), 0);
	assert_null(why);
	/* gcc's temporary name is a slot of its own. */
	assert_int_equal(x.t.cmds.items[0].items[3].kind, LK_VIEW_TEMP);
	/* Another line of the profile: its words in their places, a new temporary name. */
	line_of(&l, other, 0);
	memset(&got, 0, sizeof(got));
	lk_view_expand(&x.t, &l, &got);
	expansion_of(&expect, want);
	assert_true(lk_view_matches(&x.t, &l, &expect, &diff));
	assert_int_equal(got.commands.items[0].nr, expect.commands.items[0].nr);
	for (size_t i = 0; i < got.commands.items[0].nr; i++)
		if (i != 3)
			assert_string_equal(got.commands.items[0].items[i], expect.commands.items[0].items[i]);
	assert_string_not_equal(got.commands.items[0].items[3], "-plugin-opt=-fresolution=/tmp/ccAAAAAA.res");
	assert_int_equal(strlen(got.commands.items[0].items[3]),
			 strlen("-plugin-opt=-fresolution=/tmp/ccAAAAAA.res"));
	assert_string_equal(got.library_path, "/usr/lib/gcc/x86_64-linux-gnu/12/:/lib/");
	assert_string_equal(got.linker_program, "ld");
	/* A word of the profile that is not the fresh one's is a mismatch, named. */
	free(expect.commands.items[0].items[4]);
	expect.commands.items[0].items[4] = strdup("--build-id=sha1");
	assert_false(lk_view_matches(&x.t, &l, &expect, &diff));
	assert_string_equal(diff.buf, "commands[0][4]: '--build-id', fresh '--build-id=sha1'");
	lk_buf_release(&diff);
	lk_expansion_release(&got);
	lk_expansion_release(&expect);
	lk_view_line_release(&l);
	learnt_release(&x);
	free(probe);
	free(fresh);
	free(want);
}

/* A probe whose markers are not where the model puts them teaches nothing. */
static void test_view_learn_refuses(void **state)
{
	char *fresh = gcc12_text("ccBBBBBB", "app", "-L/x ", "main.o -lfoo");
	char *probes[] = {
		/* the -Wl, words not split: the translation is not gcc's */
		gcc12_text("ccAAAAAA", "lk-view-slot-o", probe_dirs,
			   "lk-view-slot-i0 lk-view-slot-ia,,lk-view-slot-ib lk-view-slot-ix "
			   "-llk-view-slot-ls -llk-view-slot-lj lk-view-slot-iz"),
		/* a profile word inside the inputs' place */
		gcc12_text("ccAAAAAA", "lk-view-slot-o", probe_dirs,
			   "lk-view-slot-i0 -lprofile lk-view-slot-ia \"\" lk-view-slot-ib lk-view-slot-ix "
			   "-llk-view-slot-ls -llk-view-slot-lj lk-view-slot-iz"),
		/* the output's name in another word too (-save-temps: app.res) */
		gcc12_text("lk-view-slot-o", "lk-view-slot-o", probe_dirs, probe_inputs),
		/* the -L markers apart */
		gcc12_text("ccAAAAAA", "lk-view-slot-o", "-L/lk-view-slot-l0 -L/p -L/lk-view-slot-l1 ",
			   probe_inputs),
	};
	struct learnt x;
	const char *why;

	(void)state;
	for (size_t i = 0; i < sizeof(probes) / sizeof(*probes); i++) {
		assert_int_equal(learn_from(&x, probes[i], fresh, &why), -1);
		assert_non_null(why);
		learnt_release(&x);
		free(probes[i]);
	}
	/* A template that does not give the link's own fresh view is refused too. */
	probes[0] = gcc12_text("ccAAAAAA", "lk-view-slot-o", probe_dirs, probe_inputs);
	free(fresh);
	fresh = gcc12_text("ccBBBBBB", "app", "-L/x ", "main.o -lfoo -lextra");
	assert_int_equal(learn_from(&x, probes[0], fresh, &why), -1);
	assert_string_equal(why, "the template does not give the link's own fresh view");
	learnt_release(&x);
	free(probes[0]);
	free(fresh);
}

static void key_of(struct lk_buf *key, const char *text)
{
	lk_buf_init(key);
	lk_buf_addstr(key, text);
}

static void test_viewcache_entry_round_trip(void **state)
{
	char *probe = gcc12_text("ccAAAAAA", "lk-view-slot-o", probe_dirs, probe_inputs);
	char *fresh = gcc12_text("ccBBBBBB", "app", "-L/x ", "main.o -lfoo");
	struct lk_buf key, key2, out = LK_BUF_INIT, again = LK_BUF_INIT;
	struct lk_view_template t;
	struct learnt x;
	const char *why;

	(void)state;
	key_of(&key, "the key\nof a profile");
	key_of(&key2, "the key\nof another");
	assert_int_equal(learn_from(&x, probe, fresh, &why), 0);
	x.t.created = 1700000000;
	lk_viewcache_write(&x.t, &key, &out);
	assert_int_equal(lk_viewcache_parse(out.buf, out.len, &key, &t), 0);
	assert_int_equal(t.created, 1700000000);
	assert_int_equal(t.cmds.nr, x.t.cmds.nr);
	lk_viewcache_write(&t, &key, &again);
	assert_int_equal(again.len, out.len);
	assert_memory_equal(again.buf, out.buf, out.len);
	lk_view_template_release(&t);
	/* Another profile's entry under this name is no entry. */
	assert_int_equal(lk_viewcache_parse(out.buf, out.len, &key2, &t), -1);
	/* Every truncation is no entry. */
	for (size_t n = 0; n < out.len; n++)
		assert_int_equal(lk_viewcache_parse(out.buf, n, &key, &t), -1);
	lk_buf_release(&again);
	lk_buf_release(&out);
	lk_buf_release(&key);
	lk_buf_release(&key2);
	learnt_release(&x);
	free(probe);
	free(fresh);
}

/* Entries that are not what lk_viewcache_write makes are refused, whole. */
static void test_viewcache_entry_refused(void **state)
{
	static const char *const bad[] = {
		/* trailing bytes */
		"linkscope-view/1\n1:k\n1:0\n4:none\n3:end\nx",
		/* a length past the end */
		"linkscope-view/1\n1:k\n1:0\n4:none\n99999999:end\n",
		/* a negative time */
		"linkscope-view/1\n1:k\n2:-1\n4:none\n3:end\n",
		/* no input slot in the linker command */
		"linkscope-view/1\n1:k\n1:0\n4:view\n1:0\n1:0\n1:!\n1:!\n3:=ld\n1:1\n1:2\n1:w\n8:collect2\n1:L\n3:end\n",
		/* a slot in a command that is not the linker's */
		"linkscope-view/1\n1:k\n1:0\n4:view\n1:0\n1:1\n1:!\n1:!\n3:=ld\n1:2\n1:1\n1:I\n"
		"1:2\n1:L\n1:I\n3:end\n",
		/* a word with a NUL */
		"linkscope-view/1\n1:k\n1:0\n4:view\n1:0\n1:0\n1:!\n1:!\n3:=ld\n1:1\n1:3\n1:w\n3:a\0b\n1:L\n1:I\n3:end\n",
		/* more commands than the bound */
		"linkscope-view/1\n1:k\n1:0\n4:view\n1:0\n1:0\n1:!\n1:!\n3:=ld\n5:99999\n3:end\n",
	};
	static const size_t nul_entry = 5;
	static const char good_none[] = "linkscope-view/1\n1:k\n1:0\n4:none\n3:end\n";
	static const char good_view[] = "linkscope-view/1\n1:k\n1:0\n4:view\n1:0\n1:0\n1:!\n1:!\n3:=ld\n"
		"1:1\n1:3\n1:w\n8:collect2\n1:L\n1:I\n3:end\n";
	struct lk_buf key;
	struct lk_view_template t;

	(void)state;
	key_of(&key, "k");
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		size_t len = strlen(bad[i]);

		if (i == nul_entry)
			len += strlen(bad[i] + len + 1) + 1;
		if (lk_viewcache_parse(bad[i], len, &key, &t) != -1)
			fail_msg("entry %zu was taken", i);
	}
	/* The same without the defects is an entry. */
	assert_int_equal(lk_viewcache_parse(good_none, strlen(good_none), &key, &t), 0);
	assert_true(t.negative);
	lk_view_template_release(&t);
	assert_int_equal(lk_viewcache_parse(good_view, strlen(good_view), &key, &t), 0);
	assert_string_equal(t.linker_program, "ld");
	lk_view_template_release(&t);
	lk_buf_release(&key);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_view_line_own_words),
		cmocka_unit_test(test_view_line_unmodelled),
		cmocka_unit_test(test_view_learn_and_reuse),
		cmocka_unit_test(test_view_learn_refuses),
		cmocka_unit_test(test_viewcache_entry_round_trip),
		cmocka_unit_test(test_viewcache_entry_refused),
	};
	return cmocka_run_group_tests_name("view", tests, NULL, NULL);
}
