/*
 * Sources on a link line -> objects the replay can read.
 *
 * `cc conftest.c -o conftest` (116 of 120 autoconf probes in a sample of
 * Debian builds) links an object the driver compiled into /tmp and
 * deleted. The analyzer compiles the source again, from the copy the shim
 * kept (or the file itself if it is still there), with the recorded
 * driver and the recorded compile options, into a scratch directory that
 * the line model owns.
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compile.h"
#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"

extern char **environ;

/* gcc's -x language for a source name, as its suffix says. */
static const char *language(const char *path)
{
	static const struct { const char *ext, *lang; } table[] = {
		{ ".c", "c" }, { ".i", "cpp-output" }, { ".cc", "c++" }, { ".cpp", "c++" },
		{ ".cxx", "c++" }, { ".cp", "c++" }, { ".c++", "c++" }, { ".C", "c++" },
		{ ".ii", "c++-cpp-output" }, { ".s", "assembler" }, { ".S", "assembler-with-cpp" },
		{ ".sx", "assembler-with-cpp" }, { ".m", "objective-c" }, { ".f90", "f95" },
		{ ".f", "f77" }, { ".F", "f77-cpp-input" },
	};
	const char *dot = strrchr(path, '.');

	for (size_t i = 0; dot && i < sizeof(table) / sizeof(*table); i++)
		if (!strcmp(dot, table[i].ext))
			return table[i].lang;
	return NULL;
}

/* Options of the link call that matter to compiling, not linking. */
static int compile_option(const char *a)
{
	static const char *const linking[] = { "-o", "-l", "-L", "-Wl,", "-Xlinker", "-shared",
		"-static", "-pie", "-no-pie", "-rdynamic", "-s", "-nostdlib", "-nodefaultlibs",
		"-nostartfiles", "-T", "-u", "-e", "-z", "-B", "-fuse-ld=", "-x", NULL };

	if (a[0] != '-' || !a[1])
		return 0;
	for (const char *const *l = linking; *l; l++)
		if (!strncmp(a, *l, strlen(*l)))
			return 0;
	return 1;
}

char *lk_compile_source(const struct lk_record *rec, const char *source, const char *copy,
			const char *dir, struct lk_err *err)
{
	const char *lang = language(source);
	struct lk_strvec argv = LK_STRVEC_INIT;
	struct lk_buf out = LK_BUF_INIT;
	posix_spawn_file_actions_t fa;
	int status = -1;
	pid_t pid;

	if (!lang) {
		lk_err_set(err, LK_E_FORMAT, "'%s': no language known for its suffix", source);
		return NULL;
	}
	if (!rec->driver_resolved || access(rec->driver_resolved, X_OK) < 0) {
		lk_err_set(err, LK_E_NOTFOUND, "cannot compile '%s': the recorded driver is not here", source);
		return NULL;
	}
	lk_buf_addf(&out, "%s/%s.o", dir, strrchr(source, '/') ? strrchr(source, '/') + 1 : source);
	lk_strvec_push(&argv, rec->args.items[0].text);
	for (size_t i = 1; i < rec->args.nr; i++) {
		const char *a = rec->args.items[i].text;

		if (compile_option(a))
			lk_strvec_push(&argv, a);
		else if ((!strcmp(a, "-o") || !strcmp(a, "-x") || !strcmp(a, "-Xlinker") ||
			  !strcmp(a, "-T") || !strcmp(a, "-u") || !strcmp(a, "-e") || !strcmp(a, "-z") ||
			  !strcmp(a, "-L") || !strcmp(a, "-l") || !strcmp(a, "-B")) && i + 1 < rec->args.nr)
			i++;
	}
	/* A kept copy lives elsewhere: "quoted" includes are still the source's dir's. */
	lk_strvec_push(&argv, "-iquote");
	if (strrchr(source, '/'))
		lk_strvec_push_owned(&argv, lk_xstrndup(source, (size_t)(strrchr(source, '/') - source) + 1));
	else
		lk_strvec_push(&argv, ".");
	lk_strvec_push(&argv, "-c");
	lk_strvec_push(&argv, "-x");
	lk_strvec_push(&argv, lang);
	lk_strvec_push(&argv, copy);
	lk_strvec_push(&argv, "-o");
	lk_strvec_push(&argv, out.buf);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (rec->cwd && access(rec->cwd, X_OK) == 0)
		posix_spawn_file_actions_addchdir_np(&fa, rec->cwd);
	if (posix_spawn(&pid, rec->driver_resolved, &fa, NULL, argv.items, environ) == 0)
		waitpid(pid, &status, 0);
	posix_spawn_file_actions_destroy(&fa);
	lk_strvec_release(&argv);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		lk_err_set(err, LK_E_FORMAT, "cannot compile '%s' again with the recorded options", source);
		lk_buf_release(&out);
		return NULL;
	}
	return lk_buf_detach(&out);
}
