/*
 * rustc awareness: provenance of each argument of a rustc-built link line.
 *
 * Takes: the expanded driver argv and, when available, rustc's own command
 * line (read from /proc/<parent>/cmdline). Gives: lk_provenance.
 * Models: rustc's linker_with_args (compiler/rustc_codegen_ssa/src/back/
 * link.rs): its own objects, rlibs and native libraries first, then
 * sess.opts.cg.link_args (every -C link-arg and -C link-args, in command
 * line order, verbatim), which cargo fills from cargo:rustc-link-arg.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/cargo_output.h"
#include "linkscope/rsp.h"
#include "linkscope/rustc.h"
#include "linkscope/vec.h"

const char *lk_prov_name(enum lk_prov prov)
{
	switch (prov) {
	case LK_PROV_DRIVER: return "driver";
	case LK_PROV_USER: return "user";
	case LK_PROV_RUSTC_OBJECT: return "rustc-object";
	case LK_PROV_RUSTC_RLIB: return "rustc-rlib";
	case LK_PROV_RUSTC_NATIVE: return "rustc-native-lib";
	case LK_PROV_RUSTC_FLAG: return "rustc-flag";
	case LK_PROV_LINK_ARG: return "link-arg";
	}
	LK_BUG("unknown provenance");
}

static const char *basename_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}


/* rustc's own @file: one argument per line ("@shell:" files are not split here). */
static void push_arg_expanding(struct lk_strvec *out, const char *arg)
{
	struct lk_buf text = LK_BUF_INIT;
	char *line, *next;

	if (arg[0] != '@' || !strncmp(arg, "@shell:", 7) ||
	    lk_buf_read_file(&text, arg + 1, (size_t)64 << 20) < 0) {
		lk_buf_release(&text);
		lk_strvec_push(out, arg);
		return;
	}
	for (line = text.buf; *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		lk_strvec_push(out, line);
	}
	lk_buf_release(&text);
}

int lk_rustc_read_caller(pid_t pid, struct lk_rustc_caller *out)
{
	struct lk_buf raw = LK_BUF_INIT;
	char path[64];
	size_t off;

	memset(out, 0, sizeof(*out));
	out->pid = pid;
	snprintf(path, sizeof(path), "/proc/%ld/cmdline", (long)pid);
	if (lk_buf_read_file(&raw, path, (size_t)16 << 20) < 0 || !raw.len) {
		lk_buf_release(&raw);
		return 0;
	}
	/* rustup's proxy execs the toolchain's rustc, so argv[0] says rustc. */
	if (strncmp(basename_of(raw.buf), "rustc", 5)) {
		lk_buf_release(&raw);
		return 0;
	}
	for (off = 0; off < raw.len; off += strlen(raw.buf + off) + 1)
		push_arg_expanding(&out->argv, raw.buf + off);
	lk_buf_release(&raw);
	out->is_rustc = 1;
	lk_rustc_link_args((const char *const *)out->argv.items, out->argv.nr,
			   &out->link_args);
	return 1;
}

/* The value of a codegen option "-C name=value" in any of its spellings. */
static const char *codegen_value(const char *const *argv, size_t argc,
				 size_t *i)
{
	const char *a = argv[*i];

	if (!strcmp(a, "-C") || !strcmp(a, "--codegen")) {
		if (*i + 1 >= argc)
			return NULL;
		return argv[++*i];
	}
	if (!strncmp(a, "--codegen=", 10))
		return a + 10;
	if (!strncmp(a, "-C", 2))
		return a + 2;
	return NULL;
}

static void push_split_whitespace(struct lk_strvec *out, const char *s)
{
	while (*s) {
		size_t n;

		while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			s++;
		n = strcspn(s, " \t\n\r");
		if (n)
			lk_strvec_push_owned(out, lk_xstrndup(s, n));
		s += n;
	}
}

void lk_rustc_link_args(const char *const *argv, size_t argc,
			struct lk_strvec *out)
{
	for (size_t i = 1; i < argc; i++) {
		const char *v = codegen_value(argv, argc, &i);

		if (!v)
			continue;
		if (!strncmp(v, "link-arg=", 9))
			lk_strvec_push(out, v + 9);
		else if (!strncmp(v, "link-args=", 10))
			push_split_whitespace(out, v + 10);
	}
}

void lk_rustc_read_build_script(struct lk_rustc_caller *caller, const char *out_dir)
{
	char *output = lk_cargo_output_of_out_dir(out_dir);

	if (output && lk_cargo_output_read(output, &caller->build_directives) == 0) {
		caller->build_output = output;
		return;
	}
	free(output);
}

void lk_rustc_caller_release(struct lk_rustc_caller *caller)
{
	lk_strvec_release(&caller->argv);
	lk_strvec_release(&caller->link_args);
	free(caller->build_output);
	caller->build_output = NULL;
	lk_strvec_release(&caller->build_directives);
	caller->is_rustc = 0;
}

/* rustc's temporary directory is "rustc" plus six random characters. */
int lk_rustc_temp_path(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *dir;

	if (!slash || slash == path)
		return 0;
	dir = slash - 1;
	while (dir > path && dir[-1] != '/')
		dir--;
	return slash - dir == 11 && !strncmp(dir, "rustc", 5);
}

int lk_rustc_line_shape(const struct lk_args *args)
{
	for (size_t i = 1; i < args->nr; i++) {
		const char *a = args->items[i].text;

		if (lk_str_ends_with(a, ".rcgu.o") ||
		    (lk_str_ends_with(a, "/symbols.o") && lk_rustc_temp_path(a)))
			return 1;
	}
	return 0;
}

static enum lk_prov rustc_kind(const char *arg)
{
	if (lk_str_ends_with(arg, ".o"))
		return LK_PROV_RUSTC_OBJECT;
	if (lk_str_ends_with(arg, ".rlib"))
		return LK_PROV_RUSTC_RLIB;
	if ((!strncmp(arg, "-l", 2) && arg[2]) || lk_str_ends_with(arg, ".a"))
		return LK_PROV_RUSTC_NATIVE;
	return LK_PROV_RUSTC_FLAG;
}

/* The last i such that args[i .. i+n) equals want[0 .. n), or -1. */
static long find_last_run(const struct lk_args *args,
			  const struct lk_strvec *want)
{
	size_t n = want->nr;

	if (!n || n >= args->nr)
		return -1;
	for (size_t i = args->nr - n; i >= 1; i--) {
		size_t k = 0;

		while (k < n && !strcmp(args->items[i + k].text, want->items[k]))
			k++;
		if (k == n)
			return (long)i;
	}
	return -1;
}

static long after_last_nodefaultlibs(const struct lk_args *args)
{
	for (size_t i = args->nr; i-- > 1;)
		if (!strcmp(args->items[i].text, "-nodefaultlibs"))
			return i + 1 < args->nr ? (long)(i + 1) : -1;
	return -1;
}

void lk_rustc_provenance(const struct lk_args *args,
			 const struct lk_rustc_caller *caller,
			 struct lk_provenance *out)
{
	int rustc = caller && caller->is_rustc;
	long start = -1, end = -1;

	out->nr = args->nr;
	out->items = lk_xcalloc(args->nr, sizeof(*out->items));
	if (rustc) {
		out->method = "rustc-cmdline";
		start = find_last_run(args, &caller->link_args);
		if (start >= 0)
			end = start + (long)caller->link_args.nr;
	} else if (lk_rustc_line_shape(args)) {
		rustc = 1;
		out->method = "rustc-heuristic";
		start = after_last_nodefaultlibs(args);
		end = start >= 0 ? (long)args->nr : -1;
	} else {
		out->method = "caller";
	}
	out->link_args_start = start;
	out->link_args_end = end;

	for (size_t i = 0; i < args->nr; i++) {
		if (i == 0)
			out->items[i] = LK_PROV_DRIVER;
		else if (!rustc)
			out->items[i] = LK_PROV_USER;
		else if ((long)i >= start && (long)i < end)
			out->items[i] = LK_PROV_LINK_ARG;
		else
			out->items[i] = rustc_kind(args->items[i].text);
	}
}

void lk_provenance_release(struct lk_provenance *prov)
{
	free(prov->items);
	prov->items = NULL;
	prov->nr = 0;
}
