/*
 * Line model -> inputs: every item resolved to the file GNU ld opens.
 *
 * Models ld/ldfile.c (the -l search is libsearch.c's; which inputs ld
 * cannot use, usable.c's), ld/ldlang.c (a linker script given as an input adds its
 * GROUP/INPUT files at its place; AS_NEEDED inside it), and ld/ldelf.c
 * (ldelf_after_open: a shared object's DT_NEEDED is looked for in
 * -rpath-link, -rpath, LD_RUN_PATH and LD_LIBRARY_PATH for a native
 * linker, the needing object's DT_RUNPATH or DT_RPATH, /etc/ld.so.conf,
 * then the default dirs; never the -L dirs).
 */
#include <ctype.h>
#include <elf.h>
#include <stdarg.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "linkscope/argv.h"
#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/file.h"
#include "linkscope/sha256.h"
#include "linkscope/runcmd.h"
#include "script.h"
#include "linkscope/vec.h"
#include "compile.h"
#include "fingerprint.h"
#include "resolve.h"
#include "sandbox.h"
#include "trust.h"
#include "usable.h"

/* ---- running the linker for its defaults ---- */

/*
 * Run this machine's `argv[0]` (found on PATH), its stdout in `out`; its
 * exit status or -1. With `line`, it is the record's driver: run inside
 * the walls (sandbox.h) in the line's scratch dir, in an environment of
 * its own.
 */
static int run_capture(char *const argv[], struct lk_line *line, struct lk_buf *out)
{
	/* argv[0] is ours: a path this machine's lookups gave, or a name for PATH. */
	char *path = strchr(argv[0], '/') ? lk_xstrdup(argv[0]) : lk_trust_which(argv[0]);
	struct lk_strvec envp = LK_STRVEC_INIT;
	struct lk_runcmd cmd = { 0 };
	int rc;

	if (!path || (line && !lk_line_scratch(line))) {
		free(path);
		return -1;
	}
	cmd.path = path;
	cmd.argv = (const char *const *)argv;
	cmd.out = out;
	cmd.max_bytes = (size_t)4 << 20;
	cmd.timeout_ms = LK_TRUST_TIMEOUT_MS;
	if (line) {
		lk_trust_env(NULL, LK_TRUST_EXPAND, line->scratch, &envp);
		cmd.envp = envp.items;
		rc = lk_sandbox_run(&cmd, line->scratch, line->walls, NULL);
	} else {
		cmd.keep = 1;	/* the linker's own defaults: the same for every line of a run */
		rc = lk_runcmd(&cmd, NULL);
	}
	lk_strvec_release(&envp);
	free(path);
	return rc;
}

static void trim(struct lk_buf *b)
{
	while (b->len && (b->buf[b->len - 1] == '\n' || b->buf[b->len - 1] == ' '))
		b->buf[--b->len] = '\0';
}

/* A target triple's first word names an architecture binutils is built for. */
static int known_triple(const char *t)
{
	static const char *const arches[] = { "x86_64-", "i386-", "i486-", "i586-", "i686-",
		"aarch64-", "aarch64_be-", "arm-", "armv7", "armeb-", "riscv32-", "riscv64-",
		"powerpc-", "powerpc64-", "powerpc64le-", "mips", "s390x-", "loongarch64-",
		"sparc64-", "m68k-", "alpha-", "hppa-", "sh4-", NULL };

	for (const char *p = t; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_.-", *p))
			return 0;
	for (const char *const *a = arches; *a; a++)
		if (!strncmp(t, *a, strlen(*a)))
			return 1;
	return 0;
}

/*
 * The GNU ld whose defaults the line gets: this machine's ld, or
 * TRIPLE-ld for a cross target (the record's triple, if it names a known
 * architecture), or .bfd of either when the record's -print-prog-name
 * answer says ld.bfd; else the answer of this machine's driver under
 * --run-driver. Never the record's path or name itself: it is data.
 */
static char *bfd_program(const struct lk_record *rec, struct lk_line *line)
{
	const char *ppn = rec->print_prog_name;
	const char *base = ppn ? (strrchr(ppn, '/') ? strrchr(ppn, '/') + 1 : ppn) : "";
	struct lk_buf name = LK_BUF_INIT, out = LK_BUF_INIT;
	char *path, *argv[3];

	if (rec->target && known_triple(rec->target))
		lk_buf_addf(&name, "%s-", rec->target);
	lk_buf_addstr(&name, !strcmp(base, "ld.bfd") ? "ld.bfd" : "ld");
	if (name.buf[0] != 'l' || (ppn && *ppn) || !line->run_driver) {
		path = lk_trust_which(name.buf);
		lk_buf_release(&name);
		if (path)
			return path;
	}
	lk_buf_release(&name);
	if (line->run_driver) {
		argv[0] = line->run_driver;
		argv[1] = (char *)"-print-prog-name=ld";
		argv[2] = NULL;
		if (run_capture(argv, line, &out) == 0) {
			trim(&out);
			if (out.len && out.buf[0] == '/')
				return lk_buf_detach(&out);
		}
	}
	lk_buf_release(&out);
	return lk_xstrdup("ld");
}

static char *apply_sysroot(const char *sysroot, const char *dir)
{
	struct lk_buf b = LK_BUF_INIT;

	/* A sysroot of "/" adds nothing: "=/lib" is "/lib", not "//lib". */
	if (dir[0] == '=')
		lk_buf_addf(&b, "%s%s", sysroot && strcmp(sysroot, "/") ? sysroot : "", dir + 1);
	else
		lk_buf_addstr(&b, dir);
	return lk_buf_detach(&b);
}

/*
 * The sysroot prefixes, as each linker reads them (checked against GNU ld
 * 2.40, lld 14 and mold 1.10; tests/integ/151-sysroot-prefixes.sh):
 * "=DIR" in -L is the sysroot's DIR in all three, GNU ld's configured
 * sysroot when the line says none ("/" here), lld's none ("=" dropped),
 * while mold without --sysroot searches "=DIR" as it is; "$SYSROOT" in -L
 * is the sysroot's to GNU ld and mold, a plain name to lld. In a linker
 * script's file names "=" is the sysroot's in all three, "$SYSROOT" only
 * in GNU ld's.
 */
enum prefix_place { PREFIX_LIBDIR, PREFIX_SCRIPT };

static int linker_index(const char *flavor)
{
	return !strcmp(flavor, "lld") ? 1 : !strcmp(flavor, "mold") ? 2 : 0;
}

static int sysroot_prefixed(const char *name, size_t *skip)
{
	if (name[0] == '=') {
		*skip = 1;
		return 1;
	}
	if (!strncmp(name, "$SYSROOT", 8)) {
		*skip = 8;
		return 1;
	}
	return 0;
}

/* `name` as linker `l` (linker_index) reads it at `place`; malloc'd. */
static char *prefixed_as(const struct lk_line *line, int l, enum prefix_place place, const char *name)
{
	const char *given = line->sysroot_said ? line->sysroot : NULL;
	/* GNU ld's sysroot: the line's, or its configured one (this machine's is "/"). */
	const char *bfd = line->sysroot ? line->sysroot : "/";
	struct lk_buf b = LK_BUF_INIT;
	size_t skip;
	int dollar = name[0] == '$';

	if (!sysroot_prefixed(name, &skip))
		return lk_xstrdup(name);
	if (l == 0)
		lk_buf_addf(&b, "%s%s", strcmp(bfd, "/") ? bfd : "", name + skip);
	else if (dollar && (l == 1 || place == PREFIX_SCRIPT))
		lk_buf_addstr(&b, name);
	else if (l == 2 && place == PREFIX_LIBDIR && !given)
		lk_buf_addstr(&b, name);
	else
		lk_buf_addf(&b, "%s%s", given && strcmp(given, "/") ? given : "", name + skip);
	return lk_buf_detach(&b);
}

static const char *const linker_names[] = { "GNU ld", "lld", "mold" };

static char *in_cwd(const struct lk_record *rec, const char *path);

/*
 * `name` as the line's own linker reads it. Where another reads it
 * otherwise: a -L dir is kept in libdir_otherwise, judged once the line
 * is resolved (otherwise_searched); a script's name that linker reads as
 * a file that does not exist fails it ("cannot open"), else its verdict
 * is unknown.
 */
static char *sysroot_name(const struct lk_record *rec, struct lk_line *line, enum prefix_place place, const char *name)
{
	int own = linker_index(line->flavor);
	char *mine = prefixed_as(line, own, place, name);

	for (int l = 0; l < 3; l++) {
		char *theirs, *abs;
		struct lk_buf b = LK_BUF_INIT;

		if (l == own)
			continue;
		theirs = prefixed_as(line, l, place, name);
		if (!strcmp(theirs, mine)) {
			free(theirs);
			continue;
		}
		abs = in_cwd(rec, theirs);
		if (place == PREFIX_LIBDIR) {
			char *mine_abs = in_cwd(rec, mine);

			lk_strvec_push_owned(&line->libdir_otherwise[l], mine_abs);
			lk_strvec_push(&line->libdir_otherwise[l], abs);
		} else if (access(abs, F_OK) != 0 && !line->fails_otherwise[l]) {
			lk_buf_addf(&b, "%s fails: it reads the script name '%s' as '%s', which does not exist (\"cannot open\")",
				    linker_names[l], name, theirs);
			line->fails_otherwise[l] = lk_buf_detach(&b);
		} else if (!line->read_otherwise[l]) {
			lk_buf_addf(&b, "%s reads the script name '%s' as '%s', not '%s' as %s does: what it finds there is not modelled",
				    linker_names[l], name, theirs, mine, linker_names[own]);
			line->read_otherwise[l] = lk_buf_detach(&b);
		}
		free(abs);
		free(theirs);
	}
	return mine;
}

/* The record's -m value, passed to this machine's ld only if it is an emulation's name. */
static int valid_emulation(const char *emu)
{
	if (!*emu || emu[0] == '-')
		return 0;
	for (; *emu; emu++)
		if (!isalnum((unsigned char)*emu) && *emu != '_')
			return 0;
	return 1;
}

/* SEARCH_DIR("...") of `ld --verbose`, and its configured sysroot. */
static void bfd_defaults(struct lk_line *line, const char *ld)
{
	struct lk_buf out = LK_BUF_INIT, sysroot = LK_BUF_INIT;
	char *argv[5];
	int n = 0;
	const char *p;

	argv[n++] = (char *)ld;
	argv[n++] = (char *)"--print-sysroot";
	argv[n] = NULL;
	if (!line->sysroot && run_capture(argv, NULL, &sysroot) == 0) {
		trim(&sysroot);
		line->sysroot = lk_buf_detach(&sysroot);
	}
	lk_buf_release(&sysroot);
	n = 1;
	if (line->emulation && valid_emulation(line->emulation)) {
		argv[n++] = (char *)"-m";
		argv[n++] = line->emulation;
	}
	argv[n++] = (char *)"--verbose";
	argv[n] = NULL;
	if (run_capture(argv, NULL, &out) != 0) {
		struct lk_buf note = LK_BUF_INIT;

		lk_buf_addf(&note, "could not run '%s --verbose': the linker's default search dirs are unknown", ld);
		lk_strvec_push_owned(&line->notes, lk_buf_detach(&note));
	}
	for (p = out.buf; (p = strstr(p, "SEARCH_DIR(\"")); ) {
		const char *end = strchr(p + 12, '"');

		if (!end)
			break;
		{
			char *dir = lk_xstrndup(p + 12, (size_t)(end - p - 12));

			lk_strvec_push_owned(&line->default_dirs, apply_sysroot(line->sysroot, dir));
			free(dir);
		}
		p = end;
	}
	lk_buf_release(&out);
}

static int machine_of_emulation(const char *emu)
{
	if (!emu)
		return 0;
	if (strstr(emu, "x86_64"))
		return EM_X86_64;
	if (strstr(emu, "aarch64"))
		return EM_AARCH64;
	if (strstr(emu, "i386"))
		return EM_386;
	if (strstr(emu, "arm"))
		return EM_ARM;
	if (strstr(emu, "riscv"))
		return EM_RISCV;
	return 0;
}

static int host_machine(void)
{
	struct utsname u;

	if (uname(&u) < 0)
		return 0;
	if (!strcmp(u.machine, "x86_64"))
		return EM_X86_64;
	if (!strcmp(u.machine, "aarch64"))
		return EM_AARCH64;
	return 0;
}

/* ---- files ---- */

struct ctx {
	const struct lk_record *rec;
	struct lk_line *line;
	int machine;		/* the link's e_machine, 0 if unknown */
	struct lk_elf_memo memo;	/* the files identified so far, by path */
	size_t script_items;	/* the items linker scripts added so far */
	size_t scripts_read;	/* the linker scripts read so far, each time one is named */
	int said_deep, said_many;	/* the line's unknowns say each once, not for every script */
};

static char *join(const char *dir, const char *name)
{
	struct lk_buf b = LK_BUF_INIT;

	lk_buf_addf(&b, "%s%s%s", dir, *dir && dir[strlen(dir) - 1] == '/' ? "" : "/", name);
	return lk_buf_detach(&b);
}

/* A path as ld sees it: relative to the link's working directory. */
static char *in_cwd(const struct lk_record *rec, const char *path)
{
	if (path[0] == '/' || !rec->cwd)
		return lk_xstrdup(path);
	if (!strcmp(path, "."))
		return lk_xstrdup(rec->cwd);
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	return join(rec->cwd, path);
}

/* The blob the shim kept of `path` for `what` (the file itself, or the object made of a source). */
static char *kept_as(const struct lk_record *rec, const char *path, int object_of_source)
{
	for (size_t i = 0; i < rec->kept.nr; i++) {
		const struct lk_record_kept *k = &rec->kept.items[i];
		char *abs;
		int same;

		if (object_of_source != (k->reason && !strcmp(k->reason, "source-object")))
			continue;
		abs = in_cwd(rec, k->path);
		same = !strcmp(k->path, path) || !strcmp(abs, path);
		free(abs);
		if (same) {
			char *blob = join(rec->dir, k->blob);

			/* A record copied away from its blobs/ has none. */
			if (access(blob, R_OK) == 0)
				return blob;
			free(blob);
		}
	}
	return NULL;
}

/* Does the file at `path` hold the content named `sha256` (its size that of `copy` first: a cheap no)? */
static int same_content(const char *path, const char *copy, const char *sha256)
{
	struct lk_sha256 ctx;
	struct stat a, b;
	char buf[65536], hex[65];
	ssize_t n;
	int fd;

	if (stat(copy, &b) < 0 || (fd = lk_file_open_regular(path, &a)) < 0)
		return 0;
	if (a.st_size != b.st_size) {
		close(fd);
		return 0;
	}
	lk_sha256_init(&ctx);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		lk_sha256_update(&ctx, buf, (size_t)n);
	close(fd);
	lk_sha256_final_hex(&ctx, hex);
	return n == 0 && !strcmp(hex, sha256);
}

char *lk_resolve_bundled(const struct lk_record *rec, const char *path)
{
	char *abs;

	/* Only a bundle's record has bundled copies: a record's line costs nothing more. */
	if (!rec || !rec->unpacked)
		return NULL;
	abs = in_cwd(rec, path);
	for (size_t i = 0; i < rec->kept.nr; i++) {
		const struct lk_record_kept *k = &rec->kept.items[i];
		char *kabs, *blob;
		int same;

		if (!k->reason || strcmp(k->reason, "bundle"))
			continue;
		kabs = in_cwd(rec, k->path);
		same = !strcmp(kabs, abs);
		free(kabs);
		if (!same)
			continue;
		blob = join(rec->dir, k->blob);
		/* bundle.c names every bundled copy blobs/<sha256>, checked when it was unpacked. */
		if (access(blob, R_OK) < 0 || same_content(abs, blob, k->blob + 6)) {
			free(blob);
			blob = NULL;
		}
		free(abs);
		return blob;
	}
	free(abs);
	return NULL;
}

int lk_resolve_bundles_dir(const struct lk_record *rec, const char *dir)
{
	char *abs;
	size_t n;
	int found = 0;

	if (!rec || !rec->unpacked)
		return 0;
	abs = in_cwd(rec, dir);
	n = strlen(abs);
	while (n > 1 && abs[n - 1] == '/')
		n--;
	for (size_t i = 0; i < rec->kept.nr && !found; i++) {
		const struct lk_record_kept *k = &rec->kept.items[i];
		char *kabs;

		if (!k->reason || strcmp(k->reason, "bundle"))
			continue;
		kabs = in_cwd(rec, k->path);
		found = !strncmp(kabs, abs, n) && kabs[n] == '/';
		free(kabs);
	}
	free(abs);
	return found;
}

/* The copy the shim kept of `path`, if any. */
static char *kept_copy(const struct lk_record *rec, const char *path)
{
	return kept_as(rec, path, 0);
}

static int compatible(const struct ctx *c, const struct lk_elf_info *info)
{
	return !c->machine || !info->machine || info->machine == c->machine;
}

static int is_found(const struct lk_elf_info *info)
{
	return info->kind != LK_FILE_MISSING && info->kind != LK_FILE_UNREADABLE;
}

static void set_note(struct lk_line_item *it, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_note(struct lk_line_item *it, const char *fmt, ...)
{
	struct lk_buf n = LK_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	lk_buf_vaddf(&n, fmt, ap);
	va_end(ap);
	free(it->note);
	it->note = lk_buf_detach(&n);
}

static void read_script(struct ctx *c, size_t index, int depth);

/* The driver's temporary object for a source on the line: compile the source again. */
static void compile_again(struct ctx *c, size_t index)
{
	struct lk_line_item *it = &c->line->items.items[index];
	const char *source = c->rec->args.items[it->position].text;
	char *abs = in_cwd(c->rec, source), *copy = kept_copy(c->rec, abs), *obj, *dropped = NULL;
	struct lk_err err = LK_ERR_INIT;

	/* The object the driver itself made at link time (shim/tempobj.c): nothing to run. */
	if ((obj = kept_as(c->rec, abs, 1))) {
		lk_elf_info_release(&it->info);
		free(it->path);
		it->path = obj;
		lk_elf_identify(obj, &it->info);
		set_note(it, "the object the driver compiled from '%s' at link time, kept with the record", source);
		goto out;
	}
	/* "-" is stdin's: a file of that name in the cwd is another. */
	if (!copy && strcmp(source, "-") && access(abs, R_OK) == 0)
		copy = lk_xstrdup(abs);
	if (!copy) {
		set_note(it, "the driver's temporary object for '%s', compiled by this call; the source is gone and was not kept",
			 source);
		goto out;
	}
	if (!c->line->run_driver) {
		/* Compiling means running a compiler with the record's options: only when asked. */
		struct lk_buf why = LK_BUF_INIT;

		lk_buf_addf(&why, "'%s' was not compiled again: %s, so its symbols are unknown",
			    source, c->line->no_driver_why ? c->line->no_driver_why :
			    "the analyzer runs no compiler unless asked (--run-driver)");
		set_note(it, "%s", why.buf);
		lk_strvec_push_owned(&c->line->unknown, lk_buf_detach(&why));
		goto out;
	}
	obj = lk_line_scratch(c->line) ?
	      lk_compile_source(c->rec, c->line->run_driver, source,
				lk_argv_language_at(&c->rec->args, (size_t)it->position), copy,
				c->line->scratch, c->line->walls, &dropped, &err) : NULL;
	if (!obj) {
		set_note(it, "the driver's temporary object for '%s', compiled by this call: %s", source,
			 err.msg[0] ? err.msg : "no scratch directory");
		lk_strvec_push(&c->line->unknown, it->note);
		goto out;
	}
	lk_elf_info_release(&it->info);
	free(it->path);
	it->path = obj;
	lk_elf_identify(obj, &it->info);
	set_note(it, "'%s' compiled again now from %s%s%s", source,
		 strcmp(copy, abs) ? "the copy kept with the record" : "the file",
		 dropped ? "; " : "", dropped ? dropped : "");
out:
	free(dropped);
	free(abs);
	free(copy);
}

static void resolve_item(struct ctx *c, size_t index, int depth)
{
	struct lk_line_item *it = &c->line->items.items[index];

	if (it->kind == LK_ITEM_LIB) {
		int found = lk_resolve_search_lib(c->line, it);

		for (int l = 0; found == 0 && it->foreign_format && l < 3; l += 2) {
			/* An lld line took a script of another OUTPUT_FORMAT, which GNU ld and mold skip. */
			struct lk_buf b = LK_BUF_INIT;

			if (c->line->read_otherwise[l])
				continue;
			lk_buf_addf(&b, "%s skips '%s' for %s (a linker script of OUTPUT_FORMAT(%s)), which lld reads: its search on from there is not modelled",
				    l ? "mold" : "GNU ld", it->path, it->word, it->foreign_format);
			c->line->read_otherwise[l] = lk_buf_detach(&b);
		}
		if (found < 0) {
			char count[32];

			snprintf(count, sizeof(count), "%zu", it->tried.nr);
			set_note(it, "not found (%s files tried)", count);
			it->info.kind = LK_FILE_MISSING;
			return;
		}
		/* Found in a bundle (libsearch.c): its candidate, the last tried, is gone or another here. */
		if (c->rec->unpacked && !strncmp(it->path, c->rec->dir, strlen(c->rec->dir)) && it->tried.nr)
			set_note(it, "%s; read from the copy in the bundle",
				 access(it->tried.items[it->tried.nr - 1], F_OK) < 0 ? "not on this machine" :
				 "another file on this machine");
	} else if (it->kind == LK_ITEM_FILE) {
		char *path = it->path ? it->path : in_cwd(c->rec, it->word);
		char *copy;

		it->path = path;
		lk_elf_identify_memo(&c->memo, path, &it->info);
		/* A bundle's copy is what ld read where the file here is gone or another (bundle.c). */
		if ((copy = lk_resolve_bundled(c->rec, path))) {
			int gone = it->info.kind == LK_FILE_MISSING;

			lk_elf_info_release(&it->info);
			it->path = copy;
			lk_elf_identify(copy, &it->info);
			set_note(it, "%s; read from the copy in the bundle", gone ? "not on this machine" :
				 "another file on this machine");
			free(path);
		} else if ((it->info.kind == LK_FILE_MISSING || lk_fingerprint_changed(c->rec, it)) &&
		    (copy = kept_copy(c->rec, path))) {
			int gone = it->info.kind == LK_FILE_MISSING;

			lk_elf_info_release(&it->info);
			free(it->path);
			it->path = copy;
			lk_elf_identify(copy, &it->info);
			set_note(it, "%s; read from the copy kept with the record", gone ? "gone" : "changed since the link");
		} else if (it->info.kind == LK_FILE_MISSING && lk_argv_is_driver_temp(it->word) &&
			   it->position >= 0) {
			compile_again(c, index);
		} else if (it->info.kind == LK_FILE_MISSING && it->position < 0 && it->parent < 0 &&
			   lk_argv_is_driver_temp(it->word)) {
			/* The object of a source this call compiled, matched to no source. */
			struct lk_buf why = LK_BUF_INIT;

			lk_buf_addf(&why, "'%s' is the driver's temporary object of a source that cannot be told: its symbols are unknown",
				    it->word);
			lk_strvec_push_owned(&c->line->unknown, lk_buf_detach(&why));
		}
	} else {
		return;
	}
	if (it->info.kind == LK_FILE_TEXT)
		read_script(c, index, depth);
	it = &c->line->items.items[index];
	if (is_found(&it->info) && !compatible(c, &it->info) && !it->note)
		set_note(it, "%s, but the link is for %s", lk_elf_machine_name(it->info.machine),
			 lk_elf_machine_name(c->machine));
}

/* A child of script item `parent`, read at its place. */
static size_t add_child(struct ctx *c, size_t parent, const struct lk_script_input *in,
			const char *sysroot_path)
{
	struct lk_line *line = c->line;
	struct lk_line_item *it;
	const struct lk_line_item *p;

	LK_GROW(line->items.items, line->items.nr + 1, line->items.alloc);
	p = &line->items.items[parent];
	it = &line->items.items[line->items.nr];
	memset(it, 0, sizeof(*it));
	it->kind = !strncmp(in->name, "-l", 2) ? LK_ITEM_LIB : LK_ITEM_FILE;
	it->word = lk_xstrdup(in->name);
	it->position = p->position;
	it->prov = p->prov;
	it->state = p->state | (in->as_needed ? LK_ST_AS_NEEDED : 0);
	memcpy(it->since, p->since, sizeof(it->since));
	it->group = p->group;
	it->parent = (long)parent;
	it->as_needed_script = in->as_needed;
	it->script_group = in->in_group;
	it->path = sysroot_path ? lk_xstrdup(sysroot_path) : NULL;
	return line->items.nr++;
}

/* Is `path` there for the link: on this machine, or carried by its bundle (found where ld found it)? */
static int there(struct ctx *c, const char *path)
{
	char *copy;

	if (access(path, F_OK) == 0)
		return 1;
	copy = lk_resolve_bundled(c->rec, path);
	free(copy);
	return copy != NULL;
}

/* Where ld looks for a file a script names (ldlang.c / ldfile.c); `script` as the link named it. */
static char *script_file_path(struct ctx *c, const char *script, const char *name)
{
	const char *sysroot = c->line->sysroot;
	int have_sysroot = sysroot && *sysroot && strcmp(sysroot, "/");

	if (name[0] == '=' || !strncmp(name, "$SYSROOT", 8))
		return sysroot_name(c->rec, c->line, PREFIX_SCRIPT, name);
	if (name[0] == '/') {
		/* Inside the sysroot, a script's absolute names are relative to it. */
		if (have_sysroot && !strncmp(script, sysroot, strlen(sysroot)))
			return join(sysroot, name + 1);
		return lk_xstrdup(name);
	}
	{
		char *here = in_cwd(c->rec, name);

		if (there(c, here))
			return here;
		free(here);
	}
	for (size_t d = 0; d < c->line->libdirs.nr + c->line->default_dirs.nr; d++) {
		const char *dir = d < c->line->libdirs.nr ? c->line->libdirs.items[d] :
				  c->line->default_dirs.items[d - c->line->libdirs.nr];
		char *p = join(dir, name);

		if (there(c, p))
			return p;
		free(p);
	}
	return in_cwd(c->rec, name);
}

/*
 * The path the link named a bundle's copy `path` by (malloc'd), or `path`
 * itself: a script's names are looked up from where the link read it (a
 * sysroot's libc.so names its files inside the sysroot), not from the copy.
 */
static char *as_linked(const struct lk_record *rec, const char *path)
{
	size_t n = strlen(rec->dir);

	if (!rec->unpacked || strncmp(path, rec->dir, n) || path[n] != '/')
		return lk_xstrdup(path);
	for (size_t i = 0; i < rec->kept.nr; i++)
		if (!strcmp(path + n + 1, rec->kept.items[i].blob))
			return in_cwd(rec, rec->kept.items[i].path);
	return lk_xstrdup(path);
}

static void read_script(struct ctx *c, size_t index, int depth)
{
	struct lk_line_item *it = &c->line->items.items[index];
	struct lk_buf text = LK_BUF_INIT;
	struct lk_err err = LK_ERR_INIT;
	struct lk_script script;
	char *path = as_linked(c->rec, it->path);

	if (c->scripts_read++ >= LK_LINE_SCRIPT_MAX_READS) {
		/* Scripts that name each other several times each: a read of each would grow as a power of the depth. */
		struct lk_buf why = LK_BUF_INIT;

		set_note(it, "a text file past the %d linker scripts the line may read: not read", LK_LINE_SCRIPT_MAX_READS);
		lk_buf_addf(&why, "the line's linker scripts name more than %d linker scripts in all (they may name each other): '%s' and those after it are not modelled",
			    LK_LINE_SCRIPT_MAX_READS, path);
		if (!c->said_many++)
			lk_strvec_push(&c->line->unknown, why.buf);
		lk_buf_release(&why);
		goto out;
	}
	if (lk_buf_read_file(&text, it->path, (size_t)1 << 20) < 0) {
		set_note(it, "cannot read it as a linker script: too large or unreadable");
		goto out;
	}
	if (lk_script_parse(text.buf, path, &script, &err) < 0) {
		set_note(it, "not ELF, an archive or a linker script: %s", err.msg);
		lk_script_release(&script);
		goto out;
	}
	set_note(it, "linker script%s", script.has_sections ? " (with SECTIONS)" : "");
	lk_strvec_release(&it->script_commands);
	it->script_commands = script.commands;
	memset(&script.commands, 0, sizeof(script.commands));
	for (size_t i = 0; i < script.search_dirs.nr; i++)
		lk_strvec_push_owned(&c->line->default_dirs,
				     apply_sysroot(c->line->sysroot, script.search_dirs.items[i]));
	if (depth >= LK_LINE_SCRIPT_MAX_DEPTH && script.inputs.nr) {
		/* A script that includes itself (or scripts nested deeper than ld needs): say so. */
		struct lk_buf why = LK_BUF_INIT;

		set_note(it, "linker script nested %d deep (does it include itself?): its %zu inputs are not read",
			 LK_LINE_SCRIPT_MAX_DEPTH, script.inputs.nr);
		lk_buf_addf(&why, "the linker script '%s' is nested %d deep (it may include itself): the inputs it names are not modelled",
			    path, LK_LINE_SCRIPT_MAX_DEPTH);
		if (!c->said_deep++)
			lk_strvec_push(&c->line->unknown, why.buf);
		lk_buf_release(&why);
	} else if (script.inputs.nr > LK_LINE_SCRIPT_MAX_ITEMS - c->script_items) {
		/* What the line's scripts add in all is bounded too (4,096 scripts of 250,000 inputs each). */
		struct lk_buf why = LK_BUF_INIT;

		set_note(it, "linker script of %zu inputs, past the %d the line's scripts may add in all: they are not read",
			 script.inputs.nr, LK_LINE_SCRIPT_MAX_ITEMS);
		lk_buf_addf(&why, "the linker script '%s' names %zu inputs, past the %d that the line's linker scripts may add in all: the inputs it names are not modelled",
			    path, script.inputs.nr, LK_LINE_SCRIPT_MAX_ITEMS);
		if (!c->said_many++)
			lk_strvec_push(&c->line->unknown, why.buf);
		lk_buf_release(&why);
		depth = LK_LINE_SCRIPT_MAX_DEPTH;	/* read none of them */
	} else {
		c->script_items += script.inputs.nr;
	}
	for (size_t i = 0; i < script.inputs.nr && depth < LK_LINE_SCRIPT_MAX_DEPTH; i++) {
		const struct lk_script_input *in = &script.inputs.items[i];
		char *file = strncmp(in->name, "-l", 2) ? script_file_path(c, path, in->name) : NULL;
		size_t child = add_child(c, index, in, file);

		free(file);
		resolve_item(c, child, depth + 1);
	}
	lk_script_release(&script);
out:
	free(path);
	lk_buf_release(&text);
}

/* ---- DT_NEEDED ---- */

static const struct lk_line_item *on_line(const struct lk_line *line, const char *soname)
{
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];
		const char *base;

		if (it->info.kind != LK_FILE_SHARED || !it->path)
			continue;
		base = strrchr(it->path, '/');
		if ((it->info.soname && !strcmp(it->info.soname, soname)) ||
		    !strcmp(base ? base + 1 : it->path, soname))
			return it;
	}
	return NULL;
}

/* Expand $ORIGIN in a DT_RUNPATH entry of the object at `origin_path`. */
static char *expand_origin(const char *dir, const char *origin_path)
{
	const char *slash = strrchr(origin_path, '/');
	struct lk_buf b = LK_BUF_INIT;
	char *origin = slash ? lk_xstrndup(origin_path, (size_t)(slash - origin_path)) : lk_xstrdup(".");

	for (const char *p = dir; *p; ) {
		if (!strncmp(p, "$ORIGIN", 7)) {
			lk_buf_addstr(&b, origin);
			p += 7;
		} else if (!strncmp(p, "${ORIGIN}", 9)) {
			lk_buf_addstr(&b, origin);
			p += 9;
		} else {
			lk_buf_addch(&b, *p++);
		}
	}
	free(origin);
	return lk_buf_detach(&b);
}

static void ld_so_conf(const char *file, const char *sysroot, struct lk_strvec *out, int depth)
{
	struct lk_buf text = LK_BUF_INIT, path = LK_BUF_INIT;
	char *line, *next;

	lk_buf_addf(&path, "%s%s", sysroot ? sysroot : "", file);
	if (depth > LK_LINE_LD_SO_CONF_MAX_DEPTH || lk_buf_read_file(&text, path.buf, (size_t)1 << 20) < 0)
		goto out;
	for (line = text.buf; *line; line = next) {
		char *hash;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		if ((hash = strchr(line, '#')))
			*hash = '\0';
		while (*line == ' ' || *line == '\t')
			line++;
		if (!strncmp(line, "include", 7) && (line[7] == ' ' || line[7] == '\t')) {
			glob_t g;
			struct lk_buf pat = LK_BUF_INIT;
			char *arg = line + 8;

			while (*arg == ' ' || *arg == '\t')
				arg++;
			lk_buf_addf(&pat, "%s%s", sysroot ? sysroot : "", arg);
			if (glob(pat.buf, 0, NULL, &g) == 0) {
				for (size_t i = 0; i < g.gl_pathc; i++)
					ld_so_conf(g.gl_pathv[i] + (sysroot ? strlen(sysroot) : 0), sysroot, out, depth + 1);
				globfree(&g);
			}
			lk_buf_release(&pat);
		} else if (*line == '/') {
			size_t n = strcspn(line, " \t");

			lk_strvec_push_owned(out, lk_xstrndup(line, n));
		}
	}
out:
	lk_buf_release(&text);
	lk_buf_release(&path);
}

struct needed_search {
	const char *via;
	struct lk_strvec dirs;
};

static int try_needed_dir(struct ctx *c, const char *dir, const char *name,
			  struct lk_needed *n, const char *via)
{
	struct lk_elf_info info;
	/* A relative dir (-rpath-link ., LD_LIBRARY_PATH=lib) is ld's cwd's, the record's. */
	char *abs = in_cwd(c->rec, dir), *path = join(abs, name), *copy;
	int ok;

	free(abs);
	/* A bundle's copy where the library is not here, or another here (bundle.c carries them as "needed"). */
	if ((copy = lk_resolve_bundled(c->rec, path))) {
		free(path);
		path = copy;
	}
	lk_elf_identify(path, &info);
	ok = info.kind == LK_FILE_SHARED && compatible(c, &info);
	lk_elf_info_release(&info);
	if (ok) {
		n->path = path;
		n->found_via = lk_xstrdup(via);
	} else {
		free(path);
	}
	return ok;
}

static int try_list(struct ctx *c, const struct lk_strvec *dirs, const char *name,
		    struct lk_needed *n, const char *via)
{
	for (size_t i = 0; i < dirs->nr; i++)
		if (try_needed_dir(c, dirs->items[i], name, n, via))
			return 1;
	return 0;
}

static int try_path_var(struct ctx *c, const char *value, const char *name,
			struct lk_needed *n, const char *via)
{
	struct lk_strvec dirs = LK_STRVEC_INIT;
	int found;

	if (!value)
		return 0;
	for (const char *p = value; *p; ) {
		size_t len = strcspn(p, ":");

		if (len)
			lk_strvec_push_owned(&dirs, lk_xstrndup(p, len));
		p += len + (p[len] == ':');
	}
	found = try_list(c, &dirs, name, n, via);
	lk_strvec_release(&dirs);
	return found;
}

/* ldelf_after_open's search for one DT_NEEDED entry of `by`. */
static void find_needed(struct ctx *c, const char *by_path, const struct lk_elf_info *by,
			struct lk_needed *n)
{
	struct lk_line *line = c->line;
	struct lk_strvec conf = LK_STRVEC_INIT;
	const char *runpath = by->runpath ? by->runpath : by->rpath;

	if (try_list(c, &line->rpath_link, n->name, n, "-rpath-link") ||
	    try_list(c, &line->rpath, n->name, n, "-rpath"))
		return;
	if (line->native) {
		if (!line->rpath.nr && !line->rpath_link.nr &&
		    try_path_var(c, lk_record_env(c->rec, "LD_RUN_PATH"), n->name, n, "LD_RUN_PATH"))
			return;
		if (try_path_var(c, lk_record_env(c->rec, "LD_LIBRARY_PATH"), n->name, n, "LD_LIBRARY_PATH"))
			return;
	}
	if (runpath) {
		char *expanded = expand_origin(runpath, by_path);
		int found = try_path_var(c, expanded, n->name, n, by->runpath ? "DT_RUNPATH" : "DT_RPATH");

		free(expanded);
		if (found)
			return;
	}
	ld_so_conf("/etc/ld.so.conf", line->sysroot && strcmp(line->sysroot, "/") ? line->sysroot : NULL,
		   &conf, 0);
	if (try_list(c, &conf, n->name, n, "/etc/ld.so.conf")) {
		lk_strvec_release(&conf);
		return;
	}
	lk_strvec_release(&conf);
	try_list(c, &line->default_dirs, n->name, n, "default dir");
}

static void add_needed_of(struct ctx *c, const char *by_path, const struct lk_elf_info *by,
			  long item, long parent, int depth)
{
	for (size_t k = 0; k < by->needed.nr && depth < LK_LINE_NEEDED_MAX_DEPTH; k++) {
		struct lk_line *line = c->line;
		const struct lk_line_item *loaded = on_line(line, by->needed.items[k]);
		struct lk_needed n;
		struct lk_elf_info info;
		int seen = 0;
		size_t self;

		memset(&n, 0, sizeof(n));
		n.name = lk_xstrdup(by->needed.items[k]);
		n.needed_by = item;
		n.parent = parent;
		n.depth = depth;
		if (loaded) {
			struct lk_buf as = LK_BUF_INIT;

			lk_buf_addstr(&as, loaded->word);
			if (loaded->parent >= 0)
				lk_buf_addf(&as, " in %s's %s", line->items.items[loaded->parent].word,
					    loaded->as_needed_script ? "AS_NEEDED" : "GROUP");
			else if (loaded->state & LK_ST_AS_NEEDED)
				lk_buf_addstr(&as, " under --as-needed");
			n.path = lk_xstrdup(loaded->path);
			n.on_line_as = lk_buf_detach(&as);
		} else {
			find_needed(c, by_path, by, &n);
		}
		for (size_t i = 0; i < line->needed.nr; i++)
			seen |= n.path && line->needed.items[i].path && !strcmp(n.path, line->needed.items[i].path);
		LK_GROW(line->needed.items, line->needed.nr + 1, line->needed.alloc);
		self = line->needed.nr;
		line->needed.items[line->needed.nr++] = n;
		if (!n.path || loaded || seen)
			continue;
		lk_elf_identify(n.path, &info);
		add_needed_of(c, line->needed.items[self].path, &info, item, (long)self, depth + 1);
		lk_elf_info_release(&info);
	}
}

static void needed_closure(struct ctx *c)
{
	for (size_t i = 0; i < c->line->items.nr; i++) {
		const struct lk_line_item *it = &c->line->items.items[i];

		if (it->info.kind == LK_FILE_SHARED && it->info.needed.nr)
			add_needed_of(c, it->path, &it->info, (long)i, -1, 0);
	}
}

/* ---- entry ---- */

/*
 * A record written before the shim read its linker's --version (no
 * linker.version) says "default" for a -B dir's `ld` that is mold (mold's
 * documented -B/usr/libexec/mold, issue #33) or lld. What that path is
 * on this machine, by its real name, read and never run, tells them from
 * GNU ld: their flavor, with a note that says so; else NULL.
 */
static const char *old_record_flavor(const struct lk_record *rec, struct lk_line *line)
{
	const char *flavor = NULL, *base;
	struct lk_buf note = LK_BUF_INIT;
	char *real;

	if (rec->linker_version || !rec->linker_program ||
	    !(real = realpath(rec->linker_program, NULL)))
		return NULL;
	base = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
	if (!strcmp(base, "mold") || !strcmp(base, "ld.mold"))
		flavor = "mold";
	else if (!strcmp(base, "lld") || !strcmp(base, "ld.lld"))
		flavor = "lld";
	if (flavor) {
		lk_buf_addf(&note, "the record does not say what its linker '%s' is; on this machine it is %s ('%s')",
			    rec->linker_program, flavor, real);
		lk_strvec_push_owned(&line->notes, lk_buf_detach(&note));
	}
	free(real);
	return flavor;
}

static void choose_defaults(const struct lk_record *rec, struct lk_line *line)
{
	const char *flavor = rec->linker_flavor ? rec->linker_flavor : "default", *old;

	if (!strcmp(flavor, "default") && (old = old_record_flavor(rec, line)))
		flavor = old;
	line->flavor = !strcmp(flavor, "default") ? "bfd" : flavor;
	if (!strcmp(line->flavor, "bfd")) {
		char *ld = bfd_program(rec, line);

		bfd_defaults(line, ld);
		free(ld);
	} else {
		struct lk_buf note = LK_BUF_INIT;

		lk_buf_addf(&note, "the line links with %s, which has no default search dirs: only -L dirs are searched",
			    line->flavor);
		lk_strvec_push_owned(&line->notes, lk_buf_detach(&note));
	}
	for (size_t i = 0; i < line->libdirs.nr; i++) {
		char *d = sysroot_name(rec, line, PREFIX_LIBDIR, line->libdirs.items[i]);
		/* ld ran in the record's directory, the analyzer may not. */
		char *abs = in_cwd(rec, d);

		free(d);
		free(line->libdirs.items[i]);
		line->libdirs.items[i] = abs;
	}
}

/* Does `path` lie directly in `dir`? */
static int in_dir(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	return !strncmp(path, dir, n) && path[n] == '/' && !strchr(path + n + 1, '/');
}

/*
 * The -L dirs another linker reads otherwise (sysroot_name's pairs). One
 * it reads as a dir that exists: what it finds there is not modelled
 * (unknown). One that does not exist for it is a dir it does not search:
 * a -l the own linker found there is searched again without it; not found
 * then, that linker fails ("cannot find"), found elsewhere, unknown. lld
 * searches the -L dirs only, the others the line's default dirs too.
 */
static void otherwise_searched(struct lk_line *line)
{
	int own = linker_index(line->flavor);

	for (int l = 0; l < 3; l++) {
		const struct lk_strvec *pairs = &line->libdir_otherwise[l];

		for (size_t p = 0; l != own && p + 1 < pairs->nr; p += 2) {
			const char *mine = pairs->items[p], *theirs = pairs->items[p + 1];
			struct stat st;
			struct lk_buf b = LK_BUF_INIT;

			if (stat(theirs, &st) == 0) {
				if (!line->read_otherwise[l]) {
					lk_buf_addf(&b, "%s reads the -L dir '%s' as '%s': what it finds there is not modelled",
						    linker_names[l], mine, theirs);
					line->read_otherwise[l] = lk_buf_detach(&b);
				}
				continue;
			}
			for (size_t i = 0; i < line->items.nr; i++) {
				const struct lk_line_item *it = &line->items.items[i];
				struct lk_line other = *line;
				struct lk_line_item again;
				int found;

				if (it->kind != LK_ITEM_LIB || !it->path || !in_dir(it->path, mine))
					continue;
				memset(&again, 0, sizeof(again));
				again.kind = LK_ITEM_LIB;
				again.word = it->word;
				again.state = it->state;
				memset(&other.libdirs, 0, sizeof(other.libdirs));
				if (l == 1)
					memset(&other.default_dirs, 0, sizeof(other.default_dirs));	/* lld searches -L dirs only */
				for (size_t d = 0; d < line->libdirs.nr; d++)
					if (strcmp(line->libdirs.items[d], mine))
						lk_strvec_push(&other.libdirs, line->libdirs.items[d]);
				found = lk_resolve_search_lib(&other, &again) == 0;
				lk_strvec_release(&other.libdirs);
				lk_strvec_release(&again.tried);
				lk_strvec_release(&again.skipped);
				free(again.path);
				free(again.foreign_format);
				lk_elf_info_release(&again.info);
				if (found && !line->read_otherwise[l]) {
					lk_buf_addf(&b, "%s does not search '%s' (it reads that -L otherwise, as '%s'), and finds %s elsewhere: what it finds is not modelled",
						    linker_names[l], mine, theirs, it->word);
					line->read_otherwise[l] = lk_buf_detach(&b);
				} else if (!found && !line->fails_otherwise[l]) {
					lk_buf_addf(&b, "%s fails: it cannot find %s, which only '%s' has, a dir it reads as '%s' (that does not exist)",
						    linker_names[l], it->word, mine, theirs);
					line->fails_otherwise[l] = lk_buf_detach(&b);
				}
				lk_buf_release(&b);
			}
		}
	}
}

void lk_resolve_line(const struct lk_record *rec, struct lk_line *line)
{
	struct ctx c = { rec, line, 0, LK_ELF_MEMO_INIT, 0, 0, 0, 0 };
	size_t top;

	choose_defaults(rec, line);
	c.machine = machine_of_emulation(line->emulation);
	line->machine = c.machine;
	line->native = !c.machine || c.machine == host_machine();
	top = line->items.nr;
	for (size_t i = 0; i < top; i++)
		resolve_item(&c, i, 0);
	otherwise_searched(line);
	lk_usable_classify(line, 0);
	needed_closure(&c);
	lk_elf_memo_release(&c.memo);
}

void lk_resolve_ld_so_conf(const struct lk_line *line, struct lk_strvec *out)
{
	ld_so_conf("/etc/ld.so.conf", line->sysroot && strcmp(line->sysroot, "/") ? line->sysroot : NULL,
		   out, 0);
}

size_t lk_resolve_append(const struct lk_record *rec, struct lk_line *line,
			 const char *word, long position, unsigned state)
{
	struct ctx c = { rec, line, line->machine, LK_ELF_MEMO_INIT, 0, 0, 0, 0 };
	struct lk_line_item *it;
	size_t index;

	LK_GROW(line->items.items, line->items.nr + 1, line->items.alloc);
	index = line->items.nr++;
	it = &line->items.items[index];
	memset(it, 0, sizeof(*it));
	it->kind = !strncmp(word, "-l", 2) ? LK_ITEM_LIB : LK_ITEM_FILE;
	/* A driver option a fix appends (-no-pie): the replay reads it as the link's output kind. */
	if (!strcmp(word, "-no-pie"))
		it->kind = LK_ITEM_OPTION;
	/* A linker option as ld reads it (a linker's fix: --allow-shlib-undefined, -Wl,-z,notext). */
	if (!strncmp(word, "-Wl,-z,", 7) && word[7] && !strchr(word + 7, ',')) {
		it->kind = LK_ITEM_OPTION;
		it->word = lk_xstrdup("-z");
		it->value = lk_xstrdup(word + 7);
		lk_line_parse_option(it);
	} else {
		if (!strncmp(word, "-Wl,--", 6) && !strchr(word + 4, ','))
			word += 4;
		it->word = lk_xstrdup(word);
		if (!strncmp(word, "--", 2)) {
			it->kind = LK_ITEM_OPTION;
			lk_line_parse_option(it);
		}
	}
	it->position = position;
	it->prov = LK_PROV_USER;
	it->state = state;
	for (int i = 0; i < LK_ST_COUNT; i++)
		it->since[i] = -1;
	it->group = -1;
	it->parent = -1;
	if (it->kind == LK_ITEM_OPTION)
		return index;
	resolve_item(&c, index, 0);
	lk_elf_memo_release(&c.memo);
	lk_usable_classify(line, index);
	/* Its DT_NEEDED (and its script's shared objects'), for the replay's end-of-line loading. */
	for (size_t i = index; i < line->items.nr; i++) {
		const struct lk_line_item *x = &line->items.items[i];

		if (x->info.kind == LK_FILE_SHARED && x->info.needed.nr)
			add_needed_of(&c, x->path, &x->info, (long)i, -1, 0);
	}
	return index;
}
