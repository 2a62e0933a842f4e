/*
 * linkscope-cc: the recording shim.
 *
 * Stage: argv -> record. Takes the linker driver's argv (as rustc's
 * -Clinker, as CC, or as a launcher after "--"), runs the real driver with
 * that argv unchanged, and writes one JSON record per link. Calls that do
 * not link are exec'd at once and leave nothing. Fail-open: if recording
 * fails, the link still runs and its status is unchanged; one warning line.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "argmax.h"
#include "driver.h"
#include "expand.h"
#include "input_fingerprint.h"
#include "keep.h"
#include "linkerid.h"
#include "stdinsrc.h"
#include "target.h"
#include "tempobj.h"
#include "viewcache.h"
#include "linkscope/argv.h"
#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/env.h"
#include "linkscope/private.h"
#include "linkscope/prune.h"
#include "linkscope/record.h"
#include "linkscope/runcmd.h"
#include "linkscope/rsp.h"
#include "linkscope/rustc.h"
#include "linkscope/vec.h"
#include "repro.h"
#include "run.h"

#ifndef LINKSCOPE_VERSION
#define LINKSCOPE_VERSION "0.1.0"
#endif

extern char **environ;

struct lk_options {
	const char *dir_env;		/* LINKSCOPE_DIR */
	const char *linker_env;		/* LINKSCOPE_LINKER */
	int disable;			/* LINKSCOPE_DISABLE=1 */
	int nested;			/* LINKSCOPE_ACTIVE: we run under our own driver */
	int expand_failed_only;		/* LINKSCOPE_EXPAND=failure */
	int expand_always;		/* LINKSCOPE_EXPAND=always: a driver of another name too */
	int keep;			/* LINKSCOPE_KEEP != 0 */
	int reproduce;			/* LINKSCOPE_REPRODUCE=1 */
	int report;			/* LINKSCOPE_REPORT=1 */
	const char *view_check;		/* LINKSCOPE_VIEW_CHECK: a log file (tests) */
	unsigned view_verify_every;	/* LINKSCOPE_VIEW_VERIFY_EVERY: one reuse in N is verified */
	int no_redaction;		/* LINKSCOPE_REDACT=0 */
	int dir_shared;			/* LINKSCOPE_DIR_SHARED=1: a record dir not ours, or open to others */
	struct lk_keep_limits keep_limits;	/* LINKSCOPE_KEEP_MAX */
	struct lk_prune_limits prune;		/* LINKSCOPE_MAX_SIZE, LINKSCOPE_MAX_AGE */
	unsigned prune_every;			/* LINKSCOPE_PRUNE_EVERY: one link in N prunes */
	const char *prune_error;		/* a bound that does not parse */
};

/* How the shim was called, and what it will run. */
struct lk_invocation {
	const char *mode;		/* "linker", "launcher", "alias" */
	const char *driver_given;
	const char *driver_source;
	char **driver_argv;		/* borrowed from main's argv; [0] is the driver as given */
	size_t driver_argc;
	struct lk_driver driver;
	char **exec_argv;		/* owned array, borrowed strings */
};

static int env_is(const char *name, const char *value)
{
	const char *v = getenv(name);
	return v && !strcmp(v, value);
}

/* LINKSCOPE_PRUNE_EVERY and LINKSCOPE_VIEW_VERIFY_EVERY: one link in N (1 to 2^20), else `dflt`. */
static unsigned one_in(const char *name, unsigned dflt)
{
	const char *every = getenv(name);
	char *end;
	unsigned long v;

	if (!every || !*every)
		return dflt;
	v = strtoul(every, &end, 10);
	return !*end && v >= 1 && v <= 1u << 20 ? (unsigned)v : dflt;
}

/* The bounds of the record directory, as ccache's max_size: checked now and then, not on every link. */
static void read_prune_options(struct lk_options *opt)
{
	const char *size = getenv("LINKSCOPE_MAX_SIZE"), *age = getenv("LINKSCOPE_MAX_AGE");
	struct lk_err err = LK_ERR_INIT;

	opt->prune_every = one_in("LINKSCOPE_PRUNE_EVERY", 32);
	opt->prune.amortized = 1;	/* a link pays for its own share only */
	/* Bounded by default; 0 turns a bound off. */
	if (!size || !*size)
		size = LK_PRUNE_DEFAULT_MAX_SIZE;
	if (!age || !*age)
		age = LK_PRUNE_DEFAULT_MAX_AGE;
	if (lk_prune_parse_size(size, &opt->prune.max_size, &err) < 0)
		opt->prune_error = "LINKSCOPE_MAX_SIZE";
	if (lk_prune_parse_age(age, &opt->prune.max_age_s, &err) < 0)
		opt->prune_error = "LINKSCOPE_MAX_AGE";
}

static void read_options(struct lk_options *opt)
{
	const char *keep = getenv("LINKSCOPE_KEEP");
	const char *max = getenv("LINKSCOPE_KEEP_MAX");

	memset(opt, 0, sizeof(*opt));
	opt->dir_env = getenv("LINKSCOPE_DIR");
	opt->linker_env = getenv("LINKSCOPE_LINKER");
	if (opt->linker_env && !*opt->linker_env)
		opt->linker_env = NULL;
	opt->disable = env_is("LINKSCOPE_DISABLE", "1");
	opt->nested = getenv("LINKSCOPE_ACTIVE") != NULL;
	opt->expand_failed_only = env_is("LINKSCOPE_EXPAND", "failure");
	opt->expand_always = env_is("LINKSCOPE_EXPAND", "always");
	opt->keep = !(keep && !strcmp(keep, "0"));
	opt->reproduce = env_is("LINKSCOPE_REPRODUCE", "1");
	opt->report = env_is("LINKSCOPE_REPORT", "1");
	opt->view_check = getenv("LINKSCOPE_VIEW_CHECK");
	if (opt->view_check && !*opt->view_check)
		opt->view_check = NULL;
	opt->view_verify_every = one_in("LINKSCOPE_VIEW_VERIFY_EVERY", LK_VIEWCACHE_VERIFY_EVERY);
	opt->no_redaction = env_is("LINKSCOPE_REDACT", "0");
	opt->dir_shared = env_is(LK_PRIVATE_SHARED_VAR, "1");
	opt->keep_limits.max_file = (int64_t)16 << 20;
	if (max && *max) {
		char *end;
		long long v = strtoll(max, &end, 10);

		if (!*end && v >= 0)
			opt->keep_limits.max_file = v;
	}
	/* Any value is taken: past INT64_MAX / 4 it means "no limit", not an overflow. */
	if (opt->keep_limits.max_file > INT64_MAX / 4)
		opt->keep_limits.max_file = INT64_MAX / 4;
	opt->keep_limits.max_total = opt->keep_limits.max_file * 4;
	read_prune_options(opt);
}

/*
 * Our own binary, by identity (the kernel's /proc/self/exe, followed: one
 * system call, where realpath(3) takes one per path component). NULL when
 * unknown.
 */
static const struct stat *self_stat(struct stat *st)
{
	return stat("/proc/self/exe", st) == 0 ? st : NULL;
}

static void usage_and_exit(void)
{
	fputs("usage: linkscope-cc [DRIVER-ARGS...]      (as CC or rustc's -Clinker)\n"
	      "       linkscope-cc -- DRIVER [ARGS...]   (as a launcher)\n"
	      "       linkscope-cc --linkscope-version\n"
	      "see linkscope-cc(1)\n", stderr);
	exit(2);
}

static void set_launcher(struct lk_invocation *inv, int argc, char **argv)
{
	inv->mode = "launcher";
	inv->driver_given = argv[0];
	inv->driver_source = "launcher";
	inv->driver_argv = argv;
	inv->driver_argc = (size_t)argc;
}

/*
 * CMake's CMAKE_<LANG>_LINKER_LAUNCHER (like ccache's "ccache gcc ...")
 * puts the compiler right after us, with no "--": "linkscope-cc
 * /usr/bin/c++ main.o -o app". Running "cc /usr/bin/c++ ..." would change
 * the link, so a first word that names a compiler driver (not an option,
 * not an input: link inputs are not called gcc or c++) is the launcher's.
 */
static int names_a_driver(int argc, char **argv)
{
	if (argc < 2 || argv[1][0] == '-' || !lk_argv_is_driver_name(lk_path_base(argv[1])))
		return 0;
	return !strchr(argv[1], '/') || access(argv[1], X_OK) == 0;
}

/* Work out the driver and its argv from how we were called. */
static void read_invocation(int argc, char **argv, const struct lk_options *opt,
			    struct lk_invocation *inv)
{
	memset(inv, 0, sizeof(*inv));
	if (argc >= 2 && !strcmp(argv[1], "--linkscope-version")) {
		printf("linkscope-cc %s\n", LINKSCOPE_VERSION);
		exit(0);
	}
	if (argc >= 2 && !strcmp(argv[1], "--")) {
		if (argc < 3)
			usage_and_exit();
		set_launcher(inv, argc - 2, argv + 2);
		return;
	}
	inv->driver_argv = argv;
	inv->driver_argc = (size_t)argc;
	if (strncmp(lk_path_base(argv[0]), "linkscope-cc", 12)) {
		/* Installed under the driver's own name (a "cc" symlink), like ccache. */
		inv->mode = "alias";
		inv->driver_given = opt->linker_env ? opt->linker_env : lk_path_base(argv[0]);
		inv->driver_source = opt->linker_env ? "LINKSCOPE_LINKER" : "argv0";
	} else if (names_a_driver(argc, argv)) {
		set_launcher(inv, argc - 1, argv + 1);
	} else {
		inv->mode = "linker";
		inv->driver_given = opt->linker_env ? opt->linker_env : "cc";
		inv->driver_source = opt->linker_env ? "LINKSCOPE_LINKER" : "default";
	}
}

/* The argv handed to the real driver: ours, with argv[0] naming the driver. */
static void build_exec_argv(struct lk_invocation *inv)
{
	inv->exec_argv = lk_xcalloc(inv->driver_argc + 1, sizeof(char *));
	for (size_t i = 0; i < inv->driver_argc; i++)
		inv->exec_argv[i] = inv->driver_argv[i];
	if (strcmp(inv->mode, "launcher"))
		/* gcc finds its own install from argv[0]; give it the real path. */
		inv->exec_argv[0] = strchr(inv->driver_given, '/') ?
			(char *)inv->driver_given : inv->driver.resolved;
}

static _Noreturn void exec_driver(const struct lk_invocation *inv)
{
	int saved;

	execv(inv->driver.resolved, inv->exec_argv);
	saved = errno;
	fprintf(stderr, "linkscope-cc: cannot run '%s': %s\n",
		inv->driver.resolved, strerror(saved));
	exit(saved == ENOENT ? 127 : 126);
}

/*
 * `dir` and its missing parents made, each 0700: made 0700 whatever the
 * umask (which can take the owner's bits too), and only those we made.
 */
static int mkdir_p(const char *dir)
{
	struct lk_buf path = LK_BUF_INIT;
	struct stat st;
	int rc = 0;

	if (stat(dir, &st) == 0)
		return S_ISDIR(st.st_mode) ? 0 : (errno = ENOTDIR, -1);
	lk_buf_addstr(&path, dir);
	for (char *p = path.buf + 1; ; p++) {
		if (*p == '/' || !*p) {
			char c = *p;

			*p = '\0';
			if (mkdir(path.buf, 0700) == 0) {
				chmod(path.buf, 0700);
			} else if (errno != EEXIST) {
				rc = -1;
				break;
			}
			*p = c;
			if (!c)
				break;
		}
	}
	if (rc == 0 && (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))) {
		errno = ENOTDIR;
		rc = -1;
	}
	lk_buf_release(&path);
	return rc;
}

/*
 * The record directory, private: what the shim makes (the dir, its
 * parents) is made 0700, whatever the umask; records and kept copies may
 * hold private sources. A dir it did not make keeps its mode: it is not
 * the shim's to change (a shared build dir, a CI container's /tmp, whose
 * other users a chmod would lock out). The shared-/tmp fallback must be
 * a directory (not a symlink) owned by us with no group or other access,
 * or we refuse it (and the link still runs, unrecorded). Any other dir,
 * its blobs/ and views/ must be ours and writable by no one else
 * (common/private.c): whoever can write there chooses what our records
 * name as kept copies. Only LINKSCOPE_DIR_SHARED=1 lets such a dir in,
 * as it is, with one warning line.
 */
static int make_record_dir(const char *dir, int shared, struct lk_err *err)
{
	static const char *const subdirs[] = { "blobs", "views" };
	struct lk_err warning = LK_ERR_INIT;
	struct lk_buf sub = LK_BUF_INIT;
	char fallback[64];
	struct stat st;
	int rc;

	snprintf(fallback, sizeof(fallback), "/tmp/linkscope-%ld", (long)getuid());
	if (!strcmp(dir, fallback)) {
		if (mkdir(dir, 0700) < 0 && errno != EEXIST)
			return lk_err_errno(err, "cannot create record directory '%s'", dir);
		if (lstat(dir, &st) < 0)
			return lk_err_errno(err, "cannot create record directory '%s'", dir);
		if (!S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 077))
			return lk_err_set(err, LK_E_IO, "refusing record directory '%s': not a private directory of ours (a symlink, another owner, or open to others)",
					  dir);
		shared = 0;	/* chosen for the user, not by them: no variable lets another's in */
	} else {
		if (mkdir_p(dir) < 0 || stat(dir, &st) < 0)
			return lk_err_errno(err, "cannot create record directory '%s'", dir);
		if ((rc = lk_private_dir(dir, "record directory", &st, shared, &warning)) < 0) {
			*err = warning;
			return -1;
		}
	}
	/* What is in it may be another's: one stat each. */
	for (size_t i = 0; i < sizeof(subdirs) / sizeof(*subdirs); i++) {
		struct lk_err e = LK_ERR_INIT;

		lk_buf_reset(&sub);
		lk_buf_addf(&sub, "%s/%s", dir, subdirs[i]);
		rc = lk_private_dir_at(sub.buf, "record subdirectory", shared, &e);
		if (rc < 0) {
			*err = e;
			lk_buf_release(&sub);
			return -1;
		}
		if (rc > 0 && !warning.msg[0])
			warning = e;
	}
	lk_buf_release(&sub);
	if (warning.msg[0])
		fprintf(stderr, "linkscope-cc: warning: %s\n", warning.msg);
	return 0;
}

/* Sortable and unique across parallel links: UTC time, pid, random. */
static char *record_id(int64_t start_ns)
{
	unsigned int rnd = 0;
	struct tm tm;
	char id[96];

	if (getrandom(&rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd))
		rnd = (unsigned int)(start_ns ^ getpid());
	lk_record_utc(start_ns / 1000000000, &tm);
	snprintf(id, sizeof(id), "%04d%02d%02dT%02d%02d%02d.%06ldZ-%ld-%08x",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, (long)(start_ns % 1000000000 / 1000),
		 (long)getpid(), rnd);
	return lk_xstrdup(id);
}

static char *parent_comm(void)
{
	struct lk_buf comm = LK_BUF_INIT;
	char path[64];

	snprintf(path, sizeof(path), "/proc/%ld/comm", (long)getppid());
	if (lk_buf_read_file(&comm, path, 4096) < 0 || !comm.len) {
		lk_buf_release(&comm);
		return NULL;
	}
	while (comm.len && comm.buf[comm.len - 1] == '\n')
		comm.buf[--comm.len] = '\0';
	return lk_buf_detach(&comm);
}

/* One line, after the linker's own output, whatever went wrong first. */
static void warn_not_recorded(const struct lk_err *err)
{
	fprintf(stderr, "linkscope-cc: warning: this link is not recorded: %s\n", err->msg);
}

/*
 * LINKSCOPE_REPORT=1: run `linkscope explain --write-reports` on the
 * record of a failed link, its output on our stderr below the linker's
 * message. The analyzer is the one installed beside the shim, else the one
 * on PATH. Whatever it does, the link's status stays the linker's, and a
 * build waits for it at most LK_REPORT_TIMEOUT_MS.
 */
#define LK_REPORT_TIMEOUT_MS 120000

static void explain_failure(const char *record)
{
	struct lk_buf analyzer = LK_BUF_INIT;
	struct lk_driver found = { 0 };
	struct lk_err err = LK_ERR_INIT;
	struct lk_runcmd cmd = { 0 };
	struct lk_runcmd_result res;
	struct stat self_st;
	char *self = realpath("/proc/self/exe", NULL);
	char *slash = self ? strrchr(self, '/') : NULL;
	const char *argv[6];

	if (slash) {
		lk_buf_add(&analyzer, self, (size_t)(slash - self));
		lk_buf_addstr(&analyzer, "/linkscope");
	}
	if ((!analyzer.len || access(analyzer.buf, X_OK) < 0) &&
	    lk_driver_resolve("linkscope", self_stat(&self_st), getenv("PATH"), &found, &err) == 0) {
		lk_buf_reset(&analyzer);
		lk_buf_addstr(&analyzer, found.resolved);
	}
	argv[0] = "linkscope";
	argv[1] = "explain";
	argv[2] = "--write-reports";
	/* Our own record of the user's own link: the driver may run (docs/security.md). */
	argv[3] = "--run-driver";
	argv[4] = record;
	argv[5] = NULL;
	cmd.path = analyzer.buf;
	cmd.argv = argv;
	cmd.out_to_err = 1;
	cmd.timeout_ms = LK_REPORT_TIMEOUT_MS;
	fprintf(stderr, "linkscope-cc: the link failed; linkscope explains (record %s):\n", record);
	fflush(stderr);
	if (!analyzer.len || (lk_runcmd(&cmd, &res) < 0 && !res.started))
		fprintf(stderr, "linkscope-cc: warning: cannot run '%s' for LINKSCOPE_REPORT\n",
			analyzer.len ? analyzer.buf : "linkscope");
	else if (res.timed_out)
		fprintf(stderr, "linkscope-cc: warning: linkscope explain stopped after %d s\n",
			LK_REPORT_TIMEOUT_MS / 1000);
	lk_driver_release(&found);
	lk_buf_release(&analyzer);
	free(self);
}

/* The random part of a record id: which links prune, and which check their cached view. */
static unsigned long id_random(const char *id)
{
	const char *dash = strrchr(id, '-');

	return dash ? strtoul(dash + 1, NULL, 16) : 0;
}

/*
 * LINKSCOPE_MAX_SIZE / LINKSCOPE_MAX_AGE (by default 1G and 30d, prune.h):
 * one link in LINKSCOPE_PRUNE_EVERY (32), chosen by the random part of its
 * record id, prunes the directory.
 * The other links pay nothing: not a stat more. Whatever happens, the link's
 * status stays the linker's.
 */
static void maybe_prune(const struct lk_options *opt, const char *dir, const struct lk_record_draft *rec)
{
	struct lk_prune_result res;
	struct lk_err err = LK_ERR_INIT;
	unsigned long rnd = id_random(rec->id);

	if (opt->prune_error) {
		fprintf(stderr, "linkscope-cc: warning: %s is not a valid bound; the record directory is not pruned\n",
			opt->prune_error);
		return;
	}
	if ((!opt->prune.max_size && !opt->prune.max_age_s) || rnd % opt->prune_every)
		return;
	if (lk_prune(dir, &opt->prune, (int64_t)time(NULL), &res, &err) < 0)
		fprintf(stderr, "linkscope-cc: warning: %s\n", err.msg);
}

struct link_state {
	struct lk_args args;
	struct lk_rspfiles rspfiles;
	struct lk_argv_info info;
	struct lk_rustc_caller caller;
	struct lk_provenance prov;
	struct lk_envvars env;
	struct lk_record_draft rec;
	struct lk_run run;
	struct lk_stdin_source stdin_src;	/* "-" under -x */
	char *dir;
	char target_buf[128];
};

static void release_state(struct link_state *st)
{
	lk_record_draft_release(&st->rec);
	lk_run_release(&st->run);
	lk_stdin_release(&st->stdin_src);
	lk_envvars_release(&st->env);
	lk_provenance_release(&st->prov);
	lk_rustc_caller_release(&st->caller);
	lk_argv_info_release(&st->info);
	lk_rspfiles_release(&st->rspfiles);
	lk_args_release(&st->args);
	free(st->dir);
}


/*
 * The argv for the driver's -###: response files expanded, when it was
 * given any. Else gcc passes the linker the -L options and inputs through
 * temporary response files of its own, deleted when -### is done, and the
 * expansion would name files nobody can read (g++'s -lstdc++ -lm among
 * their words). NULL when the link's own argv will do; else malloc'd,
 * pointing into st->args.
 */
static char **expansion_argv(const struct link_state *st)
{
	char **argv;
	size_t i;

	for (i = 0; i < st->rspfiles.nr && st->rspfiles.items[i].status != LK_RSP_READ; i++)
		;
	if (i == st->rspfiles.nr)
		return NULL;
	argv = lk_xcalloc(st->args.nr + 1, sizeof(*argv));
	for (i = 0; i < st->args.nr; i++)
		argv[i] = st->args.items[i].text;
	return argv;
}

/* After a fresh run beside the link: the view cache learns or checks (shim/viewcache.c). */
static void end_view(struct lk_viewcache *view, struct link_state *st, int failed)
{
	struct lk_buf warning = LK_BUF_INIT;

	lk_viewcache_end(view, &st->rec.expansion, st->run.ran && (!failed || st->run.signal), &warning);
	if (warning.len)
		lk_strvec_push(&st->rec.warnings, warning.buf);
	lk_buf_release(&warning);
}

/*
 * The cached view, filled while the link runs: a link that succeeded
 * passed every check the driver makes before it runs anything (an output
 * that is one of the inputs, ...), so -### would have passed them too. A
 * failed link's view is taken fresh, after it (but not after a signal: the
 * build is being stopped, and the driver passed its checks); a driver that
 * did not start has none. Returns 1 if it changed rec->expansion.
 */
static int settle_reused_view(struct link_state *st, const struct lk_invocation *inv,
			      char **hash3_argv, int failed)
{
	struct lk_record_draft *rec = &st->rec;

	if (st->run.ran && (!failed || st->run.signal))
		return 0;
	lk_expansion_release(&rec->expansion);
	if (!st->run.ran)
		return 1;
	rec->expansion.trigger = "always";
	if (lk_expand_run(inv->driver.resolved, hash3_argv, environ, st->info.fuse_ld,
			  &rec->expansion) < 0)
		lk_strvec_push(&rec->warnings, "the driver's -### expansion could not be run");
	return 1;
}

/*
 * The record's description of the link that does not depend on how it
 * ends, filled while it runs. `env_before` is the environment as the
 * caller gave it (before LINKSCOPE_ACTIVE, TMPDIR, ...).
 */
static void describe_link(struct link_state *st, const struct lk_options *opt,
			  struct lk_invocation *inv, char *const *env_before)
{
	struct lk_record_draft *rec = &st->rec;
	struct utsname uts;

	lk_env_collect((const char *const *)env_before, &st->env);
	if (!lk_rustc_read_caller(getppid(), &st->caller))
		rec->caller_name = parent_comm();
	else
		lk_rustc_read_build_script(&st->caller, getenv("OUT_DIR"));
	lk_rustc_provenance(&st->args, &st->caller, &st->prov);
	if (!rec->id)
		rec->id = record_id(rec->start_ns);
	rec->tool_version = LINKSCOPE_VERSION;
	rec->no_redaction = opt->no_redaction;
	rec->cwd = getcwd(NULL, 0);
	rec->mode = inv->mode;
	rec->driver_given = inv->driver_given;
	rec->driver_source = inv->driver_source;
	rec->driver_resolved = lk_xstrdup(inv->driver.resolved);
	lk_driver_find_real(&inv->driver);
	rec->driver_real = inv->driver.real ? lk_xstrdup(inv->driver.real) : NULL;
	if (uname(&uts) == 0)
		snprintf(rec->host_machine, sizeof(rec->host_machine), "%s", uts.machine);
	rec->argv = (const char *const *)inv->exec_argv;
	rec->argc = inv->driver_argc;
	rec->args = &st->args;
	rec->rspfiles = &st->rspfiles;
	rec->info = &st->info;
	rec->prov = &st->prov;
	rec->caller = &st->caller;
	rec->env = &st->env;
	lk_target_find(rec, inv->driver_given, st->target_buf, sizeof(st->target_buf));
	if (!rec->linker_flavor)
		lk_target_find_linker(rec);
}

/*
 * The driver's view: reused from its profile's cache entry (shim/viewcache.c),
 * else taken beside the link (LINKSCOPE_EXPAND=failure: only after a failure).
 * Not after a failed @-file expansion: the driver fails it too, and -### would redo it.
 * Returns whether a -### run was started (`job`).
 */
static int begin_view(struct lk_viewcache *view, int *viewing, struct link_state *st,
		      const struct lk_options *opt, const struct lk_invocation *inv,
		      char **hash3_argv, int rsp_failed, struct lk_expand_job *job)
{
	int started;

	memset(view, 0, sizeof(*view));
	*viewing = 0;
	if (!rsp_failed && !opt->expand_failed_only &&
	    lk_expand_knows_hash3(inv->driver.resolved, inv->driver.real)) {
		struct lk_viewcache_request req = {
			st->dir, inv->driver.resolved, inv->driver.real, hash3_argv, st->rec.cwd,
			(int64_t)time(NULL), id_random(st->rec.id), opt->view_verify_every, opt->view_check,
		};

		lk_viewcache_begin(view, &req);
		*viewing = 1;
	}
	started = *viewing && view->use != LK_VIEWCACHE_REUSE &&
		  lk_expand_start(inv->driver.resolved, hash3_argv, environ, st->info.fuse_ld, job) == 0;
	if (started && view->use == LK_VIEWCACHE_LEARN)
		lk_viewcache_start_probe(view, inv->driver.resolved, environ);
	return started;
}

/* The environment's array as it is now: its strings stay (setenv never frees one). */
static char **environ_copy(void)
{
	size_t n = 0;
	char **copy;

	while (environ[n])
		n++;
	copy = lk_xcalloc(n + 1, sizeof(*copy));
	memcpy(copy, environ, n * sizeof(*copy));
	return copy;
}

/*
 * Did the link get as far as running its linker (the program whose
 * --version the shim may then ask)? One that succeeded did; not one the
 * driver never started, nor one ended by a signal (the build is being
 * stopped: it waits for nothing more). One that failed did only if its
 * driver's view names a linker command (a driver that rejects its line
 * rejects it under -### too, and names none) and, when it compiles, each
 * source became an object (a failed compile stops the driver before the
 * link): without the objects caught, nobody can tell, and it is taken as
 * not.
 */
static int linker_ran(const struct link_state *st, int failed, const struct lk_tempobj *objs)
{
	const struct lk_expansion *exp = &st->rec.expansion;

	if (!st->run.ran || st->run.signal)
		return 0;
	if (!failed)
		return 1;
	if (!exp->done || exp->exit_status || exp->linker_command < 0)
		return 0;
	if (!lk_argv_count_compiled(&st->info))
		return 1;
	return objs && objs->caught.nr >= objs->want;
}

/*
 * Record one link. The driver is spawned as soon as what it must see is
 * set (LINKSCOPE_ACTIVE, a private TMPDIR when it compiles, a reproducer's
 * variable, a relay for a source on stdin: shim/stdinsrc.c), and all the recording that does not depend on how the link
 * ends is done while it runs, on the other core, between services of its
 * stderr and of signals (lk_run_service); after it, only what depends on
 * the outcome. Inputs are fingerprinted and kept while it runs, unless one
 * may be its output (struct lk_output_before): then after it, as before.
 */
static int record_link(struct link_state *st, const struct lk_options *opt,
		       struct lk_invocation *inv, int rsp_failed,
		       const char *rsp_error)
{
	struct lk_record_draft *rec = &st->rec;
	struct lk_err err = LK_ERR_INIT;
	struct lk_expand_job job;
	struct lk_tempobj objs;
	struct lk_viewcache view;
	struct lk_run_job run;
	struct lk_strvec keep_warnings = LK_STRVEC_INIT;
	struct lk_output_before out;
	struct lk_record_parts parts;
	int64_t t0;
	int dir_ok = 0, dir_made = 0, failed, started = 0, catching, viewing = 0;
	int compiles = opt->keep && lk_argv_count_compiled(&st->info), output_read = 1;
	int ahead = 0, prerendered = 0;	/* the record's parts written while it ran; still true */
	int linker_settled = 1;		/* the linker's identity known without running it */
	struct lk_record_early early = { -1, -1 };	/* the record's temp file and the index, opened while it runs */
	char *written = NULL;
	char **xargv = expansion_argv(st);
	char **hash3_argv = xargv ? xargv : inv->exec_argv;
	char **env_before = environ_copy();

	memset(&view, 0, sizeof(view));
	rec->start_ns = lk_run_now_ns_cold(CLOCK_REALTIME);
	/* Before the spawn only what the driver must see: the private TMPDIR lives in the record dir's stead. */
	if (compiles || opt->reproduce) {
		st->dir = lk_record_dir(opt->dir_env);
		dir_ok = make_record_dir(st->dir, opt->dir_shared, &err) == 0;
		dir_made = 1;
	}
	if (opt->reproduce && dir_ok) {
		rec->info = &st->info;
		rec->id = record_id(rec->start_ns);
		lk_target_find_linker(rec);
		lk_repro_request(rec, st->dir);
	}
	if (opt->keep && dir_ok)
		lk_stdin_take(&st->stdin_src, &st->info, opt->keep_limits.max_file);
	setenv("LINKSCOPE_ACTIVE", "1", 1);
	/* A link that compiles: catch the objects the driver makes and deletes (shim/tempobj.c). */
	catching = dir_ok && compiles && lk_tempobj_start(&objs, lk_argv_count_compiled(&st->info)) == 0;
	lk_fingerprint_note_output(&out, &st->info);
	t0 = lk_run_now_ns_cold(CLOCK_MONOTONIC);
	lk_run_start(&run, inv->driver.resolved, inv->exec_argv, environ, LK_RUN_STDERR_KEEP, &st->run);
	if (catching)
		lk_tempobj_spawned(&objs);

	/* While it runs. */
	if (!dir_made) {
		st->dir = lk_record_dir(opt->dir_env);
		dir_ok = make_record_dir(st->dir, opt->dir_shared, &err) == 0;
	}
	describe_link(st, opt, inv, env_before);
	free(env_before);
	if (rsp_failed)
		lk_strvec_push(&rec->warnings, rsp_error);
	lk_run_service(&run, &st->run);
	if (dir_ok) {
		started = begin_view(&view, &viewing, st, opt, inv, hash3_argv, rsp_failed, &job);
		lk_run_service(&run, &st->run);
		output_read = lk_fingerprint_inputs(rec, &out);
		if (output_read)
			lk_record_inputs_release(rec);
		else if (opt->keep)
			lk_keep_inputs(rec, st->dir, &opt->keep_limits, &keep_warnings);
		lk_run_service(&run, &st->run);
		if (viewing && view.use == LK_VIEWCACHE_REUSE) {
			rec->expansion.trigger = "always";
			lk_viewcache_fill(&view, &rec->expansion);
		}
		/* The record's text, but for what the outcome decides, when nothing after the link changes it. */
		ahead = prerendered = !catching && !output_read && !started &&
				      !(opt->expand_always && !viewing);
		if (ahead) {
			/* The view is final (reused); the linker's identity only from the cache: nothing it names runs before the link ran it. */
			linker_settled = lk_linkerid_find(rec, st->dir, 0);
			lk_record_prerender(rec, &parts);
		}
		lk_record_open_early(rec, st->dir, &early);
	}

	lk_run_wait(&run, &st->run);
	lk_stdin_end(&st->stdin_src);
	rec->duration_ns = lk_run_now_ns(CLOCK_MONOTONIC) - t0;
	if (catching)
		lk_tempobj_stop(&objs);

	rec->ran = st->run.ran;
	rec->exit_status = st->run.exit_status;
	rec->signal = st->run.signal;
	rec->shim_exit = lk_run_shell_status(&st->run);
	if (!st->run.ran) {
		rec->spawn_error = lk_xstrdup(strerror(st->run.spawn_errno));
		fprintf(stderr, "linkscope-cc: cannot run '%s': %s\n",
			inv->driver.resolved, rec->spawn_error);
	}
	rec->stderr_text = st->run.stderr_text.buf;
	rec->stderr_len = st->run.stderr_text.len;
	rec->stderr_bytes = st->run.stderr_bytes;
	rec->stderr_truncated = st->run.stderr_truncated;
	if (!dir_ok) {
		free(xargv);
		warn_not_recorded(&err);
		return rec->shim_exit;
	}

	failed = rec->shim_exit != 0;
	/* Once the driver has read what it reads (shim/stdinsrc.c). */
	lk_stdin_keep(&st->stdin_src, rec, st->dir, &opt->keep_limits, &keep_warnings);
	if (lk_repro_settle(rec, st->dir))
		prerendered = 0;
	/* Collected even after a signal: it ran beside the link, and waits no longer than its bound. */
	if (started) {
		rec->expansion.trigger = "always";
		if (lk_expand_finish(&job, &rec->expansion) < 0)
			lk_strvec_push(&rec->warnings, "the driver's -### expansion did not finish");
		end_view(&view, st, failed);
	} else if (viewing && view.use == LK_VIEWCACHE_REUSE) {
		prerendered &= !settle_reused_view(st, inv, hash3_argv, failed);
	} else if (st->run.ran && !st->run.signal && !rsp_failed && (failed || opt->expand_always)) {
		/* A driver of another name (a wrapper) is asked only after the link, and not after a signal. */
		rec->expansion.trigger = failed ? "failure" : "always";
		if (lk_expand_run(inv->driver.resolved, hash3_argv, environ,
				  st->info.fuse_ld, &rec->expansion) < 0)
			lk_strvec_push(&rec->warnings, "the driver's -### expansion could not be run");
		prerendered = 0;
	}
	lk_viewcache_release(&view);
	if (!ahead)
		linker_settled = lk_linkerid_find(rec, st->dir, 0);
	if (!linker_settled && linker_ran(st, failed, catching ? &objs : NULL)) {
		lk_linkerid_find(rec, st->dir, 1);
		prerendered = 0;
	}
	rec->prerendered = prerendered ? &parts : NULL;
	free(xargv);
	/* The record's warnings in the order they always had: the view's, then the copies'. */
	for (size_t i = 0; i < keep_warnings.nr; i++)
		lk_strvec_push(&rec->warnings, keep_warnings.items[i]);
	lk_strvec_release(&keep_warnings);
	if (output_read && opt->keep)
		lk_keep_inputs(rec, st->dir, &opt->keep_limits, &rec->warnings);
	if (catching) {
		lk_keep_source_objects(rec, st->dir, &objs.caught, &opt->keep_limits);
		lk_tempobj_finish(&objs);
	}
	if (output_read)
		lk_fingerprint_inputs(rec, &out);
	if (lk_record_write(rec, st->dir, &early, &written, &err) < 0)
		warn_not_recorded(&err);
	rec->prerendered = NULL;
	if (ahead)
		lk_record_parts_release(&parts);
	lk_keep_settle(rec, st->dir);
	if (written && failed && opt->report && !st->run.signal)
		explain_failure(written);
	free(written);
	maybe_prune(opt, st->dir, rec);
	return rec->shim_exit;
}

/*
 * Whether what the shim adds to the driver's environment (LINKSCOPE_ACTIVE,
 * a private TMPDIR when the link compiles, a reproducer's variable) could
 * push it, or a program it runs, over the kernel's limit where the plain
 * call would fit (shim/argmax.c). Then the driver runs as it is,
 * unrecorded, with one line saying why.
 */
static int near_exec_limit(const struct lk_options *opt, const struct lk_invocation *inv,
			   const struct lk_argv_info *info)
{
	size_t added = sizeof("LINKSCOPE_ACTIVE=1") + sizeof(char *), size, limit;

	/* The private TMPDIR is made in lk_temp_dir() (shim/tempobj.c, lk_scratch_dir). */
	if (opt->keep && lk_argv_count_compiled(info))
		added += sizeof("TMPDIR=/lk-objs-XXXXXX") + sizeof(char *) + strlen(lk_temp_dir());
	if (opt->reproduce)
		added += PATH_MAX + sizeof("LLD_REPRODUCE=MOLD_REPRO=1") + 2 * sizeof(char *);
	if (!lk_argmax_near(inv->driver.resolved, inv->exec_argv, environ, added, &size, &limit))
		return 0;
	fprintf(stderr, "linkscope-cc: not recording this link: its arguments and environment "
		"(%zu bytes) are too near the system's limit of %zu for the shim to add to them\n",
		size, limit);
	return 1;
}

int main(int argc, char **argv)
{
	struct lk_options opt;
	struct lk_invocation inv;
	struct lk_err err = LK_ERR_INIT;
	struct link_state st;
	struct stat self;
	int rsp_failed, status, killed_by;

	if (argc < 1)
		usage_and_exit();
	read_options(&opt);
	read_invocation(argc, argv, &opt, &inv);
	if (lk_driver_resolve(inv.driver_given, self_stat(&self), getenv("PATH"),
			      &inv.driver, &err) < 0) {
		fprintf(stderr, "linkscope-cc: %s\n", err.msg);
		/* As a shell: 127 for a command not found, 126 for one that cannot run. */
		return err.code == LK_E_IO ? 126 : 127;
	}
	build_exec_argv(&inv);
	if (opt.disable || opt.nested)
		exec_driver(&inv);

	memset(&st, 0, sizeof(st));
	rsp_failed = lk_rsp_expand((const char *const *)inv.exec_argv, inv.driver_argc,
				   &st.args, &st.rspfiles, &err) < 0;
	lk_argv_classify(&st.args, &st.info);
	if (!st.info.links || near_exec_limit(&opt, &inv, &st.info)) {
		release_state(&st);
		exec_driver(&inv);
	}
	status = record_link(&st, &opt, &inv, rsp_failed, err.msg);
	killed_by = st.run.signal;
	release_state(&st);
	lk_driver_release(&inv.driver);
	free(inv.exec_argv);
	if (killed_by)
		lk_run_die_like(killed_by);	/* the caller sees what it would have seen */
	return status;
}
