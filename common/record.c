/*
 * The record: serialization of one link to JSON and back (jansson).
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
#include "linkscope/record.h"
#include "linkscope/vec.h"

/* Length of the valid UTF-8 sequence at s (at most `len`), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t len)
{
	size_t n;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n > len)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

char *lk_record_utf8_lossy(const char *s, size_t len)
{
	struct lk_buf out = LK_BUF_INIT;
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	lk_buf_grow(&out, len);
	while (i < len) {
		size_t n = p[i] ? utf8_seq(p + i, len - i) : 0;

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

static json_t *jstrn(const char *s, size_t len)
{
	char *copy = lk_xstrndup(s, len);
	json_t *j = lk_json_str(copy);

	free(copy);
	return j;
}

static json_t *jint_or_null(long v)
{
	return v < 0 ? json_null() : json_integer(v);
}

static void set(json_t *obj, const char *key, json_t *value)
{
	/* json_object_set_new steals the value even on failure. */
	if (!value)
		value = json_null();
	json_object_set_new(obj, key, value);
}

static json_t *strvec_json(const char *const *items, size_t nr)
{
	json_t *a = json_array();

	for (size_t i = 0; i < nr; i++)
		json_array_append_new(a, lk_json_str(items[i]));
	return a;
}

static void format_time(int64_t ns, char *out, size_t size)
{
	time_t secs = (time_t)(ns / 1000000000);
	struct tm tm;

	gmtime_r(&secs, &tm);
	snprintf(out, size, "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, (long)(ns % 1000000000 / 1000));
}

static json_t *time_json(const struct lk_record_draft *rec)
{
	char when[64];

	format_time(rec->start_ns, when, sizeof(when));
	return json_pack("{s:s, s:I, s:f}", "start", when,
			 "start_unix_ns", (json_int_t)rec->start_ns,
			 "duration_ms", (double)rec->duration_ns / 1e6);
}

static json_t *args_json(const struct lk_record_draft *rec)
{
	json_t *texts = json_array(), *origins = json_array();
	json_t *files = json_array();

	for (size_t i = 0; i < rec->args->nr; i++) {
		const struct lk_arg *a = &rec->args->items[i];

		json_array_append_new(texts, lk_json_str(a->text));
		json_array_append_new(origins, json_pack("{s:I, s:o}",
			"argv_index", (json_int_t)a->argv_index,
			"response_file", jint_or_null(a->rsp)));
	}
	for (size_t i = 0; i < rec->rspfiles->nr; i++) {
		const struct lk_rspfile *f = &rec->rspfiles->items[i];
		static const char *const status[] = { "read", "missing", "unreadable" };

		json_array_append_new(files, json_pack("{s:o, s:I, s:o, s:s, s:o, s:I}",
			"path", lk_json_str(f->path),
			"argv_index", (json_int_t)f->argv_index,
			"parent", jint_or_null(f->parent),
			"status", status[f->status],
			"error", f->status == LK_RSP_READ ? json_null() :
				 json_string(lk_file_strerror(f->error)),
			"nargs", (json_int_t)f->nargs));
	}
	return json_pack("{s:o, s:o, s:o}", "argv_expanded", texts,
			 "arg_origins", origins, "response_files", files);
}

static json_t *provenance_json(const struct lk_record_draft *rec)
{
	const struct lk_provenance *p = rec->prov;
	json_t *kinds = json_array();

	for (size_t i = 0; i < p->nr; i++)
		json_array_append_new(kinds, json_string(lk_prov_name(p->items[i])));
	return json_pack("{s:s, s:o, s:o}", "method", p->method, "args", kinds,
			 "link_args", p->link_args_start < 0 ? json_null() :
			 json_pack("{s:I, s:I}",
				   "start", (json_int_t)p->link_args_start,
				   "end", (json_int_t)p->link_args_end));
}

static json_t *caller_json(const struct lk_record_draft *rec)
{
	const struct lk_rustc_caller *c = rec->caller;

	if (c && c->is_rustc)
		return json_pack("{s:s, s:I, s:o, s:o}", "kind", "rustc",
				 "pid", (json_int_t)c->pid,
				 "argv", strvec_json((const char *const *)c->argv.items, c->argv.nr),
				 "link_args", strvec_json((const char *const *)c->link_args.items,
							  c->link_args.nr));
	return json_pack("{s:s, s:o}", "kind", "other", "name", lk_json_str(rec->caller_name));
}

static json_t *line_json(const struct lk_record_draft *rec)
{
	const struct lk_argv_info *info = rec->info;
	const struct lk_args *args = rec->args;
	json_t *lc = json_array(), *groups = json_array(), *libs = json_array();

	for (size_t i = 0; i < info->lc.nr; i++)
		json_array_append_new(lc, json_integer((json_int_t)info->lc.items[i]));
	for (size_t i = 0; i < info->groups.nr; i++) {
		const struct lk_argv_group *g = &info->groups.items[i];
		size_t last = g->end < 0 ? args->nr : (size_t)g->end;
		json_t *contents = json_array();

		for (size_t k = g->start + 1; k < last; k++)
			json_array_append_new(contents, json_pack("{s:I, s:o}",
				"index", (json_int_t)k, "text", lk_json_str(args->items[k].text)));
		json_array_append_new(groups, json_pack("{s:I, s:o, s:I, s:o}",
			"start", (json_int_t)g->start, "end", jint_or_null(g->end),
			"depth", (json_int_t)g->depth, "contents", contents));
	}
	for (size_t i = 0; i < info->libs.nr; i++)
		json_array_append_new(libs, json_pack("{s:I, s:o}",
			"index", (json_int_t)info->libs.items[i].index,
			"name", jstrn(info->libs.items[i].name, info->libs.items[i].name_len)));
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:b, s:b, s:b, s:b}",
		"output", lk_json_str(info->output_path),
		"output_index", jint_or_null(info->output),
		"lc", lc, "groups", groups, "libs", libs,
		"libdirs", strvec_json(info->libdirs.items, info->libdirs.nr),
		"bdirs", strvec_json(info->bdirs.items, info->bdirs.nr),
		"shared", !!(info->flags & LK_ARGV_SHARED), "static", !!(info->flags & LK_ARGV_STATIC),
		"nostdlib", !!(info->flags & LK_ARGV_NOSTDLIB),
		"nodefaultlibs", !!(info->flags & LK_ARGV_NODEFAULTLIBS),
		"nostartfiles", !!(info->flags & LK_ARGV_NOSTARTFILES));
}

static json_t *file_json(const struct lk_record_file *f)
{
	if (!f->exists)
		return json_pack("{s:o, s:b}", "path", lk_json_str(f->path), "exists", 0);
	return json_pack("{s:o, s:b, s:I, s:I}", "path", lk_json_str(f->path), "exists", 1,
			 "size", (json_int_t)f->size, "mtime_ns", (json_int_t)f->mtime_ns);
}

static json_t *inputs_json(const struct lk_record_draft *rec)
{
	json_t *a = json_array();

	for (size_t i = 0; i < rec->inputs.nr; i++) {
		const struct lk_record_input *in = &rec->inputs.items[i];
		json_t *o = json_pack("{s:I, s:s}", "index", (json_int_t)in->index,
				      "kind", in->kind);

		if (in->name) {
			json_t *cands = json_array();

			for (size_t k = 0; k < in->candidates.nr; k++)
				json_array_append_new(cands, file_json(&in->candidates.items[k]));
			set(o, "name", jstrn(in->name, in->name_len));
			set(o, "candidates", cands);
		} else {
			set(o, "file", file_json(&in->file));
		}
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *kept_json(const struct lk_record_draft *rec)
{
	json_t *a = json_array();

	for (size_t i = 0; i < rec->kept.nr; i++) {
		const struct lk_record_copy *k = &rec->kept.items[i];
		char blob[80];

		snprintf(blob, sizeof(blob), "blobs/%s", k->sha256);
		json_array_append_new(a, json_pack("{s:o, s:s, s:I, s:s, s:s}",
			"path", lk_json_str(k->path), "sha256", k->sha256,
			"size", (json_int_t)k->size, "blob", blob, "reason", k->reason));
	}
	return a;
}

static json_t *linker_json(const struct lk_record_draft *rec)
{
	const struct lk_argv_info *info = rec->info;

	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}",
		"flavor", rec->linker_flavor,
		"fuse_ld", lk_json_str(info->fuse_ld),
		"fuse_ld_index", jint_or_null(info->fuse_ld_index),
		"program", lk_json_str(rec->linker_program),
		"program_source", lk_json_str(rec->linker_program_source),
		"print_prog_name", lk_json_str(rec->expansion.linker_program));
}

static json_t *result_json(const struct lk_record_draft *rec)
{
	return json_pack("{s:b, s:o, s:o, s:i, s:o}",
		"ran", rec->ran,
		"exit_status", rec->ran && !rec->signal ? json_integer(rec->exit_status) : json_null(),
		"signal", rec->signal ? json_integer(rec->signal) : json_null(),
		"shim_exit", rec->shim_exit,
		"spawn_error", lk_json_str(rec->spawn_error));
}

static json_t *stderr_json(const struct lk_record_draft *rec)
{
	char *text = lk_record_utf8_lossy(rec->stderr_text ? rec->stderr_text : "",
					  rec->stderr_len);
	json_t *o = json_pack("{s:I, s:b, s:s}", "bytes", (json_int_t)rec->stderr_bytes,
			      "truncated", rec->stderr_truncated, "text", text);

	free(text);
	return o;
}

static json_t *expansion_json(const struct lk_record_draft *rec)
{
	const struct lk_expansion *e = &rec->expansion;
	json_t *cmds;

	if (!e->done)
		return json_null();
	cmds = json_array();
	for (size_t i = 0; i < e->commands.nr; i++)
		json_array_append_new(cmds, strvec_json(
			(const char *const *)e->commands.items[i].items,
			e->commands.items[i].nr));
	return json_pack("{s:s, s:i, s:o, s:o, s:o, s:o}", "trigger", e->trigger,
			 "exit_status", e->exit_status, "commands", cmds,
			 "linker_command", jint_or_null(e->linker_command),
			 "library_path", lk_json_str(e->library_path),
			 "compiler_path", lk_json_str(e->compiler_path));
}

/* The variables as they are: lk_record_redact fills "redacted". */
static json_t *env_json(const struct lk_record_draft *rec)
{
	json_t *o = json_object();

	for (size_t i = 0; i < rec->env->nr; i++)
		set(o, rec->env->items[i].name, lk_json_str(rec->env->items[i].value));
	return json_pack("{s:o, s:[]}", "vars", o, "redacted");
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

static json_t *record_json(const struct lk_record_draft *rec)
{
	json_t *root = json_object();
	json_t *args = args_json(rec);

	set(root, "schema", json_string(LK_RECORD_SCHEMA));
	set(root, "id", lk_json_str(rec->id));
	set(root, "tool", json_pack("{s:s, s:s}", "name", "linkscope-cc",
				    "version", rec->tool_version));
	set(root, "time", time_json(rec));
	set(root, "host", json_pack("{s:s, s:s}", "os", "linux",
				    "machine", rec->host_machine));
	set(root, "target", json_pack("{s:o, s:o}", "triple", lk_json_str(rec->target),
				      "source", lk_json_str(rec->target_source)));
	set(root, "cwd", lk_json_str(rec->cwd));
	set(root, "mode", json_string(rec->mode));
	set(root, "driver", json_pack("{s:o, s:s, s:o, s:o}",
		"given", lk_json_str(rec->driver_given), "source", rec->driver_source,
		"resolved", lk_json_str(rec->driver_resolved), "real", lk_json_str(rec->driver_real)));
	set(root, "argv", strvec_json(rec->argv, rec->argc));
	json_object_update(root, args);
	json_decref(args);
	set(root, "provenance", provenance_json(rec));
	set(root, "caller", caller_json(rec));
	set(root, "line", line_json(rec));
	set(root, "linker", linker_json(rec));
	set(root, "inputs", inputs_json(rec));
	set(root, "kept", kept_json(rec));
	set(root, "result", result_json(rec));
	set(root, "stderr", stderr_json(rec));
	set(root, "expansion", expansion_json(rec));
	set(root, "env", env_json(rec));
	set(root, "reproducer", lk_json_str(rec->reproducer));
	set(root, "warnings", strvec_json((const char *const *)rec->warnings.items,
					  rec->warnings.nr));
	if (rec->no_redaction)
		set(root, "redactions", json_array());
	else
		lk_record_redact(root);
	return root;
}

int lk_record_write(const struct lk_record_draft *rec, const char *dir,
		    char **path_out, struct lk_err *err)
{
	json_t *root = record_json(rec);
	char *text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	struct lk_buf tmp = LK_BUF_INIT, final = LK_BUF_INIT, data = LK_BUF_INIT;
	int rc = -1;

	if (!text) {
		json_decref(root);
		return lk_err_set(err, LK_E_FORMAT, "cannot serialize the record");
	}
	lk_buf_addstr(&data, text);
	lk_buf_addch(&data, '\n');
	free(text);
	lk_buf_addf(&tmp, "%s/.%s.json.tmp", dir, rec->id);
	lk_buf_addf(&final, "%s/%s.json", dir, rec->id);
	/* Private whatever the umask: a record may name private paths and hold a private stderr. */
	if (lk_file_write_new(tmp.buf, final.buf, data.buf, data.len, err) == 0) {
		lk_record_index_append(root, rec, dir, data.len);
		*path_out = lk_buf_detach(&final);
		rc = 0;
	}
	json_decref(root);
	lk_buf_release(&data);
	lk_buf_release(&tmp);
	lk_buf_release(&final);
	return rc;
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

void lk_record_file_stat(struct lk_record_file *f, const char *path)
{
	struct stat st;

	f->path = lk_xstrdup(path);
	f->exists = stat(path, &st) == 0;
	if (f->exists) {
		f->size = (int64_t)st.st_size;
		f->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	}
}

void lk_record_draft_release(struct lk_record_draft *rec)
{
	free(rec->id);
	free(rec->cwd);
	free(rec->driver_resolved);
	free(rec->driver_real);
	free(rec->caller_name);
	free(rec->linker_program);
	free(rec->spawn_error);
	free(rec->reproducer);
	for (size_t i = 0; i < rec->inputs.nr; i++) {
		struct lk_record_input *in = &rec->inputs.items[i];

		free(in->file.path);
		for (size_t k = 0; k < in->candidates.nr; k++)
			free(in->candidates.items[k].path);
		free(in->candidates.items);
	}
	free(rec->inputs.items);
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
						  path);
			if (kind)
				return lk_err_set(err, LK_E_IO, "cannot read '%s': not a regular file (%s)", path, kind);
			errno = saved;
			return lk_err_errno(err, "cannot read '%s'", path);
		}
		root = json_loadb(text.buf, text.len, 0, &jerr);
		lk_buf_release(&text);
	}
	if (!root)
		return lk_err_set(err, LK_E_FORMAT, "'%s' is not valid JSON (line %d, column %d): %s",
				  path, jerr.line, jerr.column, jerr.text);
	if (!json_is_object(root)) {
		lk_err_set(err, LK_E_FORMAT, "'%s' is not a linkscope record: not a JSON object", path);
		goto out;
	}
	if (check_schema(root, path, err) < 0)
		goto out;
	if (load_args(root, rec) < 0) {
		lk_err_set(err, LK_E_FORMAT, "'%s' is truncated or malformed: bad argv_expanded or arg_origins", path);
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
		lk_err_set(err, LK_E_FORMAT, "'%s' is truncated or malformed: missing id, driver, provenance, linker or result", path);
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
	}
	rec->start = opt_arg(json_object_get(json_object_get(root, "time"), "start"));
	rec->start_ns = json_integer_value(json_object_get(json_object_get(root, "time"), "start_unix_ns"));
	rec->output = opt_arg(json_object_get(json_object_get(root, "line"), "output"));
	rec->linker_flavor = opt_arg(json_object_get(linker, "flavor"));
	rec->linker_program = opt_arg(json_object_get(linker, "program"));
	rec->print_prog_name = opt_arg(json_object_get(linker, "print_prog_name"));
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
	free(rec->print_prog_name);
	lk_strvec_release(&rec->linker_argv);
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

