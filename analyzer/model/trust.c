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

/*
 * A value an allowed option may take: a name, a number or a keyword. Never
 * '/' (a path), ',' (more words), '|', '$', '@', a space or a quote (a
 * program, a shell word, an option file): gcc runs what
 * -fmodule-mapper=|CMD names, and CMD needs no '/'.
 */
static int plain(const char *v)
{
	if (!*v)
		return 0;
	for (; *v; v++)
		if (!isalnum((unsigned char)*v) && !strchr("_.+-:=", *v))
			return 0;
	return 1;
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

/* Plain values separated by commas: -fsanitize=address,undefined. */
static int plain_list(const char *v)
{
	struct lk_strvec parts = LK_STRVEC_INIT;
	int ok = 1;

	split(v, ',', &parts);
	for (size_t i = 0; i < parts.nr; i++)
		ok = ok && plain(parts.items[i]);
	lk_strvec_release(&parts);
	return ok;
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
	LD_KEYWORD,	/* a keyword (-z now, --hash-style=gnu): plain() */
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
		return plain(value) ? KEEP : DROP;
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

/* How an allowed driver option's value is checked. */
enum value {
	NO_VALUE,	/* the word exactly (for -f, -m and -g also with no- after the dash) */
	NAME,		/* the name then a plain() value: -fvisibility=hidden, -mavx512f */
	NAMES,		/* ... or plain values separated by commas: -fsanitize=address,undefined */
	ONE_OF,		/* ... one of `keywords` */
};

struct allowed {
	const char *name;	/* after the family's prefix ("-f", "-m", "-g"); whole for the others */
	enum value value;
	const char *const *keywords;	/* ONE_OF */
};

static const char *const visibilities[] = { "default", "hidden", "protected", "internal", NULL };
static const char *const tls_models[] = { "global-dynamic", "local-dynamic", "initial-exec",
	"local-exec", NULL };
static const char *const cf_protections[] = { "full", "branch", "return", "none", "check", NULL };
static const char *const colors[] = { "auto", "always", "never", NULL };
/* -fuse-ld=: the linkers gcc and clang know by name, found in their own dirs or on our PATH. */
static const char *const linkers[] = { "bfd", "gold", "lld", "mold", NULL };
static const char *const cxx_libs[] = { "libstdc++", "libc++", NULL };
static const char *const rt_libs[] = { "libgcc", "compiler-rt", "platform", NULL };
static const char *const unwind_libs[] = { "libgcc", "libunwind", "none", "platform", NULL };

/*
 * -f options: code generation, the ABI, what the driver adds to a link
 * (-fopenmp, -fsanitize=, -fprofile-arcs, -flto, -fuse-ld=) and how
 * diagnostics look. Not here, so dropped: every -f whose value names a
 * program, a file or a directory (-fmodule-mapper=, -fplugin=,
 * -fprofile-generate=DIR, -fprofile-use=, -f*-prefix-map=,
 * -fsanitize-ignorelist=, -fuse-ld=/PATH), and those that write files or
 * load modules (-fdump-*, -fstack-usage, -fcallgraph-info, -fmodules-ts,
 * -fsave-optimization-record, -fcompare-debug, -fdiagnostics-format=).
 */
static const struct allowed f_opts[] = {
	/* position-independent code, sections, layout, visibility */
	{ "PIC", NO_VALUE, NULL }, { "pic", NO_VALUE, NULL }, { "PIE", NO_VALUE, NULL },
	{ "pie", NO_VALUE, NULL }, { "plt", NO_VALUE, NULL }, { "common", NO_VALUE, NULL },
	{ "function-sections", NO_VALUE, NULL }, { "data-sections", NO_VALUE, NULL },
	{ "semantic-interposition", NO_VALUE, NULL }, { "visibility=", ONE_OF, visibilities },
	{ "visibility-inlines-hidden", NO_VALUE, NULL }, { "visibility-ms-compat", NO_VALUE, NULL },
	{ "tls-model=", ONE_OF, tls_models }, { "zero-initialized-in-bss", NO_VALUE, NULL },
	{ "toplevel-reorder", NO_VALUE, NULL }, { "ident", NO_VALUE, NULL },
	{ "leading-underscore", NO_VALUE, NULL }, { "pcc-struct-return", NO_VALUE, NULL },
	{ "reg-struct-return", NO_VALUE, NULL }, { "short-enums", NO_VALUE, NULL },
	{ "short-wchar", NO_VALUE, NULL }, { "signed-char", NO_VALUE, NULL },
	{ "unsigned-char", NO_VALUE, NULL }, { "signed-bitfields", NO_VALUE, NULL },
	{ "unsigned-bitfields", NO_VALUE, NULL }, { "pack-struct", NO_VALUE, NULL },
	{ "pack-struct=", NAME, NULL }, { "align-functions", NO_VALUE, NULL },
	{ "align-functions=", NAME, NULL }, { "standalone-debug", NO_VALUE, NULL },
	/* unwinding, exceptions, the C++ ABI and language */
	{ "exceptions", NO_VALUE, NULL }, { "cxx-exceptions", NO_VALUE, NULL },
	{ "non-call-exceptions", NO_VALUE, NULL }, { "asynchronous-unwind-tables", NO_VALUE, NULL },
	{ "unwind-tables", NO_VALUE, NULL }, { "rtti", NO_VALUE, NULL },
	{ "threadsafe-statics", NO_VALUE, NULL }, { "use-cxa-atexit", NO_VALUE, NULL },
	{ "gnu-unique", NO_VALUE, NULL }, { "weak", NO_VALUE, NULL },
	{ "implicit-templates", NO_VALUE, NULL }, { "implicit-inline-templates", NO_VALUE, NULL },
	{ "sized-deallocation", NO_VALUE, NULL }, { "aligned-new", NO_VALUE, NULL },
	{ "aligned-new=", NAME, NULL }, { "char8_t", NO_VALUE, NULL }, { "abi-version=", NAME, NULL },
	{ "access-control", NO_VALUE, NULL }, { "elide-constructors", NO_VALUE, NULL },
	{ "enforce-eh-specs", NO_VALUE, NULL }, { "nothrow-opt", NO_VALUE, NULL },
	{ "permissive", NO_VALUE, NULL }, { "ms-extensions", NO_VALUE, NULL },
	{ "gnu-keywords", NO_VALUE, NULL }, { "operator-names", NO_VALUE, NULL },
	{ "concepts", NO_VALUE, NULL }, { "coroutines", NO_VALUE, NULL },
	{ "template-depth=", NAME, NULL }, { "constexpr-depth=", NAME, NULL },
	{ "dollars-in-identifiers", NO_VALUE, NULL }, { "extended-identifiers", NO_VALUE, NULL },
	{ "input-charset=", NAME, NULL }, { "exec-charset=", NAME, NULL },
	{ "wide-exec-charset=", NAME, NULL },
	/* inlining, builtins and the calls a compile leaves to the link */
	{ "inline", NO_VALUE, NULL }, { "inline-functions", NO_VALUE, NULL },
	{ "inline-small-functions", NO_VALUE, NULL }, { "keep-inline-functions", NO_VALUE, NULL },
	{ "keep-static-consts", NO_VALUE, NULL }, { "gnu89-inline", NO_VALUE, NULL },
	{ "builtin", NO_VALUE, NULL }, { "builtin-", NAME, NULL }, { "freestanding", NO_VALUE, NULL },
	{ "hosted", NO_VALUE, NULL }, { "tree-loop-distribute-patterns", NO_VALUE, NULL },
	{ "optimize-sibling-calls", NO_VALUE, NULL }, { "jump-tables", NO_VALUE, NULL },
	{ "omit-frame-pointer", NO_VALUE, NULL }, { "strict-aliasing", NO_VALUE, NULL },
	{ "strict-overflow", NO_VALUE, NULL }, { "wrapv", NO_VALUE, NULL }, { "trapv", NO_VALUE, NULL },
	{ "delete-null-pointer-checks", NO_VALUE, NULL }, { "fast-math", NO_VALUE, NULL },
	{ "math-errno", NO_VALUE, NULL }, { "finite-math-only", NO_VALUE, NULL },
	{ "trapping-math", NO_VALUE, NULL }, { "rounding-math", NO_VALUE, NULL },
	{ "signed-zeros", NO_VALUE, NULL }, { "reciprocal-math", NO_VALUE, NULL },
	{ "associative-math", NO_VALUE, NULL }, { "fp-contract=", NAME, NULL },
	{ "excess-precision=", NAME, NULL }, { "merge-constants", NO_VALUE, NULL },
	{ "merge-all-constants", NO_VALUE, NULL }, { "unroll-loops", NO_VALUE, NULL },
	{ "tree-vectorize", NO_VALUE, NULL }, { "whole-program", NO_VALUE, NULL },
	/* hardening and instrumentation */
	{ "stack-protector", NO_VALUE, NULL }, { "stack-protector-all", NO_VALUE, NULL },
	{ "stack-protector-strong", NO_VALUE, NULL }, { "stack-protector-explicit", NO_VALUE, NULL },
	{ "stack-clash-protection", NO_VALUE, NULL }, { "stack-check", NO_VALUE, NULL },
	{ "split-stack", NO_VALUE, NULL }, { "cf-protection", NO_VALUE, NULL },
	{ "cf-protection=", ONE_OF, cf_protections }, { "hardened", NO_VALUE, NULL },
	{ "trivial-auto-var-init=", NAME, NULL }, { "zero-call-used-regs=", NAME, NULL },
	{ "patchable-function-entry=", NAMES, NULL }, { "instrument-functions", NO_VALUE, NULL },
	/* runtimes the driver adds to the link */
	{ "openmp", NO_VALUE, NULL }, { "openmp-simd", NO_VALUE, NULL }, { "openacc", NO_VALUE, NULL },
	{ "gnu-tm", NO_VALUE, NULL }, { "sanitize=", NAMES, NULL }, { "sanitize-recover", NO_VALUE, NULL },
	{ "sanitize-recover=", NAMES, NULL }, { "sanitize-trap", NO_VALUE, NULL },
	{ "sanitize-trap=", NAMES, NULL }, { "sanitize-address-use-after-scope", NO_VALUE, NULL },
	{ "sanitize-undefined-trap-on-error", NO_VALUE, NULL }, { "sanitize-coverage=", NAMES, NULL },
	{ "profile-arcs", NO_VALUE, NULL }, { "test-coverage", NO_VALUE, NULL },
	{ "profile-generate", NO_VALUE, NULL }, { "profile-instr-generate", NO_VALUE, NULL },
	{ "coverage-mapping", NO_VALUE, NULL }, { "profile-update=", NAME, NULL },
	/* link-time optimisation and the linker */
	{ "lto", NO_VALUE, NULL }, { "lto=", NAME, NULL }, { "lto-partition=", NAME, NULL },
	{ "lto-compression-level=", NAME, NULL }, { "fat-lto-objects", NO_VALUE, NULL },
	{ "use-linker-plugin", NO_VALUE, NULL }, { "use-ld=", ONE_OF, linkers },
	/* diagnostics and debug information */
	{ "diagnostics-color", NO_VALUE, NULL }, { "diagnostics-color=", ONE_OF, colors },
	{ "color-diagnostics", NO_VALUE, NULL }, { "diagnostics-show-option", NO_VALUE, NULL },
	{ "diagnostics-show-caret", NO_VALUE, NULL }, { "show-column", NO_VALUE, NULL },
	{ "message-length=", NAME, NULL }, { "max-errors=", NAME, NULL },
	{ "random-seed=", NAME, NULL }, { "record-gcc-switches", NO_VALUE, NULL },
	{ "var-tracking", NO_VALUE, NULL }, { "var-tracking-assignments", NO_VALUE, NULL },
	{ NULL, NO_VALUE, NULL },
};

/* -m options: the target's instruction set, ABI and code model. */
static const struct allowed m_opts[] = {
	{ "16", NO_VALUE, NULL }, { "32", NO_VALUE, NULL }, { "64", NO_VALUE, NULL },
	{ "x32", NO_VALUE, NULL }, { "abi=", NAME, NULL }, { "arch=", NAME, NULL },
	{ "tune=", NAME, NULL }, { "cpu=", NAME, NULL }, { "fpu=", NAME, NULL },
	{ "float-abi=", NAME, NULL }, { "cmodel=", NAME, NULL }, { "tls-dialect=", NAME, NULL },
	{ "fpmath=", NAME, NULL }, { "prefer-vector-width=", NAME, NULL },
	{ "branch-protection=", NAME, NULL }, { "indirect-branch=", NAME, NULL },
	{ "function-return=", NAME, NULL }, { "indirect-branch-register", NO_VALUE, NULL },
	{ "retpoline", NO_VALUE, NULL }, { "stack-protector-guard=", NAME, NULL },
	{ "stack-protector-guard-reg=", NAME, NULL }, { "stack-protector-guard-offset=", NAME, NULL },
	{ "regparm=", NAME, NULL }, { "preferred-stack-boundary=", NAME, NULL },
	{ "incoming-stack-boundary=", NAME, NULL }, { "large-data-threshold=", NAME, NULL },
	{ "tp=", NAME, NULL }, { "sse", NO_VALUE, NULL }, { "sse2", NO_VALUE, NULL },
	{ "sse3", NO_VALUE, NULL }, { "ssse3", NO_VALUE, NULL }, { "sse4", NO_VALUE, NULL },
	{ "sse4", NAME, NULL }, { "avx", NO_VALUE, NULL }, { "avx2", NO_VALUE, NULL },
	{ "avx512", NAME, NULL }, { "fma", NO_VALUE, NULL }, { "fma4", NO_VALUE, NULL },
	{ "f16c", NO_VALUE, NULL }, { "bmi", NO_VALUE, NULL }, { "bmi2", NO_VALUE, NULL },
	{ "lzcnt", NO_VALUE, NULL }, { "popcnt", NO_VALUE, NULL }, { "pclmul", NO_VALUE, NULL },
	{ "aes", NO_VALUE, NULL }, { "sha", NO_VALUE, NULL }, { "rdrnd", NO_VALUE, NULL },
	{ "rdseed", NO_VALUE, NULL }, { "adx", NO_VALUE, NULL }, { "movbe", NO_VALUE, NULL },
	{ "cx16", NO_VALUE, NULL }, { "sahf", NO_VALUE, NULL }, { "xsave", NO_VALUE, NULL },
	{ "xsaveopt", NO_VALUE, NULL }, { "fsgsbase", NO_VALUE, NULL }, { "mmx", NO_VALUE, NULL },
	{ "80387", NO_VALUE, NULL }, { "red-zone", NO_VALUE, NULL },
	{ "omit-leaf-frame-pointer", NO_VALUE, NULL }, { "stackrealign", NO_VALUE, NULL },
	{ "general-regs-only", NO_VALUE, NULL }, { "soft-float", NO_VALUE, NULL },
	{ "hard-float", NO_VALUE, NULL }, { "thumb", NO_VALUE, NULL }, { "arm", NO_VALUE, NULL },
	{ "thumb-interwork", NO_VALUE, NULL }, { "little-endian", NO_VALUE, NULL },
	{ "big-endian", NO_VALUE, NULL }, { "strict-align", NO_VALUE, NULL },
	{ "unaligned-access", NO_VALUE, NULL }, { "outline-atomics", NO_VALUE, NULL },
	{ "fentry", NO_VALUE, NULL }, { "record-mcount", NO_VALUE, NULL },
	{ "nop-mcount", NO_VALUE, NULL }, { "ieee-fp", NO_VALUE, NULL },
	{ "fp-ret-in-387", NO_VALUE, NULL }, { "align-double", NO_VALUE, NULL },
	{ "long-double-64", NO_VALUE, NULL }, { "long-double-80", NO_VALUE, NULL },
	{ "long-double-128", NO_VALUE, NULL }, { "tls-direct-seg-refs", NO_VALUE, NULL },
	{ "direct-extern-access", NO_VALUE, NULL }, { "relax", NO_VALUE, NULL },
	{ "explicit-relocs", NO_VALUE, NULL }, { "abicalls", NO_VALUE, NULL },
	{ "pic-data-is-text-relative", NO_VALUE, NULL }, { "long-calls", NO_VALUE, NULL },
	{ "vzeroupper", NO_VALUE, NULL }, { "fix-cortex-a53-835769", NO_VALUE, NULL },
	{ "fix-cortex-a53-843419", NO_VALUE, NULL }, { "shstk", NO_VALUE, NULL },
	{ NULL, NO_VALUE, NULL },
};

/* -g options: debug information only (-gsplit-dwarf's .dwo goes beside the output). */
static const struct allowed g_opts[] = {
	{ "", NO_VALUE, NULL }, { "0", NO_VALUE, NULL }, { "1", NO_VALUE, NULL },
	{ "2", NO_VALUE, NULL }, { "3", NO_VALUE, NULL }, { "gdb", NO_VALUE, NULL },
	{ "gdb1", NO_VALUE, NULL }, { "gdb2", NO_VALUE, NULL }, { "gdb3", NO_VALUE, NULL },
	{ "dwarf", NO_VALUE, NULL }, { "dwarf-", NAME, NULL }, { "split-dwarf", NO_VALUE, NULL },
	{ "z", NO_VALUE, NULL }, { "z=", NAME, NULL }, { "column-info", NO_VALUE, NULL },
	{ "strict-dwarf", NO_VALUE, NULL }, { "record-gcc-switches", NO_VALUE, NULL },
	{ "pubnames", NO_VALUE, NULL }, { "gnu-pubnames", NO_VALUE, NULL }, { "btf", NO_VALUE, NULL },
	{ "ctf", NO_VALUE, NULL }, { "line-tables-only", NO_VALUE, NULL },
	{ "inline-points", NO_VALUE, NULL }, { "statement-frontiers", NO_VALUE, NULL },
	{ "variable-location-views", NO_VALUE, NULL },
	{ NULL, NO_VALUE, NULL },
};

/* The driver's own options with a joined value, whole. */
static const struct allowed valued_opts[] = {
	{ "-std=", NAME, NULL }, { "--std=", NAME, NULL }, { "--target=", NAME, NULL },
	{ "-stdlib=", ONE_OF, cxx_libs }, { "--stdlib=", ONE_OF, cxx_libs },
	{ "-rtlib=", ONE_OF, rt_libs }, { "--rtlib=", ONE_OF, rt_libs },
	{ "-unwindlib=", ONE_OF, unwind_libs }, { "--unwindlib=", ONE_OF, unwind_libs },
	{ NULL, NO_VALUE, NULL },
};

/* Options with no value that only change code, inputs, the output kind or diagnostics. */
static const char *const plain_opts[] = {
	"-shared", "-static", "-static-pie", "-pie", "-no-pie", "-rdynamic", "-s", "-r",
	"-nostdlib", "-nodefaultlibs", "-nostartfiles", "-nolibc", "-nostdlib++",
	"-static-libgcc", "-shared-libgcc", "-static-libstdc++", "-static-libasan",
	"-static-libtsan", "-static-liblsan", "-static-libubsan", "-static-libhwasan",
	"-static-libsan", "-shared-libsan", "-symbolic", "-pthread", "-ansi", "-w", "-W", "-pipe",
	"-nostdinc", "-nostdinc++", "-undef", "-C", "-P", "-CC", "-traditional", "-traditional-cpp",
	"-trigraphs", "-p", "-pg", "--coverage", "-pedantic", "-pedantic-errors", "-O", "-O0",
	"-O1", "-O2", "-O3", "-Os", "-Oz", "-Og", "-Ofast", NULL,
};

/* Is `rest` an entry of `table`? `negatable`: NO_VALUE entries also as "no-NAME". */
static int allowed_in(const struct allowed *table, const char *rest, int negatable)
{
	if (negatable && !strncmp(rest, "no-", 3) && rest[3])
		rest += 3;
	for (const struct allowed *o = table; o->name; o++) {
		size_t len = strlen(o->name);

		if (o->value == NO_VALUE) {
			if (!strcmp(rest, o->name))
				return 1;
			continue;
		}
		if (strncmp(rest, o->name, len))
			continue;
		if ((o->value == NAME && plain(rest + len)) || (o->value == NAMES && plain_list(rest + len)) ||
		    (o->value == ONE_OF && lk_str_in_list(rest + len, o->keywords)))
			return 1;
	}
	return 0;
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
	return a[1] == 'W' && plain(a + 2);
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
	if (lk_str_in_list(a, plain_opts) || allowed_in(valued_opts, a, 0) || warning(a) ||
	    (a[1] == 'f' && allowed_in(f_opts, a + 2, 1)) ||
	    (a[1] == 'm' && allowed_in(m_opts, a + 2, 1)) ||
	    (a[1] == 'g' && allowed_in(g_opts, a + 2, 1)))
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
		return f->use == LK_TRUST_COMPILE ? SKIP : plain(a + 2) ? KEEP : DROP;
	if (lk_str_starts_with(a, "-u") || lk_str_starts_with(a, "-e") || lk_str_starts_with(a, "-z"))
		return plain(a + 2) ? KEEP : DROP;
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
		return f->use != LK_TRUST_EXPAND ? SKIP : plain(value) ? KEEP : DROP;
	if (!strcmp(opt, "-B"))
		return f->use == LK_TRUST_EXPAND ? KEEP : DROP;
	if (!strcmp(opt, "-l") || !strcmp(opt, "-L") || !strcmp(opt, "-T"))
		return f->use == LK_TRUST_COMPILE ? SKIP : KEEP;
	if (!strcmp(opt, "-u") || !strcmp(opt, "-e") || !strcmp(opt, "-z"))
		return f->use == LK_TRUST_COMPILE ? SKIP : plain(value) ? KEEP : DROP;
	if (!strcmp(opt, "-target"))
		return plain(value) ? KEEP : DROP;
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
