/*
 * Sources on a link line -> objects the replay can read.
 *
 * `cc conftest.c -o conftest` (116 of 120 autoconf probes in a sample of
 * Debian builds) links an object the driver compiled into /tmp and
 * deleted. The analyzer compiles the source again, from the copy the shim
 * kept (or the file itself if it is still there), with this machine's
 * driver of the record's name and the recorded compile options that are
 * on the allow-list (trust.c), into a scratch directory that the line
 * model owns; only under --run-driver.
 */
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "linkscope/argv.h"
#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/runcmd.h"
#include "linkscope/vec.h"
#include "trust.h"

/* The directory of `source`, absolute against the link's cwd. */
static char *source_dir(const struct lk_record *rec, const char *source)
{
	const char *slash = strrchr(source, '/');
	struct lk_buf dir = LK_BUF_INIT;

	if (source[0] != '/' && rec->cwd)
		lk_buf_addf(&dir, "%s/", rec->cwd);
	if (slash)
		lk_buf_add(&dir, source, (size_t)(slash - source) + 1);
	if (!dir.len)
		lk_buf_addstr(&dir, ".");
	return lk_buf_detach(&dir);
}

char *lk_compile_source(const struct lk_record *rec, const char *driver, const char *source,
			const char *lang, const char *copy, const char *dir, struct lk_walls *walls,
			char **dropped_note, struct lk_err *err)
{
	struct lk_strvec argv = LK_STRVEC_INIT, dropped = LK_STRVEC_INIT, envp = LK_STRVEC_INIT;
	struct lk_buf out = LK_BUF_INIT;
	struct lk_runcmd cmd = { 0 };
	char *note;
	int status;

	if (!lang)
		lang = lk_argv_source_language(source);
	if (!lang) {
		lk_err_set(err, LK_E_FORMAT, "'%s': no language known for its suffix", source);
		return NULL;
	}
	lk_buf_addf(&out, "%s/%s.o", dir, strrchr(source, '/') ? strrchr(source, '/') + 1 : source);
	lk_strvec_push(&argv, driver);
	lk_trust_filter(rec, LK_TRUST_COMPILE, &argv, &dropped);
	/*
	 * A kept copy lives elsewhere: "quoted" includes are still the source's
	 * dir's, which is the link's cwd's (we compile in a scratch dir).
	 */
	lk_strvec_push(&argv, "-iquote");
	lk_strvec_push_owned(&argv, source_dir(rec, source));
	lk_strvec_push(&argv, "-c");
	lk_strvec_push(&argv, "-x");
	lk_strvec_push(&argv, lang);
	lk_strvec_push(&argv, copy);
	lk_strvec_push(&argv, "-o");
	lk_strvec_push(&argv, out.buf);
	/* In the scratch dir: whatever a kept option writes beside its output stays there. */
	lk_trust_env(rec, LK_TRUST_COMPILE, dir, &envp);
	cmd.path = driver;
	cmd.argv = (const char *const *)argv.items;
	cmd.cwd = dir;
	cmd.envp = envp.items;
	cmd.timeout_ms = LK_TRUST_TIMEOUT_MS;
	status = lk_sandbox_run(&cmd, dir, walls, NULL);
	lk_strvec_release(&envp);
	lk_strvec_release(&argv);
	note = lk_trust_dropped_note(&dropped);
	lk_strvec_release(&dropped);
	if (status != 0) {
		lk_err_set(err, LK_E_FORMAT, "cannot compile '%s' again with this machine's %s and the recorded options%s%s",
			   source, driver, note ? "; " : "", note ? note : "");
		lk_buf_release(&out);
		free(note);
		return NULL;
	}
	*dropped_note = note;
	return lk_buf_detach(&out);
}
