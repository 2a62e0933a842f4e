/*
 * `whatif --cargo TARGET_DIR`: the next link of a rustc target, from the
 * baseline's line and the build scripts' outputs `cargo check` left.
 *
 * Takes: the baseline (a rustc link whose record keeps rustc's argv and
 * the package's build-script directives, caller.build_script) and the
 * target dir. Gives: the baseline's driver argv with what the package's
 * build script put there replaced by what it prints now, where rustc puts
 * it (docs/rustc-link-line.md): `rustc-link-arg*` at the end, after the
 * RUSTFLAGS link args (cargo adds the script's after them:
 * add_custom_flags runs after build_base_args); `rustc-link-lib` of the
 * crate's own package among its native libraries, between its objects and
 * the rlibs, with rustc's -Bstatic/-Bdynamic hints; `rustc-link-search`
 * as `-L DIR` among rustc's search dirs. Everything else (the codegen
 * units, the rlibs, the standard library's libraries) is the baseline's:
 * `cargo check` compiles no object, and the report says so.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/cargo_output.h"
#include "linkscope/rustc.h"
#include "linkscope/vec.h"
#include "cargo_config.h"
#include "source.h"

/* What the reader knows of the baseline's rustc call. */
struct crate {
	const char *pkg;	/* CARGO_PKG_NAME */
	const char *crate_name;	/* --crate-name */
	const char *bin_name;	/* CARGO_BIN_NAME, or NULL */
	int is_test, is_bin, is_cdylib, is_lib, is_example;
	int pkg_has_lib;	/* a lib target of the same package is an --extern of this crate */
	char *out_dir;		/* --out-dir */
};

static const char *rustc_value(const struct lk_strvec *argv, const char *opt)
{
	size_t n = strlen(opt);

	for (size_t i = 1; i < argv->nr; i++) {
		if (!strcmp(argv->items[i], opt) && i + 1 < argv->nr)
			return argv->items[i + 1];
		if (!strncmp(argv->items[i], opt, n) && argv->items[i][n] == '=')
			return argv->items[i] + n + 1;
	}
	return NULL;
}

static void read_crate(const struct lk_record *base, struct crate *c)
{
	const struct lk_strvec *argv = &base->caller_argv;
	struct lk_buf ext = LK_BUF_INIT;

	memset(c, 0, sizeof(*c));
	c->pkg = lk_record_env(base, "CARGO_PKG_NAME");
	c->bin_name = lk_record_env(base, "CARGO_BIN_NAME");
	c->crate_name = rustc_value(argv, "--crate-name");
	for (size_t i = 1; i < argv->nr; i++) {
		const char *a = argv->items[i], *t = NULL;

		if (!strcmp(a, "--test"))
			c->is_test = 1;
		if (!strcmp(a, "--crate-type") && i + 1 < argv->nr)
			t = argv->items[i + 1];
		else if (!strncmp(a, "--crate-type=", 13))
			t = a + 13;
		if (t) {
			c->is_bin |= !strcmp(t, "bin");
			c->is_cdylib |= !strcmp(t, "cdylib");
			c->is_lib |= !strcmp(t, "lib") || !strcmp(t, "rlib") || !strcmp(t, "dylib") ||
				     !strcmp(t, "staticlib") || !strcmp(t, "cdylib");
		}
	}
	if (!c->is_test && !c->is_lib)
		c->is_bin = 1;	/* rustc's default crate type for a main.rs */
	if (rustc_value(argv, "--out-dir"))
		c->out_dir = lk_xstrdup(rustc_value(argv, "--out-dir"));
	c->is_example = c->out_dir && strstr(c->out_dir, "/examples");
	/* cargo passes a package's -l to its bins only when it has no lib target (pass_l_flag). */
	if (c->pkg) {
		for (const char *p = c->pkg; *p; p++)
			lk_buf_addch(&ext, *p == '-' ? '_' : *p);
		lk_buf_addch(&ext, '=');
		for (size_t i = 1; i + 1 < argv->nr; i++)
			if (!strcmp(argv->items[i], "--extern") && lk_str_starts_with(argv->items[i + 1], ext.buf))
				c->pkg_has_lib = 1;
	}
	lk_buf_release(&ext);
}

/* Does directive `d` give this crate's link a link arg? Its argument in *arg. */
static int link_arg_of(const struct crate *c, const struct lk_cargo_directive *d, const char **arg)
{
	*arg = d->value;
	if (lk_cargo_directive_is(d, "rustc-link-arg"))
		return 1;
	if (lk_cargo_directive_is(d, "rustc-link-arg-bins"))
		return c->is_bin && !c->is_test && !c->is_example;
	if (lk_cargo_directive_is(d, "rustc-link-arg-tests"))
		return c->is_test;
	if (lk_cargo_directive_is(d, "rustc-link-arg-examples"))
		return c->is_example;
	if (lk_cargo_directive_is(d, "rustc-cdylib-link-arg"))
		return c->is_cdylib;
	if (lk_cargo_directive_is(d, "rustc-link-arg-bin")) {
		const char *eq = strchr(d->value, '=');
		const char *name = c->bin_name ? c->bin_name : c->crate_name;

		if (!eq || !name || c->is_test || strlen(name) != (size_t)(eq - d->value) ||
		    memcmp(d->value, name, (size_t)(eq - d->value)))
			return 0;
		*arg = eq + 1;
		return 1;
	}
	return 0;
}

/* The three lists a package's directives give this crate's link. */
struct directives {
	struct lk_strvec link_args;	/* in order */
	struct lk_strvec libs;		/* rustc-link-lib values ([KIND[:MODS]=]NAME[:RENAME]) */
	struct lk_strvec search;	/* rustc-link-search paths (KIND= taken off) */
};

static void directives_release(struct directives *d)
{
	lk_strvec_release(&d->link_args);
	lk_strvec_release(&d->libs);
	lk_strvec_release(&d->search);
}

static void add_search(struct directives *out, const char *value)
{
	const char *eq = strchr(value, '=');
	static const char *const kinds[] = { "native=", "dependency=", "crate=", "framework=", "all=" };

	for (size_t k = 0; eq && k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (lk_str_starts_with(value, kinds[k]))
			value = eq + 1;
	lk_strvec_push(&out->search, value);
}

/* rustc-flags: "-l NAME", "-lNAME", "-L DIR", "-LDIR", space-separated (cargo's parse_rustc_flags). */
static void add_flags(struct directives *out, const char *value)
{
	struct lk_strvec words = LK_STRVEC_INIT;
	const char *p = value;

	while (*p) {
		const char *end;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		for (end = p; *end && *end != ' ' && *end != '\t'; end++)
			;
		lk_strvec_push_owned(&words, lk_xstrndup(p, (size_t)(end - p)));
		p = end;
	}
	for (size_t i = 0; i < words.nr; i++) {
		const char *w = words.items[i];
		const char *v = w[2] ? w + 2 : i + 1 < words.nr ? words.items[++i] : "";

		if (!strncmp(w, "-l", 2))
			lk_strvec_push(&out->libs, v);
		else if (!strncmp(w, "-L", 2))
			add_search(out, v);
	}
	lk_strvec_release(&words);
}

static void read_directives(const struct crate *c, const struct lk_strvec *lines, struct directives *out)
{
	for (size_t i = 0; i < lines->nr; i++) {
		struct lk_cargo_directive d;
		const char *arg;

		if (lk_cargo_directive_split(lines->items[i], &d) < 0)
			continue;
		if (link_arg_of(c, &d, &arg))
			lk_strvec_push(&out->link_args, arg);
		else if (lk_cargo_directive_is(&d, "rustc-link-lib"))
			lk_strvec_push(&out->libs, d.value);
		else if (lk_cargo_directive_is(&d, "rustc-link-search"))
			add_search(out, d.value);
		else if (lk_cargo_directive_is(&d, "rustc-flags"))
			add_flags(out, d.value);
	}
}

/* ---- finding the build script's output in the target dir ---- */

/* "<dir>/<pkg>-<16 hex>": is `name` a build dir of package `pkg`? */
static int is_pkg_dir(const char *name, const char *pkg)
{
	size_t n = strlen(pkg), len = strlen(name);

	if (len != n + 17 || strncmp(name, pkg, n) || name[n] != '-')
		return 0;
	for (size_t i = n + 1; i < len; i++)
		if (!strchr("0123456789abcdef", name[i]))
			return 0;
	return 1;
}

/* The profile's dir under the target dir ("debug", "x86_64-unknown-linux-gnu/release"), from rustc's --out-dir. */
static char *profile_dir(const char *target_dir, const struct crate *c, const char *profile,
			 struct lk_err *err)
{
	struct lk_buf try = LK_BUF_INIT;
	char *deps = c->out_dir ? lk_xstrdup(c->out_dir) : NULL, *slash;
	const char *parts[2] = { NULL, NULL };
	struct stat st;

	/* --out-dir is <target>/[<triple>/]<profile>/deps (or .../examples) */
	if (deps && (slash = strrchr(deps, '/'))) {
		*slash = '\0';
		if ((slash = strrchr(deps, '/'))) {
			parts[1] = slash + 1;
			*slash = '\0';
			parts[0] = (slash = strrchr(deps, '/')) ? slash + 1 : deps;
		}
	}
	if (profile)
		parts[1] = profile;
	for (int two = 1; two >= 0 && parts[1]; two--) {
		lk_buf_reset(&try);
		lk_buf_addf(&try, "%s/", target_dir);
		if (two && parts[0])
			lk_buf_addf(&try, "%s/", parts[0]);
		else if (two)
			continue;
		lk_buf_addf(&try, "%s/build", parts[1]);
		if (stat(try.buf, &st) == 0 && S_ISDIR(st.st_mode)) {
			free(deps);
			return lk_buf_detach(&try);
		}
	}
	lk_err_set(err, LK_E_USAGE, "'%s' has no %s/build directory of the baseline's profile: run `cargo check` (with the baseline's --target and --profile) first, or say --profile",
		   target_dir, parts[1] ? parts[1] : "PROFILE");
	free(deps);
	lk_buf_release(&try);
	return NULL;
}

/*
 * The output file of package `pkg`'s build script in `build_dir`: the
 * newest (`cargo check` just wrote it; a check and a build with other
 * RUSTFLAGS run the script in dirs of other hashes), the baseline's own
 * dir name winning a tie.
 */
static char *find_output(const char *build_dir, const char *pkg, const char *baseline_dir_name)
{
	struct lk_buf path = LK_BUF_INIT;
	char *best = NULL;
	struct timespec best_time = { 0, 0 };
	DIR *d;
	struct dirent *e;
	struct stat st;

	if (!(d = opendir(build_dir))) {
		lk_buf_release(&path);
		return NULL;
	}
	while ((e = readdir(d))) {
		if (!is_pkg_dir(e->d_name, pkg))
			continue;
		lk_buf_reset(&path);
		lk_buf_addf(&path, "%s/%s/output", build_dir, e->d_name);
		if (stat(path.buf, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
		if (!best || st.st_mtim.tv_sec > best_time.tv_sec ||
		    (st.st_mtim.tv_sec == best_time.tv_sec && st.st_mtim.tv_nsec > best_time.tv_nsec) ||
		    (st.st_mtim.tv_sec == best_time.tv_sec && st.st_mtim.tv_nsec == best_time.tv_nsec &&
		     baseline_dir_name && !strcmp(e->d_name, baseline_dir_name))) {
			free(best);
			best = lk_xstrdup(path.buf);
			best_time = st.st_mtim;
		}
	}
	closedir(d);
	lk_buf_release(&path);
	return best;
}

/* "<pkg>-<hash>" of the baseline's build-script output path, or NULL. */
static char *baseline_dir_name(const struct lk_record *base)
{
	const char *p = base->build_output, *end, *start;

	if (!p || !(end = strrchr(p, '/')) || end == p)
		return NULL;
	for (start = end - 1; start > p && start[-1] != '/'; start--)
		;
	return lk_xstrndup(start, (size_t)(end - start));
}

/* ---- editing the line ---- */

static void push_range(struct lk_strvec *out, const struct lk_args *args, size_t from, size_t to)
{
	for (size_t i = from; i < to && i < args->nr; i++)
		lk_strvec_push(out, args->items[i].text);
}

/*
 * The native libraries of the crate's own package, as rustc's
 * add_local_native_libraries writes them for a gcc-like linker:
 * static ones by name under -Bstatic, dylibs under -Bdynamic (hints only
 * when the state changes), +whole-archive wrapped, +verbatim as -l:NAME.
 */
static void emit_libs(struct lk_strvec *out, const struct lk_strvec *libs)
{
	int state = 0;	/* 0 unknown, 1 static, 2 dynamic */

	for (size_t i = 0; i < libs->nr; i++) {
		const char *v = libs->items[i], *eq = strchr(v, '='), *name = eq ? eq + 1 : v;
		int is_static = eq && lk_str_starts_with(v, "static");
		int whole = eq && strstr(v, "+whole-archive") && strstr(v, "+whole-archive") < eq;
		int verbatim = eq && strstr(v, "+verbatim") && strstr(v, "+verbatim") < eq;
		const char *colon = strchr(name, ':');	/* NAME:RENAME links RENAME */
		struct lk_buf w = LK_BUF_INIT;

		if (colon)
			name = colon + 1;
		if (is_static && state != 1) {
			lk_strvec_push(out, "-Wl,-Bstatic");
			state = 1;
		} else if (!is_static && state != 2) {
			lk_strvec_push(out, "-Wl,-Bdynamic");
			state = 2;
		}
		if (whole)
			lk_strvec_push(out, "-Wl,--whole-archive");
		lk_buf_addf(&w, "-l%s%s", verbatim ? ":" : "", name);
		lk_strvec_push_owned(out, lk_buf_detach(&w));
		if (whole)
			lk_strvec_push(out, "-Wl,--no-whole-archive");
	}
}

/* The driver positions of the crate's own native libraries: after its last object, before its first rlib. */
static int native_region(const struct lk_record *base, size_t *from, size_t *to)
{
	long last_obj = -1, first_rlib = -1;

	for (size_t i = 0; i < base->args.nr && base->prov; i++) {
		if (base->prov[i] == LK_PROV_RUSTC_OBJECT)
			last_obj = (long)i;
		else if (base->prov[i] == LK_PROV_RUSTC_RLIB && first_rlib < 0)
			first_rlib = (long)i;
	}
	if (last_obj < 0 || first_rlib < last_obj)
		return -1;
	*from = (size_t)last_obj + 1;
	*to = (size_t)first_rlib;
	return 0;
}

/* Is driver position i of `base` a "-L" whose next word is `dir`? */
static int is_search_pair(const struct lk_record *base, size_t i, const char *dir)
{
	return i + 1 < base->args.nr && !strcmp(base->args.items[i].text, "-L") &&
	       base->prov[i] == LK_PROV_RUSTC_FLAG && !strcmp(base->args.items[i + 1].text, dir);
}

static int in_list(const struct lk_strvec *v, const char *s)
{
	for (size_t i = 0; i < v->nr; i++)
		if (!strcmp(v->items[i], s))
			return 1;
	return 0;
}

/*
 * rustc's part of the line, from driver position `from` to `to`, with the
 * search dirs the script no longer prints left out and those it prints
 * now added where rustc's first search dir was.
 */
static void copy_with_search(struct lk_strvec *out, const struct lk_record *base, size_t from, size_t to,
			     const struct directives *old, const struct directives *new)
{
	int added = 0;

	for (size_t i = from; i < to; i++) {
		int pair = !strcmp(base->args.items[i].text, "-L") && i + 1 < to;

		if (pair && !added) {
			for (size_t k = 0; k < new->search.nr; k++)
				if (!in_list(&old->search, new->search.items[k])) {
					lk_strvec_push(out, "-L");
					lk_strvec_push(out, new->search.items[k]);
				}
			added = 1;
		}
		if (pair && is_search_pair(base, i, base->args.items[i + 1].text) &&
		    in_list(&old->search, base->args.items[i + 1].text) &&
		    !in_list(&new->search, base->args.items[i + 1].text)) {
			i++;
			continue;
		}
		lk_strvec_push(out, base->args.items[i].text);
	}
}

/* Does the baseline's link-arg run end with the script's old link args? */
static int run_ends_with(const struct lk_record *base, const struct lk_strvec *old)
{
	long n = base->link_args_end - base->link_args_start;

	if (base->link_args_start < 0 || (size_t)n < old->nr)
		return 0;
	for (size_t k = 0; k < old->nr; k++)
		if (strcmp(base->args.items[(size_t)base->link_args_end - old->nr + k].text, old->items[k]))
			return 0;
	return 1;
}

/*
 * The line: the baseline's, its search dirs and (when they changed) the
 * package's native libraries made again, then the link-arg run as
 * `prefix` (the rustflags' link args) and the script's new link args.
 */
static void build_line(const struct lk_record *base, const struct crate *c, const struct directives *old,
		       const struct directives *new, const struct lk_strvec *prefix, struct lk_whatif_line *out)
{
	size_t region_from = 0, region_to = 0;
	size_t run_start = base->link_args_start >= 0 ? (size_t)base->link_args_start : base->args.nr;
	size_t run_end = base->link_args_start >= 0 ? (size_t)base->link_args_end : base->args.nr;
	int libs_changed = !lk_strvec_equal(&old->libs, &new->libs) && !c->pkg_has_lib;
	int has_region = native_region(base, &region_from, &region_to) == 0;

	if (libs_changed && !has_region) {
		lk_strvec_push(&out->unknown, "the baseline's line has no run of rustc's objects then rlibs, where the package's native libraries would go");
		libs_changed = 0;
	}
	if (libs_changed) {
		copy_with_search(&out->argv, base, 0, region_from, old, new);
		/* rustc's own words of the region (-Wl,--as-needed) stay; the libraries are the script's */
		for (size_t i = region_from; i < region_to; i++)
			if (base->prov[i] == LK_PROV_RUSTC_FLAG && !lk_str_starts_with(base->args.items[i].text, "-Wl,-B"))
				lk_strvec_push(&out->argv, base->args.items[i].text);
		emit_libs(&out->argv, &new->libs);
		copy_with_search(&out->argv, base, region_to, run_start, old, new);
	} else {
		copy_with_search(&out->argv, base, 0, run_start, old, new);
	}
	out->link_args_start = (long)out->argv.nr;
	for (size_t k = 0; k < prefix->nr; k++)
		lk_strvec_push(&out->argv, prefix->items[k]);
	for (size_t k = 0; k < new->link_args.nr; k++)
		lk_strvec_push(&out->argv, new->link_args.items[k]);
	out->link_args_end = (long)out->argv.nr;
	push_range(&out->argv, &base->args, run_end, base->args.nr);
	if (out->link_args_start == out->link_args_end)
		out->link_args_start = out->link_args_end = -1;
}

/*
 * The link args in front of the script's: RUSTFLAGS' (or config's) now,
 * when that is what cargo would pass; the baseline's when RUSTFLAGS was
 * set for its link and is not here (the job that links sets it again).
 */
static void rustflags_prefix(const struct lk_record *base, const struct directives *old, const char *root,
			     struct lk_strvec *prefix, struct lk_whatif_line *out)
{
	struct lk_strvec flags = LK_STRVEC_INIT;
	const char *from = NULL;
	struct lk_buf said = LK_BUF_INIT;
	int cfg;

	lk_strvec_push(&flags, "rustc");	/* lk_rustc_link_args reads an argv: its [0] is the program */
	cfg = lk_cargo_rustflags(root, base->target, &flags, &from);
	int env_now = !strcmp(from, "RUSTFLAGS") || !strcmp(from, "CARGO_ENCODED_RUSTFLAGS");
	int env_then = lk_record_env(base, "RUSTFLAGS") || lk_record_env(base, "CARGO_ENCODED_RUSTFLAGS");

	if (env_now || !env_then) {
		lk_rustc_link_args((const char *const *)flags.items, flags.nr, prefix);
		if (cfg < 0)
			lk_strvec_push(&out->cannot_see, "a target.'cfg(...)' table of .cargo/config.toml has rustflags: cfg expressions are not evaluated, so its link args are not on the predicted line");
	} else {
		for (long i = base->link_args_start; i >= 0 && i < base->link_args_end - (long)old->link_args.nr; i++)
			lk_strvec_push(prefix, base->args.items[i].text);
		if (prefix->nr) {
			lk_buf_addf(&said, "RUSTFLAGS was set for the baseline's link and is not set here: its link args (%zu) are the baseline's",
				    prefix->nr);
			lk_strvec_push(&out->said, said.buf);
		}
	}
	lk_strvec_release(&flags);
	lk_buf_release(&said);
}

/* ---- the package in this tree ---- */

/* Does `dir`/Cargo.toml declare package `pkg`? (name = "pkg" in its [package] table) */
static int declares(const char *dir, const char *pkg)
{
	struct lk_buf path = LK_BUF_INIT, text = LK_BUF_INIT, want = LK_BUF_INIT;
	int yes = 0;

	lk_buf_addf(&path, "%s/Cargo.toml", dir);
	lk_buf_addf(&want, "name = \"%s\"", pkg);
	if (lk_buf_read_file(&text, path.buf, (size_t)1 << 20) == 0) {
		const char *p = strstr(text.buf, "[package]");

		yes = p && strstr(p, want.buf) && (!strstr(p + 9, "\n[") || strstr(p, want.buf) < strstr(p + 9, "\n["));
	}
	lk_buf_release(&path);
	lk_buf_release(&text);
	lk_buf_release(&want);
	return yes;
}

/* `dir` or a dir below it (two levels: a workspace's members) that declares `pkg`, malloc'd, or NULL. */
static char *find_package(const char *dir, const char *pkg, int depth)
{
	struct lk_buf sub = LK_BUF_INIT;
	char *found = NULL;
	struct dirent *e;
	DIR *d;

	if (declares(dir, pkg))
		return lk_xstrdup(dir);
	if (depth <= 0 || !(d = opendir(dir)))
		return NULL;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "target") || e->d_type != DT_DIR)
			continue;
		lk_buf_reset(&sub);
		lk_buf_addf(&sub, "%s/%s", dir, e->d_name);
		found = find_package(sub.buf, pkg, depth - 1);
	}
	closedir(d);
	lk_buf_release(&sub);
	return found;
}

/*
 * The baseline linked elsewhere (another runner, another checkout): the
 * package's dir and the workspace's in this tree, found from the target
 * dir's parent, so that the fixes name this tree's build.rs.
 */
static void this_tree(const struct lk_record *base, const struct crate *c, const char *target_dir,
		      struct lk_whatif_line *out)
{
	const char *was = lk_record_env(base, "CARGO_MANIFEST_DIR");
	char *abs = realpath(target_dir, NULL), *slash;
	struct stat st;

	if (!abs)
		return;
	if ((slash = strrchr(abs, '/')) && slash != abs)
		*slash = '\0';
	if (!was || stat(was, &st) < 0) {
		out->manifest_dir = find_package(abs, c->pkg, 2);
		if (!base->cwd || stat(base->cwd, &st) < 0)
			out->cwd = lk_xstrdup(abs);
	}
	free(abs);
}

/* ---- what the prediction cannot see ---- */

/* Is an rlib of package `pkg` (its first `len` bytes) on the baseline's line ("lib<crate>-<hash>.rlib")? */
static int rlib_on_line(const struct lk_record *base, const char *pkg, size_t len)
{
	struct lk_buf want = LK_BUF_INIT;
	int yes = 0;

	lk_buf_addstr(&want, "/lib");
	for (size_t i = 0; i < len; i++)
		lk_buf_addch(&want, pkg[i] == '-' ? '_' : pkg[i]);
	lk_buf_addch(&want, '-');
	for (size_t i = 0; i < base->args.nr && !yes; i++)
		yes = strstr(base->args.items[i].text, want.buf) && lk_str_ends_with(base->args.items[i].text, ".rlib");
	lk_buf_release(&want);
	return yes;
}

/*
 * Other packages' build scripts that ran again since the baseline and
 * link native libraries now, or whose rlib is on the line (a script that
 * stopped printing a rustc-link-lib): what they link reaches this line
 * through their rlibs, `cargo check` builds none, and the baseline's
 * record does not keep what they printed then: the baseline's are read.
 */
static void other_scripts(const struct lk_record *base, const char *build_dir, const struct crate *c,
			  struct lk_whatif_line *out)
{
	int64_t since_ns = base->start_ns;

	struct lk_buf path = LK_BUF_INIT, why = LK_BUF_INIT;
	DIR *d = opendir(build_dir);
	struct dirent *e;
	struct stat st;

	while (d && (e = readdir(d))) {
		struct lk_strvec lines = LK_STRVEC_INIT;
		size_t len = strlen(e->d_name);
		int libs = 0;

		if (e->d_name[0] == '.' || len < 18 || e->d_name[len - 17] != '-' ||
		    (c->pkg && is_pkg_dir(e->d_name, c->pkg)))
			continue;
		lk_buf_reset(&path);
		lk_buf_addf(&path, "%s/%s/output", build_dir, e->d_name);
		if (stat(path.buf, &st) < 0 || !S_ISREG(st.st_mode) ||
		    (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec <= since_ns)
			continue;
		if (lk_cargo_output_read(path.buf, &lines) == 0)
			for (size_t i = 0; i < lines.nr; i++)
				libs |= lk_str_starts_with(lines.items[i], "rustc-link-lib=");
		lk_strvec_release(&lines);
		if (!libs && !rlib_on_line(base, e->d_name, len - 17))
			continue;
		lk_buf_reset(&why);
		lk_buf_addf(&why, "the build script of '%.*s' ran again since the baseline and %s: what it links reaches this link through its rlib, which `cargo check` does not build, so the baseline's is read (%s)",
			    (int)(len - 17), e->d_name,
			    libs ? "links native libraries" : "its rlib is on this line (a rustc-link-lib it printed then may be gone)",
			    path.buf);
		lk_strvec_push(&out->cannot_see, why.buf);
	}
	if (d)
		closedir(d);
	lk_buf_release(&path);
	lk_buf_release(&why);
}

/* The newest "<crate>-<hash>.d" of `deps_dir` (cargo check's dep-info of the crate), malloc'd, or NULL. */
static char *newest_dep_info(const char *deps_dir, const char *crate)
{
	struct lk_buf path = LK_BUF_INIT;
	struct timespec best_time = { 0, 0 };
	char *best = NULL;
	size_t n = strlen(crate);
	struct dirent *e;
	struct stat st;
	DIR *d = opendir(deps_dir);

	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len != n + 19 || strncmp(e->d_name, crate, n) || e->d_name[n] != '-' || strcmp(e->d_name + len - 2, ".d"))
			continue;
		lk_buf_reset(&path);
		lk_buf_addf(&path, "%s/%s", deps_dir, e->d_name);
		if (stat(path.buf, &st) < 0 || (best && (st.st_mtim.tv_sec < best_time.tv_sec ||
			(st.st_mtim.tv_sec == best_time.tv_sec && st.st_mtim.tv_nsec <= best_time.tv_nsec))))
			continue;
		free(best);
		best = lk_xstrdup(path.buf);
		best_time = st.st_mtim;
	}
	if (d)
		closedir(d);
	lk_buf_release(&path);
	return best;
}

/*
 * The crate's Rust sources changed since the baseline, from the dep-info
 * `cargo check` wrote (its first rule: "OUT: SRC SRC ..."), relative
 * paths from `root`: what they reference now is not in the baseline's
 * objects, and that is said, naming them.
 */
static void rust_sources_changed(const char *build_dir, const struct crate *c, int64_t since_ns, const char *root,
				 struct lk_whatif_line *out)
{
	struct lk_buf deps = LK_BUF_INIT, text = LK_BUF_INIT, word = LK_BUF_INIT, path = LK_BUF_INIT, changed = LK_BUF_INIT;
	char *info;
	const char *p;
	size_t n = 0;

	lk_buf_add(&deps, build_dir, strlen(build_dir) - strlen("build"));
	lk_buf_addstr(&deps, "deps");
	if (!c->crate_name || !(info = newest_dep_info(deps.buf, c->crate_name)))
		goto out;
	if (lk_buf_read_file(&text, info, (size_t)16 << 20) == 0 && (p = strchr(text.buf, ':'))) {
		for (p++; *p && *p != '\n'; p++) {
			struct stat st;

			if (*p == '\\' && p[1] == ' ') {
				lk_buf_addch(&word, ' ');
				p++;
			} else if (*p != ' ') {
				lk_buf_addch(&word, *p);
			}
			if ((p[1] != ' ' && p[1] != '\n' && p[1]) || !word.len)
				continue;
			lk_buf_reset(&path);
			if (word.buf[0] != '/' && root)
				lk_buf_addf(&path, "%s/", root);
			lk_buf_addstr(&path, word.buf);
			if (lk_str_ends_with(word.buf, ".rs") && stat(path.buf, &st) == 0 &&
			    (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec > since_ns && n++ < 8)
				lk_buf_addf(&changed, "%s%s", changed.len ? ", " : "", word.buf);
			lk_buf_reset(&word);
		}
	}
	free(info);
	if (n) {
		lk_buf_reset(&text);
		lk_buf_addf(&text, "Rust sources of the crate changed since the baseline (%s%s): what they reference now is not in the baseline's objects, which this prediction reads",
			    changed.buf, n > 8 ? ", ..." : "");
		lk_strvec_push(&out->cannot_see, text.buf);
	}
out:
	lk_buf_release(&deps);
	lk_buf_release(&text);
	lk_buf_release(&word);
	lk_buf_release(&path);
	lk_buf_release(&changed);
}

/* An old record without caller.build_script: its link args, less those RUSTFLAGS gave (they come first). */
static void old_link_args_from_run(const struct lk_record *base, struct directives *old, struct lk_whatif_line *out)
{
	const char *flags = lk_record_env(base, "RUSTFLAGS");
	struct lk_strvec words = LK_STRVEC_INIT, from_flags = LK_STRVEC_INIT;
	size_t skip = 0;

	if (flags) {
		lk_strvec_push(&words, "rustc");	/* lk_rustc_link_args reads an argv: its [0] is the program */
		lk_rsp_split(flags, &words);
		lk_rustc_link_args((const char *const *)words.items, words.nr, &from_flags);
	}
	skip = from_flags.nr;
	for (long i = base->link_args_start; i >= 0 && i < base->link_args_end; i++, skip = skip ? skip - 1 : 0)
		if (!skip)
			lk_strvec_push(&old->link_args, base->args.items[i].text);
	lk_strvec_push(&out->said, "the baseline's record does not keep its build script's directives (recorded since linkscope 0.3): its link args are taken as the script's, less RUSTFLAGS', and its rustc-link-lib lines are not compared");
	lk_strvec_release(&words);
	lk_strvec_release(&from_flags);
}

int lk_whatif_from_cargo(const struct lk_record *base, const char *target_dir, const char *target,
			 const char *profile, struct lk_whatif_line *out, struct lk_err *err)
{
	struct directives old = { LK_STRVEC_INIT, LK_STRVEC_INIT, LK_STRVEC_INIT };
	struct directives new = { LK_STRVEC_INIT, LK_STRVEC_INIT, LK_STRVEC_INIT };
	struct lk_strvec lines = LK_STRVEC_INIT, prefix = LK_STRVEC_INIT;
	struct crate c;
	char *build_dir = NULL, *output = NULL, *dir_name = NULL, *abs_dir = NULL;
	int rc = -1;

	out->source = "cargo";
	/* Absolute: the paths made of it (OUT_DIR, the output read) are used from the baseline's cwd. */
	if ((abs_dir = realpath(target_dir, NULL)))
		target_dir = abs_dir;
	read_crate(base, &c);
	if (!base->caller_is_rustc || !base->caller_argv.nr) {
		lk_err_set(err, LK_E_USAGE, "'%s' is not a link rustc ran (its record has no rustc command line): --cargo needs a cargo build's record as the baseline",
			   base->path);
		goto out;
	}
	if (target && c.crate_name && strcmp(target, c.crate_name) && (!c.pkg || strcmp(target, c.pkg)) &&
	    (!c.bin_name || strcmp(target, c.bin_name))) {
		lk_err_set(err, LK_E_USAGE, "the baseline links crate '%s' of package '%s', not --target '%s'",
			   c.crate_name, c.pkg ? c.pkg : "?", target);
		goto out;
	}
	if (!c.pkg) {
		lk_err_set(err, LK_E_USAGE, "'%s' does not say its cargo package (CARGO_PKG_NAME was not recorded)", base->path);
		goto out;
	}
	if (!(build_dir = profile_dir(target_dir, &c, profile, err)))
		goto out;
	dir_name = baseline_dir_name(base);
	output = find_output(build_dir, c.pkg, dir_name);
	if (base->build_output) {
		read_directives(&c, &base->build_directives, &old);
	} else {
		old_link_args_from_run(base, &old, out);
	}
	if (output) {
		if (lk_cargo_output_read(output, &lines) < 0) {
			lk_err_errno(err, "cannot read '%s'", output);
			goto out;
		}
		read_directives(&c, &lines, &new);
		out->read = lk_xstrdup(output);
	} else if (base->build_output) {
		lk_err_set(err, LK_E_USAGE, "'%s' has no output of package '%s''s build script: run `cargo check` first",
			   build_dir, c.pkg);
		goto out;
	} else {
		/* No build script then or now: the line is the baseline's. */
		out->read = lk_xstrdup(build_dir);
	}
	if (!base->build_output) {
		lk_strvec_release(&new.libs);
		for (size_t i = 0; i < old.libs.nr; i++)
			lk_strvec_push(&new.libs, old.libs.items[i]);
	}
	if (base->link_args_start >= 0 && !run_ends_with(base, &old.link_args)) {
		lk_err_set(err, LK_E_FORMAT, "'%s': the line's link args do not end with its build script's (%s)",
			   base->path, base->build_output ? base->build_output : "RUSTFLAGS");
		goto out;
	}
	this_tree(base, &c, target_dir, out);
	rustflags_prefix(base, &old, out->cwd ? out->cwd : base->cwd, &prefix, out);
	build_line(base, &c, &old, &new, &prefix, out);
	if (!lk_strvec_equal(&old.libs, &new.libs) && c.pkg_has_lib)
		lk_strvec_push(&out->cannot_see, "the package's rustc-link-lib lines changed: they reach this crate through the package's own rlib, which `cargo check` does not build");
	lk_strvec_push(&out->said, "the Rust code's objects and rlibs are the baseline's: `cargo check` compiles no object, so a change in Rust code since the baseline (a new extern \"C\" reference) is not seen");
	other_scripts(base, build_dir, &c, out);
	rust_sources_changed(build_dir, &c, base->start_ns, out->cwd ? out->cwd : base->cwd, out);
	rc = 0;
out:
	free(c.out_dir);
	free(abs_dir);
	free(build_dir);
	free(output);
	free(dir_name);
	lk_strvec_release(&lines);
	lk_strvec_release(&prefix);
	directives_release(&old);
	directives_release(&new);
	return rc;
}
