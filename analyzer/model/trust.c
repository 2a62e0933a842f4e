/*
 * Record -> what the analyzer may run for it (--run-driver,
 * --verify-with-linker). A record may come from someone else's CI run: its
 * driver path and its options are data, never a command. So the program is
 * the analysing machine's own compiler driver of the same name, found on
 * our PATH, and the options are an allow-list of what a link or a compile
 * needs (inputs, search dirs, input state, code generation), with
 * everything else left out and named. docs/security.md says the same for
 * users; the ld options are those of ld/lexsup.c that change which inputs
 * are read and how.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linkscope/argv.h"
#include "linkscope/banned.h"
#include "linkscope/driveropt.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "trust.h"

/* ---- the driver ---- */

static int is_shim(const char *path)
{
	char *real = realpath(path, NULL);
	const char *slash = real ? strrchr(real, '/') : NULL;
	int shim = slash && !strncmp(slash + 1, "linkscope-cc", 12);

	free(real);
	return shim;
}

extern char **environ;

/* The variables that change what the driver finds; the record's, for the uses that may have them. */
static const char *const driver_vars[] = { "LIBRARY_PATH", "COMPILER_PATH", "GCC_EXEC_PREFIX", NULL };

static int recorded_for(enum lk_trust_use use, const char *name)
{
	return use == LK_TRUST_EXPAND || (use == LK_TRUST_LINK && !strcmp(name, "LIBRARY_PATH"));
}

/* Whether our `entry` ("NAME=value") gives way to the record's for `use`. */
static int replaced(enum lk_trust_use use, const char *entry)
{
	for (const char *const *v = driver_vars; *v; v++) {
		size_t len = strlen(*v);

		if (recorded_for(use, *v) && !strncmp(entry, *v, len) && entry[len] == '=')
			return 1;
	}
	return 0;
}

void lk_trust_env(const struct lk_record *rec, enum lk_trust_use use, struct lk_strvec *envp)
{
	struct lk_buf entry = LK_BUF_INIT;

	for (char **e = environ; *e; e++)
		if (!replaced(use, *e))
			lk_strvec_push(envp, *e);
	for (const char *const *v = driver_vars; *v; v++) {
		const char *value = lk_record_env(rec, *v);

		if (!recorded_for(use, *v) || !value)
			continue;
		lk_buf_reset(&entry);
		lk_buf_addf(&entry, "%s=%s", *v, value);
		lk_strvec_push(envp, entry.buf);
	}
	lk_buf_release(&entry);
}

char *lk_trust_which(const char *name)
{
	const char *path = getenv("PATH");
	struct lk_buf cand = LK_BUF_INIT;

	if (!*name || strchr(name, '/'))
		return NULL;
	while (path && *path) {
		const char *end = strchr(path, ':');
		size_t len = end ? (size_t)(end - path) : strlen(path);
		struct stat st;

		/* Relative PATH entries would depend on where the analysis runs. */
		if (len && path[0] == '/') {
			lk_buf_reset(&cand);
			lk_buf_add(&cand, path, len);
			lk_buf_addf(&cand, "/%s", name);
			if (stat(cand.buf, &st) == 0 && S_ISREG(st.st_mode) &&
			    access(cand.buf, X_OK) == 0 && !is_shim(cand.buf))
				return lk_buf_detach(&cand);
		}
		path = end ? end + 1 : NULL;
	}
	lk_buf_release(&cand);
	return NULL;
}

char *lk_trust_driver(const struct lk_record *rec, struct lk_err *err)
{
	const char *given = rec->driver_given ? rec->driver_given :
			    rec->args.nr ? rec->args.items[0].text : "";
	const char *name = strrchr(given, '/') ? strrchr(given, '/') + 1 : given;
	char *path;

	if (!lk_argv_is_driver_name(name)) {
		lk_err_set(err, LK_E_USAGE, "the record's driver '%s' is not a known compiler driver (gcc, g++, cc, c++, clang, clang++, TARGET-gcc)",
			   name);
		return NULL;
	}
	if (!(path = lk_trust_which(name)))
		lk_err_set(err, LK_E_NOTFOUND, "no '%s' on this machine's PATH", name);
	return path;
}

/* ---- the options ---- */

enum verdict {
	KEEP,		/* allowed for this use */
	SKIP,		/* harmless, but not for this use (a link option when compiling) */
	DROP,		/* not allowed: left out and reported */
};

struct filter {
	const struct lk_record *rec;
	enum lk_trust_use use;
	struct lk_strvec *kept, *dropped;
	int ld_pending;		/* the next linker word is the value of an ld option: */
	enum verdict ld_pending_verdict;	/* ... with this verdict */
	int ld_pending_path;	/* ... and is a path */
};

/* `value` made absolute against the record's cwd, for runs in a scratch dir (malloc'd). */
static char *absolute(const struct filter *f, const char *value)
{
	struct lk_buf b = LK_BUF_INIT;

	if (f->use == LK_TRUST_EXPAND || value[0] == '/' || !*value || !f->rec->cwd)
		lk_buf_addstr(&b, value);
	else
		lk_buf_addf(&b, "%s/%s", f->rec->cwd, value);
	return lk_buf_detach(&b);
}

/* ld options (ld/lexsup.c) that only change which inputs are read and how. */
static const char *const ld_flags[] = {
	"--start-group", "--end-group", "-(", "-)", "--whole-archive", "--no-whole-archive",
	"-Bstatic", "-Bdynamic", "-dn", "-dy", "-static", "-non_shared", "-call_shared",
	"-Bshareable", "-shared", "-pie", "--pie", "-no-pie", "--no-pie", "-r", "-i",
	"--relocatable", "--as-needed", "--no-as-needed", "--copy-dt-needed-entries",
	"--no-copy-dt-needed-entries", "--add-needed", "--no-add-needed", "--push-state",
	"--pop-state", "--gc-sections", "--no-gc-sections", "--no-undefined",
	"--allow-shlib-undefined", "--no-allow-shlib-undefined", "--allow-multiple-definition",
	"--export-dynamic", "-E", "--no-export-dynamic", "--eh-frame-hdr", "--no-eh-frame-hdr",
	"-O0", "-O1", "-O2", "-O3", "-s", "-S", "--strip-all", "--strip-debug", "-Bsymbolic",
	"-Bsymbolic-functions", "--relax", "--no-relax", "--fatal-warnings",
	"--no-fatal-warnings", "--warn-common", "--no-warn-mismatch", "--enable-new-dtags",
	"--disable-new-dtags", "--build-id", "-nostdlib", "--demangle", "--no-demangle",
	"--sort-common", "-X", "-x", "--discard-all", "--discard-locals", "--no-undefined-version",
	"--undefined-version", "--error-unresolved-symbols", "--warn-unresolved-symbols",
	"--no-copy-dt-needed-entries", "-t", "--verbose", "-v", "--version", "-V",
	"--color-diagnostics", "--threads", "--no-threads", "--ignore-unresolved-symbol",
	NULL,
};

/* ld options taking a value, joined (-LDIR, --opt=V) or as the next word. */
struct ld_valopt {
	const char *name;
	int path;		/* the value is a file or dir read at link time */
};

static const struct ld_valopt ld_valopts[] = {
	{ "-l", 0 }, { "--library", 0 }, { "-L", 1 }, { "--library-path", 1 },
	{ "-rpath", 0 }, { "--rpath", 0 }, { "-rpath-link", 1 }, { "--rpath-link", 1 },
	{ "-R", 0 }, { "-T", 1 }, { "--script", 1 }, { "-u", 0 }, { "--undefined", 0 },
	{ "-e", 0 }, { "--entry", 0 }, { "-m", 0 }, { "-soname", 0 }, { "--soname", 0 },
	{ "-h", 0 }, { "--sysroot", 1 }, { "--defsym", 0 }, { "--wrap", 0 },
	{ "--version-script", 1 }, { "--dynamic-list", 1 }, { "--dynamic-linker", 0 },
	{ "-dynamic-linker", 0 }, { "-I", 0 }, { "--unresolved-symbols", 0 },
	{ "--hash-style", 0 }, { "--build-id", 0 }, { "--sort-section", 0 },
	{ "--exclude-libs", 0 }, { "--icf", 0 }, { "-z", 0 }, { "--require-defined", 0 },
	{ "--undefined-glob", 0 }, { "-Ttext", 0 }, { "-Tdata", 0 }, { "-Tbss", 0 },
	{ "--section-start", 0 }, { "--image-base", 0 }, { "--compress-debug-sections", 0 },
	{ NULL, 0 },
};

/* Value-taking ld options that may never come from a record: they write or load. */
static const char *const ld_denied_valopts[] = {
	"-o", "--output", "-Map", "--Map", "-plugin", "--plugin", "-plugin-opt",
	"--plugin-opt", "--dependency-file", "--out-implib", "-y", "--trace-symbol",
	"--retain-symbols-file", "-f", "--auxiliary", "-F", "--filter", "-c",
	"--mri-script", "-P", "--depaudit", "--audit", "-A", "--architecture", "-b",
	"--format", "--print-map", "-M", "--package-metadata", NULL,
};

static const struct ld_valopt *ld_valopt(const char *name)
{
	for (const struct ld_valopt *o = ld_valopts; o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

/* One linker word (from -Wl, or -Xlinker): its verdict; `*out` is what to pass (malloc'd). */
static enum verdict ld_word(struct filter *f, const char *w, char **out)
{
	const struct ld_valopt *o;
	char name[64];
	const char *eq;

	*out = NULL;
	if (f->ld_pending) {
		enum verdict v = f->ld_pending_verdict;

		f->ld_pending = 0;
		if (v == KEEP && f->ld_pending_path)
			*out = absolute(f, w);
		return v;
	}
	if (w[0] != '-' || !w[1]) {
		if (w[0] == '@')
			return DROP;	/* a file of more options, unfiltered */
		*out = absolute(f, w);	/* an input: read */
		return KEEP;
	}
	if (lk_str_in_list(w, ld_flags))
		return KEEP;
	eq = strchr(w, '=');
	if (eq && (size_t)(eq - w) < sizeof(name)) {
		memcpy(name, w, (size_t)(eq - w));
		name[eq - w] = '\0';
		if (lk_str_in_list(name, ld_denied_valopts) || !(o = ld_valopt(name)))
			return DROP;
		if (!strcmp(name, "-z") || !strcmp(name, "--build-id"))
			return strchr(eq, '/') ? DROP : KEEP;
		if (o->path) {
			struct lk_buf b = LK_BUF_INIT;
			char *abs = absolute(f, eq + 1);

			lk_buf_addf(&b, "%s=%s", name, abs);
			free(abs);
			*out = lk_buf_detach(&b);
		}
		return KEEP;
	}
	if (lk_str_in_list(w, ld_denied_valopts)) {
		f->ld_pending = 1;
		f->ld_pending_verdict = DROP;
		f->ld_pending_path = 0;
		return DROP;
	}
	if ((o = ld_valopt(w))) {
		f->ld_pending = 1;
		f->ld_pending_verdict = KEEP;
		f->ld_pending_path = o->path;
		return KEEP;
	}
	/* Joined short forms: -lNAME, -LDIR, -TFILE, -zKEYWORD, -hNAME, -mEMU, -uSYM, -eSYM, -RDIR. */
	if (strchr("lLTzhmueR", w[1]) && w[2] && w[1] != '-') {
		if (strchr(w, '/') && strchr("zhmue", w[1]))
			return DROP;
		if (w[1] == 'L' || w[1] == 'T') {
			struct lk_buf b = LK_BUF_INIT;
			char *abs = absolute(f, w + 2);

			lk_buf_addf(&b, "-%c%s", w[1], abs);
			free(abs);
			*out = lk_buf_detach(&b);
		}
		return KEEP;
	}
	return DROP;
}

static void keep(struct filter *f, const char *word, char *owned)
{
	if (owned)
		lk_strvec_push_owned(f->kept, owned);
	else
		lk_strvec_push(f->kept, word);
}

static void drop(struct filter *f, const char *word)
{
	lk_strvec_push(f->dropped, word);
}

/* -Wl,a,b,c: the allowed words kept together, each other one reported. */
static void wl_list(struct filter *f, const char *arg)
{
	struct lk_buf kept = LK_BUF_INIT, word = LK_BUF_INIT, shown = LK_BUF_INIT;
	const char *p = arg + 4;

	lk_buf_addstr(&kept, "-Wl");
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char *out;

		lk_buf_reset(&word);
		lk_buf_add(&word, p, len);
		if (ld_word(f, word.buf, &out) == KEEP) {
			lk_buf_addf(&kept, ",%s", out ? out : word.buf);
		} else {
			lk_buf_reset(&shown);
			lk_buf_addf(&shown, "-Wl,%s", word.buf);
			drop(f, shown.buf);
		}
		free(out);
		if (!comma)
			break;
		p = comma + 1;
	}
	if (kept.len > 3)
		lk_strvec_push_owned(f->kept, lk_buf_detach(&kept));
	lk_buf_release(&kept);
	lk_buf_release(&word);
	lk_buf_release(&shown);
}

/* Driver options whose value is the next word (the one table: driveropt.c). */
static int takes_value(const char *a)
{
	const struct lk_driveropt *o = lk_driveropt_find(a);

	return o && (o->flags & LK_DOPT_SEPARATE);
}

/* -f options that write files, load code or run programs (gcc and clang). */
static const char *const f_denied[] = {
	"plugin", "pass-plugin", "dump", "stack-usage", "callgraph-info",
	"save-optimization-record", "opt-info", "profile", "auto-profile", "compare-debug",
	"diagnostics-add-output", "diagnostics-set-output", "time-trace", "time-report",
	"modules-cache-path", "crash-diagnostics", "embed-bitcode", "ltrans", "wpa",
	"resolution", "gen-reproducer", "coverage-data-file", "sanitize-coverage", "xray",
	"ipa-profile", "ld-path", NULL,
};

static enum verdict f_option(const char *a)
{
	const char *name = a + 2;

	if (!strncmp(name, "no-", 3))
		name += 3;
	for (const char *const *d = f_denied; *d; d++)
		if (lk_str_starts_with(name, *d))
			return DROP;
	/* A path value is a file to write or load; -fuse-ld=lld is a name. */
	return strchr(a, '/') ? DROP : KEEP;
}

/* Options with no value that only change code, inputs or output kind. */
static const char *const plain_opts[] = {
	"-shared", "-static", "-static-pie", "-pie", "-no-pie", "-rdynamic", "-s", "-r",
	"-nostdlib", "-nodefaultlibs", "-nostartfiles", "-nolibc", "-nostdlib++",
	"-static-libgcc", "-shared-libgcc", "-static-libstdc++", "-static-libasan",
	"-static-libtsan", "-static-liblsan", "-static-libubsan", "-symbolic", "-pthread",
	"-ansi", "-w", "-pipe", "-nostdinc", "-nostdinc++", "-undef", "-C", "-P", "-CC",
	"-traditional", "-traditional-cpp", "-trigraphs", "-p", "-pg", "-fopenmp", NULL,
};

/* Link-only: skipped when compiling. */
static int link_only(const char *a)
{
	static const char *const exact[] = { "-shared", "-static", "-static-pie", "-pie", "-no-pie",
		"-rdynamic", "-s", "-r", "-nostdlib", "-nodefaultlibs", "-nostartfiles", "-nolibc",
		"-shared-libgcc", "-symbolic", NULL };
	static const char *const prefixes[] = { "-l", "-L", "-Wl,", "-T", "-static-lib", "-fuse-ld",
		"-z", NULL };

	if (lk_str_in_list(a, exact))
		return 1;
	for (const char *const *o = prefixes; *o; o++)
		if (lk_str_starts_with(a, *o))
			return 1;
	/* -uSYM, -eSYM; not -undef. */
	return (a[1] == 'u' || a[1] == 'e') && a[2] && strcmp(a, "-undef");
}

/* A driver word with no value (or a joined one): its verdict. */
static enum verdict driver_word(const struct filter *f, const char *a)
{
	if (a[0] == '@')
		return DROP;	/* a file of more options, unfiltered */
	if (a[0] != '-' || !a[1])
		return f->use == LK_TRUST_COMPILE ? SKIP : KEEP;	/* an input */
	if (f->use == LK_TRUST_COMPILE && link_only(a))
		return SKIP;
	if (lk_str_in_list(a, plain_opts))
		return KEEP;
	if (lk_str_starts_with(a, "-Wa,") || lk_str_starts_with(a, "-Wp,") || lk_str_starts_with(a, "-save-temps") ||
	    lk_str_starts_with(a, "-specs") || lk_str_starts_with(a, "--specs") || lk_str_starts_with(a, "-wrapper") ||
	    lk_str_starts_with(a, "--ld-path") || lk_str_starts_with(a, "-print") || lk_str_starts_with(a, "--print") ||
	    lk_str_starts_with(a, "-dump") || !strcmp(a, "-###") || !strcmp(a, "-v") || lk_str_starts_with(a, "-time") ||
	    lk_str_starts_with(a, "-M") || lk_str_starts_with(a, "-no-canonical-prefixes") || lk_str_starts_with(a, "--save-temps"))
		return DROP;
	if (lk_str_starts_with(a, "-W") || lk_str_starts_with(a, "-O") || lk_str_starts_with(a, "-g") || lk_str_starts_with(a, "-std=") ||
	    lk_str_starts_with(a, "-pedantic") || lk_str_starts_with(a, "--std="))
		return strchr(a, '/') ? DROP : KEEP;
	if (lk_str_starts_with(a, "-f"))
		return f_option(a);
	if (lk_str_starts_with(a, "-m") || lk_str_starts_with(a, "--target=") || lk_str_starts_with(a, "-march") || lk_str_starts_with(a, "-mcpu"))
		return strchr(a, '/') ? DROP : KEEP;
	if (lk_str_starts_with(a, "-D") || lk_str_starts_with(a, "-U"))
		return KEEP;
	if (lk_str_starts_with(a, "-l") || lk_str_starts_with(a, "-L") || lk_str_starts_with(a, "-I") || lk_str_starts_with(a, "-isystem") ||
	    lk_str_starts_with(a, "-iquote") || lk_str_starts_with(a, "-idirafter") || lk_str_starts_with(a, "-T") ||
	    lk_str_starts_with(a, "--sysroot="))
		return KEEP;
	if (lk_str_starts_with(a, "-B"))
		return f->use == LK_TRUST_EXPAND ? KEEP : DROP;	/* runs programs from that dir */
	if (lk_str_starts_with(a, "-o"))
		return f->use == LK_TRUST_EXPAND ? KEEP : SKIP;	/* the caller sets the output */
	if (lk_str_starts_with(a, "-x"))
		return f->use == LK_TRUST_COMPILE ? SKIP : KEEP;
	if (lk_str_starts_with(a, "-u") || lk_str_starts_with(a, "-e") || lk_str_starts_with(a, "-z"))
		return strchr(a, '/') ? DROP : KEEP;
	return DROP;
}

/* Joined path values (-Ldir, -Idir, -Tfile, --sysroot=dir) made absolute. */
static char *joined_path(const struct filter *f, const char *a)
{
	static const char *const prefixes[] = { "--sysroot=", "-isystem", "-iquote", "-idirafter",
		"-L", "-I", "-T", NULL };
	struct lk_buf b = LK_BUF_INIT;

	if (f->use == LK_TRUST_EXPAND)
		return NULL;
	for (const char *const *p = prefixes; *p; p++) {
		size_t len = strlen(*p);
		char *abs;

		if (strncmp(a, *p, len) || !a[len])
			continue;
		abs = absolute(f, a + len);
		lk_buf_addf(&b, "%s%s", *p, abs);
		free(abs);
		return lk_buf_detach(&b);
	}
	return NULL;
}

/* `opt VALUE` as two words. */
static void value_pair(struct filter *f, const char *opt, const char *value)
{
	static const char *const path_opts[] = { "-L", "-I", "-isystem", "-iquote", "-idirafter",
		"-include", "-imacros", "-T", "--sysroot", "-B", NULL };
	enum verdict v;

	if (!strcmp(opt, "-Xlinker")) {
		char *out;

		v = ld_word(f, value, &out);
		if (v == KEEP && f->use != LK_TRUST_COMPILE) {
			lk_strvec_push(f->kept, opt);
			keep(f, value, out);
			return;
		}
		free(out);
		if (v == DROP) {
			drop(f, opt);
			drop(f, value);
		}
		return;
	}
	if (!strcmp(opt, "-o") || !strcmp(opt, "-x"))
		v = f->use == LK_TRUST_EXPAND ? KEEP : SKIP;
	else if (!strcmp(opt, "-B"))
		v = f->use == LK_TRUST_EXPAND ? KEEP : DROP;
	else if (!strcmp(opt, "-l") || !strcmp(opt, "-L") || !strcmp(opt, "-T") ||
		 !strcmp(opt, "-u") || !strcmp(opt, "-e") || !strcmp(opt, "-z"))
		v = f->use == LK_TRUST_COMPILE ? SKIP : KEEP;
	else if (lk_str_in_list(opt, (const char *const[]){ "-I", "-isystem", "-iquote", "-idirafter",
						     "-include", "-imacros", "-D", "-U", "-target",
						     "--sysroot", NULL }))
		v = KEEP;
	else
		v = DROP;
	if (v == KEEP && !strcmp(opt, "-z") && strchr(value, '/'))
		v = DROP;
	if (v == KEEP) {
		lk_strvec_push(f->kept, opt);
		keep(f, value, lk_str_in_list(opt, path_opts) ? absolute(f, value) : NULL);
	} else if (v == DROP) {
		drop(f, opt);
		drop(f, value);
	}
}

void lk_trust_filter(const struct lk_record *rec, enum lk_trust_use use,
		     struct lk_strvec *kept, struct lk_strvec *dropped)
{
	struct filter f = { rec, use, kept, dropped, 0, KEEP, 0 };

	for (size_t i = 1; i < rec->args.nr; i++) {
		const char *a = rec->args.items[i].text;
		enum verdict v;

		if (takes_value(a) && i + 1 < rec->args.nr) {
			value_pair(&f, a, rec->args.items[++i].text);
			continue;
		}
		if (lk_str_starts_with(a, "-Wl,")) {
			if (use != LK_TRUST_COMPILE)
				wl_list(&f, a);
			continue;
		}
		v = driver_word(&f, a);
		if (v == KEEP) {
			char *abs = a[0] != '-' ? absolute(&f, a) : joined_path(&f, a);

			keep(&f, a, abs);
		} else if (v == DROP) {
			drop(&f, a);
		}
	}
}

char *lk_trust_dropped_note(const struct lk_strvec *dropped)
{
	struct lk_buf b = LK_BUF_INIT;

	if (!dropped->nr)
		return NULL;
	lk_buf_addstr(&b, "not passed to the driver (not on the allow-list of docs/security.md):");
	for (size_t i = 0; i < dropped->nr && i < 12; i++)
		lk_buf_addf(&b, " %s", dropped->items[i]);
	if (dropped->nr > 12)
		lk_buf_addf(&b, " and %zu more", dropped->nr - 12);
	return lk_buf_detach(&b);
}
