/*
 * The driver's view, cached per profile: one entry per profile in the
 * record directory, and what each link does about its view.
 *
 * Stage: argv -> record (the shim). Takes: the link (driver, -### argv,
 * environment, record dir). Gives: what the link does (enum
 * lk_view_use): the cached view (no driver run), the cached view checked
 * against a fresh run, a fresh run and the probe that teaches the entry
 * (view.c), or a fresh run alone for a line the model does not cover, a
 * driver that is not gcc or g++ (an ELF binary), a failed link.
 *
 * The key of a profile is everything a -### of the link depends on but
 * the link's own words: the driver (path, realpath, device, inode, size,
 * mtime, ctime), its argv[0] (gcc finds its install from it, on PATH when
 * it has no '/'), the variables gcc reads (GCC_EXEC_PREFIX, COMPILER_PATH,
 * LIBRARY_PATH, LPATH, TMPDIR, TMP, TEMP, GCC_COMPARE_DEBUG,
 * DEB_BUILD_OPTIONS; MAKEFLAGS with -flto), whether each dir they and -B
 * and --sysroot name exists (gcc prints -L only for those that do), the
 * cwd when one of them is relative, and the profile's words with where the
 * link's own words stand between them (the probe's argv).
 *
 * The entry: DIR/views/<hash of the key>, written atomically (0600), read
 * as untrusted input (regular files only, bounded, parsed strictly, its
 * key compared whole): anything else is no entry. One link in
 * LK_VIEWCACHE_VERIFY_EVERY (chosen by its record id's random part, other
 * bits than the prune's), and every link of an entry older than
 * LK_VIEWCACHE_MAX_AGE, checks the entry against a fresh run; a mismatch drops it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "view.h"
#include "viewcache.h"
#include "linkscope/banned.h"
#include "linkscope/env.h"
#include "linkscope/file.h"
#include "linkscope/vec.h"

#define VIEW_MAGIC "linkscope-view/1\n"
#define VIEW_MAX_BYTES ((size_t)1 << 20)
#define VIEW_MAX_CMDS 64

/* ---- the cache file: netstrings, LEN:BYTES\n ---- */

static void put(struct lk_buf *out, const char *s, size_t len)
{
	lk_buf_addf(out, "%zu:", len);
	lk_buf_add(out, s, len);
	lk_buf_addch(out, '\n');
}

static void put_str(struct lk_buf *out, const char *s)
{
	put(out, s, strlen(s));
}

static void put_num(struct lk_buf *out, long long n)
{
	char num[32];

	snprintf(num, sizeof(num), "%lld", n);
	put_str(out, num);
}

/* An optional string: "=" and the value, or "!" for none. */
static void put_opt(struct lk_buf *out, const char *s)
{
	struct lk_buf b = LK_BUF_INIT;

	lk_buf_addstr(&b, s ? "=" : "!");
	if (s)
		lk_buf_addstr(&b, s);
	put(out, b.buf, b.len);
	lk_buf_release(&b);
}

static const char tok_tag[] = { 'w', 'o', 'L', 'I', 't' };

void lk_viewcache_write(const struct lk_view_template *t, const struct lk_buf *key,
			    struct lk_buf *out)
{
	lk_buf_addstr(out, VIEW_MAGIC);
	put(out, key->buf, key->len);
	put_num(out, t->created);
	put_str(out, t->negative ? "none" : "view");
	if (!t->negative) {
		put_num(out, t->exit_status);
		put_num(out, t->linker_command);
		put_opt(out, t->library_path);
		put_opt(out, t->compiler_path);
		put_opt(out, t->linker_program);
		put_num(out, (long long)t->cmds.nr);
		for (size_t c = 0; c < t->cmds.nr; c++) {
			put_num(out, (long long)t->cmds.items[c].nr);
			for (size_t k = 0; k < t->cmds.items[c].nr; k++) {
				const struct lk_view_tok *tok = &t->cmds.items[c].items[k];

				put(out, &tok_tag[tok->kind], 1);
				if (tok->kind == LK_VIEW_WORD)
					put_str(out, tok->text);
				else if (tok->kind == LK_VIEW_TEMP) {
					put(out, tok->text, tok->split);
					put_str(out, tok->text + tok->split);
				}
			}
		}
	}
	put_str(out, "end");
}

struct reader {
	const char *p, *end;
	const char *field;	/* the last field read, not NUL-terminated */
	size_t len;
};

static int get(struct reader *r)
{
	size_t len = 0;
	int digits = 0;

	while (r->p < r->end && *r->p >= '0' && *r->p <= '9' && digits < 8) {
		len = len * 10 + (size_t)(*r->p++ - '0');
		digits++;
	}
	/* One spelling per entry: no leading zeros, as lk_viewcache_write() has it. */
	if (!digits || (digits > 1 && !len) || (len && r->p[-digits] == '0') || r->p >= r->end || *r->p++ != ':' || len >= (size_t)(r->end - r->p) ||
	    r->p[len] != '\n')
		return -1;
	r->field = r->p;
	r->len = len;
	r->p += len + 1;
	return 0;
}

/* A field that is a string without NUL (argv words never hold one). */
static char *get_str(struct reader *r)
{
	if (get(r) < 0 || memchr(r->field, '\0', r->len))
		return NULL;
	return lk_xstrndup(r->field, r->len);
}

static int get_num(struct reader *r, long long lo, long long hi, long long *n)
{
	char num[24], *end;

	size_t neg;

	if (get(r) < 0 || !r->len || r->len >= sizeof(num))
		return -1;
	memcpy(num, r->field, r->len);
	num[r->len] = '\0';
	neg = num[0] == '-';
	/* Digits, an optional '-', no leading zero, no "-0": what put_num() writes. */
	if (!num[neg] || num[neg] < '0' || num[neg] > '9' || (num[neg] == '0' && (neg || num[1])))
		return -1;
	errno = 0;
	*n = strtoll(num, &end, 10);
	/* the whole field: a NUL inside it would end strtoll early ("1796\0..." is no number) */
	return end != num + r->len || errno || *n < lo || *n > hi ? -1 : 0;
}

static int get_opt(struct reader *r, char **out)
{
	char *s = get_str(r);

	if (!s || (s[0] != '=' && strcmp(s, "!"))) {
		free(s);
		return -1;
	}
	*out = s[0] == '=' ? lk_xstrdup(s + 1) : NULL;
	free(s);
	return 0;
}

static int get_tok(struct reader *r, struct lk_view_cmd *c)
{
	const char *tag;
	char *a, *b;

	if (get(r) < 0 || r->len != 1 || !(tag = memchr(tok_tag, r->field[0], sizeof(tok_tag))))
		return -1;
	switch ((enum lk_view_tok_kind)(tag - tok_tag)) {
	case LK_VIEW_WORD:
		if (!(a = get_str(r)))
			return -1;
		lk_view_tok_add(c, LK_VIEW_WORD, a, 0);
		free(a);
		return 0;
	case LK_VIEW_TEMP:
		if (!(a = get_str(r)))
			return -1;
		if (!(b = get_str(r))) {
			free(a);
			return -1;
		}
		{
			struct lk_buf both = LK_BUF_INIT;

			lk_buf_addstr(&both, a);
			lk_buf_addstr(&both, b);
			lk_view_tok_add(c, LK_VIEW_TEMP, both.buf, strlen(a));
			lk_buf_release(&both);
		}
		free(a);
		free(b);
		return 0;
	default:
		lk_view_tok_add(c, (enum lk_view_tok_kind)(tag - tok_tag), NULL, 0);
		return 0;
	}
}

/* Each slot once, in the linker command only: what lk_view_learn makes. */
static int slots_are_sound(const struct lk_view_template *t)
{
	if (t->linker_command < 0 || (size_t)t->linker_command >= t->cmds.nr)
		return 0;
	for (size_t c = 0; c < t->cmds.nr; c++) {
		size_t n[5] = { 0 };

		for (size_t k = 0; k < t->cmds.items[c].nr; k++)
			n[t->cmds.items[c].items[k].kind]++;
		if ((long)c == t->linker_command ? (n[LK_VIEW_LIBDIRS] != 1 || n[LK_VIEW_INFILES] != 1 ||
						    n[LK_VIEW_OUTPUT] > 1)
						 : n[LK_VIEW_LIBDIRS] + n[LK_VIEW_INFILES] + n[LK_VIEW_OUTPUT] != 0)
			return 0;
	}
	return 1;
}

static int parse_view(struct reader *r, struct lk_view_template *t)
{
	long long n, words;

	if (get_num(r, 0, 255, &n) < 0)
		return -1;
	t->exit_status = (int)n;
	if (get_num(r, -1, VIEW_MAX_CMDS, &n) < 0)
		return -1;
	t->linker_command = (long)n;
	if (get_opt(r, &t->library_path) < 0 || get_opt(r, &t->compiler_path) < 0 ||
	    get_opt(r, &t->linker_program) < 0 || get_num(r, 0, VIEW_MAX_CMDS, &n) < 0)
		return -1;
	for (long long c = 0; c < n; c++) {
		struct lk_view_cmd *cmd = lk_view_cmd_add(t);

		/* Every token takes at least four bytes: the count cannot outgrow the file. */
		if (get_num(r, 0, (long long)(r->end - r->p) / 4, &words) < 0)
			return -1;
		for (long long k = 0; k < words; k++)
			if (get_tok(r, cmd) < 0)
				return -1;
	}
	return slots_are_sound(t) ? 0 : -1;
}

int lk_viewcache_parse(const char *data, size_t len, const struct lk_buf *key,
			   struct lk_view_template *t)
{
	struct reader r = { data, data + len, NULL, 0 };
	size_t magic = strlen(VIEW_MAGIC);
	long long created;
	int rc = -1;

	memset(t, 0, sizeof(*t));
	if (len < magic || memcmp(data, VIEW_MAGIC, magic))
		return -1;
	r.p += magic;
	if (get(&r) < 0 || r.len != key->len || memcmp(r.field, key->buf, key->len) ||
	    get_num(&r, 0, INT64_MAX, &created) < 0 || get(&r) < 0)
		goto out;
	t->created = created;
	if (r.len == 4 && !memcmp(r.field, "none", 4))
		t->negative = 1;
	else if (r.len != 4 || memcmp(r.field, "view", 4) || parse_view(&r, t) < 0)
		goto out;
	if (get(&r) < 0 || r.len != 3 || memcmp(r.field, "end", 3) || r.p != r.end)
		goto out;
	rc = 0;
out:
	if (rc < 0)
		lk_view_template_release(t);
	return rc;
}

/* ---- the profile's key ---- */

/*
 * The key is written into the entry whole, and a record dir travels (a CI
 * artifact): a word the record would redact makes the link's view fresh,
 * never cached (*secret).
 */
static int holds_secret(const char *s)
{
	int changed = 0;

	if (s)
		free(lk_env_redact(s, &changed));
	return changed;
}

static void key_put(struct lk_buf *key, const char *tag, const char *value, int *secret)
{
	lk_buf_addstr(key, tag);
	if (!value) {
		lk_buf_addstr(key, "!\n");
		return;
	}
	put_str(key, value);
	/* Asked only before an entry is written (secret not NULL): a found one was asked when it was. */
	if (secret && !*secret)
		*secret = holds_secret(value);
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * Whether each dir gcc would look in is there ('d') or not ('-'): gcc
 * prints -L only for startfile dirs that exist, and a prefix named
 * relative to the cwd (or an empty PATH-list entry, the cwd) makes the
 * cwd part of the profile.
 */
static void key_dirs(struct lk_buf *key, const char *list, int split, int *needs_cwd)
{
	const char *p = list;

	if (!list)
		return;
	lk_buf_addstr(key, "dirs ");
	for (;;) {
		const char *colon = split ? strchr(p, ':') : NULL;
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		char *dir = lk_xstrndup(p, len);

		if (dir[0] != '/')
			*needs_cwd = 1;
		lk_buf_addch(key, is_dir(*dir ? dir : ".") ? 'd' : '-');
		free(dir);
		if (!colon)
			break;
		p = colon + 1;
	}
	lk_buf_addch(key, '\n');
}

/* The variables gcc's driver reads that change what -### prints (gcc.cc, libiberty's choose_tmpdir). */
static const char *const gcc_vars[] = {
	"GCC_EXEC_PREFIX", "COMPILER_PATH", "LIBRARY_PATH", "LPATH", "TMPDIR", "TMP", "TEMP",
	"GCC_COMPARE_DEBUG", "DEB_BUILD_OPTIONS", NULL,
};

static int key_driver(struct lk_buf *key, const struct lk_viewcache_request *req, int *secret)
{
	const char *exe = req->driver_real ? req->driver_real : req->driver;
	struct stat st;

	/* The binary by identity: an upgrade in place changes its inode, size or times. */
	if (stat(exe, &st) < 0 || !S_ISREG(st.st_mode))
		return -1;
	key_put(key, "driver ", req->driver, secret);
	key_put(key, "real ", req->driver_real, secret);
	lk_buf_addf(key, "id %llu %llu %lld %lld.%09ld %lld.%09ld\n", (unsigned long long)st.st_dev,
		    (unsigned long long)st.st_ino, (long long)st.st_size,
		    (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
		    (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
	/* gcc finds its own install from argv[0], searching PATH when it has no '/'. */
	key_put(key, "argv0 ", req->argv[0], secret);
	if (!strchr(req->argv[0], '/'))
		key_put(key, "PATH=", getenv("PATH"), secret);
	return 0;
}

/*
 * The profile's key into `key`: NULL, or why there is none. `secret` (may
 * be NULL) is set when a string of it holds what the record redacts.
 */
static const char *key_build(struct lk_buf *key, const struct lk_viewcache_request *req,
			     const struct lk_view_line *line, int *secret)
{
	int needs_cwd = req->argv[0][0] != '/' && strchr(req->argv[0], '/');

	lk_buf_addstr(key, VIEW_MAGIC);
	lk_buf_addstr(key, line->cxx ? "g++\n" : "gcc\n");
	if (key_driver(key, req, secret) < 0)
		return "the driver binary cannot be looked at";
	for (const char *const *v = gcc_vars; *v; v++) {
		lk_buf_addf(key, "%s=", *v);
		key_put(key, "", getenv(*v), secret);
	}
	key_dirs(key, getenv("COMPILER_PATH"), 1, &needs_cwd);
	key_dirs(key, getenv("LIBRARY_PATH"), 1, &needs_cwd);
	key_dirs(key, getenv("GCC_EXEC_PREFIX"), 0, &needs_cwd);
	key_dirs(key, getenv("TMPDIR"), 0, &needs_cwd);
	key_dirs(key, getenv("TMP"), 0, &needs_cwd);
	key_dirs(key, getenv("TEMP"), 0, &needs_cwd);
	for (size_t i = 0; i < line->paths.nr; i++)
		key_dirs(key, line->paths.items[i], 0, &needs_cwd);
	/* -flto=jobserver and -flto=auto read make's jobserver. */
	for (size_t i = 0; i < line->probe.nr; i++)
		if (lk_str_starts_with(line->probe.items[i], "-flto")) {
			key_put(key, "MAKEFLAGS=", getenv("MAKEFLAGS"), secret);
			break;
		}
	if (needs_cwd) {
		if (!req->cwd)
			return "the cwd cannot be known";
		key_put(key, "cwd ", req->cwd, secret);
	}
	for (size_t i = 0; i < line->probe.nr; i++)
		key_put(key, "", line->probe.items[i], secret);
	return NULL;
}

/* ---- the driver family ---- */

/* 1 for g++, 0 for gcc, -1 for anything else, by the real binary's name (gcc-12, x86_64-linux-gnu-g++-12). */
static int driver_family(const char *path)
{
	const char *base = lk_path_base(path);
	char name[256];
	char *dash;
	size_t len = strlen(base);

	if (len >= sizeof(name))
		return -1;
	memcpy(name, base, len + 1);
	dash = strrchr(name, '-');
	if (dash && dash[1] && strspn(dash + 1, "0123456789.") == strlen(dash + 1))
		*dash = '\0';
	len = strlen(name);
	for (int cxx = 0; cxx < 2; cxx++) {
		const char *want = cxx ? "g++" : "gcc";

		if (!strcmp(name, want) || (len > 4 && !strcmp(name + len - 4, cxx ? "-g++" : "-gcc")))
			return cxx;
	}
	return -1;
}

/* An ELF binary, not a script that could choose its compiler from a variable. */
static int is_elf(const char *path)
{
	char magic[4];

	return lk_file_read_head(path, magic, sizeof(magic)) == 4 && !memcmp(magic, "\177ELF", 4);
}

/* ---- one link ---- */

static void check_log(const struct lk_viewcache *v, const char *what, const char *detail)
{
	struct lk_buf line = LK_BUF_INIT;
	int fd;

	if (!v->check_log)
		return;
	lk_buf_addf(&line, "%s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	fd = open(v->check_log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd >= 0) {
		/* One write with O_APPEND: parallel links never interleave their lines. */
		ssize_t n = write(fd, line.buf, line.len);

		(void)n;
		close(fd);
	}
	lk_buf_release(&line);
}

/*
 * DIR/views/<FNV-1a 64 of the key>: a name, not a proof. The key is in
 * the entry and compared whole; two keys with one name only take turns.
 */
static char *entry_path(const char *dir, const struct lk_buf *key)
{
	struct lk_buf path = LK_BUF_INIT;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < key->len; i++)
		h = (h ^ (unsigned char)key->buf[i]) * 0x100000001b3ull;
	lk_buf_addf(&path, "%s/views/%016llx", dir, (unsigned long long)h);
	return lk_buf_detach(&path);
}

/* The views dir, private like the record dir, and not a symlink to elsewhere; 0 when it is there to write in. */
static int views_dir(const char *entry)
{
	char *dir = lk_xstrdup(entry);
	struct stat st;
	int rc;

	*strrchr(dir, '/') = '\0';
	rc = mkdir(dir, 0700) == 0 ||
	     (errno == EEXIST && lstat(dir, &st) == 0 && S_ISDIR(st.st_mode)) ? 0 : -1;
	free(dir);
	return rc;
}

/*
 * 1 with v->tmpl read, 0 for no entry (or a corrupt one, or one another
 * user could have written: to be written anew), -1 for one that is no
 * regular file.
 */
static int read_entry(struct lk_viewcache *v)
{
	struct lk_buf data = LK_BUF_INIT;
	struct stat st;
	int rc = 0;

	if (lk_buf_read_file_stat(&data, v->path, VIEW_MAX_BYTES, &st) < 0)
		rc = errno == LK_ENOTREG ? -1 : 0;
	else if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)))
		rc = 0;	/* the views dir was not always ours alone (docs/security.md) */
	else if (lk_viewcache_parse(data.buf, data.len, &v->key, &v->tmpl) == 0)
		rc = 1;
	lk_buf_release(&data);
	return rc;
}

void lk_viewcache_begin(struct lk_viewcache *v, const struct lk_viewcache_request *req)
{
	int family = driver_family(req->driver_real ? req->driver_real : req->driver);
	int found;

	memset(v, 0, sizeof(*v));
	v->now = req->now;
	v->argv0 = req->argv[0];
	v->exe = req->driver_real ? req->driver_real : req->driver;
	v->check_log = req->check_log;
	v->use = LK_VIEWCACHE_FRESH;
	if (family < 0) {
		v->why = "the driver is not gcc or g++";
		return;
	}
	lk_view_line_read(&v->line, req->argv, family);
	if ((v->why = v->line.unmodelled))
		return;
	if ((v->why = key_build(&v->key, req, &v->line, NULL)))
		return;
	v->path = entry_path(req->dir, &v->key);
	found = read_entry(v);
	if (found < 0) {
		/* A FIFO or a directory where the entry goes: no cache, and no probe that could not be kept. */
		v->why = "the cache entry is not a regular file";
		return;
	}
	if (!found) {
		/* No entry: learn one, if there is a place to keep it and nothing to redact in it. */
		struct lk_buf again = LK_BUF_INIT;
		int secret = 0;

		key_build(&again, req, &v->line, &secret);
		lk_buf_release(&again);
		if (secret) {
			v->why = "a word of the profile holds what the record redacts";
			free(v->path);
			v->path = NULL;
		} else if (views_dir(v->path) < 0) {
			v->why = "the views dir cannot be made";
			free(v->path);
			v->path = NULL;
		} else {
			v->use = LK_VIEWCACHE_LEARN;
		}
		return;
	}
	if (v->tmpl.negative) {
		/* Learnt before: this profile's view cannot be reused. Tried again after a day. */
		v->why = "the profile's view cannot be reused";
		v->use = v->now - v->tmpl.created > LK_VIEWCACHE_MAX_AGE || v->tmpl.created > v->now ?
			 LK_VIEWCACHE_LEARN : LK_VIEWCACHE_FRESH;
		lk_view_template_release(&v->tmpl);
		return;
	}
	v->use = LK_VIEWCACHE_REUSE;
	if (v->check_log || (req->rnd >> 8) % (req->verify_every ? req->verify_every : 1) == 0 ||
	    v->now - v->tmpl.created > LK_VIEWCACHE_MAX_AGE || v->tmpl.created > v->now)
		v->use = LK_VIEWCACHE_VERIFY;
}

void lk_viewcache_start_probe(struct lk_viewcache *v, const char *driver, char *const envp[])
{
	struct lk_strvec argv = LK_STRVEC_INIT;

	lk_strvec_push(&argv, v->argv0);
	lk_strvec_push(&argv, "-###");
	for (size_t i = 0; i < v->line.probe.nr; i++)
		lk_strvec_push(&argv, v->line.probe.items[i]);
	/* The words are copied at the start, as for the link's own -###. */
	v->probing = lk_expansion_start(&v->probe, driver, (const char *const *)argv.items, NULL,
					envp, LK_VIEWCACHE_PROBE_TIMEOUT_MS) == 0;
	if (!v->probing)
		lk_expansion_finish(&v->probe, NULL);
	lk_strvec_release(&argv);
}

void lk_viewcache_fill(const struct lk_viewcache *v, struct lk_expansion *exp)
{
	lk_view_expand(&v->tmpl, &v->line, exp);
}

/* Write the entry atomically: readers see the old one, the new one, or none. */
static void write_entry(struct lk_viewcache *v, const struct lk_view_template *t)
{
	struct lk_buf data = LK_BUF_INIT, tmp = LK_BUF_INIT;
	struct lk_err err = LK_ERR_INIT;
	char *slash = strrchr(v->path, '/');

	lk_viewcache_write(t, &v->key, &data);
	lk_buf_add(&tmp, v->path, (size_t)(slash + 1 - v->path));
	lk_buf_addf(&tmp, ".%s.%ld.tmp", slash + 1, (long)getpid());
	if (lk_file_write_new(tmp.buf, v->path, data.buf, data.len, &err) < 0)
		check_log(v, "cannot write the entry", err.msg);
	lk_buf_release(&data);
	lk_buf_release(&tmp);
}

/*
 * The cached view against the fresh one. When they match, the record gets
 * the cached one (`reuse`: what a link that is not verified records), so
 * the records of a verified link are those of a reused view.
 */
static void verify(struct lk_viewcache *v, struct lk_expansion *exp, int reuse, struct lk_buf *warning)
{
	struct lk_buf diff = LK_BUF_INIT;

	if (!exp->done) {
		check_log(v, "verify skipped", "the fresh -### did not finish");
	} else if (lk_view_matches(&v->tmpl, &v->line, exp, &diff)) {
		/* Confirmed: young again. */
		v->tmpl.created = v->now;
		write_entry(v, &v->tmpl);
		check_log(v, "reuse verified", NULL);
		if (reuse) {
			const char *trigger = exp->trigger;

			lk_expansion_release(exp);
			lk_view_expand(&v->tmpl, &v->line, exp);
			exp->trigger = trigger;
		}
	} else {
		lk_buf_addf(warning, "the driver's view cached for this profile differs from a fresh -### (%s): the fresh one is recorded and the entry dropped",
			    diff.buf);
		unlink(v->path);
		check_log(v, "MISMATCH", diff.buf);
	}
	lk_buf_release(&diff);
}

/* The entry is not redacted (the record is, when written): no word of it may need to be. */
static int template_holds_secret(const struct lk_view_template *t)
{
	if (holds_secret(t->library_path) || holds_secret(t->compiler_path) ||
	    holds_secret(t->linker_program))
		return 1;
	for (size_t c = 0; c < t->cmds.nr; c++)
		for (size_t k = 0; k < t->cmds.items[c].nr; k++)
			if (holds_secret(t->cmds.items[c].items[k].text))
				return 1;
	return 0;
}

static void learn(struct lk_viewcache *v, const struct lk_expansion *fresh)
{
	struct lk_expansion probe = { 0 };
	struct lk_view_template t = { 0 };
	struct lk_view_line probe_line;
	struct lk_strvec argv = LK_STRVEC_INIT;
	const char *why;

	if (v->probing)
		lk_expansion_finish(&v->probe, &probe);
	v->probing = 0;
	/* A link whose own -### fails (a bad option, an output that is an input) teaches nothing. */
	if (!fresh->done || fresh->exit_status || !probe.done) {
		check_log(v, "learn skipped", "the fresh -### or the probe did not succeed");
		lk_expansion_release(&probe);
		return;
	}
	lk_strvec_push(&argv, v->argv0);
	for (size_t i = 0; i < v->line.probe.nr; i++)
		lk_strvec_push(&argv, v->line.probe.items[i]);
	lk_view_line_read(&probe_line, argv.items, v->line.cxx);
	if (lk_view_learn(&probe, &probe_line, fresh, &v->line, &t, &why) == 0) {
		if (!is_elf(v->exe))
			why = "the driver is not an ELF binary (a script may choose its compiler)";
		else if (template_holds_secret(&t))
			why = "a word of the profile's view holds what the record redacts";
		if (why)
			lk_view_template_release(&t);
	}
	t.negative = why != NULL;
	t.created = v->now;
	write_entry(v, &t);
	check_log(v, why ? "learn negative" : "learn ok", why);
	lk_view_template_release(&t);
	lk_view_line_release(&probe_line);
	lk_strvec_release(&argv);
	lk_expansion_release(&probe);
}

void lk_viewcache_end(struct lk_viewcache *v, struct lk_expansion *exp, int reuse, struct lk_buf *warning)
{
	if (v->use == LK_VIEWCACHE_VERIFY)
		verify(v, exp, reuse, warning);
	else if (v->use == LK_VIEWCACHE_LEARN)
		learn(v, exp);
	else if (v->use == LK_VIEWCACHE_FRESH)
		check_log(v, "fresh", v->why);
}

void lk_viewcache_release(struct lk_viewcache *v)
{
	if (v->probing) {
		struct lk_expansion unused = { 0 };

		lk_expansion_finish(&v->probe, &unused);
		lk_expansion_release(&unused);
	}
	lk_view_line_release(&v->line);
	lk_view_template_release(&v->tmpl);
	lk_buf_release(&v->key);
	free(v->path);
	memset(v, 0, sizeof(*v));
}
