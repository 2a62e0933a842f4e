/*
 * Verdicts made beside (analyzer/replay/beside.c): what a forked child
 * sends back is, field for field, what the same call makes in the parent
 * (texts that look like the encoding's own marks, empty ones, none,
 * several verdicts in one message); a child that dies sends nothing and
 * sets nothing; a child stopped leaves nothing behind.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linkscope/vec.h"
#include "rp.h"

/* A verdict with every field used, in texts the encoding must not mistake for its marks. */
static void tricky_verdicts(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out)
{
	struct lk_linker_verdict *lld = &out->linkers[LK_LINKER_LLD], *mold = &out->linkers[LK_LINKER_MOLD];

	(void)rec;
	(void)line;
	lld->success = 0;
	lld->version = lk_xstrdup("rust-lld (LLVM 22)");
	lk_strvec_push(&lld->why, "lld fails: undefined symbol: foo");
	lk_strvec_push(&lld->why, "");
	lk_strvec_push(&lld->why, "-");
	rp_linker_fix(lld, lk_xstrdup("+add -Wl,--allow-shlib-undefined"), "--allow-shlib-undefined", -1);
	rp_linker_fix(lld, lk_xstrdup("leave out -Wl,--foo"), NULL, 7);
	rp_linker_fix(lld, lk_xstrdup("reorder the archives"), NULL, -1);
	lld->edits.items[1].verified = 1;
	mold->success = 1;
	mold->version = lk_xstrdup("1.10");
	mold->unknown = lk_xstrdup("");
}

static void crash(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out)
{
	(void)rec;
	(void)line;
	(void)out;
	_exit(3);
}

static void assert_same_strvec(const struct lk_strvec *a, const struct lk_strvec *b)
{
	assert_int_equal(a->nr, b->nr);
	for (size_t i = 0; i < a->nr; i++)
		assert_string_equal(a->items[i], b->items[i]);
}

static void assert_same_opt(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

static void assert_same_verdict(const struct lk_linker_verdict *a, const struct lk_linker_verdict *b)
{
	assert_int_equal(a->success, b->success);
	assert_same_opt(a->version, b->version);
	assert_same_opt(a->unknown, b->unknown);
	assert_same_strvec(&a->why, &b->why);
	assert_same_strvec(&a->fixes, &b->fixes);
	assert_int_equal(a->edits.nr, b->edits.nr);
	for (size_t i = 0; i < a->edits.nr; i++) {
		assert_same_opt(a->edits.items[i].append, b->edits.items[i].append);
		assert_int_equal(a->edits.items[i].skip_position, b->edits.items[i].skip_position);
		assert_int_equal(a->edits.items[i].verified, b->edits.items[i].verified);
	}
}

/* The verdicts computed here, into `here`, and beside, for `which`; `there` empty to take them in. */
static int start_tricky(struct rp_beside *b, unsigned which, struct lk_replay *here, struct lk_replay *there)
{
	memset(here, 0, sizeof(*here));
	memset(there, 0, sizeof(*there));
	tricky_verdicts(NULL, NULL, here);
	return rp_beside_start(b, tricky_verdicts, which, NULL, NULL);
}

static void test_beside_sends_the_verdicts_whole(void **state)
{
	struct lk_replay here, there;
	struct rp_beside b;

	(void)state;
	if (!start_tricky(&b, 1u << LK_LINKER_LLD | 1u << LK_LINKER_MOLD, &here, &there)) {
		assert_true(sysconf(_SC_NPROCESSORS_ONLN) < 2);	/* only one core: nothing runs beside */
		assert_int_equal(rp_beside_finish(&b, &there), -1);
		skip();
	}
	assert_int_equal(rp_beside_finish(&b, &there), 0);
	assert_same_verdict(&here.linkers[LK_LINKER_LLD], &there.linkers[LK_LINKER_LLD]);
	assert_same_verdict(&here.linkers[LK_LINKER_MOLD], &there.linkers[LK_LINKER_MOLD]);
	assert_int_equal(there.lld_success, 0);
	assert_null(there.linkers[LK_LINKER_BFD].version);
	lk_replay_release(&here);
	lk_replay_release(&there);
}

static void test_beside_one_verdict(void **state)
{
	struct lk_replay here, there;
	struct rp_beside b;

	(void)state;
	if (!start_tricky(&b, 1u << LK_LINKER_MOLD, &here, &there))
		skip();
	assert_int_equal(rp_beside_finish(&b, &there), 0);
	assert_same_verdict(&here.linkers[LK_LINKER_MOLD], &there.linkers[LK_LINKER_MOLD]);
	assert_null(there.linkers[LK_LINKER_LLD].version);	/* not asked for: not sent */
	assert_int_equal(there.linkers[LK_LINKER_LLD].why.nr, 0);
	lk_replay_release(&here);
	lk_replay_release(&there);
}

/* A child that sent nothing whole sets nothing in the parent's replay. */
static void assert_no_verdict(const struct lk_replay *r)
{
	for (int l = 0; l < LK_LINKER_COUNT; l++) {
		assert_int_equal(r->linkers[l].success, 0);
		assert_null(r->linkers[l].version);
		assert_int_equal(r->linkers[l].fixes.nr, 0);
	}
}

static void test_beside_child_dies(void **state)
{
	struct lk_replay there;
	struct rp_beside b;

	(void)state;
	memset(&there, 0, sizeof(there));
	if (!rp_beside_start(&b, crash, 1u << LK_LINKER_LLD | 1u << LK_LINKER_MOLD, NULL, NULL))
		skip();
	assert_int_equal(rp_beside_finish(&b, &there), -1);
	assert_no_verdict(&there);
	assert_int_equal(b.pid, 0);
	lk_replay_release(&there);
}

static void test_beside_stopped(void **state)
{
	struct lk_replay there;
	struct rp_beside b;

	(void)state;
	memset(&there, 0, sizeof(there));
	if (!rp_beside_start(&b, tricky_verdicts, 1u << LK_LINKER_LLD, NULL, NULL))
		skip();
	rp_beside_cancel(&b);
	assert_int_equal(b.pid, 0);
	assert_int_equal(rp_beside_finish(&b, &there), -1);	/* nothing is left to join */
	rp_beside_cancel(&b);	/* and stopping twice is harmless */
	assert_no_verdict(&there);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_beside_sends_the_verdicts_whole),
		cmocka_unit_test(test_beside_one_verdict),
		cmocka_unit_test(test_beside_child_dies),
		cmocka_unit_test(test_beside_stopped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
