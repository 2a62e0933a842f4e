/*
 * report --failed's kept analyses (failcache.h): the key, the entry
 * written with its read set, the entry read back and checked, and the
 * analyses of the records without a fresh entry, in worker processes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/file.h"
#include "linkscope/json.h"
#include "linkscope/jsonw.h"
#include "linkscope/pool.h"
#include "linkscope/sha256.h"
#include "linkscope/vec.h"
#include "failcache.h"
#include "ahead.h"
#include "provider.h"
#include "readset.h"
#include "replay.h"
#include "sandbox.h"

#ifndef LINKSCOPE_VERSION
#define LINKSCOPE_VERSION "0.1.0"
#endif

#define ENTRY_SCHEMA "linkscope-failed-cache/1"

/*
 * The cache's own bound (docs/record-format.md), as ccache bounds its
 * cache: an entry's mtime is its last use; entries unused for
 * FAILED_MAX_AGE_S go, then the least recently used while the entries
 * hold more than FAILED_MAX_BYTES. An entry is ~170 KB (its read set),
 * so the bound keeps a few hundred: more failed records than a report
 * shows. A pruned record's entry is never used again, and so goes too.
 */
#define FAILED_MAX_AGE_S (30 * 86400)
#define FAILED_MAX_BYTES ((off_t)64 << 20)
/*
 * CPU seconds one record's analysis may take (LINKSCOPE_ANALYSIS_CPU_LIMIT):
 * a real one takes well under a second; an input made to be slow does
 * not stall the report of every other record.
 */
#define ANALYSIS_CPU_LIMIT_S 60
/* A temporary file this old was left by an analysis that died. */
#define FAILED_TMP_STALE_S 86400

/* LINKSCOPE_ANALYSIS_CPU_LIMIT: seconds, 0 for none; unset or not a number: the default. */
static unsigned cpu_limit(void)
{
	const char *v = getenv("LINKSCOPE_ANALYSIS_CPU_LIMIT");
	char *end;
	unsigned long n;

	if (!v || !*v)
		return ANALYSIS_CPU_LIMIT_S;
	errno = 0;
	n = strtoul(v, &end, 10);
	return *end || errno || n > 86400 ? ANALYSIS_CPU_LIMIT_S : (unsigned)n;
}

void lk_failcache_open(struct lk_failcache *fc, const struct lk_line_options *lopt)
{
	const char *off = getenv("LINKSCOPE_REPORT_CACHE");
	struct lk_sha256 ctx;
	struct lk_buf id = LK_BUF_INIT;
	struct stat st;
	char *cache;

	memset(fc, 0, sizeof(*fc));
	fc->cpu_limit = cpu_limit();
	if ((off && !strcmp(off, "0")) || !(cache = lk_provider_cache_dir()))
		return;
	fc->skip = cache;
	lk_buf_addf(&id, "%s/failed", cache);
	/* Made private, and used only if it is ours and private (as the provider index's dir). */
	mkdir(id.buf, 0700);
	if (lstat(id.buf, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() && !(st.st_mode & 077))
		fc->dir = lk_buf_detach(&id);
	lk_buf_reset(&id);
	/* This analyzer: another build analyses differently. */
	lk_buf_addf(&id, "%s\n%s\n%d\n", ENTRY_SCHEMA, LINKSCOPE_VERSION, lopt->run_driver);
	if (stat("/proc/self/exe", &st) == 0)
		lk_buf_addf(&id, "%llu %llu %lld %lld.%09ld\n", (unsigned long long)st.st_dev,
			    (unsigned long long)st.st_ino, (long long)st.st_size,
			    (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	lk_sha256_init(&ctx);
	lk_sha256_update(&ctx, id.buf, id.len);
	lk_sha256_final_hex(&ctx, fc->identity);
	lk_buf_release(&id);
}

struct kept_entry {
	char *name;
	time_t used;
	off_t size;
};

static int by_last_use(const void *a, const void *b)
{
	const struct kept_entry *x = a, *y = b;

	return (x->used > y->used) - (x->used < y->used);
}

/* Ours: KEY.json (64 hex digits), or a temporary ".KEY.PID.tmp". */
static int entry_name(const char *name, int *temporary)
{
	size_t n = strlen(name);

	*temporary = name[0] == '.' && n > 4 && !strcmp(name + n - 4, ".tmp");
	if (*temporary)
		return 1;
	return n == 64 + 5 && strspn(name, "0123456789abcdef") == 64 && !strcmp(name + 64, ".json");
}

/* Down to the bound: unused past the age, then the least recently used first. */
static void trim(const struct lk_failcache *fc)
{
	DIR *d = opendir(fc->dir);
	struct kept_entry *all = NULL;
	size_t nr = 0, alloc = 0;
	off_t total = 0;
	time_t now = time(NULL);
	struct dirent *e;
	struct stat st;
	int temporary;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (!entry_name(e->d_name, &temporary) ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
			continue;
		if (temporary) {
			if (now - st.st_mtime > FAILED_TMP_STALE_S)
				unlinkat(dirfd(d), e->d_name, 0);
			continue;
		}
		LK_GROW(all, nr + 1, alloc);
		all[nr].name = lk_xstrdup(e->d_name);
		all[nr].used = st.st_mtime;
		all[nr++].size = st.st_size;
		total += st.st_size;
	}
	qsort(all, nr, sizeof(*all), by_last_use);
	for (size_t i = 0; i < nr; i++) {
		if ((now - all[i].used > FAILED_MAX_AGE_S || total > FAILED_MAX_BYTES) &&
		    unlinkat(dirfd(d), all[i].name, 0) == 0)
			total -= all[i].size;
		free(all[i].name);
	}
	free(all);
	closedir(d);
}

void lk_failcache_close(struct lk_failcache *fc)
{
	/* Only a report that wrote an entry can have taken the cache over its bound. */
	if (fc->dir && fc->made)
		trim(fc);
	for (size_t i = 0; i < fc->checked.nslots; i++)
		free(fc->checked.slots[i]);
	free(fc->checked.slots);
	free(fc->dir);
	free(fc->skip);
	memset(fc, 0, sizeof(*fc));
}

/* The entry's key: the analyzer, the record's path and its bytes. -1 if the record cannot be read. */
static int entry_key(const struct lk_failcache *fc, const struct lk_record *rec, char key[65])
{
	struct lk_buf bytes = LK_BUF_INIT;
	struct lk_sha256 ctx;

	if (lk_buf_read_file(&bytes, rec->path, LK_RECORD_MAX_BYTES) < 0) {
		lk_buf_release(&bytes);
		return -1;
	}
	lk_sha256_init(&ctx);
	lk_sha256_update(&ctx, fc->identity, 64);
	lk_sha256_update(&ctx, rec->path, strlen(rec->path) + 1);
	lk_sha256_update(&ctx, bytes.buf, bytes.len);
	lk_sha256_final_hex(&ctx, key);
	lk_buf_release(&bytes);
	return 0;
}

/* ---- reading an entry ---- */

static char *opt_bytes(json_t *j)
{
	return json_is_null(j) || !j ? NULL : lk_json_bytes(j);
}

static int load_part(json_t *j, struct lk_summary_parts *parts)
{
	json_t *expl = json_object_get(j, "explanation"), *fixes = json_object_get(j, "fixes"), *x;
	struct lk_summary_part *p;
	size_t i;

	if (!json_is_array(expl) || !json_is_array(fixes))
		return -1;
	LK_GROW(parts->items, parts->nr + 1, parts->alloc);
	p = &parts->items[parts->nr++];
	memset(p, 0, sizeof(*p));
	p->key = opt_bytes(json_object_get(j, "key"));
	p->kind = opt_bytes(json_object_get(j, "kind"));
	p->symbol = opt_bytes(json_object_get(j, "symbol"));
	p->version = opt_bytes(json_object_get(j, "version"));
	p->defined_in = opt_bytes(json_object_get(j, "defined_in"));
	p->referenced_by = opt_bytes(json_object_get(j, "referenced_by"));
	p->src_file = opt_bytes(json_object_get(j, "src_file"));
	p->src_line = (long)json_integer_value(json_object_get(j, "src_line"));
	json_array_foreach(expl, i, x) {
		char *s = lk_json_bytes(x);

		if (!s)
			return -1;
		lk_strvec_push_owned(&p->explanation, s);
	}
	json_array_foreach(fixes, i, x) {
		char *d = lk_json_bytes(json_object_get(x, "description"));

		if (!d)
			return -1;
		LK_GROW(p->fixes.items, p->fixes.nr + 1, p->fixes.alloc);
		memset(&p->fixes.items[p->fixes.nr], 0, sizeof(p->fixes.items[p->fixes.nr]));
		p->fixes.items[p->fixes.nr].description = d;
		p->fixes.items[p->fixes.nr].verified = json_is_true(json_object_get(x, "verified"));
		p->fixes.items[p->fixes.nr].stated = json_is_true(json_object_get(x, "stated"));
		p->fixes.items[p->fixes.nr].where = opt_bytes(json_object_get(x, "where"));
		p->fixes.items[p->fixes.nr].file = opt_bytes(json_object_get(x, "file"));
		p->fixes.items[p->fixes.nr++].line = (long)json_integer_value(json_object_get(x, "line"));
	}
	return p->key && p->kind ? 0 : -1;
}

/*
 * A read as the entry has it, one line after the entry's JSON: "HOW
 * EXISTS DEV INO MODE SIZE MTIME_NS CTIME_NS PATH", HOW s (stat), l
 * (lstat) or p (program), PATH its bytes. Lines, not JSON: an entry holds
 * a thousand reads or more (the provider index stats every library of
 * the system's dirs), and jansson took 25 ms to read them; the same lines
 * in several entries are checked once a run (struct lk_failcache.checked).
 */
static const char read_hows[] = "slp";

static int parse_read(const char *s, struct lk_read *r)
{
	const char *how = *s ? strchr(read_hows, *s) : NULL;
	unsigned long long v[7];
	char *end;

	if (!how || s[1] != ' ')
		return -1;
	r->how = (enum lk_read_how)(how - read_hows);
	s += 2;
	for (int i = 0; i < 7; i++) {
		errno = 0;
		v[i] = i >= 4 ? (unsigned long long)strtoll(s, &end, 10) : strtoull(s, &end, 10);
		if (end == s || *end != ' ' || errno)
			return -1;
		s = end + 1;
	}
	r->exists = v[0] == 1;
	r->dev = v[1];
	r->ino = v[2];
	r->mode = (uint32_t)v[3];
	r->size = (int64_t)v[4];
	r->mtime_ns = (int64_t)v[5];
	r->ctime_ns = (int64_t)v[6];
	r->path = (char *)s;
	return *s ? 0 : -1;
}

static size_t line_hash(const char *s, size_t len)
{
	size_t h = 1469598103934665603u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211u;
	return h;
}

/* Was this read line found unchanged already in this run? Else check it, and remember it if so. */
static int line_unchanged(struct lk_failcache *fc, char *line, size_t len)
{
	size_t h = line_hash(line, len), i;
	struct lk_read r = { 0 };

	if (2 * (fc->checked.nr + 1) > fc->checked.nslots) {
		size_t n = fc->checked.nslots ? 2 * fc->checked.nslots : 4096;
		char **slots = lk_xcalloc(n, sizeof(*slots));

		for (size_t k = 0; k < fc->checked.nslots; k++) {
			char *x = fc->checked.slots[k];

			if (!x)
				continue;
			for (i = line_hash(x, strlen(x)) & (n - 1); slots[i]; i = (i + 1) & (n - 1))
				;
			slots[i] = x;
		}
		free(fc->checked.slots);
		fc->checked.slots = slots;
		fc->checked.nslots = n;
	}
	for (i = h & (fc->checked.nslots - 1); fc->checked.slots[i]; i = (i + 1) & (fc->checked.nslots - 1))
		if (!strcmp(fc->checked.slots[i], line))
			return 1;
	if (parse_read(line, &r) < 0 || !lk_read_unchanged(&r))
		return 0;
	fc->checked.slots[i] = lk_xstrndup(line, len);
	fc->checked.nr++;
	return 1;
}

/* Is every read of the entry (its lines from `p` to `end`) as it was? */
static int reads_unchanged(struct lk_failcache *fc, char *p, const char *end)
{
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl)
			return 0;
		*nl = '\0';
		if (!line_unchanged(fc, p, (size_t)(nl - p)))
			return 0;
		p = nl + 1;
	}
	return 1;
}

/* Is every variable the analysis asked for as it was? */
static int env_unchanged(json_t *env, json_t *environ_hash)
{
	char now[65];
	size_t i;
	json_t *j;

	if (!json_is_array(env))
		return 0;
	json_array_foreach(env, i, j) {
		const char *name = json_string_value(json_object_get(j, "name"));
		json_t *value = json_object_get(j, "value");
		const char *v;

		if (!name)
			return 0;
		v = getenv(name);
		if (json_is_null(value) ? v != NULL : !v || !json_is_string(value) || strcmp(v, json_string_value(value)))
			return 0;
	}
	if (json_is_string(environ_hash)) {
		lk_environ_hash(now);
		return !strcmp(now, json_string_value(environ_hash));
	}
	return json_is_null(environ_hash);
}

static int str_is(json_t *j, const char *s)
{
	return json_is_string(j) && !strcmp(json_string_value(j), s);
}

/*
 * An entry's (or a worker's answer's) "parts" into `parts` and "walls" into
 * the walls of `walls` not yet missing (NULL: none). 0, or -1 with `parts`
 * released (not an array, a part malformed).
 */
static int load_parts_walls(json_t *root, struct lk_summary_parts *parts, struct lk_walls *walls)
{
	json_t *list = json_object_get(root, "parts"), *w = json_object_get(root, "walls"), *j;
	size_t i;

	if (!json_is_array(list) || !json_is_array(w) || json_array_size(w) != LK_WALL_NR)
		return -1;
	json_array_foreach(list, i, j) {
		if (load_part(j, parts) < 0) {
			lk_summary_parts_release(parts);
			return -1;
		}
	}
	for (size_t k = 0; walls && k < LK_WALL_NR; k++)
		if (!walls->missing[k])
			walls->missing[k] = (int)json_integer_value(json_array_get(w, k));
	return 0;
}

/* The entry of `key` when it is whole and fresh: its parts and walls. 0, or -1 (no use). */
static int entry_load(struct lk_failcache *fc, const char *key, struct lk_summary_parts *parts,
		      struct lk_walls *walls)
{
	struct lk_buf path = LK_BUF_INIT, text = LK_BUF_INIT;
	json_t *root = NULL;
	char *nl;
	int rc = -1;

	memset(parts, 0, sizeof(*parts));
	lk_buf_addf(&path, "%s/%s.json", fc->dir, key);
	if (lk_buf_read_file(&text, path.buf, LK_RECORD_MAX_BYTES) < 0 ||
	    !(nl = memmem(text.buf, text.len, "\n}\n", 3)) ||
	    !(root = json_loadb(text.buf, (size_t)(nl + 2 - text.buf), 0, NULL)) ||
	    !str_is(json_object_get(root, "schema"), ENTRY_SCHEMA) || !str_is(json_object_get(root, "key"), key) ||
	    !env_unchanged(json_object_get(root, "env"), json_object_get(root, "environ")) ||
	    !reads_unchanged(fc, nl + 3, text.buf + text.len))
		goto out;
	rc = load_parts_walls(root, parts, walls);
out:
	json_decref(root);
	lk_buf_release(&text);
	lk_buf_release(&path);
	return rc;
}

/* Its mtime is its last use: what the bound (trim) keeps by. */
static void mark_used(const struct lk_failcache *fc, const char *key)
{
	struct lk_buf path = LK_BUF_INIT;

	lk_buf_addf(&path, "%s/%s.json", fc->dir, key);
	utimensat(AT_FDCWD, path.buf, NULL, AT_SYMLINK_NOFOLLOW);
	lk_buf_release(&path);
}

/* ---- writing one ---- */

static void key_str(struct lk_jsonw *w, const char *k, const char *v)
{
	lk_jsonw_key(w, k);
	lk_jsonw_str(w, v);
}

/* The read lines; -1 when a path holds a newline (no line can say it: the entry is not written). */
static int read_lines(const struct lk_readset *rs, struct lk_buf *out)
{
	for (size_t i = 0; i < rs->reads.nr; i++) {
		const struct lk_read *r = &rs->reads.items[i];

		if (strchr(r->path, '\n'))
			return -1;
		lk_buf_addf(out, "%c %d %llu %llu %u %lld %lld %lld %s\n", read_hows[r->how], r->exists,
			    (unsigned long long)r->dev, (unsigned long long)r->ino, (unsigned)r->mode,
			    (long long)r->size, (long long)r->mtime_ns, (long long)r->ctime_ns, r->path);
	}
	return 0;
}

static void write_env(struct lk_jsonw *w, const struct lk_readset *rs)
{
	lk_jsonw_key(w, "env");
	lk_jsonw_array(w);
	for (size_t i = 0; i < rs->env.nr; i++) {
		lk_jsonw_object(w);
		key_str(w, "name", rs->env.items[i].name);
		key_str(w, "value", rs->env.items[i].value);
		lk_jsonw_end(w);
	}
	lk_jsonw_end(w);
	key_str(w, "environ", rs->environ_hash[0] ? rs->environ_hash : NULL);
}

static void write_walls(struct lk_jsonw *w, const int walls[LK_WALL_NR])
{
	lk_jsonw_key(w, "walls");
	lk_jsonw_array(w);
	for (size_t k = 0; k < LK_WALL_NR; k++)
		lk_jsonw_int(w, walls[k]);
	lk_jsonw_end(w);
}

static void write_parts(struct lk_jsonw *w, const struct lk_summary_parts *parts)
{
	lk_jsonw_key(w, "parts");
	lk_jsonw_array(w);
	for (size_t i = 0; i < parts->nr; i++) {
		const struct lk_summary_part *p = &parts->items[i];

		lk_jsonw_object(w);
		key_str(w, "key", p->key);
		key_str(w, "kind", p->kind);
		key_str(w, "symbol", p->symbol);
		key_str(w, "version", p->version);
		key_str(w, "defined_in", p->defined_in);
		key_str(w, "referenced_by", p->referenced_by);
		key_str(w, "src_file", p->src_file);
		lk_jsonw_key(w, "src_line");
		lk_jsonw_int(w, p->src_line);
		lk_jsonw_key(w, "explanation");
		lk_jsonw_array(w);
		for (size_t k = 0; k < p->explanation.nr; k++)
			lk_jsonw_str(w, p->explanation.items[k]);
		lk_jsonw_end(w);
		lk_jsonw_key(w, "fixes");
		lk_jsonw_array(w);
		for (size_t k = 0; k < p->fixes.nr; k++) {
			lk_jsonw_object(w);
			key_str(w, "description", p->fixes.items[k].description);
			lk_jsonw_key(w, "verified");
			lk_jsonw_bool(w, p->fixes.items[k].verified);
			lk_jsonw_key(w, "stated");
			lk_jsonw_bool(w, p->fixes.items[k].stated);
			key_str(w, "where", p->fixes.items[k].where);
			key_str(w, "file", p->fixes.items[k].file);
			lk_jsonw_key(w, "line");
			lk_jsonw_int(w, p->fixes.items[k].line);
			lk_jsonw_end(w);
		}
		lk_jsonw_end(w);
		lk_jsonw_end(w);
	}
	lk_jsonw_end(w);
}

/* Written as the records are: a new temporary file, renamed over the old entry. 0, or -1 (nothing said). */
static int entry_write(struct lk_failcache *fc, const char *key, const struct lk_readset *rs,
		       const struct lk_summary_parts *parts, const int walls[LK_WALL_NR])
{
	struct lk_jsonw w = LK_JSONW_INIT;
	struct lk_buf tmp = LK_BUF_INIT, path = LK_BUF_INIT, lines = LK_BUF_INIT;
	struct lk_err err = LK_ERR_INIT;
	int rc = -1;

	if (read_lines(rs, &lines) < 0)
		return -1;
	lk_jsonw_object(&w);
	key_str(&w, "schema", ENTRY_SCHEMA);
	key_str(&w, "key", key);
	write_env(&w, rs);
	write_walls(&w, walls);
	write_parts(&w, parts);
	lk_jsonw_end(&w);
	/* The JSON ends at the first "\n}\n" (a nested object's brace is indented); the read lines follow. */
	lk_buf_addch(&w.out, '\n');
	lk_buf_add(&w.out, lines.buf, lines.len);
	lk_buf_addf(&tmp, "%s/.%s.%ld.tmp", fc->dir, key, (long)getpid());
	lk_buf_addf(&path, "%s/%s.json", fc->dir, key);
	rc = lk_file_write_new(tmp.buf, path.buf, w.out.buf, w.out.len, &err);
	lk_buf_release(&w.out);
	lk_buf_release(&lines);
	lk_buf_release(&tmp);
	lk_buf_release(&path);
	return rc;
}

/* ---- the analyses ---- */

static void walls_add(struct lk_walls *to, const int missing[LK_WALL_NR])
{
	for (size_t k = 0; to && k < LK_WALL_NR; k++)
		if (!to->missing[k])
			to->missing[k] = missing[k];
}

/* `rec`'s entry when it is fresh: its parts (0); else -1, with `key` the entry's key ("": no cache). */
static int entry_get(struct lk_failcache *fc, const struct lk_record *rec, const struct lk_line_options *lopt,
		     char key[65], struct lk_summary_parts *parts)
{
	if (!fc->dir || entry_key(fc, rec, key) < 0) {
		key[0] = '\0';
		return -1;
	}
	if (entry_load(fc, key, parts, lopt->walls) < 0)
		return -1;
	fc->used++;
	mark_used(fc, key);
	return 0;
}

/*
 * `rec` analysed, with its read set taken and its entry written under
 * `key` (none when ""); the walls this analysis alone went without into
 * `walls` (zeroed by the caller), so that its entry says the same whichever
 * analyses ran before it in the same process. 1 if the entry was written.
 */
static int entry_make(struct lk_failcache *fc, const struct lk_record *rec, const struct lk_line_options *lopt,
		      const char *key, struct lk_summary_parts *parts, struct lk_walls *walls)
{
	struct lk_line_options own = *lopt;
	struct lk_readset rs = { 0 };
	int written;

	own.walls = walls;
	if (!*key) {
		lk_summary_analyse(rec, &own, 0, parts);
		return 0;
	}
	lk_readset_start(&rs, fc->skip);
	/* One process: what a child read would be missing from the read set. */
	lk_summary_analyse(rec, &own, LK_REPLAY_ONE_PROCESS, parts);
	lk_readset_stop();
	written = entry_write(fc, key, &rs, parts, walls->missing) == 0;
	lk_readset_release(&rs);
	return written;
}

/*
 * An analysis's answer, from the process that made it to the one that
 * prints (pool.h): the entry's JSON without its read set, and whether the
 * entry was written.
 */
static void answer_write(struct lk_buf *out, int written, const struct lk_walls *walls,
			 const struct lk_summary_parts *parts)
{
	struct lk_jsonw w = LK_JSONW_INIT;

	lk_jsonw_object(&w);
	lk_jsonw_key(&w, "written");
	lk_jsonw_bool(&w, written);
	write_walls(&w, walls->missing);
	write_parts(&w, parts);
	lk_jsonw_end(&w);
	lk_buf_add(out, w.out.buf, w.out.len);
	lk_buf_release(&w.out);
}

/* 0, or -1 when the answer is not one (parts released). */
static int answer_read(const struct lk_buf *in, int *written, struct lk_walls *walls,
		       struct lk_summary_parts *parts)
{
	json_t *root = json_loadb(in->buf, in->len, 0, NULL);
	int rc = -1;

	memset(parts, 0, sizeof(*parts));
	if (root && (rc = load_parts_walls(root, parts, walls)) == 0)
		*written = json_is_true(json_object_get(root, "written"));
	json_decref(root);
	return rc;
}

/* The records whose entries are not fresh, and where their parts go: what the pool's workers share. */
struct batch {
	struct lk_failcache *fc;
	const struct lk_record *recs;
	const struct lk_line_options *lopt;
	struct lk_summary_parts *parts;
	size_t *todo;		/* record indexes, in order */
	char (*keys)[65];	/* each record's entry key, "" for none */
	struct lk_progress *progress;
	size_t done;		/* records with their parts, fresh entries included */
	pid_t caller;		/* the process that runs the pool: never bounded */
	char *reading;		/* MAP_SHARED, READING_SLOT bytes per item: the file each analysis opened last */
};

#define READING_SLOT 512

/*
 * In a worker, the analysis of item i may take fc->cpu_limit CPU seconds
 * more than the worker has used so far: past them the kernel ends it
 * (SIGXCPU, SIGKILL a second later; docs/decisions.md), whatever it was
 * doing, and the caller says which file it was reading (its slot of the
 * shared page). Never in the caller's own process (-j 1 and no fork: not
 * bounded).
 */
static void bound_item(const struct batch *b, size_t i)
{
	struct rusage ru;
	struct rlimit cpu;

	if (!b->fc->cpu_limit || getpid() == b->caller || getrusage(RUSAGE_SELF, &ru) < 0)
		return;
	cpu.rlim_cur = (rlim_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + 1) + b->fc->cpu_limit;
	cpu.rlim_max = cpu.rlim_cur + 1;
	setrlimit(RLIMIT_CPU, &cpu);
	if (b->reading)
		lk_readset_watch(b->reading + i * READING_SLOT, READING_SLOT);
}

static void batch_work(void *ctx, size_t i, struct lk_buf *out)
{
	struct batch *b = ctx;
	size_t r = b->todo[i];
	struct lk_summary_parts parts;
	struct lk_walls walls = { { 0 } };
	int written;

	bound_item(b, i);
	written = entry_make(b->fc, &b->recs[r], b->lopt, b->keys[r], &parts, &walls);

	answer_write(out, written, &walls, &parts);
	lk_summary_parts_release(&parts);
}

static void batch_done(void *ctx, size_t i, const struct lk_buf *answer, const char *why)
{
	struct batch *b = ctx;
	size_t r = b->todo[i];
	struct lk_walls walls = { { 0 } };
	int written = 0;

	if (answer && answer_read(answer, &written, &walls, &b->parts[r]) == 0) {
		walls_add(b->lopt->walls, walls.missing);
		b->fc->made += (size_t)written;
	} else {
		struct lk_buf msg = LK_BUF_INIT;
		char xcpu[64];
		const char *reading = b->reading ? b->reading + i * READING_SLOT : "";

		/* The kernel's SIGXCPU is the bound's (a SIGKILL may be anyone's: said as it is). */
		snprintf(xcpu, sizeof(xcpu), "its worker process was killed by signal %d", SIGXCPU);
		if (b->fc->cpu_limit && why && !strcmp(why, xcpu))
			lk_buf_addf(&msg, "took too long: the analysis passed %u CPU s (LINKSCOPE_ANALYSIS_CPU_LIMIT)",
				    b->fc->cpu_limit);
		else
			lk_buf_addf(&msg, "the analysis stopped: %s", why ? why : "its answer was malformed");
		if (reading[0])
			lk_buf_addf(&msg, " reading '%.*s'", READING_SLOT, reading);
		lk_summary_not_analysed(&b->parts[r], msg.buf);
		lk_buf_release(&msg);
	}
	lk_progress_update(b->progress, ++b->done);
}

void lk_failcache_analyse_all(struct lk_failcache *fc, const struct lk_record *recs, size_t nr,
			      const struct lk_line_options *lopt, unsigned jobs,
			      struct lk_summary_parts *parts, struct lk_progress *progress)
{
	struct batch b = { fc, recs, lopt, parts, NULL, NULL, progress, 0, getpid(), NULL };
	struct lk_pool_task task = { 0, jobs, batch_work, batch_done, &b };
	size_t shared = (nr ? nr : 1) * READING_SLOT;

	b.todo = lk_xcalloc(nr ? nr : 1, sizeof(*b.todo));
	b.keys = lk_xcalloc(nr ? nr : 1, sizeof(*b.keys));
	b.reading = mmap(NULL, shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (b.reading == MAP_FAILED)
		b.reading = NULL;
	/* The fresh entries here: reading one is cheaper than a worker. */
	for (size_t r = 0; r < nr; r++) {
		if (entry_get(fc, &recs[r], lopt, b.keys[r], &parts[r]) == 0)
			lk_progress_update(progress, ++b.done);
		else
			b.todo[task.nr++] = r;
	}
	/* Workers on every CPU: a helper thread in each would only take turns with them (ahead.h). */
	if (jobs != 1 && task.nr > 1)
		rp_ahead_allow(0);
	lk_pool_run(&task);
	rp_ahead_allow(1);
	if (b.reading)
		munmap(b.reading, shared);
	free(b.todo);
	free(b.keys);
}
