/*
 * Record -> what the analyzer may run for it (--run-driver,
 * --verify-with-linker). A record may come from someone else's CI run: its
 * driver path, its options and its environment are data, never a command.
 * So the program is the analysing machine's own compiler driver of the
 * same name, found on our PATH; the options are a true allow-list, option
 * by option, of what a link or a compile needs (inputs, search dirs, input
 * state, what changes code generation, the ABI or what the driver links),
 * each value checked to be what that option takes, and everything else
 * left out and named; the environment is built from nothing. The walls
 * around the run are sandbox.c's. docs/security.md lists it all for users;
 * the ld options are those of ld/lexsup.c that change which inputs are
 * read and how.
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
#include "trust_options.h"

/* ---- the driver ---- */

static int is_shim(const char *path)
{
	char *real = realpath(path, NULL);
	const char *slash = real ? strrchr(real, '/') : NULL;
	int shim = slash && !strncmp(slash + 1, "linkscope-cc", 12);

	free(real);
	return shim;
}

/* The variables that change what the driver finds; the record's, for the uses that may have them. */
static const char *const driver_vars[] = { "LIBRARY_PATH", "COMPILER_PATH", "GCC_EXEC_PREFIX", NULL };

/*
 * Only -### may have them: it runs nothing. A link gets LIBRARY_PATH as -L
 * words instead (library_path_as_l), a compile none: LIBRARY_PATH dirs are
 * searched for a specs file, COMPILER_PATH and GCC_EXEC_PREFIX for cc1, as
 * and ld, and each of those names the programs that run.
 */
static int recorded_for(enum lk_trust_use use)
{
	return use == LK_TRUST_EXPAND;
}

/* "PATH=" and the absolute entries of ours: a relative one would depend on where the run is. */
static char *absolute_path(void)
{
	const char *path = getenv("PATH");
	struct lk_buf b = LK_BUF_INIT;
	int first = 1;

	lk_buf_addstr(&b, "PATH=");
	while (path && *path) {
		const char *end = strchr(path, ':');
		size_t len = end ? (size_t)(end - path) : strlen(path);

		if (len && path[0] == '/') {
			if (!first)
				lk_buf_addch(&b, ':');
			lk_buf_add(&b, path, len);
			first = 0;
		}
		path = end ? end + 1 : NULL;
	}
	return lk_buf_detach(&b);
}

void lk_trust_env(const struct lk_record *rec, enum lk_trust_use use, const char *scratch,
		  struct lk_strvec *envp)
{
	struct lk_buf entry = LK_BUF_INIT;

	lk_strvec_push_owned(envp, absolute_path());
	/* Messages as the tests and the notes expect them, whatever the analyser's locale. */
	lk_strvec_push(envp, "LANG=C");
	lk_buf_addf(&entry, "TMPDIR=%s", scratch);
	lk_strvec_push(envp, entry.buf);
	for (const char *const *v = driver_vars; rec && recorded_for(use) && *v; v++) {
		const char *value = lk_record_env(rec, *v);

		if (!value)
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

/* The record's driver as given: its basename. */
static const char *driver_name(const struct lk_record *rec)
{
	const char *given = rec->driver_given ? rec->driver_given :
			    rec->args.nr ? rec->args.items[0].text : "";

	return strrchr(given, '/') ? strrchr(given, '/') + 1 : given;
}

char *lk_trust_driver(const struct lk_record *rec, struct lk_err *err)
{
	const char *name = driver_name(rec);
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
	HOLD,		/* an allowed ld option whose value is the next word: kept if that is */
};

struct filter {
	const struct lk_record *rec;
	enum lk_trust_use use;
	struct lk_strvec *kept, *dropped;
	int clang;		/* the driver that runs is clang's (--sysroot can choose its programs) */
	int ld_pending;		/* the next linker word is the value of an ld option: */
	const struct ld_valopt *ld_pending_opt;	/* ... this one, or NULL: a denied one */
	struct lk_strvec held;	/* the driver words of a HOLD option that ended its -Wl or -Xlinker */
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

/* `opt` and `value` made absolute, as one word: -L/work/proj/lib (malloc'd). */
static char *joined_abs(const struct filter *f, const char *opt, const char *value)
{
	struct lk_buf b = LK_BUF_INIT;
	char *abs = absolute(f, value);

	lk_buf_addf(&b, "%s%s", opt, abs);
	free(abs);
	return lk_buf_detach(&b);
}

/* The parts of `s` between `sep`s (empty ones too), appended to `out`. */
static void split(const char *s, char sep, struct lk_strvec *out)
{
	for (;;) {
		const char *end = strchr(s, sep);

		lk_strvec_push_owned(out, end ? lk_xstrndup(s, (size_t)(end - s)) : lk_xstrdup(s));
		if (!end)
			break;
		s = end + 1;
	}
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
	"--export-dynamic", "-export-dynamic", "-E", "--no-export-dynamic", "--eh-frame-hdr",
	"--no-eh-frame-hdr", "-O0", "-O1", "-O2", "-O3", "-s", "-S", "--strip-all", "--strip-debug",
	"-Bsymbolic", "-Bsymbolic-functions", "--relax", "--no-relax", "--fatal-warnings",
	"--no-fatal-warnings", "--warn-common", "--no-warn-mismatch", "--enable-new-dtags",
	"--disable-new-dtags", "--build-id", "-nostdlib", "--demangle", "--no-demangle",
	"--sort-common", "-X", "-x", "--discard-all", "--discard-locals", "--no-undefined-version",
	"--undefined-version", "--error-unresolved-symbols", "--warn-unresolved-symbols",
	"-t", "--verbose", "-v", "-V", "--color-diagnostics", "--threads", "--no-threads",
	NULL,
};

/* What an ld option's value is, and so how it is checked. */
enum ld_value {
	LD_PATH,	/* a file or dir the link reads: made absolute for a run in a scratch dir */
	LD_TEXT,	/* a symbol, an address, an rpath, a soname: written into the output, never opened */
	LD_KEYWORD,	/* a keyword (-z now, --hash-style=gnu): lk_trust_plain_value() */
	LD_EMULATION,	/* -m elf_x86_64 */
};

/* ld options taking a value, joined (-LDIR, --opt=V) or as the next word. */
struct ld_valopt {
	const char *name;
	enum ld_value value;
};

static const struct ld_valopt ld_valopts[] = {
	{ "-l", LD_TEXT }, { "--library", LD_TEXT }, { "-L", LD_PATH }, { "--library-path", LD_PATH },
	{ "-rpath", LD_TEXT }, { "--rpath", LD_TEXT }, { "-rpath-link", LD_PATH },
	{ "--rpath-link", LD_PATH }, { "-R", LD_PATH }, { "-T", LD_PATH }, { "--script", LD_PATH },
	{ "-u", LD_TEXT }, { "--undefined", LD_TEXT }, { "-e", LD_TEXT }, { "--entry", LD_TEXT },
	{ "-m", LD_EMULATION }, { "-soname", LD_TEXT }, { "--soname", LD_TEXT }, { "-h", LD_TEXT },
	{ "--sysroot", LD_PATH }, { "--defsym", LD_TEXT }, { "--wrap", LD_TEXT },
	{ "--version-script", LD_PATH }, { "--dynamic-list", LD_PATH },
	{ "--dynamic-linker", LD_TEXT }, { "-dynamic-linker", LD_TEXT }, { "-I", LD_TEXT },
	{ "--unresolved-symbols", LD_KEYWORD }, { "--hash-style", LD_KEYWORD },
	{ "--build-id", LD_KEYWORD }, { "--sort-section", LD_KEYWORD }, { "--exclude-libs", LD_TEXT },
	{ "--icf", LD_KEYWORD }, { "-z", LD_KEYWORD }, { "--require-defined", LD_TEXT },
	{ "--undefined-glob", LD_TEXT }, { "-Ttext", LD_TEXT }, { "-Tdata", LD_TEXT },
	{ "-Tbss", LD_TEXT }, { "--section-start", LD_TEXT }, { "--image-base", LD_TEXT },
	{ "--compress-debug-sections", LD_KEYWORD }, { "--ignore-unresolved-symbol", LD_TEXT },
	{ NULL, LD_TEXT },
};

/*
 * Value-taking ld options (GNU ld, gold, lld, mold) that may never come
 * from a record: they write files, load or run code, or read options.
 * Named so that their separate value is dropped with them.
 */
static const char *const ld_denied_valopts[] = {
	"-o", "--output", "-Map", "--Map", "-plugin", "--plugin", "-plugin-opt",
	"--plugin-opt", "--dependency-file", "--out-implib", "-y", "--trace-symbol",
	"--retain-symbols-file", "-f", "--auxiliary", "-F", "--filter", "-c",
	"--mri-script", "-P", "--depaudit", "--audit", "-A", "--architecture", "-b",
	"--format", "--print-map", "-M", "--package-metadata", "--error-handling-script",
	"-mllvm", "--mllvm", "--load-pass-plugin", "--reproduce", "--why-extract",
	"--print-archive-stats", "--thinlto-cache-dir", "--lto-obj-path", "--chroot", NULL,
};

static const struct ld_valopt *ld_valopt(const char *name)
{
	for (const struct ld_valopt *o = ld_valopts; o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

/* ld's -m value: an emulation's name (elf_x86_64, aarch64linux). */
static int emulation_name(const char *v)
{
	if (!*v)
		return 0;
	for (; *v; v++)
		if (!isalnum((unsigned char)*v) && *v != '_')
			return 0;
	return 1;
}

/*
 * The value of ld option `o`, given as `value` after `prefix` ("-L",
 * "--script=", or "" for a separate word): its verdict, and in `*out`
 * the word to pass when a path had to be made absolute (malloc'd).
 */
static enum verdict ld_value(const struct filter *f, const struct ld_valopt *o, const char *prefix,
			     const char *value, char **out)
{
	switch (o->value) {
	case LD_TEXT:
		return KEEP;
	case LD_KEYWORD:
		return lk_trust_plain_value(value) ? KEEP : DROP;
	case LD_EMULATION:
		return emulation_name(value) ? KEEP : DROP;
	case LD_PATH:
		break;
	}
	*out = joined_abs(f, prefix, value);
	return KEEP;
}

/*
 * One linker word (from -Wl, or -Xlinker): its verdict; `*out` is what to
 * pass (malloc'd). HOLD: the next linker word is the option's value, and
 * the two are kept or dropped together.
 */
static enum verdict ld_word(struct filter *f, const char *w, char **out)
{
	const struct ld_valopt *o;
	char name[64];
	const char *eq;

	*out = NULL;
	if (f->ld_pending) {
		const struct ld_valopt *pending = f->ld_pending_opt;

		f->ld_pending = 0;
		return pending ? ld_value(f, pending, "", w, out) : DROP;
	}
	if (w[0] != '-' || !w[1]) {
		if (w[0] == '@')
			return DROP;	/* a file of more options, unfiltered */
		*out = absolute(f, w);	/* an input: read */
		return KEEP;
	}
	if (lk_str_in_list(w, ld_flags))
		return KEEP;
	/* -zKEYWORD=VALUE (-zmax-page-size=0x1000) is -z's, not an option named -zmax-page-size. */
	if (w[1] == 'z' && w[2])
		return ld_value(f, ld_valopt("-z"), "-z", w + 2, out);
	eq = strchr(w, '=');
	if (eq && (size_t)(eq - w) < sizeof(name) - 1) {
		memcpy(name, w, (size_t)(eq - w) + 1);
		name[eq - w] = '\0';
		if (lk_str_in_list(name, ld_denied_valopts) || !(o = ld_valopt(name)))
			return DROP;
		name[eq - w] = '=';
		name[eq - w + 1] = '\0';
		return ld_value(f, o, name, eq + 1, out);
	}
	if (lk_str_in_list(w, ld_denied_valopts)) {
		f->ld_pending = 1;
		f->ld_pending_opt = NULL;
		return DROP;
	}
	if ((o = ld_valopt(w))) {
		f->ld_pending = 1;
		f->ld_pending_opt = o;
		return HOLD;
	}
	/* Joined short forms: -lNAME, -LDIR, -TFILE, -RDIR, -hNAME, -mEMU, -uSYM, -eSYM. */
	if (w[1] != '-' && w[2] && strchr("lLTRhmue", w[1])) {
		char opt[3] = { '-', w[1], '\0' };

		return ld_value(f, ld_valopt(opt), opt, w + 2, out);
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

/*
 * The value of a held option has come (`v`): the option's driver words go
 * with it, kept (before the value's own word) or dropped.
 */
static void settle_held(struct filter *f, enum verdict v)
{
	for (size_t i = 0; i < f->held.nr; i++)
		lk_strvec_push(v == KEEP ? f->kept : f->dropped, f->held.items[i]);
	lk_strvec_release(&f->held);
}

/* One ld word of a -Wl list or an -Xlinker: its verdict, and a held option settled by it. */
static enum verdict ld_word_settled(struct filter *f, const char *w, char **out)
{
	int value = f->ld_pending;
	enum verdict v = ld_word(f, w, out);

	if (value && f->held.nr)
		settle_held(f, v);
	return v;
}

/* -Wl,a,b,c: the allowed words kept together, each other one reported. */
static void wl_list(struct filter *f, const char *arg)
{
	struct lk_buf kept = LK_BUF_INIT, shown = LK_BUF_INIT;
	struct lk_strvec words = LK_STRVEC_INIT;

	lk_buf_addstr(&kept, "-Wl");
	split(arg + 4, ',', &words);
	for (size_t i = 0; i < words.nr; i++) {
		const char *w = words.items[i], *value = i + 1 < words.nr ? words.items[i + 1] : NULL;
		char *out, *value_out = NULL;
		enum verdict v = ld_word_settled(f, w, &out);

		lk_buf_reset(&shown);
		lk_buf_addf(&shown, "-Wl,%s", w);
		if (v == HOLD && !value) {
			/* Its value is in the next driver word. */
			lk_strvec_push(&f->held, shown.buf);
		} else if (v == HOLD) {
			i++;
			if (ld_word(f, value, &value_out) == KEEP) {
				lk_buf_addf(&kept, ",%s,%s", w, value_out ? value_out : value);
			} else {
				drop(f, shown.buf);
				lk_buf_reset(&shown);
				lk_buf_addf(&shown, "-Wl,%s", value);
				drop(f, shown.buf);
			}
		} else if (v == KEEP) {
			lk_buf_addf(&kept, ",%s", out ? out : w);
		} else {
			drop(f, shown.buf);
		}
		free(out);
		free(value_out);
	}
	if (kept.len > 3)
		lk_strvec_push_owned(f->kept, lk_buf_detach(&kept));
	lk_buf_release(&kept);
	lk_buf_release(&shown);
	lk_strvec_release(&words);
}

/* Driver options whose value is the next word (the one table: driveropt.c). */
static int takes_value(const char *a)
{
	const struct lk_driveropt *o = lk_driveropt_find(a);

	return o && (o->flags & LK_DOPT_SEPARATE);
}

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

/* -W warnings by shape: a name and maybe a plain value; a comma is -Wa, -Wp, -Wl (more words). */
static int warning(const char *a)
{
	return a[1] == 'W' && lk_trust_plain_value(a + 2);
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
	if (lk_trust_codegen_option(a) || warning(a))
		return KEEP;
	/* Macros are the preprocessor's text; inputs and search dirs are read. */
	if (lk_str_starts_with(a, "-D") || lk_str_starts_with(a, "-U") || lk_str_starts_with(a, "-l") ||
	    lk_str_starts_with(a, "-L") || lk_str_starts_with(a, "-I") || lk_str_starts_with(a, "-isystem") ||
	    lk_str_starts_with(a, "-iquote") || lk_str_starts_with(a, "-idirafter") || lk_str_starts_with(a, "-T"))
		return KEEP;
	if (lk_str_starts_with(a, "--sysroot="))
		return f->use == LK_TRUST_LINK && f->clang ? DROP : KEEP;
	if (lk_str_starts_with(a, "-B"))
		return f->use == LK_TRUST_EXPAND ? KEEP : DROP;	/* runs programs from that dir */
	if (lk_str_starts_with(a, "-o"))
		return f->use == LK_TRUST_EXPAND ? KEEP : SKIP;	/* the caller sets the output */
	if (lk_str_starts_with(a, "-x"))
		return f->use == LK_TRUST_COMPILE ? SKIP : lk_trust_plain_value(a + 2) ? KEEP : DROP;
	if (lk_str_starts_with(a, "-u") || lk_str_starts_with(a, "-e") || lk_str_starts_with(a, "-z"))
		return lk_trust_plain_value(a + 2) ? KEEP : DROP;
	return DROP;
}

/* Joined path values (-Ldir, -Idir, -Tfile, --sysroot=dir) made absolute. */
static char *joined_path(const struct filter *f, const char *a)
{
	static const char *const prefixes[] = { "--sysroot=", "-isystem", "-iquote", "-idirafter",
		"-L", "-I", "-T", NULL };

	if (f->use == LK_TRUST_EXPAND)
		return NULL;
	for (const char *const *p = prefixes; *p; p++) {
		size_t len = strlen(*p);

		if (!strncmp(a, *p, len) && a[len])
			return joined_abs(f, *p, a + len);
	}
	return NULL;
}

/* `opt VALUE` as two words: the verdict of the pair. */
static enum verdict value_pair_verdict(const struct filter *f, const char *opt, const char *value)
{
	static const char *const read_opts[] = { "-I", "-isystem", "-iquote", "-idirafter",
		"-include", "-imacros", "-D", "-U", NULL };

	if (!strcmp(opt, "-o"))
		return f->use == LK_TRUST_EXPAND ? KEEP : SKIP;
	if (!strcmp(opt, "-x"))
		return f->use != LK_TRUST_EXPAND ? SKIP : lk_trust_plain_value(value) ? KEEP : DROP;
	if (!strcmp(opt, "-B"))
		return f->use == LK_TRUST_EXPAND ? KEEP : DROP;
	if (!strcmp(opt, "-l") || !strcmp(opt, "-L") || !strcmp(opt, "-T"))
		return f->use == LK_TRUST_COMPILE ? SKIP : KEEP;
	if (!strcmp(opt, "-u") || !strcmp(opt, "-e") || !strcmp(opt, "-z"))
		return f->use == LK_TRUST_COMPILE ? SKIP : lk_trust_plain_value(value) ? KEEP : DROP;
	if (!strcmp(opt, "-target"))
		return lk_trust_plain_value(value) ? KEEP : DROP;
	if (!strcmp(opt, "--sysroot"))
		return f->use == LK_TRUST_LINK && f->clang ? DROP : KEEP;
	return lk_str_in_list(opt, read_opts) ? KEEP : DROP;
}

/* `opt VALUE` as two words. */
static void value_pair(struct filter *f, const char *opt, const char *value)
{
	static const char *const path_opts[] = { "-L", "-I", "-isystem", "-iquote", "-idirafter",
		"-include", "-imacros", "-T", "--sysroot", "-B", NULL };
	enum verdict v;
	char *out = NULL;

	if (!strcmp(opt, "-Xlinker")) {
		v = ld_word_settled(f, value, &out);
		if ((v == KEEP || v == HOLD) && f->use == LK_TRUST_COMPILE)
			v = SKIP;
		if (v == HOLD) {
			lk_strvec_push(&f->held, opt);
			lk_strvec_push(&f->held, value);
			return;
		}
	} else {
		v = value_pair_verdict(f, opt, value);
		if (v == KEEP && lk_str_in_list(opt, path_opts))
			out = absolute(f, value);
	}
	if (v == KEEP) {
		lk_strvec_push(f->kept, opt);
		keep(f, value, out);
		return;
	}
	free(out);
	if (v == DROP) {
		drop(f, opt);
		drop(f, value);
	}
}

/*
 * Is the driver that would run clang (by its real name: cc may be clang)?
 * clang looks for its programs beside a GCC installation it finds in the
 * sysroot, so a record's --sysroot could choose the linker that runs.
 */
static int runs_clang(const struct lk_record *rec)
{
	struct lk_err err = LK_ERR_INIT;
	char *path = lk_trust_driver(rec, &err);
	char *real = path ? realpath(path, NULL) : NULL;
	const char *base = real ? strrchr(real, '/') + 1 : driver_name(rec);
	int clang = strstr(base, "clang") != NULL;

	free(path);
	free(real);
	return clang;
}

/*
 * A link in a scratch dir gets the record's LIBRARY_PATH as -L words, never
 * as LIBRARY_PATH: gcc reads a file named "specs" from the LIBRARY_PATH
 * dirs, and a specs file says which programs the driver runs. -L dirs
 * are only searched for libraries.
 */
static void library_path_as_l(struct filter *f)
{
	const char *lp = lk_record_env(f->rec, "LIBRARY_PATH");
	struct lk_strvec dirs = LK_STRVEC_INIT;

	if (lp)
		split(lp, ':', &dirs);
	for (size_t i = 0; i < dirs.nr; i++)
		if (*dirs.items[i])
			lk_strvec_push_owned(f->kept, joined_abs(f, "-L", dirs.items[i]));
	lk_strvec_release(&dirs);
}

void lk_trust_filter(const struct lk_record *rec, enum lk_trust_use use,
		     struct lk_strvec *kept, struct lk_strvec *dropped)
{
	struct filter f = { rec, use, kept, dropped, 0, 0, NULL, LK_STRVEC_INIT };

	f.clang = use == LK_TRUST_LINK && runs_clang(rec);
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
	/* An ld option whose value never came: ld would fail on it. */
	settle_held(&f, DROP);
	lk_strvec_release(&f.held);
	if (use == LK_TRUST_LINK)
		library_path_as_l(&f);
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
