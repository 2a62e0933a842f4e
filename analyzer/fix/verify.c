/*
 * Diagnostics -> a fix checked by the real linker (--verify-with-linker).
 *
 * The replay marks a fix verified when its own simulation then succeeds;
 * this runs a real link with the edit, so the real linker has the last
 * word. The record is untrusted input (docs/security.md): the program is
 * this machine's driver of the record's name (trust.c), the options are the
 * record's allowed ones, the run happens inside the walls of sandbox.h in
 * a scratch directory with the output there, and inputs that are gone
 * (rustc's objects, autoconf's sources) come from the copies kept with the
 * record.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linkscope/argv.h"
#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "replay.h"
#include "linkscope/runcmd.h"
#include "linkscope/vec.h"
#include "fix.h"
#include "sandbox.h"
#include "trust.h"

/* The kept copy of `arg` when `arg` names a file that is gone. */
static const char *kept_or_same(const struct lk_record *rec, const char *arg, struct lk_buf *tmp)
{
	if (access(arg, F_OK) == 0)
		return arg;
	for (size_t i = 0; i < rec->kept.nr; i++) {
		size_t cwd_len = rec->cwd ? strlen(rec->cwd) : 0;
		const char *kept = rec->kept.items[i].path;
		const char *reason = rec->kept.items[i].reason;

		/* The object made of a source is not the source. */
		if (reason && !strcmp(reason, "source-object"))
			continue;
		/* The filter made paths absolute against the record's cwd. */
		if (strcmp(kept, arg) && !(cwd_len && !strncmp(arg, rec->cwd, cwd_len) &&
					   arg[cwd_len] == '/' && !strcmp(arg + cwd_len + 1, kept)))
			continue;
		lk_buf_reset(tmp);
		lk_buf_addf(tmp, "%s/%s", rec->dir, rec->kept.items[i].blob);
		return tmp->buf;
	}
	return arg;
}

/* The fix's edited argv (argv[0] its driver) as the words of a record. */
static void edited_args(const struct lk_fix *fix, struct lk_args *args)
{
	for (size_t i = 0; i < fix->argv.nr; i++) {
		LK_GROW(args->items, args->nr + 1, args->alloc);
		memset(&args->items[args->nr], 0, sizeof(args->items[0]));
		args->items[args->nr++].text = fix->argv.items[i];
	}
}

/* The driver argv of the edited link: allowed words (the fix's go through the same filter), our -o. */
static void build_argv(const struct lk_record *rec, const struct lk_record *edited, const char *driver,
		       const char *out, struct lk_strvec *argv, struct lk_strvec *dropped)
{
	struct lk_strvec kept = LK_STRVEC_INIT;
	struct lk_buf tmp = LK_BUF_INIT;

	lk_trust_filter(edited, LK_TRUST_LINK, &kept, dropped);
	lk_strvec_push(argv, driver);
	for (size_t i = 0; i < kept.nr; i++)
		lk_strvec_push(argv, kept.items[i][0] == '/' ? kept_or_same(rec, kept.items[i], &tmp) :
				     kept.items[i]);
	lk_strvec_push(argv, "-o");
	lk_strvec_push(argv, out);
	lk_strvec_release(&kept);
	lk_buf_release(&tmp);
}

void lk_fix_verify_with_linker(const struct lk_record *rec, struct lk_fix *fix, struct lk_walls *walls)
{
	char *dir;
	struct lk_strvec argv = LK_STRVEC_INIT, dropped = LK_STRVEC_INIT, envp = LK_STRVEC_INIT;
	struct lk_buf out = LK_BUF_INIT, said = LK_BUF_INIT;
	struct lk_runcmd_result res;
	struct lk_runcmd cmd = { 0 };
	struct lk_err err = LK_ERR_INIT;
	struct lk_record edited = *rec;
	char *driver = NULL, *note;

	edited.args = (struct lk_args){ NULL, 0, 0 };
	edited_args(fix, &edited.args);
	/* The edited line's driver: another one (g++) for a driver change, from this machine's PATH too. */
	if (!fix->argv.nr)
		lk_err_set(&err, LK_E_USAGE, "an edit outside the line: not run");
	else
		driver = lk_trust_driver(&edited, &err);
	if (!driver || !(dir = lk_scratch_dir("lk-verify"))) {
		/* Not run: said, but not checked, so never reported as "fails". */
		fix->linker_said = lk_xstrdup(driver ? "no scratch directory" : err.msg);
		free(driver);
		free(edited.args.items);
		return;
	}
	fix->linker_checked = 1;
	lk_buf_addf(&out, "%s/out", dir);
	build_argv(rec, &edited, driver, out.buf, &argv, &dropped);
	lk_trust_env(rec, LK_TRUST_LINK, dir, &envp);
	cmd.envp = envp.items;
	cmd.path = driver;
	cmd.argv = (const char *const *)argv.items;
	cmd.cwd = dir;
	cmd.err = &said;
	cmd.max_bytes = 4096;
	cmd.timeout_ms = LK_TRUST_TIMEOUT_MS;
	fix->linker_ok = lk_sandbox_run(&cmd, dir, walls, &res) == 0;
	note = lk_trust_dropped_note(&dropped);
	if (!fix->linker_ok) {
		char *nl = said.buf ? strchr(said.buf, '\n') : NULL;

		if (!res.started)
			fix->linker_said = lk_xstrdup(strerror(res.error));
		else if (res.timed_out)
			fix->linker_said = lk_xstrdup("timed out");
		else
			fix->linker_said = nl ? lk_xstrndup(said.buf, (size_t)(nl - said.buf)) :
				lk_xstrdup(said.buf ? said.buf : "");
	} else if (note) {
		fix->linker_said = note;
		note = NULL;
	}
	free(note);
	lk_scratch_remove(dir);
	free(dir);
	lk_strvec_release(&envp);
	free(driver);
	lk_buf_release(&out);
	lk_buf_release(&said);
	lk_strvec_release(&argv);
	lk_strvec_release(&dropped);
	free(edited.args.items);
}
