/*
 * The pool of forked workers (common/pool.c), as report --failed uses it
 * (failcache.c): every item is done once and its answer reaches `done`
 * under its own number, whichever worker did it and whenever it finished;
 * the work runs in other processes at the same time; a worker that dies
 * (a signal, an exit) costs its own item only, which `done` is told of
 * with the reason, and the items after it are still done; with one worker
 * everything stays in this process; the progress line (common/progress.c)
 * is said only on a terminal, after its delay, and cleared.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "linkscope/buf.h"
#include "linkscope/pool.h"
#include "linkscope/progress.h"
#include "linkscope/vec.h"

#define ITEMS 12

/* What the test's work does for item i: answer, or die as told. */
struct run {
	long die_by_signal;	/* this item's worker kills itself; -1: none */
	long die_by_exit;	/* this item's worker exits 3; -1: none */
	int sleep_ms;		/* each item takes this long */
	char *answers[ITEMS];	/* done's: "item I pid P", or "died: WHY" */
	int calls[ITEMS];	/* how often done was called for each */
	struct meeting *meet;	/* items that wait for each other; NULL: none */
};

/*
 * A rendezvous in memory the workers share (the fork keeps a MAP_SHARED
 * mapping): each item counts itself in, then waits until `want` items
 * have, or 10 s (a hang guard, far above the milliseconds it takes).
 * Whether the workers run together is then a count, not a time.
 */
struct meeting {
	int want;
	int started;		/* items counted in, by any worker */
	int met[ITEMS];		/* 1: item i saw `want` items started */
};

static void meet(struct meeting *m, size_t i)
{
	struct timespec ms = { 0, 1000000 };

	__atomic_add_fetch(&m->started, 1, __ATOMIC_SEQ_CST);
	for (int k = 0; k < 10000; k++) {
		if (__atomic_load_n(&m->started, __ATOMIC_SEQ_CST) >= m->want) {
			m->met[i] = 1;
			return;
		}
		nanosleep(&ms, NULL);
	}
}

static void work(void *ctx, size_t i, struct lk_buf *out)
{
	struct run *r = ctx;
	struct timespec ts = { 0, (long)r->sleep_ms * 1000000 };

	if ((long)i == r->die_by_signal)
		raise(SIGKILL);
	if ((long)i == r->die_by_exit)
		_exit(3);
	if (r->meet)
		meet(r->meet, i);
	nanosleep(&ts, NULL);
	lk_buf_addf(out, "item %zu pid %ld", i, (long)getpid());
}

static void done(void *ctx, size_t i, const struct lk_buf *answer, const char *why)
{
	struct run *r = ctx;
	struct lk_buf b = LK_BUF_INIT;

	assert_true(i < ITEMS);
	assert_true((answer != NULL) != (why != NULL));
	if (answer)
		lk_buf_add(&b, answer->buf, answer->len);
	else
		lk_buf_addf(&b, "died: %s", why);
	free(r->answers[i]);
	r->answers[i] = lk_buf_detach(&b);
	r->calls[i]++;
}

static void run_pool(struct run *r, unsigned workers)
{
	struct lk_pool_task t = { ITEMS, workers, work, done, r };

	lk_pool_run(&t);
}

static void release(struct run *r)
{
	for (size_t i = 0; i < ITEMS; i++)
		free(r->answers[i]);
}

/* "item I pid P": P, after checking I. */
static long pid_of(const struct run *r, size_t i)
{
	size_t item;
	long pid;

	assert_non_null(r->answers[i]);
	assert_int_equal(sscanf(r->answers[i], "item %zu pid %ld", &item, &pid), 2);
	assert_int_equal(item, i);
	return pid;
}

static void test_pool_each_answer_in_its_place(void **state)
{
	struct run r = { -1, -1, 0, { 0 }, { 0 }, NULL };
	long pids[ITEMS];
	size_t distinct = 0;

	(void)state;
	run_pool(&r, 3);
	for (size_t i = 0; i < ITEMS; i++) {
		assert_int_equal(r.calls[i], 1);
		pids[i] = pid_of(&r, i);
		assert_true(pids[i] != (long)getpid());
		for (size_t k = 0; k <= i; k++)
			if (pids[k] == pids[i]) {
				distinct += k == i;
				break;
			}
	}
	/* The first three items go to three workers at once. */
	assert_int_equal(distinct, 3);
	release(&r);
}

static void test_pool_workers_run_together(void **state)
{
	struct meeting *m = mmap(NULL, sizeof(*m), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct run r = { -1, -1, 0, { 0 }, { 0 }, NULL };

	(void)state;
	assert_true(m != MAP_FAILED);
	memset(m, 0, sizeof(*m));
	m->want = 4;
	r.meet = m;
	run_pool(&r, 4);
	/* Four workers: the first four items were under way at once, each saw the others start. */
	for (size_t i = 0; i < ITEMS; i++) {
		assert_int_equal(m->met[i], 1);
		pid_of(&r, i);
	}
	assert_int_equal(m->started, ITEMS);
	release(&r);
	munmap(m, sizeof(*m));
}

static void test_pool_dead_worker_costs_its_item(void **state)
{
	struct run r = { 4, 9, 0, { 0 }, { 0 }, NULL };

	(void)state;
	run_pool(&r, 2);
	for (size_t i = 0; i < ITEMS; i++) {
		assert_int_equal(r.calls[i], 1);
		if (i == 4)
			assert_string_equal(r.answers[i], "died: its worker process was killed by signal 9");
		else if (i == 9)
			assert_string_equal(r.answers[i],
					    "died: its worker process exited with status 3 without an answer");
		else
			pid_of(&r, i);
	}
	release(&r);
}

static void test_pool_one_worker_is_this_process(void **state)
{
	struct run r = { -1, -1, 0, { 0 }, { 0 }, NULL };

	(void)state;
	run_pool(&r, 1);
	for (size_t i = 0; i < ITEMS; i++)
		assert_int_equal(pid_of(&r, i), (long)getpid());
	release(&r);
}

/* The progress line into a temporary file standing for the terminal: what it got. */
static char *progress_text(FILE *tty, long delay_ms)
{
	struct lk_progress p;
	struct lk_buf b = LK_BUF_INIT;
	char chunk[256];
	size_t n;

	lk_progress_start(&p, tty, "analysing", "links", 3);
	p.delay_ms = delay_ms;
	for (size_t i = 1; i <= 3; i++)
		lk_progress_update(&p, i);
	lk_progress_end(&p);
	if (tty) {
		rewind(tty);
		while ((n = fread(chunk, 1, sizeof(chunk), tty)) > 0)
			lk_buf_add(&b, chunk, n);
	}
	return lk_buf_detach(&b);
}

static void test_progress_only_on_a_terminal_after_its_delay(void **state)
{
	FILE *tty = tmpfile();
	char *text;

	(void)state;
	assert_non_null(tty);
	text = progress_text(tty, 0);
	assert_string_equal(text, "\rlinkscope: analysing 1/3 links...\rlinkscope: analysing 2/3 links..."
				  "\rlinkscope: analysing 3/3 links...\r\033[K");
	free(text);
	fclose(tty);
	/* A short run says nothing; no terminal, nothing. */
	tty = tmpfile();
	assert_non_null(tty);
	text = progress_text(tty, 60000);
	assert_string_equal(text, "");
	free(text);
	fclose(tty);
	text = progress_text(NULL, 0);
	assert_string_equal(text, "");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool_each_answer_in_its_place),
		cmocka_unit_test(test_pool_workers_run_together),
		cmocka_unit_test(test_pool_dead_worker_costs_its_item),
		cmocka_unit_test(test_pool_one_worker_is_this_process),
		cmocka_unit_test(test_progress_only_on_a_terminal_after_its_delay),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
