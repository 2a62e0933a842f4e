/*
 * Fix trials from a snapshot (analyzer/replay/trial.c): trials expected
 * together run together (the second worker starts before the first
 * replies); each answer goes to its own request, whatever the order they
 * are asked in or finish in; a worker that dies costs its own trial only,
 * which the fix stage then replays whole (edit.c); the server stops the
 * workers nobody asked for. Workers here are forks of this test that
 * answer from their words: NAME OUTCOME SLEEP_MS, or "die".
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "edit.h"
#include "line.h"
#include "linkscope/record.h"
#include "linkscope/vec.h"
#include "replay.h"
#include "testline.h"
#include "testdir.h"
#include "trial.h"

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A worker: "die" exits without a reply; else it sleeps, then replies OUTCOME with NAME, its start and its end. */
static _Noreturn void work(struct lk_trial_server *srv, const struct lk_strvec *words)
{
	struct lk_strvec left = LK_STRVEC_INIT;
	char start[32], end[32];

	if (!words->nr || !strcmp(words->items[0], "die"))
		_exit(3);
	snprintf(start, sizeof(start), "%lld", now_ms());
	usleep((useconds_t)atoi(words->items[2]) * 1000);
	snprintf(end, sizeof(end), "%lld", now_ms());
	lk_strvec_push(&left, words->items[0]);
	lk_strvec_push(&left, start);
	lk_strvec_push(&left, end);
	lk_trial_reply(srv, !strcmp(words->items[1], "1"), &left);
}

static void start_server(struct lk_trial_server *srv)
{
	struct lk_strvec words = LK_STRVEC_INIT;

	lk_trial_start(srv, &words);
	if (srv->worker)
		work(srv, &words);
	assert_true(srv->pid > 0);
}

static void trial_words(struct lk_strvec *w, const char *name, const char *outcome, const char *sleep_ms)
{
	memset(w, 0, sizeof(*w));
	lk_strvec_push(w, name);
	lk_strvec_push(w, outcome);
	lk_strvec_push(w, sleep_ms);
}

/* Asked: the outcome, and the worker's name, start and end in `left`. */
static int ask(struct lk_trial_server *srv, const struct lk_strvec *w, struct lk_strvec *left)
{
	memset(left, 0, sizeof(*left));
	return lk_trial_ask(srv, w, left);
}

/* One trial asked: its outcome `want`, and the first word its worker sent back, `first`. */
static void ask_is(struct lk_trial_server *srv, const struct lk_strvec *w, int want, const char *first)
{
	struct lk_strvec left;

	assert_int_equal(ask(srv, w, &left), want);
	assert_string_equal(left.items[0], first);
	lk_strvec_release(&left);
}

static void test_expected_trials_overlap(void **state)
{
	struct lk_trial_server srv;
	struct lk_strvec a, b, left_a, left_b;
	(void)state;
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		skip();	/* one CPU: one worker at a time */
	start_server(&srv);
	trial_words(&a, "a", "1", "300");
	trial_words(&b, "b", "0", "300");
	lk_trial_expect(&srv, &a);
	lk_trial_expect(&srv, &b);
	assert_int_equal(ask(&srv, &a, &left_a), 1);
	assert_int_equal(ask(&srv, &b, &left_b), 0);
	assert_int_equal(left_a.nr, 3);
	assert_int_equal(left_b.nr, 3);
	assert_string_equal(left_a.items[0], "a");
	assert_string_equal(left_b.items[0], "b");
	/* b's worker began before a's replied: they ran together. */
	assert_true(atoll(left_b.items[1]) < atoll(left_a.items[2]));
	lk_trial_stop(&srv);
	lk_strvec_release(&a);
	lk_strvec_release(&b);
	lk_strvec_release(&left_a);
	lk_strvec_release(&left_b);
}

/* The slow one asked first, the fast one first, and the same words twice: each ask its own answer. */
static void test_answers_matched_to_requests(void **state)
{
	struct lk_trial_server srv;
	struct lk_strvec slow, fast;

	(void)state;
	start_server(&srv);
	trial_words(&slow, "slow", "0", "200");
	trial_words(&fast, "fast", "1", "0");
	lk_trial_expect(&srv, &slow);
	lk_trial_expect(&srv, &fast);
	lk_trial_expect(&srv, &fast);
	ask_is(&srv, &fast, 1, "fast");
	ask_is(&srv, &slow, 0, "slow");
	ask_is(&srv, &fast, 1, "fast");
	/* Not expected: sent when asked. */
	ask_is(&srv, &slow, 0, "slow");
	lk_trial_stop(&srv);
	lk_strvec_release(&slow);
	lk_strvec_release(&fast);
}

/* A worker that dies: its trial is not tried (-1), and the next trials still run from the snapshot. */
static void test_dead_worker_costs_its_trial_only(void **state)
{
	struct lk_trial_server srv;
	struct lk_strvec die = LK_STRVEC_INIT, ok, left;

	(void)state;
	start_server(&srv);
	lk_strvec_push(&die, "die");
	trial_words(&ok, "ok", "1", "0");
	assert_int_equal(ask(&srv, &die, &left), -1);
	assert_int_equal(left.nr, 0);
	assert_int_equal(ask(&srv, &ok, &left), 1);
	assert_string_equal(left.items[0], "ok");
	lk_strvec_release(&left);
	lk_trial_expect(&srv, &die);
	lk_trial_expect(&srv, &ok);
	assert_int_equal(ask(&srv, &die, &left), -1);
	assert_int_equal(ask(&srv, &ok, &left), 1);
	lk_strvec_release(&left);
	lk_trial_stop(&srv);
	/* The server gone: nothing is tried. */
	assert_int_equal(ask(&srv, &ok, &left), -1);
	lk_strvec_release(&die);
	lk_strvec_release(&ok);
}

/* Trials expected and never asked for are stopped with the server, not waited for. */
static void test_stop_does_not_wait_for_unasked(void **state)
{
	struct lk_trial_server srv;
	struct lk_strvec w;
	long long t0;

	(void)state;
	start_server(&srv);
	trial_words(&w, "long", "1", "5000");
	lk_trial_expect(&srv, &w);
	lk_trial_expect(&srv, &w);
	lk_trial_expect(&srv, &w);
	usleep(100 * 1000);
	t0 = now_ms();
	lk_trial_stop(&srv);
	assert_true(now_ms() - t0 < 2000);
	assert_int_equal(srv.pid, 0);
	lk_strvec_release(&w);
}

/* ---- the fix stage's trials (edit.c) on a line compiled here ---- */

#define FILL "printf 'int foo(void) { return 1; }\\n' > foo.c && cc -c foo.c && " \
	     "ar rcs libfoo.a foo.o && " \
	     "printf 'int foo(void);\\nint main(void) { return foo(); }\\n' > main.c && cc -c main.c"

static int names(const struct lk_strvec *left, const char *what)
{
	for (size_t i = 0; i < left->nr; i++)
		if (!strcmp(left->items[i], what))
			return 1;
	return 0;
}

/*
 * libfoo.a then main.o fails; libfoo.a appended again links, main.o
 * appended again does not. From the
 * snapshot's workers (expected, then asked), and from the whole line
 * when the workers die (a server here whose workers all do).
 */
static void test_edit_trials_from_snapshot_and_fallback(void **state)
{
	struct lk_record rec;
	struct lk_line line;
	struct lk_replay r;
	struct lk_err err = LK_ERR_INIT;
	struct lk_edit again = { LK_EDIT_KIND_INSERT, 0, -1, LK_STRVEC_INIT, NULL, NULL, NULL, 0 };
	struct lk_edit main_again = { LK_EDIT_KIND_INSERT, 0, -1, LK_STRVEC_INIT, NULL, NULL, NULL, 0 };
	struct lk_strvec left = LK_STRVEC_INIT, none = LK_STRVEC_INIT;
	char dir[64], path[128];

	(void)state;
	memset(&rec, 0, sizeof(rec));
	memset(&line, 0, sizeof(line));
	test_dir_make(dir, sizeof(dir), "lk-trial", FILL);
	add_file(&line, dir, "libfoo.a");
	add_file(&line, dir, "main.o");
	snprintf(path, sizeof(path), "%s/libfoo.a", dir);
	lk_strvec_push(&again.words, path);
	snprintf(path, sizeof(path), "%s/main.o", dir);
	lk_strvec_push(&main_again.words, path);
	assert_int_equal(lk_replay_run(&rec, &line, LK_REPLAY_SNAPSHOT, &r, &err), 0);
	assert_false(r.success);
	assert_non_null(r.trials);
	assert_true(r.trials->pid > 0);
	lk_edit_expect(&r, &rec, &line, &again);
	lk_edit_expect(&r, &rec, &line, &main_again);
	assert_int_equal(r.trials->sent.nr, 2);
	assert_int_equal(lk_edit_try(&r, &rec, &line, &main_again, &left), 0);
	assert_true(names(&left, "undefined-symbol foo"));
	lk_strvec_release(&left);
	assert_int_equal(lk_edit_try(&r, &rec, &line, &again, &left), 1);
	assert_int_equal(r.trials->sent.nr, 0);
	/* Every worker dies: each trial replays the whole line, with the same outcomes. */
	lk_trial_stop(r.trials);
	lk_trial_start(r.trials, &none);
	if (r.trials->worker)
		_exit(3);
	assert_true(r.trials->pid > 0);
	lk_edit_expect(&r, &rec, &line, &again);
	assert_int_equal(lk_edit_try(&r, &rec, &line, &again, &left), 1);
	assert_int_equal(lk_edit_try(&r, &rec, &line, &main_again, &left), 0);
	assert_true(names(&left, "undefined-symbol foo"));
	assert_true(r.trials->pid > 0);	/* still there for the next */
	lk_strvec_release(&left);
	lk_edit_release(&again);
	lk_edit_release(&main_again);
	lk_replay_release(&r);
	lk_line_release(&line);
	test_dir_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expected_trials_overlap),
		cmocka_unit_test(test_answers_matched_to_requests),
		cmocka_unit_test(test_dead_worker_costs_its_trial_only),
		cmocka_unit_test(test_stop_does_not_wait_for_unasked),
		cmocka_unit_test(test_edit_trials_from_snapshot_and_fallback),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
