/*
 * rustc awareness: which arguments of a link line rustc wrote itself and
 * which it appended from `-C link-arg(s)` (cargo:rustc-link-arg).
 *
 * rustc places the user's link args after its own line (objects, rlibs, its
 * native library list ending in -lc, its own flags), verbatim and in order;
 * see docs/rustc-link-line.md. The reliable way to know them is to read
 * them from rustc's own command line (the shim's parent process).
 */
#ifndef LINKSCOPE_RUSTC_H
#define LINKSCOPE_RUSTC_H

#include <stddef.h>
#include <sys/types.h>

#include "linkscope/strvec.h"

struct lk_args;

enum lk_prov {
	LK_PROV_DRIVER,		/* argv[0] */
	LK_PROV_USER,		/* a non-rustc caller's own argument */
	LK_PROV_RUSTC_OBJECT,	/* rustc's objects (codegen units, symbols.o) */
	LK_PROV_RUSTC_RLIB,	/* rustc's rlibs */
	LK_PROV_RUSTC_NATIVE,	/* rustc's native libraries (-l..., .a paths) */
	LK_PROV_RUSTC_FLAG,	/* rustc's other arguments */
	LK_PROV_LINK_ARG,	/* appended from -C link-arg(s) */
};

const char *lk_prov_name(enum lk_prov prov);

/* The process that ran the driver, when it is rustc. */
struct lk_rustc_caller {
	int is_rustc;
	pid_t pid;
	struct lk_strvec argv;		/* rustc's argv, @files expanded */
	struct lk_strvec link_args;	/* its -C link-arg(s) values, in order */
	/* The package's build script, when cargo ran one (OUT_DIR): its output file and link directives */
	char *build_output;		/* owned, or NULL */
	struct lk_strvec build_directives;	/* "KEY=VALUE" (cargo_output.h) */
};

/*
 * Read /proc/<pid>/cmdline; when the program is rustc, fill `out` with its
 * argv and link args. Returns 1 for rustc, 0 otherwise (including when the
 * process is gone or unreadable). Release with lk_rustc_caller_release().
 */
int lk_rustc_read_caller(pid_t pid, struct lk_rustc_caller *out);

/* Collect the -C link-arg=X and -C link-args="X Y" values of a rustc argv. */
void lk_rustc_link_args(const char *const *argv, size_t argc,
			struct lk_strvec *out);

/*
 * The build script's output of the package rustc builds, from the OUT_DIR
 * cargo gave rustc (`out_dir`, may be NULL): its link directives into
 * caller->build_directives. Nothing when there is none or it cannot be read.
 */
void lk_rustc_read_build_script(struct lk_rustc_caller *caller, const char *out_dir);

void lk_rustc_caller_release(struct lk_rustc_caller *caller);

/* Is `path` inside a rustc temporary directory ("rustc" + 6 characters)? */
int lk_rustc_temp_path(const char *path);

/* Does the line look like one rustc wrote (codegen units, symbols.o)? */
int lk_rustc_line_shape(const struct lk_args *args);

struct lk_provenance {
	enum lk_prov *items;	/* one per argument */
	size_t nr;
	const char *method;	/* "rustc-cmdline", "rustc-heuristic", "caller" */
	long link_args_start;	/* first appended link arg, -1 if none */
	long link_args_end;	/* one past the last */
};

/*
 * Mark every argument of `args`. With a rustc `caller` whose link args are
 * found as one contiguous run (the last such run), that run is
 * LK_PROV_LINK_ARG. Without a caller but with a rustc-shaped line, the run
 * after rustc's final -nodefaultlibs is taken as appended (a heuristic).
 * Release with lk_provenance_release().
 */
void lk_rustc_provenance(const struct lk_args *args,
			 const struct lk_rustc_caller *caller,
			 struct lk_provenance *out);
void lk_provenance_release(struct lk_provenance *prov);

#endif
