/*
 * The walls around the driver's runs (analyzer/model/sandbox.c): a program run
 * inside them writes only its scratch dir, reaches no network, and the
 * walls it went without are said. Where this machine's kernel does not
 * offer a wall, its check is skipped and the note is checked instead.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "linkscope/buf.h"
#include "linkscope/runcmd.h"
#include "sandbox.h"

struct dirs {
	char *scratch, *outside;
};

static int setup(void **state)
{
	struct dirs *d = calloc(1, sizeof(*d));

	d->scratch = lk_scratch_dir("lk-test-sandbox");
	d->outside = lk_scratch_dir("lk-test-outside");
	*state = d;
	return d->scratch && d->outside ? 0 : -1;
}

static int teardown(void **state)
{
	struct dirs *d = *state;

	lk_scratch_remove(d->scratch);
	lk_scratch_remove(d->outside);
	free(d->scratch);
	free(d->outside);
	free(d);
	return 0;
}

/* `script` run by /bin/sh inside the walls of `scratch`: its exit status, stdout+stderr in `out`. */
static int run_sh(const char *scratch, const char *script, struct lk_walls *walls, struct lk_buf *out)
{
	const char *const argv[] = { "sh", "-c", script, NULL };
	struct lk_runcmd cmd = { 0 };

	cmd.path = "/bin/sh";
	cmd.argv = argv;
	cmd.cwd = scratch;
	cmd.out = cmd.err = out;
	cmd.timeout_ms = 10000;
	return lk_sandbox_run(&cmd, scratch, walls, NULL);
}

static int exists(const char *dir, const char *name)
{
	struct lk_buf p = LK_BUF_INIT;
	int there;

	lk_buf_addf(&p, "%s/%s", dir, name);
	there = access(p.buf, F_OK) == 0;
	lk_buf_release(&p);
	return there;
}

static void test_sandbox_writes_only_scratch(void **state)
{
	struct dirs *d = *state;
	struct lk_walls walls = { { 0 } };
	struct lk_buf script = LK_BUF_INIT, out = LK_BUF_INIT;

	lk_buf_addf(&script, "echo in >'%s/made' && mkdir '%s/sub' && echo null >/dev/null && "
		    "echo out >'%s/escaped'; mkdir '%s/escaped-dir'; ln -s /etc/passwd '%s/escaped-link'",
		    d->scratch, d->scratch, d->outside,
		    d->outside, d->outside);
	run_sh(d->scratch, script.buf, &walls, &out);
	assert_true(exists(d->scratch, "made"));
	assert_true(exists(d->scratch, "sub"));
	if (walls.missing[LK_WALL_LANDLOCK]) {
		fprintf(stderr, "# skipped: no Landlock here (%s)\n", strerror(walls.missing[LK_WALL_LANDLOCK]));
	} else {
		assert_false(exists(d->outside, "escaped"));
		assert_false(exists(d->outside, "escaped-dir"));
		assert_false(exists(d->outside, "escaped-link"));
		assert_non_null(strstr(out.buf, "Permission denied"));
	}
	lk_buf_release(&script);
	lk_buf_release(&out);
}

static void test_sandbox_reaches_no_network(void **state)
{
	struct dirs *d = *state;
	struct lk_walls walls = { { 0 } };
	struct lk_buf script = LK_BUF_INIT, out = LK_BUF_INIT;
	struct sockaddr_in addr = { 0 };
	socklen_t len = sizeof(addr);
	int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0), rc;

	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_true(listener >= 0);
	assert_int_equal(bind(listener, (struct sockaddr *)&addr, sizeof(addr)), 0);
	assert_int_equal(listen(listener, 1), 0);
	assert_int_equal(getsockname(listener, (struct sockaddr *)&addr, &len), 0);
	/* bash's /dev/tcp: a connect to our listener on the loopback, nowhere else. */
	lk_buf_addf(&script, "exec bash -c 'exec 3<>/dev/tcp/127.0.0.1/%d && echo connected'",
		    ntohs(addr.sin_port));
	rc = run_sh(d->scratch, script.buf, &walls, &out);
	if (walls.missing[LK_WALL_NETNS]) {
		fprintf(stderr, "# skipped: no network namespace here (%s)\n", strerror(walls.missing[LK_WALL_NETNS]));
	} else {
		assert_int_not_equal(rc, 0);
		assert_null(strstr(out.buf, "connected"));
		assert_int_equal(accept(listener, NULL, NULL), -1);
		assert_int_equal(errno, EAGAIN);
	}
	close(listener);
	lk_buf_release(&script);
	lk_buf_release(&out);
}

static void test_sandbox_runs_and_fails_to_start_as_posix_spawn(void **state)
{
	struct dirs *d = *state;
	const char *const argv[] = { "nothing", NULL };
	struct lk_runcmd cmd = { 0 };
	struct lk_runcmd_result res;
	struct lk_buf out = LK_BUF_INIT;

	assert_int_equal(run_sh(d->scratch, "echo hello; exit 3", NULL, &out), 3);
	assert_string_equal(out.buf, "hello\n");
	cmd.path = "/nonexistent/program";
	cmd.argv = argv;
	assert_int_equal(lk_sandbox_run(&cmd, d->scratch, NULL, &res), -1);
	assert_false(res.started);
	assert_int_equal(res.error, ENOENT);
	lk_buf_release(&out);
}

/* A timeout kills the child's whole process group, not only the child. */
static void test_sandbox_timeout_kills_the_group(void **state)
{
	struct dirs *d = *state;
	const char *const argv[] = { "sh", "-c", "sleep 30 & echo $!; wait", NULL };
	struct lk_runcmd cmd = { 0 };
	struct lk_runcmd_result res;
	struct lk_buf out = LK_BUF_INIT;
	int gone = 0;
	pid_t grandchild;

	cmd.path = "/bin/sh";
	cmd.argv = argv;
	cmd.out = &out;
	cmd.timeout_ms = 300;
	assert_int_equal(lk_sandbox_run(&cmd, d->scratch, NULL, &res), -1);
	assert_true(res.timed_out);
	grandchild = (pid_t)atoi(out.buf);
	assert_true(grandchild > 0);
	/* init reaps it once killed: give it a moment. */
	for (int i = 0; i < 200 && !gone; i++) {
		gone = kill(grandchild, 0) < 0 && errno == ESRCH;
		if (!gone)
			usleep(10000);
	}
	assert_true(gone);
	lk_buf_release(&out);
}

static void test_sandbox_note_says_what_was_missing(void **state)
{
	struct lk_walls none = { { 0 } }, both = { { EPERM, ENOSYS } }, one = { { 0, EOPNOTSUPP } };
	char *note;

	(void)state;
	assert_null(lk_walls_note(&none));
	note = lk_walls_note(&both);
	assert_string_equal(note, "the driver ran without a network namespace: EPERM; without Landlock: ENOSYS");
	free(note);
	note = lk_walls_note(&one);
	assert_string_equal(note, "the driver ran without Landlock: EOPNOTSUPP");
	free(note);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sandbox_writes_only_scratch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sandbox_reaches_no_network, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sandbox_runs_and_fails_to_start_as_posix_spawn, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sandbox_timeout_kills_the_group, setup, teardown),
		cmocka_unit_test(test_sandbox_note_says_what_was_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
