/*
 * The replay: the symbol table's precedence rules on hand-built symbols,
 * then small lines of objects and archives compiled here, replayed, and
 * edited in an overlay that leaves the line as it was.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf.h"
#include "line.h"
#include "linkscope/record.h"
#include "replay.h"
#include "testline.h"
#include "linkscope/vec.h"
#include "explain.h"
#include "symtab.h"
#include "testdir.h"

/* ---- the symbol table, hand-built ---- */

static struct lk_elf_sym def(const char *name)
{
	struct lk_elf_sym y;

	memset(&y, 0, sizeof(y));
	y.name = (char *)name;
	y.defined = 1;
	return y;
}

static struct lk_elf_sym ref(const char *name)
{
	struct lk_elf_sym y;

	memset(&y, 0, sizeof(y));
	y.name = (char *)name;
	return y;
}

static void test_symtab_strong_over_weak_and_shared(void **state)
{
	struct lk_symtab *t = lk_symtab_new();
	struct lk_sym *s = lk_symtab_intern(t, "f");
	struct lk_elf_sym weak = def("f"), strong = def("f"), other = def("f");

	(void)state;
	weak.weak = 1;
	assert_int_equal(lk_symtab_add_regular(t, s, &weak, 0, 0), LK_SYM_DEFINED);
	assert_true(s->weak_def);
	/* A strong definition overrides a weak one, and keeps its input. */
	assert_int_equal(lk_symtab_add_regular(t, s, &strong, 1, 0), LK_SYM_DEFINED);
	assert_false(s->weak_def);
	assert_int_equal(s->def_input, 1);
	/* A weak one after a strong one loses. */
	assert_int_equal(lk_symtab_add_regular(t, s, &weak, 2, 0), LK_SYM_KEPT);
	assert_int_equal(s->def_input, 1);
	/* Two strong regular definitions: ld's multiple definition; the first stays. */
	assert_int_equal(lk_symtab_add_regular(t, s, &other, 3, 0), LK_SYM_MULTIPLE);
	assert_int_equal(s->def_input, 1);
	/* ... unless --allow-multiple-definition: then the first one wins quietly. */
	assert_int_equal(lk_symtab_add_regular(t, s, &other, 4, LK_RULE_ALLOW_MULTIPLE), LK_SYM_KEPT);
	assert_int_equal(s->def_input, 1);
	/* A shared definition is overridden by a regular one. */
	s = lk_symtab_intern(t, "g");
	s->defined = s->dynamic = 1;
	s->def_input = 7;
	s->version = lk_symtab_strdup(t, "V1");
	assert_int_equal(lk_symtab_add_regular(t, s, &strong, 8, 0), LK_SYM_DEFINED);
	assert_false(s->dynamic);
	assert_null(s->version);
	assert_int_equal(s->def_input, 8);
	lk_symtab_free(t);
}

static void test_symtab_common_and_mergeable(void **state)
{
	struct lk_symtab *t = lk_symtab_new();
	struct lk_sym *s = lk_symtab_intern(t, "c");
	struct lk_elf_sym common = def("c"), data = def("c"), unique = def("u");

	(void)state;
	common.common = 1;
	assert_int_equal(lk_symtab_add_regular(t, s, &common, 0, 0), LK_SYM_DEFINED);
	assert_true(s->common);
	assert_true(s->weak_def);	/* a common yields to a real definition */
	assert_int_equal(lk_symtab_add_regular(t, s, &data, 1, 0), LK_SYM_DEFINED);
	assert_false(s->common);
	/* A common after a real definition is no second definition. */
	assert_int_equal(lk_symtab_add_regular(t, s, &common, 2, 0), LK_SYM_KEPT);
	/* COMDAT / STB_GNU_UNIQUE copies are fine in many objects. */
	unique.mergeable = 1;
	s = lk_symtab_intern(t, "u");
	assert_int_equal(lk_symtab_add_regular(t, s, &unique, 0, 0), LK_SYM_DEFINED);
	assert_int_equal(lk_symtab_add_regular(t, s, &unique, 1, 0), LK_SYM_KEPT);
	lk_symtab_free(t);
}

static void test_symtab_references(void **state)
{
	struct lk_symtab *t = lk_symtab_new();
	struct lk_sym *s = lk_symtab_intern(t, "r");
	struct lk_elf_sym weak = ref("r"), strong = ref("r");
	const struct lk_symref *x;

	(void)state;
	weak.weak = 1;
	assert_int_equal(lk_symtab_add_regular(t, s, &weak, 0, 0), LK_SYM_REFERENCED);
	assert_false(s->ref_regular_strong);
	assert_int_equal(s->first_ref, -1);	/* a weak reference is no strong one */
	assert_int_equal(lk_symtab_add_regular(t, s, &strong, 1, 0), LK_SYM_REFERENCED);
	assert_int_equal(lk_symtab_add_regular(t, s, &strong, 2, 0), LK_SYM_REFERENCED);
	assert_true(s->ref_regular_strong);
	assert_int_equal(s->first_ref, 1);
	/* Every reference, in reading order. */
	assert_int_equal(s->nrefs, 3);
	x = s->refs;
	assert_int_equal(x->input, 0);
	assert_int_equal(x->next->input, 1);
	assert_int_equal(x->next->next->input, 2);
	assert_null(x->next->next->next);
	/* A counterfactual leaves out references to the entries it marks. */
	s = lk_symtab_intern(t, "gone");
	s->unref = 1;
	strong.name = (char *)"gone";
	assert_int_equal(lk_symtab_add_regular(t, s, &strong, 3, LK_RULE_UNREF), LK_SYM_UNREF_SKIPPED);
	assert_int_equal(s->nrefs, 0);
	assert_false(s->ref_regular_strong);
	assert_int_equal(lk_symtab_add_regular(t, s, &strong, 4, 0), LK_SYM_REFERENCED);
	assert_int_equal(s->first_ref, 4);
	lk_symtab_free(t);
}

static void test_symtab_grows_and_walks(void **state)
{
	struct lk_symtab *t = lk_symtab_new();
	enum { N = 20000 };	/* several doublings past the first capacity */
	char name[32];
	size_t cursor = 0, seen = 0;
	struct lk_sym *s;

	(void)state;
	assert_null(lk_symtab_lookup(t, "none"));
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "sym%d", i);
		s = lk_symtab_intern(t, name);
		assert_int_equal(s->def_input, -1);
		assert_int_equal(s->armap_item, -1);
		s->def_input = i;
	}
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "sym%d", i);
		s = lk_symtab_lookup(t, name);
		assert_non_null(s);
		assert_int_equal(s->def_input, i);
		/* Interning again finds the same entry. */
		assert_ptr_equal(lk_symtab_intern(t, name), s);
	}
	while ((s = lk_symtab_next(t, &cursor)))
		seen++;
	assert_int_equal(seen, N);
	assert_null(lk_symtab_lookup(t, "sym20000"));
	lk_symtab_free(t);
	lk_symtab_free(NULL);
}

/* ---- small lines, compiled here ---- */

#define FILL "printf 'int foo(void) { return 1; }\\n' > foo.c && cc -c foo.c && " \
	     "ar rcs libfoo.a foo.o && " \
	     "printf 'int foo(void);\\nint main(void) { return foo(); }\\n' > main.c && cc -c main.c && " \
	     "printf 'int x = 1;\\n' > a.c && cp a.c b.c && cc -c a.c b.c"

static const struct lk_diag *diag_of(const struct lk_replay *r, enum lk_diag_kind kind, const char *symbol)
{
	for (size_t i = 0; i < r->diags.nr; i++)
		if (r->diags.items[i].kind == kind && !strcmp(r->diags.items[i].symbol, symbol))
			return &r->diags.items[i];
	return NULL;
}

static void test_replay_archive_order(void **state)
{
	struct lk_record rec;
	struct lk_line good, bad;
	struct lk_replay r;
	struct lk_err err = LK_ERR_INIT;
	const struct lk_diag *d;
	char dir[64];

	(void)state;
	memset(&rec, 0, sizeof(rec));
	memset(&good, 0, sizeof(good));
	memset(&bad, 0, sizeof(bad));
	test_dir_make(dir, sizeof(dir), "lk-replay", FILL);
	/* main.o then libfoo.a: the archive's member is pulled for foo. */
	add_file(&good, dir, "main.o");
	add_file(&good, dir, "libfoo.a");
	assert_int_equal(lk_replay_run(&rec, &good, 0, &r, &err), 0);
	assert_true(r.success);
	assert_int_equal(r.inputs.nr, 2);
	assert_string_equal(r.inputs.items[1].member, "foo.o");
	assert_string_equal(r.inputs.items[1].pulled_for, "foo");
	lk_replay_release(&r);
	/* libfoo.a then main.o: ld does not go back to the archive. */
	add_file(&bad, dir, "libfoo.a");
	add_file(&bad, dir, "main.o");
	assert_int_equal(lk_replay_run(&rec, &bad, 0, &r, &err), 0);
	lk_explain_diags(&r, &bad);
	assert_false(r.success);
	d = diag_of(&r, LK_DIAG_UNDEFINED, "foo");
	assert_non_null(d);
	assert_int_equal(r.inputs.items[d->ref_input].item, 1);
	assert_non_null(d->defined_path);
	assert_non_null(strstr(d->defined_path, "libfoo.a"));
	assert_true(d->explanation.nr >= 2);
	assert_non_null(strstr(d->explanation.items[1], "ordering:"));
	lk_explain_release(&r);
	lk_replay_release(&r);
	lk_line_release(&good);
	lk_line_release(&bad);
	test_dir_remove(dir);
}

static void test_replay_multiple_definition(void **state)
{
	struct lk_record rec;
	struct lk_line line;
	struct lk_replay r;
	struct lk_err err = LK_ERR_INIT;
	const struct lk_diag *d;
	char dir[64];

	(void)state;
	memset(&rec, 0, sizeof(rec));
	memset(&line, 0, sizeof(line));
	test_dir_make(dir, sizeof(dir), "lk-replay", FILL);
	add_file(&line, dir, "a.o");
	add_file(&line, dir, "b.o");
	assert_int_equal(lk_replay_run(&rec, &line, 0, &r, &err), 0);
	lk_explain_diags(&r, &line);
	assert_false(r.success);
	d = diag_of(&r, LK_DIAG_MULTIPLE, "x");
	assert_non_null(d);
	assert_int_equal(d->def_input, 0);
	assert_int_equal(d->ref_input, 1);
	assert_int_equal(d->explanation.nr, 2);
	lk_explain_release(&r);
	lk_replay_release(&r);
	lk_line_release(&line);
	test_dir_remove(dir);
}

/* An edit appends the archive again: the replay succeeds, and the line is as it was. */
static void test_replay_edit_overlay(void **state)
{
	struct lk_record rec;
	struct lk_line line;
	struct lk_replay r;
	struct lk_strvec words = LK_STRVEC_INIT;
	struct lk_replay_edit edit = { -1, 0, NULL, -1, &words, 0, 0, 0 };
	struct lk_strvec why = LK_STRVEC_INIT;
	struct lk_err err = LK_ERR_INIT;
	char dir[64], archive[128];
	struct lk_line_item *items;

	(void)state;
	memset(&rec, 0, sizeof(rec));
	memset(&line, 0, sizeof(line));
	test_dir_make(dir, sizeof(dir), "lk-replay", FILL);
	add_file(&line, dir, "libfoo.a");
	add_file(&line, dir, "main.o");
	snprintf(archive, sizeof(archive), "%s/libfoo.a", dir);
	lk_strvec_push(&words, archive);
	items = line.items.items;
	lk_replay_edited(&rec, &line, &edit, &r);
	assert_true(r.success);
	assert_int_equal(line.items.nr, 2);
	assert_ptr_equal(line.items.items, items);
	/* The member came from the appended item, past the line's own. */
	assert_int_equal(r.inputs.items[r.inputs.nr - 1].item, 2);
	lk_replay_release(&r);
	assert_int_equal(lk_replay_outcome(&rec, &line, archive, -1), 1);
	assert_int_equal(lk_replay_outcome(&rec, &line, NULL, -1), 0);
	/* Skipping main.o (position 2) leaves nothing undefined. */
	assert_int_equal(lk_replay_outcome(&rec, &line, NULL, 2), 1);
	assert_int_equal(line.items.nr, 2);
	/* why, from what the replay of the line as it is kept. */
	assert_int_equal(lk_replay_run(&rec, &line, 0, &r, &err), 0);
	lk_explain_why(&r, &line, "foo", &why);
	assert_int_equal(why.nr, 2);
	assert_non_null(strstr(why.items[0], "main.o at 2 references it"));
	assert_string_equal(why.items[1], "nothing the replay read defines foo");
	lk_strvec_release(&why);
	lk_replay_release(&r);
	lk_strvec_release(&words);
	lk_line_release(&line);
	test_dir_remove(dir);
}

/* Shared objects: one with only an old version of foo, one that --as-needed drops. */
#define FILL_DSO "printf 'int foo_old(void) { return 1; }\\n__asm__(\".symver foo_old,foo@V1\");\\n' > v.c && " \
		 "printf 'V1 { global: *; };\\n' > v.map && " \
		 "cc -shared -fPIC -Wl,--version-script=v.map -Wl,-soname,libv.so v.c -o libv.so && " \
		 "printf 'int foo(void) { return 1; }\\n' > foo.c && " \
		 "cc -shared -fPIC -Wl,-soname,libfoo.so foo.c -o libfoo.so && " \
		 "printf 'int foo(void);\\nint main(void) { return foo(); }\\n' > main.c && cc -c main.c"

/* What the explanations say comes from what the replay kept, not from the files read again. */
static void test_replay_keeps_what_explanations_need(void **state)
{
	struct lk_record rec;
	struct lk_line line;
	struct lk_replay r;
	struct lk_err err = LK_ERR_INIT;
	struct lk_strvec why = LK_STRVEC_INIT;
	const struct lk_diag *d;
	char dir[64];
	int old = 0, dropped = 0;

	(void)state;
	memset(&rec, 0, sizeof(rec));
	memset(&line, 0, sizeof(line));
	test_dir_make(dir, sizeof(dir), "lk-replay", FILL_DSO);
	add_file(&line, dir, "libfoo.so")->state = LK_ST_AS_NEEDED;
	add_file(&line, dir, "libv.so");
	add_file(&line, dir, "main.o");
	assert_int_equal(line.items.items[0].info.kind, LK_FILE_SHARED);
	assert_int_equal(lk_replay_run(&rec, &line, 0, &r, &err), 0);
	/* libfoo.so is dropped (nothing referenced foo yet); libv.so has only foo@V1. */
	assert_true(r.inputs.items[0].dropped);
	assert_true(r.inputs.items[0].dropped_defs.nr >= 1);
	assert_false(r.inputs.items[1].dropped);
	assert_int_equal(r.inputs.items[1].old_defs.nr, 1);
	assert_string_equal(r.inputs.items[1].old_defs.items[0].name, "foo");
	assert_string_equal(r.inputs.items[1].old_defs.items[0].version, "V1");
	d = diag_of(&r, LK_DIAG_UNDEFINED, "foo");
	assert_non_null(d);
	/* The files are gone: the explanations and why still know. */
	test_dir_remove(dir);
	lk_explain_diags(&r, &line);
	for (size_t i = 0; i < d->explanation.nr; i++)
		old += strstr(d->explanation.items[i], "libv.so has only foo@V1, an old version") != NULL;
	assert_int_equal(old, 1);
	lk_explain_why(&r, &line, "foo", &why);
	for (size_t i = 0; i < why.nr; i++)
		dropped += strstr(why.items[i], "libfoo.so at 1 defines it too, but was dropped") != NULL;
	assert_int_equal(dropped, 1);
	lk_strvec_release(&why);
	lk_explain_release(&r);
	lk_replay_release(&r);
	lk_line_release(&line);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symtab_strong_over_weak_and_shared),
		cmocka_unit_test(test_symtab_common_and_mergeable),
		cmocka_unit_test(test_symtab_references),
		cmocka_unit_test(test_symtab_grows_and_walks),
		cmocka_unit_test(test_replay_archive_order),
		cmocka_unit_test(test_replay_multiple_definition),
		cmocka_unit_test(test_replay_edit_overlay),
		cmocka_unit_test(test_replay_keeps_what_explanations_need),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
