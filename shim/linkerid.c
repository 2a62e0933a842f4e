/*
 * The linker the driver really runs for a link, and what that program is.
 *
 * Stage: argv -> record (the shim). Takes the line (-fuse-ld=, --ld-path=,
 * -B, through lk_target_find_linker), the driver's view (its -### linker
 * command, its -print-prog-name answer: both taken in the link's own
 * environment, so COMPILER_PATH and GCC_EXEC_PREFIX are in them) and PATH.
 * Gives the record's linker {program, program_source} and, read from the
 * program itself, {flavor, version, identified_by}.
 *
 * Where, as the driver looks: clang runs the linker itself, and its -###
 * command names it. gcc runs collect2, which looks for ld[.FLAVOR] in the
 * COMPILER_PATH gcc hands it (the -B dirs first, then GCC_EXEC_PREFIX and
 * COMPILER_PATH's, then its own: what -print-prog-name answers), then on
 * PATH (gcc/collect2.cc, main). What, by content, never by name: mold's
 * documented `-B/usr/libexec/mold` holds an `ld` that is mold, and 501
 * links of a Debian archive rebuild were recorded as GNU ld's (issue #33).
 * The program's first --version line says it ("GNU ld", "GNU gold",
 * "LLD", "mold"), asked after the link and only when the link ran it
 * (main.c's linker_ran: a failed compile runs no linker; issue #41 point
 * 6), once per file: the answer is cached in
 * views/ under the file's identity (device, inode, size, mtime), so a link
 * pays a realpath, a stat and a small read. No answer (a failure, or a
 * --version that hangs past its 5 s) is cached the same way: the next
 * link does not wait for it again (issue #41 point 7).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver.h"
#include "linkerid.h"
#include "target.h"
#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/file.h"
#include "linkscope/runcmd.h"
#include "linkscope/vec.h"

#define LINKERID_MAGIC "linkscope-linker 1\n"
#define LINKERID_MAX_BYTES 1024
#define LINKERID_VERSION_MAX 200	/* of the --version line kept */
#define LINKERID_TIMEOUT_MS 5000

/* clang's linker command names the linker; gcc's names collect2, which searches. */
static char *program_in_view(const struct lk_expansion *exp)
{
	const struct lk_strvec *cmd;
	const char *base;

	if (exp->linker_command < 0 || (size_t)exp->linker_command >= exp->commands.nr)
		return NULL;
	cmd = &exp->commands.items[exp->linker_command];
	if (!cmd->nr || cmd->items[0][0] != '/')
		return NULL;
	base = lk_path_base(cmd->items[0]);
	return strcmp(base, "collect2") ? lk_xstrdup(cmd->items[0]) : NULL;
}

/* The ld[.FLAVOR] name collect2 looks for: -fuse-ld=NAME without a '/'. */
static void ld_name(const struct lk_record_draft *rec, struct lk_buf *name)
{
	const char *fuse = rec->info->fuse_ld;

	lk_buf_addstr(name, "ld");
	if (fuse && *fuse && !strchr(fuse, '/'))
		lk_buf_addf(name, ".%s", fuse);
}

/*
 * Where the program is, when neither -fuse-ld=PATH nor a -B dir said
 * (target.c). NEEDSWORK(#33): collect2 tries `real-ld` and `collect-ld` in
 * its COMPILER_PATH before ld, and TARGET-ld on PATH for a cross
 * compiler; neither is looked for here (no such install was met).
 */
static void find_program(struct lk_record_draft *rec)
{
	const char *ppn = rec->expansion.linker_program;
	struct lk_buf name = LK_BUF_INIT;
	struct lk_driver found;
	struct lk_err err = LK_ERR_INIT;

	if ((rec->linker_program = program_in_view(&rec->expansion))) {
		rec->linker_program_source = "driver -###";
		return;
	}
	/* A relative answer (GCC_EXEC_PREFIX=fake/) is a dir collect2 searches from the link's cwd, ours. */
	if (ppn && strchr(ppn, '/') && access(ppn, X_OK) == 0) {
		rec->linker_program = lk_xstrdup(ppn);
		rec->linker_program_source = "-print-prog-name";
		return;
	}
	/* gcc's answer is the bare name when none of its dirs has it: collect2 then searches PATH. */
	ld_name(rec, &name);
	if (lk_driver_resolve(ppn && *ppn && !strchr(ppn, '/') ? ppn : name.buf, NULL,
			      getenv("PATH"), &found, &err) == 0) {
		rec->linker_program = found.resolved;
		found.resolved = NULL;
		rec->linker_program_source = "PATH";
		lk_driver_release(&found);
	}
	lk_buf_release(&name);
}

const char *lk_linkerid_flavor(const char *version)
{
	if (!strncmp(version, "mold ", 5))
		return "mold";
	if (strstr(version, "GNU gold"))
		return "gold";
	if (strstr(version, "GNU ld"))
		return "bfd";
	/* "LLD 19.1.7 (compatible with GNU linkers)", "Debian LLD 14.0.6 ...", "Homebrew LLD ..." */
	if (!strncmp(version, "LLD ", 4) || strstr(version, " LLD "))
		return "lld";
	return NULL;
}

/* The first line of `prog --version`, bounded; NULL when it did not run or said nothing. */
static char *ask_version(const char *prog)
{
	struct lk_buf out = LK_BUF_INIT;
	struct lk_runcmd cmd = { 0 };
	const char *argv[3] = { prog, "--version", NULL };
	char *nl;

	cmd.path = prog;
	cmd.argv = argv;
	cmd.out = &out;
	cmd.max_bytes = 4096;
	cmd.timeout_ms = LINKERID_TIMEOUT_MS;
	if (lk_runcmd(&cmd, NULL) != 0 || !out.len) {
		lk_buf_release(&out);
		return NULL;
	}
	if ((nl = strchr(out.buf, '\n')))
		out.len = (size_t)(nl - out.buf);
	if (out.len > LINKERID_VERSION_MAX)
		out.len = LINKERID_VERSION_MAX;
	out.buf[out.len] = '\0';
	if (!out.len) {
		/* A first line that says nothing is no answer (and is cached as none). */
		lk_buf_release(&out);
		return NULL;
	}
	return lk_buf_detach(&out);
}

/* The cache entry of a file: views/linker-<FNV-1a of its identity>, the identity inside. */
static void entry_names(const char *dir, const struct stat *st, struct lk_buf *key,
			struct lk_buf *path, struct lk_buf *tmp)
{
	uint64_t h = 0xcbf29ce484222325ull;

	lk_buf_addf(key, "%llu %llu %lld %lld.%09ld\n", (unsigned long long)st->st_dev,
		    (unsigned long long)st->st_ino, (long long)st->st_size,
		    (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec);
	for (size_t i = 0; i < key->len; i++)
		h = (h ^ (unsigned char)key->buf[i]) * 0x100000001b3ull;
	lk_buf_addf(path, "%s/views/linker-%016llx", dir, (unsigned long long)h);
	lk_buf_addf(tmp, "%s/views/.linker-%016llx.%ld.tmp", dir, (unsigned long long)h, (long)getpid());
}

/*
 * The version line cached for this identity: 1 with *version set, or
 * NULL when the entry says the program gave no answer (an empty line: it
 * failed, said nothing or hung past LINKERID_TIMEOUT_MS, and is not asked
 * again while it is the same file); 0 for no entry. An entry another user
 * could have written is not believed (docs/security.md, "The record dir
 * is the user's").
 */
static int cached_version(const char *path, const struct lk_buf *key, char **version)
{
	struct lk_buf data = LK_BUF_INIT;
	struct stat st;
	size_t head = strlen(LINKERID_MAGIC);
	char *nl;
	int found = 0;

	if (lk_buf_read_file_stat(&data, path, LINKERID_MAX_BYTES, &st) == 0 &&
	    st.st_uid == geteuid() && !(st.st_mode & (S_IWGRP | S_IWOTH)) &&
	    data.len > head + key->len && !memcmp(data.buf, LINKERID_MAGIC, head) &&
	    !memcmp(data.buf + head, key->buf, key->len) &&
	    (nl = strchr(data.buf + head + key->len, '\n')) && !nl[1]) {
		*nl = '\0';
		*version = nl > data.buf + head + key->len ? lk_xstrdup(data.buf + head + key->len) : NULL;
		found = 1;
	}
	lk_buf_release(&data);
	return found;
}

/* views/ a directory of ours, not a symlink to elsewhere: else nothing is cached, read or written. */
static int views_ours(const char *dir)
{
	struct lk_buf views = LK_BUF_INIT;
	struct stat st;
	int ours;

	lk_buf_addf(&views, "%s/views", dir);
	ours = lstat(views.buf, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid();
	lk_buf_release(&views);
	return ours;
}

/*
 * The program's version line into *version (owned, or NULL for no
 * answer): from the cache, else, with `may_ask`, by running it (and
 * caching what it said, no answer too: a --version that hangs costs its
 * timeout once, not on every link). 1 when settled so, 0 when it would
 * have to be asked and may not (or is no regular file: there is nothing
 * to ask).
 */
static int identify(const char *prog, const char *dir, int may_ask, char **version)
{
	struct lk_buf key = LK_BUF_INIT, path = LK_BUF_INIT, tmp = LK_BUF_INIT, data = LK_BUF_INIT;
	struct lk_err err = LK_ERR_INIT;
	struct stat st;
	int cache, settled = 1;

	*version = NULL;
	/* stat follows the links: -B/usr/libexec/mold's ld is /usr/bin/mold's identity. */
	if (stat(prog, &st) < 0 || !S_ISREG(st.st_mode))
		return 1;
	cache = views_ours(dir);
	entry_names(dir, &st, &key, &path, &tmp);
	if (!(cache && cached_version(path.buf, &key, version))) {
		if (!may_ask) {
			settled = 0;
		} else {
			*version = ask_version(prog);
			if (cache) {
				lk_buf_addf(&data, "%s%s%s\n", LINKERID_MAGIC, key.buf, *version ? *version : "");
				/* Not cached is only slower: the next link asks again. */
				lk_file_write_new(tmp.buf, path.buf, data.buf, data.len, &err);
			}
		}
	}
	lk_buf_release(&key);
	lk_buf_release(&path);
	lk_buf_release(&tmp);
	lk_buf_release(&data);
	return settled;
}

int lk_linkerid_find(struct lk_record_draft *rec, const char *dir, int may_ask)
{
	const char *flavor;

	if (!rec->linker_program)
		find_program(rec);
	if (!rec->linker_program || rec->linker_version)
		return 1;
	if (!identify(rec->linker_program, dir, may_ask, &rec->linker_version))
		return 0;
	/* A program that is none of the four (a wrapper script) keeps the flavor the line asks for. */
	if (rec->linker_version && (flavor = lk_linkerid_flavor(rec->linker_version))) {
		rec->linker_flavor = flavor;
		rec->linker_identified_by = "--version";
	}
	return 1;
}
