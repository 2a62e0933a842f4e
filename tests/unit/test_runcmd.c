/* The one way to run a helper program (common/runcmd.c): start, finish, bounds, scratch dirs. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "linkscope/buf.h"
#include "linkscope/runcmd.h"
#include "testdir.h"

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * The shim starts -### beside the link and collects it after: a child that
 * prints more than a pipe holds waits for us, and the time the link took
 * does not count against the child's timeout.
 */
static void test_runcmd_timeout_counts_from_finish(void **state)
{
	const char *const chatty[] = { "/bin/sh", "-c", "head -c 200000 /dev/zero | tr '\\0' x; exit 3", NULL };
	struct lk_buf out = LK_BUF_INIT;
	struct lk_runcmd cmd = { 0 };
	struct lk_runcmd_job job;
	struct lk_runcmd_result res;

	(void)state;
	cmd.path = "/bin/sh";
	cmd.argv = chatty;
	cmd.out = &out;
	cmd.max_bytes = 100000;
	cmd.timeout_ms = 300;
	assert_int_equal(lk_runcmd_start(&cmd, &job), 0);
	sleep_ms(600);
	assert_int_equal(lk_runcmd_finish(&job, &res), 3);
	assert_false(res.timed_out);
	assert_int_equal(res.exit_status, 3);
	/* Bounded: the rest was read and dropped, so the child could end. */
	assert_int_equal(out.len, 100000);
	lk_buf_release(&out);
}

/*
 * A program that cannot be started: lk_runcmd_start says why (posix_spawn
 * reports the child's failed exec). Not under qemu-user, which runs glibc's
 * posix_spawn child (a CLONE_VM|CLONE_VFORK clone) as a fork, so the error the
 * child writes never reaches us and the child exits 127 (qemu's own
 * behaviour: python/cpython#131398, rust-lang/rust#90825); skipped by name
 * there when it happens, asserted everywhere else.
 */
static void test_runcmd_not_started(void **state)
{
	const char *const missing[] = { "nope", NULL };
	struct lk_runcmd cmd = { 0 };
	struct lk_runcmd_job job;
	struct lk_runcmd_result res;
	char kernel[32];
	int rc;

	(void)state;
	cmd.path = "/nonexistent/bin/nope";
	cmd.argv = missing;
	rc = lk_runcmd_start(&cmd, &job);
	if (rc == 0 && test_emulated(kernel, sizeof(kernel))) {
		assert_int_equal(lk_runcmd_finish(&job, &res), 127);
		print_message("skipped: qemu-user on an %s kernel: posix_spawn cannot report a failed exec there\n",
			      kernel);
		skip();
	}
	assert_int_equal(rc, -1);
	assert_int_equal(lk_runcmd_finish(&job, &res), -1);
	assert_false(res.started);
	assert_int_equal(res.error, ENOENT);
}

static void test_runcmd_signalled(void **state)
{
	const char *const killed[] = { "/bin/sh", "-c", "kill -TERM $$", NULL };
	struct lk_runcmd cmd = { 0 };
	struct lk_runcmd_result res;

	(void)state;
	cmd.path = "/bin/sh";
	cmd.argv = killed;
	assert_int_equal(lk_runcmd(&cmd, &res), -1);
	assert_true(res.started);
	assert_int_equal(res.signal, SIGTERM);
}

/* out_to_err: a report meant for the user goes to our stderr, its stdout too. */
static void test_runcmd_out_to_err(void **state)
{
	const char *const both[] = { "/bin/sh", "-c", "echo to-out; echo to-err >&2", NULL };
	char path[] = "/tmp/lk-runcmd-err-XXXXXX";
	struct lk_buf got = LK_BUF_INIT;
	struct lk_runcmd cmd = { 0 };
	int fd = mkstemp(path), saved = dup(2);

	(void)state;
	assert_true(fd >= 0 && saved >= 0);
	dup2(fd, 2);
	cmd.path = "/bin/sh";
	cmd.argv = both;
	cmd.out_to_err = 1;
	assert_int_equal(lk_runcmd(&cmd, NULL), 0);
	dup2(saved, 2);
	close(saved);
	close(fd);
	assert_int_equal(lk_buf_read_file(&got, path, 4096), 0);
	assert_string_equal(got.buf, "to-out\nto-err\n");
	unlink(path);
	lk_buf_release(&got);
}

static void test_runcmd_scratch_dir_in_tmpdir(void **state)
{
	char base[] = "/tmp/lk-runcmd-tmp-XXXXXX";
	const char *old = getenv("TMPDIR");
	char *keep = old ? strdup(old) : NULL, *dir;
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(base));
	setenv("TMPDIR", base, 1);
	dir = lk_scratch_dir("lk-test");
	assert_non_null(dir);
	assert_int_equal(strncmp(dir, base, strlen(base)), 0);
	assert_non_null(strstr(dir, "/lk-test-"));
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	rmdir(dir);
	free(dir);
	/* A relative TMPDIR is not trusted to mean the same dir later: /tmp. */
	setenv("TMPDIR", "relative", 1);
	dir = lk_scratch_dir("lk-test");
	assert_int_equal(strncmp(dir, "/tmp/lk-test-", 13), 0);
	rmdir(dir);
	free(dir);
	if (keep)
		setenv("TMPDIR", keep, 1);
	else
		unsetenv("TMPDIR");
	free(keep);
	rmdir(base);
}

/* What a kept run of `prog` said (keep = 1), in this process. */
static void kept_run(const char *prog, struct lk_buf *out)
{
	const char *const argv[] = { prog, "--verbose", NULL };
	struct lk_runcmd cmd = { 0 };

	cmd.path = prog;
	cmd.argv = argv;
	cmd.out = out;
	cmd.keep = 1;
	assert_int_equal(lk_runcmd(&cmd, NULL), 0);
}

/*
 * The same in a child process, which has none of this process's kept
 * answers and leaves its own on disk; what it was told, into `said`.
 */
static void kept_run_in_child(const char *prog, struct lk_buf *said)
{
	int pipefd[2], status;
	char buf[256];
	ssize_t n;
	pid_t pid;

	assert_int_equal(pipe(pipefd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct lk_buf out = LK_BUF_INIT;

		close(pipefd[0]);
		kept_run(prog, &out);
		_exit(out.len && write(pipefd[1], out.buf, out.len) == (ssize_t)out.len ? 0 : 1);
	}
	close(pipefd[1]);
	while ((n = read(pipefd[0], buf, sizeof(buf))) > 0)
		lk_buf_add(said, buf, (size_t)n);
	close(pipefd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void write_program(const char *path, const char *body)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
}

/*
 * lk_runcmd_keep_in: a kept answer outlives the process that ran the
 * program (ld --verbose, once per machine, not per analysis), and is not
 * read again once the program is another file; an entry cut short is no
 * answer.
 */
static void test_runcmd_kept_on_disk(void **state)
{
	char *dir = lk_scratch_dir("lk-kept"), prog[4096], answers[4096], entry[4096];
	struct lk_buf first = LK_BUF_INIT, again = LK_BUF_INIT, changed = LK_BUF_INIT, cut = LK_BUF_INIT;
	struct lk_buf child = LK_BUF_INIT, child2 = LK_BUF_INIT;
	struct timespec later[2] = { { 0, UTIME_OMIT }, { 2000000000, 0 } };

	(void)state;
	assert_non_null(dir);
	snprintf(prog, sizeof(prog), "%s/ld", dir);
	snprintf(answers, sizeof(answers), "%s/answers", dir);
	assert_int_equal(mkdir(answers, 0700), 0);
	/* It answers differently on each run: an answer given twice was kept. */
	write_program(prog, "echo \"run $$ $(date +%N)\"");
	lk_runcmd_keep_in(answers);
	kept_run_in_child(prog, &child);
	assert_true(child.len > 4);
	/* Told here what the child was told: read from the disk, not run again. */
	kept_run(prog, &first);
	assert_string_equal(first.buf, child.buf);
	kept_run_in_child(prog, &child2);
	assert_string_equal(child2.buf, child.buf);
	kept_run(prog, &again);
	assert_string_equal(first.buf, again.buf);
	/* Another file now (its mtime): run again, in a process that has it kept in memory too. */
	assert_int_equal(utimensat(AT_FDCWD, prog, later, 0), 0);
	kept_run(prog, &changed);
	assert_string_not_equal(first.buf, changed.buf);
	/* Every entry cut to its first byte: no answer, so the program runs again and its entry is whole again. */
	snprintf(prog, sizeof(prog), "%s/ld2", dir);
	write_program(prog, "echo \"other $$\"");
	kept_run_in_child(prog, &child2);
	snprintf(entry, sizeof(entry), "for f in %s/*; do head -c 1 \"$f\" >\"$f.x\" && mv \"$f.x\" \"$f\"; done", answers);
	assert_int_equal(system(entry), 0);
	kept_run(prog, &cut);
	assert_non_null(strstr(cut.buf, "other "));
	snprintf(entry, sizeof(entry), "test $(cat %s/* | grep -c '^other ') = 1", answers);
	assert_int_equal(system(entry), 0);
	lk_runcmd_keep_in(NULL);
	lk_scratch_remove(dir);
	free(dir);
	lk_buf_release(&first);
	lk_buf_release(&again);
	lk_buf_release(&changed);
	lk_buf_release(&cut);
	lk_buf_release(&child);
	lk_buf_release(&child2);
}

/*
 * A kept entry whose two lengths sum, wrapping, to the bytes it holds
 * (2^64 - 1 and 4 over 3 bytes) is malformed: no answer, the program runs
 * again (it was an "out of memory" abort).
 */
static void test_runcmd_kept_lengths_that_wrap(void **state)
{
	char *dir = lk_scratch_dir("lk-kept"), prog[4096], answers[4096], entry[8192];
	struct lk_buf child = LK_BUF_INIT, got = LK_BUF_INIT;

	(void)state;
	assert_non_null(dir);
	snprintf(prog, sizeof(prog), "%s/ld", dir);
	snprintf(answers, sizeof(answers), "%s/answers", dir);
	assert_int_equal(mkdir(answers, 0700), 0);
	write_program(prog, "echo \"run $$\"");
	lk_runcmd_keep_in(answers);
	kept_run_in_child(prog, &child);
	snprintf(entry, sizeof(entry),
		 "n=0; for f in %s/*; do printf 'linkscope-kept-answer 1\\n0 0 18446744073709551615 4\\nxyz' >\"$f\"; n=$((n+1)); done; test $n = 1",
		 answers);
	assert_int_equal(system(entry), 0);
	kept_run(prog, &got);
	assert_non_null(strstr(got.buf, "run "));
	assert_string_not_equal(got.buf, child.buf);
	lk_runcmd_keep_in(NULL);
	lk_scratch_remove(dir);
	free(dir);
	lk_buf_release(&child);
	lk_buf_release(&got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runcmd_timeout_counts_from_finish),
		cmocka_unit_test(test_runcmd_not_started),
		cmocka_unit_test(test_runcmd_signalled),
		cmocka_unit_test(test_runcmd_out_to_err),
		cmocka_unit_test(test_runcmd_scratch_dir_in_tmpdir),
		cmocka_unit_test(test_runcmd_kept_on_disk),
		cmocka_unit_test(test_runcmd_kept_lengths_that_wrap),
	};

	return cmocka_run_group_tests_name("runcmd", tests, NULL, NULL);
}
