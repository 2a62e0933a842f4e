/*
 * The record: one link as JSON, read back (jansson); the writer is
 * record_write.c.
 *
 * Takes: struct lk_record_draft, filled by the shim from the argv model, the
 * response-file expansion, the provenance and the run. Gives: the record
 * file, written atomically; and, for the analyzer, a checked summary.
 * Strings that are not valid UTF-8 (argv bytes can be anything) are written
 * as {"hex": "..."} so nothing is lost; the linker's stderr is text for
 * people and is made valid UTF-8 instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/expansion.h"
#include "linkscope/file.h"
#include "linkscope/json.h"
#include "linkscope/jsonw.h"
#include "linkscope/record.h"
#include "linkscope/runcmd.h"
#include "linkscope/vec.h"

char *lk_record_utf8_lossy(const char *s, size_t len)
{
	struct lk_buf out = LK_BUF_INIT;
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	lk_buf_grow(&out, len);
	while (i < len) {
		size_t n = p[i] ? lk_utf8_seq(p + i, len - i) : 0;

		if (n) {
			lk_buf_add(&out, p + i, n);
			i += n;
		} else {
			/* Invalid bytes and NULs both become U+FFFD. */
			lk_buf_addstr(&out, "\xef\xbf\xbd");
			i++;
		}
	}
	return lk_buf_detach(&out);
}

static void set(json_t *obj, const char *key, json_t *value)
{
	/* json_object_set_new steals the value even on failure. */
	if (!value)
		value = json_null();
	json_object_set_new(obj, key, value);
}

/*
 * Where a node is: its parent's frame and its key or index. The JSON path
 * ("expansion.commands[1][40]") is written only for a string that changed,
 * which few are.
 */
struct path_frame {
	const struct path_frame *up;
	const char *key;	/* NULL: an array element */
	size_t index;
};

static void path_render(const struct path_frame *f, struct lk_buf *out)
{
	if (!f)
		return;
	path_render(f->up, out);
	if (f->key)
		lk_buf_addf(out, "%s%s", out->len ? "." : "", f->key);
	else
		lk_buf_addf(out, "[%zu]", f->index);
}

/* A string, redacted: the new node and its path in `log`, or NULL when nothing changed. */
static json_t *redact_string(const char *text, const struct path_frame *at, json_t *log)
{
	struct lk_buf path = LK_BUF_INIT;
	json_t *node = NULL;
	int changed;
	char *r = lk_env_redact(text, &changed);

	if (changed) {
		path_render(at, &path);
		json_array_append_new(log, json_string(path.buf));
		node = lk_json_str(r);
	}
	lk_buf_release(&path);
	free(r);
	return node;
}

/*
 * Every string under `node` through the one redactor (lk_env_redact); the
 * JSON path of each changed string goes to `log`. Returns a replacement
 * for `node` when it is a string that changed, else NULL.
 */
static json_t *redact_tree(json_t *node, const struct path_frame *at, json_t *log)
{
	char *bytes;

	if (json_is_string(node))
		return redact_string(json_string_value(node), at, log);
	if ((bytes = lk_json_bytes(node))) {
		json_t *r = redact_string(bytes, at, log);

		free(bytes);
		return r;
	}
	if (json_is_array(node)) {
		for (size_t i = 0; i < json_array_size(node); i++) {
			struct path_frame f = { at, NULL, i };
			json_t *n;

			if ((n = redact_tree(json_array_get(node, i), &f, log)))
				json_array_set_new(node, i, n);
		}
	} else if (json_is_object(node)) {
		const char *key;
		json_t *value;
		void *tmp;

		json_object_foreach_safe(node, tmp, key, value) {
			struct path_frame f = { at, key, 0 };
			json_t *n;

			if ((n = redact_tree(value, &f, log)))
				json_object_set_new(node, key, n);
		}
	}
	return NULL;
}

/* Is "env.vars.NAME" among the paths of `log`? */
static int env_var_logged(json_t *log, const char *name)
{
	size_t i;
	json_t *p;

	json_array_foreach(log, i, p) {
		const char *s = json_string_value(p);

		if (s && lk_str_starts_with(s, "env.vars.") && !strcmp(s + strlen("env.vars."), name))
			return 1;
	}
	return 0;
}

void lk_record_redact(json_t *root)
{
	json_t *env = json_object_get(root, "env");
	json_t *vars = json_object_get(env, "vars");
	json_t *log = json_array(), *names = json_array(), *value;
	const char *name;
	void *tmp;

	json_object_foreach_safe(vars, tmp, name, value)
		if (lk_env_name_is_secret(name))
			json_object_set_new(vars, name, json_string(LK_REDACTED));
	redact_tree(root, NULL, log);
	json_object_foreach(vars, name, value)
		if (lk_env_name_is_secret(name) || env_var_logged(log, name))
			json_array_append_new(names, json_string(name));
	if (json_is_object(env))
		json_object_set_new(env, "redacted", names);
	else
		json_decref(names);
	set(root, "redactions", log);
}

char *lk_record_dir(const char *dir_env)
{
	struct lk_buf dir = LK_BUF_INIT;
	const char *xdg = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");

	if (dir_env && *dir_env)
		lk_buf_addstr(&dir, dir_env);
	else if (xdg && *xdg == '/')
		lk_buf_addf(&dir, "%s/linkscope", xdg);
	else if (home && *home == '/')
		lk_buf_addf(&dir, "%s/.local/state/linkscope", home);
	else
		lk_buf_addf(&dir, "/tmp/linkscope-%ld", (long)getuid());
	return lk_buf_detach(&dir);
}

void lk_record_file_stat(struct lk_record_file *f, const char *path, struct stat *out)
{
	struct stat own, *st = out ? out : &own;

	f->path = lk_xstrdup(path);
	f->exists = stat(path, st) == 0;
	if (f->exists) {
		f->size = (int64_t)st->st_size;
		f->mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
	}
}

/*
 * H. Hinnant's civil_from_days: the date of a day count since 1970-01-01,
 * valid for any day a clock can give.
 */
static void civil_from_days(int64_t days, int *year, int *month, int *day)
{
	int64_t z = days + 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;

	*day = (int)(doy - (153 * mp + 2) / 5 + 1);
	*month = (int)(mp < 10 ? mp + 3 : mp - 9);
	*year = (int)(yoe + era * 400 + (*month <= 2));
}

void lk_record_utc(int64_t secs, struct tm *tm)
{
	int64_t days = secs / 86400, in_day = secs % 86400;
	int year, month, day;

	if (in_day < 0) {
		in_day += 86400;
		days--;
	}
	civil_from_days(days, &year, &month, &day);
	memset(tm, 0, sizeof(*tm));
	tm->tm_year = year - 1900;
	tm->tm_mon = month - 1;
	tm->tm_mday = day;
	tm->tm_hour = (int)(in_day / 3600);
	tm->tm_min = (int)(in_day / 60 % 60);
	tm->tm_sec = (int)(in_day % 60);
}

void lk_record_inputs_release(struct lk_record_draft *rec)
{
	for (size_t i = 0; i < rec->inputs.nr; i++) {
		struct lk_record_input *in = &rec->inputs.items[i];

		free(in->file.path);
		for (size_t k = 0; k < in->candidates.nr; k++)
			free(in->candidates.items[k].path);
		free(in->candidates.items);
	}
	free(rec->inputs.items);
	memset(&rec->inputs, 0, sizeof(rec->inputs));
}

void lk_record_draft_release(struct lk_record_draft *rec)
{
	free(rec->id);
	free(rec->cwd);
	free(rec->driver_resolved);
	free(rec->driver_real);
	free(rec->caller_name);
	free(rec->linker_program);
	free(rec->linker_version);
	free(rec->spawn_error);
	free(rec->reproducer);
	lk_record_inputs_release(rec);
	for (size_t i = 0; i < rec->kept.nr; i++)
		free(rec->kept.items[i].path);
	free(rec->kept.items);
	lk_expansion_release(&rec->expansion);
	lk_strvec_release(&rec->warnings);
	memset(rec, 0, sizeof(*rec));
}

/* ---- reading ---- */

static int check_schema(json_t *root, const char *path, struct lk_err *err)
{
	const char *schema = json_string_value(json_object_get(root, "schema"));
	const char *slash;
	char *end;
	long version;

	if (!schema)
		return lk_err_set(err, LK_E_FORMAT, "'%s' is not a linkscope record: no \"schema\" field", path);
	slash = strrchr(schema, '/');
	if (!slash || (size_t)(slash - schema) != strlen(LK_RECORD_SCHEMA_NAME) ||
	    strncmp(schema, LK_RECORD_SCHEMA_NAME, (size_t)(slash - schema)))
		return lk_err_set(err, LK_E_FORMAT, "'%s' is not a linkscope record: schema is '%s'", path, schema);
	version = strtol(slash + 1, &end, 10);
	if (*end || version < 1)
		return lk_err_set(err, LK_E_FORMAT, "'%s' has a malformed schema version '%s'", path, schema);
	if (version > LK_RECORD_SCHEMA_VERSION)
		return lk_err_set(err, LK_E_VERSION,
				  "'%s' is a record of schema version %ld; this linkscope reads up to %d",
				  path, version, LK_RECORD_SCHEMA_VERSION);
	return 0;
}

static char *opt_arg(json_t *j)
{
	return json_is_null(j) || !j ? NULL : lk_json_bytes(j);
}

static int decode_args(json_t *array, struct lk_strvec *out)
{
	size_t i;
	json_t *v;

	if (!json_is_array(array))
		return -1;
	json_array_foreach(array, i, v) {
		char *a = lk_json_bytes(v);

		if (!a)
			return -1;
		lk_strvec_push_owned(out, a);
	}
	return 0;
}

static enum lk_prov prov_from_name(const char *name)
{
	static const enum lk_prov all[] = {
		LK_PROV_DRIVER, LK_PROV_USER, LK_PROV_RUSTC_OBJECT, LK_PROV_RUSTC_RLIB,
		LK_PROV_RUSTC_NATIVE, LK_PROV_RUSTC_FLAG, LK_PROV_LINK_ARG,
	};

	for (size_t i = 0; name && i < sizeof(all) / sizeof(*all); i++)
		if (!strcmp(name, lk_prov_name(all[i])))
			return all[i];
	return LK_PROV_USER;
}

static int load_args(json_t *root, struct lk_record *rec)
{
	struct lk_strvec texts = LK_STRVEC_INIT;
	json_t *origins = json_object_get(root, "arg_origins");
	json_t *prov = json_object_get(json_object_get(root, "provenance"), "args");

	if (decode_args(json_object_get(root, "argv_expanded"), &texts) < 0 || !texts.nr ||
	    json_array_size(origins) != texts.nr) {
		lk_strvec_release(&texts);
		return -1;
	}
	LK_GROW(rec->args.items, texts.nr, rec->args.alloc);
	rec->prov = lk_xcalloc(texts.nr, sizeof(*rec->prov));
	for (size_t i = 0; i < texts.nr; i++) {
		json_t *o = json_array_get(origins, i);
		json_t *rsp = json_object_get(o, "response_file");

		rec->args.items[i].text = texts.items[i];
		rec->args.items[i].argv_index = (size_t)json_integer_value(json_object_get(o, "argv_index"));
		rec->args.items[i].rsp = json_is_integer(rsp) ? (int)json_integer_value(rsp) : -1;
		rec->prov[i] = i == 0 ? LK_PROV_DRIVER :
			       prov_from_name(json_string_value(json_array_get(prov, i)));
	}
	rec->args.nr = texts.nr;
	free(texts.items);
	return 0;
}

static void load_expansion(json_t *e, struct lk_record *rec)
{
	json_t *cmds = json_object_get(e, "commands");
	json_t *lc = json_object_get(e, "linker_command");

	if (!json_is_object(e))
		return;
	rec->has_expansion = 1;
	rec->library_path = opt_arg(json_object_get(e, "library_path"));
	if (json_is_integer(lc))
		decode_args(json_array_get(cmds, (size_t)json_integer_value(lc)), &rec->linker_argv);
}

static void load_env(json_t *env, struct lk_record *rec)
{
	const char *name;
	json_t *value;

	json_object_foreach(json_object_get(env, "vars"), name, value) {
		char *v = lk_json_bytes(value);

		if (!v)
			continue;
		LK_GROW(rec->env.items, rec->env.nr + 1, rec->env.alloc);
		rec->env.items[rec->env.nr].name = lk_xstrdup(name);
		rec->env.items[rec->env.nr].value = v;
		rec->env.nr++;
	}
}

static void load_kept(json_t *kept, struct lk_record *rec)
{
	size_t i;
	json_t *k;

	json_array_foreach(kept, i, k) {
		char *path = opt_arg(json_object_get(k, "path"));
		const char *blob = json_string_value(json_object_get(k, "blob"));

		if (!path || !blob) {
			free(path);
			continue;
		}
		LK_GROW(rec->kept.items, rec->kept.nr + 1, rec->kept.alloc);
		rec->kept.items[rec->kept.nr].path = path;
		rec->kept.items[rec->kept.nr].blob = lk_xstrdup(blob);
		rec->kept.items[rec->kept.nr].reason = opt_arg(json_object_get(k, "reason"));
		rec->kept.nr++;
	}
}

static void load_seen(json_t *inputs, struct lk_record *rec)
{
	size_t i, k;
	json_t *in, *c;

	json_array_foreach(inputs, i, in) {
		json_t *file = json_object_get(in, "file");
		struct lk_record_seen *s;

		if (!json_is_integer(json_object_get(in, "index")))
			continue;
		/* A -l: its first candidate that existed is the file ld took. */
		json_array_foreach(json_object_get(in, "candidates"), k, c)
			if (!file && json_is_true(json_object_get(c, "exists")))
				file = c;
		LK_GROW(rec->seen.items, rec->seen.nr + 1, rec->seen.alloc);
		s = &rec->seen.items[rec->seen.nr++];
		memset(s, 0, sizeof(*s));
		s->index = (long)json_integer_value(json_object_get(in, "index"));
		s->existed = json_is_true(json_object_get(file, "exists"));
		if (s->existed) {
			s->path = opt_arg(json_object_get(file, "path"));
			s->size = json_integer_value(json_object_get(file, "size"));
			s->mtime_ns = json_integer_value(json_object_get(file, "mtime_ns"));
		}
	}
}

int lk_record_load(const char *path, struct lk_record *rec, struct lk_err *err)
{
	return lk_record_load_as(path, path, rec, err);
}

int lk_record_load_as(const char *path, const char *name, struct lk_record *rec, struct lk_err *err)
{
	json_error_t jerr;
	json_t *root, *prov, *link_args, *driver, *linker, *result, *caller, *target;
	const char *slash;
	int rc = -1;

	memset(rec, 0, sizeof(*rec));
	rec->link_args_start = rec->link_args_end = -1;
	{
		struct lk_buf text = LK_BUF_INIT;

		/* Through the one reader: a FIFO named like a record never blocks us. */
		if (lk_buf_read_file(&text, path, LK_RECORD_MAX_BYTES) < 0) {
			int saved = errno;
			const char *kind = saved == LK_ENOTREG ? lk_file_not_regular(path) : NULL;

			lk_buf_release(&text);
			if (kind && !strcmp(kind, "a directory"))
				return lk_err_set(err, LK_E_IO, "cannot read '%s': is a directory (a record is a .json file in it)",
						  name);
			if (kind)
				return lk_err_set(err, LK_E_IO, "cannot read '%s': not a regular file (%s)", name, kind);
			errno = saved;
			return lk_err_errno(err, "cannot read '%s'", name);
		}
		root = json_loadb(text.buf, text.len, 0, &jerr);
		lk_buf_release(&text);
	}
	if (!root)
		return lk_err_set(err, LK_E_FORMAT, "'%s' is not valid JSON (line %d, column %d): %s",
				  name, jerr.line, jerr.column, jerr.text);
	if (!json_is_object(root)) {
		lk_err_set(err, LK_E_FORMAT, "'%s' is not a linkscope record: not a JSON object", name);
		goto out;
	}
	if (check_schema(root, name, err) < 0)
		goto out;
	if (load_args(root, rec) < 0) {
		lk_err_set(err, LK_E_FORMAT, "'%s' is truncated or malformed: bad argv_expanded or arg_origins", name);
		goto out;
	}
	prov = json_object_get(root, "provenance");
	driver = json_object_get(root, "driver");
	linker = json_object_get(root, "linker");
	result = json_object_get(root, "result");
	caller = json_object_get(root, "caller");
	target = json_object_get(root, "target");
	if (!json_is_object(prov) || !json_is_object(driver) || !json_is_object(linker) ||
	    !json_is_object(result) || !json_is_string(json_object_get(root, "id"))) {
		lk_err_set(err, LK_E_FORMAT, "'%s' is truncated or malformed: missing id, driver, provenance, linker or result", name);
		goto out;
	}
	rec->path = lk_xstrdup(path);
	slash = strrchr(path, '/');
	rec->dir = slash ? lk_xstrndup(path, (size_t)(slash - path)) : lk_xstrdup(".");
	{
		/* Absolute: blobs are read, and compiled, from the link's cwd too. */
		char *abs = realpath(rec->dir, NULL);

		if (abs) {
			free(rec->dir);
			rec->dir = abs;
		}
	}
	rec->id = lk_xstrdup(json_string_value(json_object_get(root, "id")));
	rec->cwd = opt_arg(json_object_get(root, "cwd"));
	rec->mode = opt_arg(json_object_get(root, "mode"));
	rec->driver_given = opt_arg(json_object_get(driver, "given"));
	rec->driver_resolved = opt_arg(json_object_get(driver, "resolved"));
	rec->target = opt_arg(json_object_get(target, "triple"));
	rec->prov_method = opt_arg(json_object_get(prov, "method"));
	link_args = json_object_get(prov, "link_args");
	if (json_is_object(link_args)) {
		rec->link_args_start = (long)json_integer_value(json_object_get(link_args, "start"));
		rec->link_args_end = (long)json_integer_value(json_object_get(link_args, "end"));
	}
	{
		size_t i;
		json_t *f;

		json_array_foreach(json_object_get(root, "response_files"), i, f) {
			char *p = opt_arg(json_object_get(f, "path"));
			lk_strvec_push_owned(&rec->rspfiles, p ? p : lk_xstrdup("?"));
		}
	}
	{
		const char *kind = json_string_value(json_object_get(caller, "kind"));

		rec->caller_is_rustc = kind && !strcmp(kind, "rustc");
		rec->caller_name = rec->caller_is_rustc ? lk_xstrdup("rustc") :
				   opt_arg(json_object_get(caller, "name"));
		if (rec->caller_is_rustc) {
			json_t *bs = json_object_get(caller, "build_script");

			decode_args(json_object_get(caller, "argv"), &rec->caller_argv);
			decode_args(json_object_get(caller, "link_args"), &rec->caller_link_args);
			if (json_is_object(bs) && (rec->build_output = opt_arg(json_object_get(bs, "output"))))
				decode_args(json_object_get(bs, "directives"), &rec->build_directives);
		}
	}
	rec->start = opt_arg(json_object_get(json_object_get(root, "time"), "start"));
	rec->start_ns = json_integer_value(json_object_get(json_object_get(root, "time"), "start_unix_ns"));
	rec->output = opt_arg(json_object_get(json_object_get(root, "line"), "output"));
	rec->linker_flavor = opt_arg(json_object_get(linker, "flavor"));
	rec->linker_program = opt_arg(json_object_get(linker, "program"));
	rec->linker_version = opt_arg(json_object_get(linker, "version"));
	rec->print_prog_name = opt_arg(json_object_get(linker, "print_prog_name"));
	rec->reproducer = opt_arg(json_object_get(root, "reproducer"));
	rec->has_exit = json_is_integer(json_object_get(result, "exit_status"));
	rec->exit_status = (int)json_integer_value(json_object_get(result, "exit_status"));
	rec->signal = (int)json_integer_value(json_object_get(result, "signal"));
	rec->stderr_text = opt_arg(json_object_get(json_object_get(root, "stderr"), "text"));
	load_expansion(json_object_get(root, "expansion"), rec);
	load_env(json_object_get(root, "env"), rec);
	load_kept(json_object_get(root, "kept"), rec);
	load_seen(json_object_get(root, "inputs"), rec);
	rc = 0;
out:
	json_decref(root);
	if (rc < 0)
		lk_record_release(rec);
	return rc;
}

const char *lk_record_env(const struct lk_record *rec, const char *name)
{
	for (size_t i = 0; i < rec->env.nr; i++)
		if (!strcmp(rec->env.items[i].name, name))
			return rec->env.items[i].value;
	return NULL;
}

void lk_record_release(struct lk_record *rec)
{
	/* A bundle's record: its unpacked files go with it (every command that took the bundle). */
	if (rec->unpacked)
		lk_scratch_remove(rec->unpacked);
	free(rec->unpacked);
	free(rec->path);
	free(rec->dir);
	free(rec->id);
	free(rec->cwd);
	free(rec->mode);
	free(rec->driver_given);
	free(rec->driver_resolved);
	free(rec->target);
	lk_args_release(&rec->args);
	lk_strvec_release(&rec->rspfiles);
	free(rec->prov);
	free(rec->prov_method);
	free(rec->linker_flavor);
	free(rec->linker_program);
	free(rec->linker_version);
	free(rec->print_prog_name);
	free(rec->reproducer);
	lk_strvec_release(&rec->linker_argv);
	lk_strvec_release(&rec->caller_argv);
	lk_strvec_release(&rec->caller_link_args);
	free(rec->build_output);
	lk_strvec_release(&rec->build_directives);
	free(rec->library_path);
	free(rec->stderr_text);
	free(rec->caller_name);
	free(rec->start);
	free(rec->output);
	for (size_t i = 0; i < rec->kept.nr; i++) {
		free(rec->kept.items[i].path);
		free(rec->kept.items[i].blob);
		free(rec->kept.items[i].reason);
	}
	free(rec->kept.items);
	for (size_t i = 0; i < rec->seen.nr; i++)
		free(rec->seen.items[i].path);
	free(rec->seen.items);
	lk_envvars_release(&rec->env);
	memset(rec, 0, sizeof(*rec));
	rec->link_args_start = rec->link_args_end = -1;
}

