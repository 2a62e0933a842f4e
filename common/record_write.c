/*
 * The record, written (record.h): the draft streamed as JSON (jsonw.h),
 * every string through the redactor as it goes, then renamed into place
 * and its line appended to the directory's index.
 *
 * The text is what building a jansson tree of the record, redacting the
 * tree (lk_record_redact) and json_dumps(JSON_INDENT(1) |
 * JSON_PRESERVE_ORDER) gave, byte for byte (tests/unit/test_record.c
 * compares the two; tests/golden-records.sh the records of every
 * integration test): the shim writes one on every link, and the tree, its
 * walk and its dump were two thirds of the shim's own instructions.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/env.h"
#include "linkscope/expansion.h"
#include "linkscope/file.h"
#include "linkscope/jsonw.h"
#include "linkscope/recindex.h"
#include "linkscope/record.h"
#include "linkscope/vec.h"

static int utf8_valid(const char *s)
{
	size_t len = strlen(s), n;

	for (size_t i = 0; i < len; i += n)
		if (!(n = lk_utf8_seq((const unsigned char *)s + i, len - i)))
			return 0;
	return 1;
}

/* The writer and the redaction's log: the JSON path of every string it changed. */
struct rwriter {
	struct lk_jsonw w;
	int redact;
	struct lk_strvec log;
	struct lk_buf scratch;
};

/* A string as the record has it: redacted (and its path logged) when it holds a credential. */
static void str(struct rwriter *rw, const char *s)
{
	char *r;
	int changed;

	if (!s || !rw->redact || !lk_env_may_hold_secret(s)) {
		lk_jsonw_str(&rw->w, s);
		return;
	}
	r = lk_env_redact_every(s, &changed);
	if (changed) {
		lk_buf_reset(&rw->scratch);
		lk_jsonw_next_path(&rw->w, &rw->scratch);
		lk_strvec_push(&rw->log, rw->scratch.buf);
	}
	lk_jsonw_str(&rw->w, r);
	free(r);
}

static void strn(struct rwriter *rw, const char *s, size_t len)
{
	char *copy = lk_xstrndup(s, len);

	str(rw, copy);
	free(copy);
}

/* `s` as str() writes it, malloc'd, or NULL. */
static char *as_written(const struct rwriter *rw, const char *s)
{
	int changed;

	if (!s)
		return NULL;
	return rw->redact ? lk_env_redact(s, &changed) : lk_xstrdup(s);
}

static void key(struct rwriter *rw, const char *k)
{
	lk_jsonw_key(&rw->w, k);
}

static void key_str(struct rwriter *rw, const char *k, const char *s)
{
	key(rw, k);
	str(rw, s);
}

static void key_int(struct rwriter *rw, const char *k, int64_t v)
{
	key(rw, k);
	lk_jsonw_int(&rw->w, v);
}

static void key_int_or_null(struct rwriter *rw, const char *k, int64_t v)
{
	key(rw, k);
	lk_jsonw_int_or_null(&rw->w, v);
}

static void key_bool(struct rwriter *rw, const char *k, int v)
{
	key(rw, k);
	lk_jsonw_bool(&rw->w, v);
}

static void strvec(struct rwriter *rw, const char *const *items, size_t nr)
{
	lk_jsonw_array(&rw->w);
	for (size_t i = 0; i < nr; i++)
		str(rw, items[i]);
	lk_jsonw_end(&rw->w);
}

static void format_time(int64_t ns, char *out, size_t size)
{
	struct tm tm;

	lk_record_utc(ns / 1000000000, &tm);
	snprintf(out, size, "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, (long)(ns % 1000000000 / 1000));
}

static void write_time(struct rwriter *rw, const struct lk_record_draft *rec, const char *when)
{
	lk_jsonw_object(&rw->w);
	key_str(rw, "start", when);
	key_int(rw, "start_unix_ns", rec->start_ns);
	key(rw, "duration_ms");
	lk_jsonw_real(&rw->w, (double)rec->duration_ns / 1e6);
	lk_jsonw_end(&rw->w);
}

static void write_args(struct rwriter *rw, const struct lk_record_draft *rec)
{
	static const char *const status[] = { "read", "missing", "unreadable" };

	key(rw, "argv_expanded");
	lk_jsonw_array(&rw->w);
	for (size_t i = 0; i < rec->args->nr; i++)
		str(rw, rec->args->items[i].text);
	lk_jsonw_end(&rw->w);
	key(rw, "arg_origins");
	lk_jsonw_array(&rw->w);
	for (size_t i = 0; i < rec->args->nr; i++) {
		lk_jsonw_object(&rw->w);
		key_int(rw, "argv_index", (int64_t)rec->args->items[i].argv_index);
		key_int_or_null(rw, "response_file", rec->args->items[i].rsp);
		lk_jsonw_end(&rw->w);
	}
	lk_jsonw_end(&rw->w);
	key(rw, "response_files");
	lk_jsonw_array(&rw->w);
	for (size_t i = 0; i < rec->rspfiles->nr; i++) {
		const struct lk_rspfile *f = &rec->rspfiles->items[i];

		lk_jsonw_object(&rw->w);
		key_str(rw, "path", f->path);
		key_int(rw, "argv_index", (int64_t)f->argv_index);
		key_int_or_null(rw, "parent", f->parent);
		key_str(rw, "status", status[f->status]);
		key_str(rw, "error", f->status == LK_RSP_READ ? NULL : lk_file_strerror(f->error));
		key_int(rw, "nargs", (int64_t)f->nargs);
		lk_jsonw_end(&rw->w);
	}
	lk_jsonw_end(&rw->w);
}

static void write_provenance(struct rwriter *rw, const struct lk_record_draft *rec)
{
	const struct lk_provenance *p = rec->prov;

	lk_jsonw_object(&rw->w);
	key_str(rw, "method", p->method);
	key(rw, "args");
	lk_jsonw_array(&rw->w);
	for (size_t i = 0; i < p->nr; i++)
		str(rw, lk_prov_name(p->items[i]));
	lk_jsonw_end(&rw->w);
	key(rw, "link_args");
	if (p->link_args_start < 0) {
		lk_jsonw_null(&rw->w);
	} else {
		lk_jsonw_object(&rw->w);
		key_int(rw, "start", p->link_args_start);
		key_int(rw, "end", p->link_args_end);
		lk_jsonw_end(&rw->w);
	}
	lk_jsonw_end(&rw->w);
}

static void write_caller(struct rwriter *rw, const struct lk_record_draft *rec)
{
	const struct lk_rustc_caller *c = rec->caller;

	lk_jsonw_object(&rw->w);
	if (c && c->is_rustc) {
		key_str(rw, "kind", "rustc");
		key_int(rw, "pid", (int64_t)c->pid);
		key(rw, "argv");
		strvec(rw, (const char *const *)c->argv.items, c->argv.nr);
		key(rw, "link_args");
		strvec(rw, (const char *const *)c->link_args.items, c->link_args.nr);
		if (c->build_output) {
			/* What `linkscope whatif` replaces with the next tree's (docs/whatif.md). */
			key(rw, "build_script");
			lk_jsonw_object(&rw->w);
			key_str(rw, "output", c->build_output);
			key(rw, "directives");
			strvec(rw, (const char *const *)c->build_directives.items, c->build_directives.nr);
			lk_jsonw_end(&rw->w);
		}
	} else {
		key_str(rw, "kind", "other");
		key_str(rw, "name", rec->caller_name);
	}
	lk_jsonw_end(&rw->w);
}

static void write_line(struct rwriter *rw, const struct lk_record_draft *rec)
{
	const struct lk_argv_info *info = rec->info;
	const struct lk_args *args = rec->args;

	lk_jsonw_object(&rw->w);
	key_str(rw, "output", info->output_path);
	key_int_or_null(rw, "output_index", info->output);
	key(rw, "lc");
	lk_jsonw_array(&rw->w);
	for (size_t i = 0; i < info->lc.nr; i++)
		lk_jsonw_int(&rw->w, (int64_t)info->lc.items[i]);
	lk_jsonw_end(&rw->w);
	key(rw, "groups");
	lk_jsonw_array(&rw->w);
	for (size_t i = 0; i < info->groups.nr; i++) {
		const struct lk_argv_group *g = &info->groups.items[i];
		size_t last = g->end < 0 ? args->nr : (size_t)g->end;

		lk_jsonw_object(&rw->w);
		key_int(rw, "start", (int64_t)g->start);
		key_int_or_null(rw, "end", g->end);
		key_int(rw, "depth", (int64_t)g->depth);
		key(rw, "contents");
		lk_jsonw_array(&rw->w);
		for (size_t k = g->start + 1; k < last; k++) {
			lk_jsonw_object(&rw->w);
			key_int(rw, "index", (int64_t)k);
			key_str(rw, "text", args->items[k].text);
			lk_jsonw_end(&rw->w);
		}
		lk_jsonw_end(&rw->w);
		lk_jsonw_end(&rw->w);
	}
	lk_jsonw_end(&rw->w);
	key(rw, "libs");
	lk_jsonw_array(&rw->w);
	for (size_t i = 0; i < info->libs.nr; i++) {
		lk_jsonw_object(&rw->w);
		key_int(rw, "index", (int64_t)info->libs.items[i].index);
		key(rw, "name");
		strn(rw, info->libs.items[i].name, info->libs.items[i].name_len);
		lk_jsonw_end(&rw->w);
	}
	lk_jsonw_end(&rw->w);
	key(rw, "libdirs");
	strvec(rw, info->libdirs.items, info->libdirs.nr);
	key(rw, "bdirs");
	strvec(rw, info->bdirs.items, info->bdirs.nr);
	key_bool(rw, "shared", !!(info->flags & LK_ARGV_SHARED));
	key_bool(rw, "static", !!(info->flags & LK_ARGV_STATIC));
	key_bool(rw, "nostdlib", !!(info->flags & LK_ARGV_NOSTDLIB));
	key_bool(rw, "nodefaultlibs", !!(info->flags & LK_ARGV_NODEFAULTLIBS));
	key_bool(rw, "nostartfiles", !!(info->flags & LK_ARGV_NOSTARTFILES));
	lk_jsonw_end(&rw->w);
}

static void write_linker(struct rwriter *rw, const struct lk_record_draft *rec)
{
	lk_jsonw_object(&rw->w);
	key_str(rw, "flavor", rec->linker_flavor);
	key_str(rw, "fuse_ld", rec->info->fuse_ld);
	key_int_or_null(rw, "fuse_ld_index", rec->info->fuse_ld_index);
	key_str(rw, "program", rec->linker_program);
	key_str(rw, "program_source", rec->linker_program_source);
	key_str(rw, "print_prog_name", rec->expansion.linker_program);
	key_str(rw, "version", rec->linker_version);
	key_str(rw, "identified_by", rec->linker_identified_by);
	lk_jsonw_end(&rw->w);
}

static void write_file(struct rwriter *rw, const struct lk_record_file *f)
{
	lk_jsonw_object(&rw->w);
	key_str(rw, "path", f->path);
	key_bool(rw, "exists", f->exists);
	if (f->exists) {
		key_int(rw, "size", f->size);
		key_int(rw, "mtime_ns", f->mtime_ns);
	}
	lk_jsonw_end(&rw->w);
}

static void write_inputs(struct rwriter *rw, const struct lk_record_draft *rec)
{
	lk_jsonw_array(&rw->w);
	for (size_t i = 0; i < rec->inputs.nr; i++) {
		const struct lk_record_input *in = &rec->inputs.items[i];

		lk_jsonw_object(&rw->w);
		key_int(rw, "index", (int64_t)in->index);
		key_str(rw, "kind", in->kind);
		if (in->name) {
			key(rw, "name");
			strn(rw, in->name, in->name_len);
			key(rw, "candidates");
			lk_jsonw_array(&rw->w);
			for (size_t k = 0; k < in->candidates.nr; k++)
				write_file(rw, &in->candidates.items[k]);
			lk_jsonw_end(&rw->w);
		} else {
			key(rw, "file");
			write_file(rw, &in->file);
		}
		lk_jsonw_end(&rw->w);
	}
	lk_jsonw_end(&rw->w);
}

static void write_kept(struct rwriter *rw, const struct lk_record_draft *rec)
{
	lk_jsonw_array(&rw->w);
	for (size_t i = 0; i < rec->kept.nr; i++) {
		const struct lk_record_copy *k = &rec->kept.items[i];
		char blob[80];

		snprintf(blob, sizeof(blob), "blobs/%s", k->sha256);
		lk_jsonw_object(&rw->w);
		key_str(rw, "path", k->path);
		key_str(rw, "sha256", k->sha256);
		key_int(rw, "size", k->size);
		key_str(rw, "blob", blob);
		key_str(rw, "reason", k->reason);
		lk_jsonw_end(&rw->w);
	}
	lk_jsonw_end(&rw->w);
}

static void write_result(struct rwriter *rw, const struct lk_record_draft *rec)
{
	lk_jsonw_object(&rw->w);
	key_bool(rw, "ran", rec->ran);
	key(rw, "exit_status");
	if (rec->ran && !rec->signal)
		lk_jsonw_int(&rw->w, rec->exit_status);
	else
		lk_jsonw_null(&rw->w);
	key(rw, "signal");
	if (rec->signal)
		lk_jsonw_int(&rw->w, rec->signal);
	else
		lk_jsonw_null(&rw->w);
	key_int(rw, "shim_exit", rec->shim_exit);
	key_str(rw, "spawn_error", rec->spawn_error);
	lk_jsonw_end(&rw->w);
}

static void write_stderr(struct rwriter *rw, const struct lk_record_draft *rec)
{
	char *text = lk_record_utf8_lossy(rec->stderr_text ? rec->stderr_text : "",
					  rec->stderr_len);

	lk_jsonw_object(&rw->w);
	key_int(rw, "bytes", (int64_t)rec->stderr_bytes);
	key_bool(rw, "truncated", rec->stderr_truncated);
	key_str(rw, "text", text);
	lk_jsonw_end(&rw->w);
	free(text);
}

static void write_expansion(struct rwriter *rw, const struct lk_record_draft *rec)
{
	const struct lk_expansion *e = &rec->expansion;

	if (!e->done) {
		lk_jsonw_null(&rw->w);
		return;
	}
	lk_jsonw_object(&rw->w);
	key_str(rw, "trigger", e->trigger);
	key_int(rw, "exit_status", e->exit_status);
	key(rw, "commands");
	lk_jsonw_array(&rw->w);
	for (size_t i = 0; i < e->commands.nr; i++)
		strvec(rw, (const char *const *)e->commands.items[i].items, e->commands.items[i].nr);
	lk_jsonw_end(&rw->w);
	key_int_or_null(rw, "linker_command", e->linker_command);
	key_str(rw, "library_path", e->library_path);
	key_str(rw, "compiler_path", e->compiler_path);
	lk_jsonw_end(&rw->w);
}

/*
 * A variable whose name says a secret is replaced whole; every value then
 * goes through the redactor; "redacted" names both kinds.
 */
static void write_env(struct rwriter *rw, const struct lk_record_draft *rec)
{
	struct lk_strvec names = { 0 };

	lk_jsonw_object(&rw->w);
	key(rw, "vars");
	lk_jsonw_object(&rw->w);
	for (size_t i = 0; i < rec->env->nr; i++) {
		const struct lk_envvar *v = &rec->env->items[i];
		size_t logged = rw->log.nr;
		int secret = rw->redact && lk_env_name_is_secret(v->name);

		/*
		 * As a jansson object kept them: a name that is not UTF-8 is no
		 * key (dropped), and a name twice (sorted, so side by side) is
		 * one key with the last value.
		 */
		if (!utf8_valid(v->name) || (i + 1 < rec->env->nr && !strcmp(v->name, rec->env->items[i + 1].name)))
			continue;

		key_str(rw, v->name, secret ? LK_REDACTED : v->value);
		if (secret || rw->log.nr > logged)
			lk_strvec_push(&names, v->name);
	}
	lk_jsonw_end(&rw->w);
	key(rw, "redacted");
	lk_jsonw_array(&rw->w);
	for (size_t i = 0; i < names.nr; i++)
		lk_jsonw_str(&rw->w, names.items[i]);
	lk_jsonw_end(&rw->w);
	lk_jsonw_end(&rw->w);
	lk_strvec_release(&names);
}

/*
 * The record, member by member, in six runs: those that do not depend on
 * how the link ends (head, body, view_and_env) can be written while it
 * runs (lk_record_prerender), the others after it. Written one after the
 * other into one writer, they are the record.
 */
static void write_head(struct rwriter *rw, const struct lk_record_draft *rec)
{
	lk_jsonw_object(&rw->w);
	key_str(rw, "schema", LK_RECORD_SCHEMA);
	key_str(rw, "id", rec->id);
	key(rw, "tool");
	lk_jsonw_object(&rw->w);
	key_str(rw, "name", "linkscope-cc");
	key_str(rw, "version", rec->tool_version);
	lk_jsonw_end(&rw->w);
}

static void write_when(struct rwriter *rw, const struct lk_record_draft *rec, const char *when)
{
	key(rw, "time");
	write_time(rw, rec, when);
}

static void write_body(struct rwriter *rw, const struct lk_record_draft *rec)
{
	key(rw, "host");
	lk_jsonw_object(&rw->w);
	key_str(rw, "os", "linux");
	key_str(rw, "machine", rec->host_machine);
	lk_jsonw_end(&rw->w);
	key(rw, "target");
	lk_jsonw_object(&rw->w);
	key_str(rw, "triple", rec->target);
	key_str(rw, "source", rec->target_source);
	lk_jsonw_end(&rw->w);
	key_str(rw, "cwd", rec->cwd);
	key_str(rw, "mode", rec->mode);
	key(rw, "driver");
	lk_jsonw_object(&rw->w);
	key_str(rw, "given", rec->driver_given);
	key_str(rw, "source", rec->driver_source);
	key_str(rw, "resolved", rec->driver_resolved);
	key_str(rw, "real", rec->driver_real);
	lk_jsonw_end(&rw->w);
	key(rw, "argv");
	strvec(rw, rec->argv, rec->argc);
	write_args(rw, rec);
	key(rw, "provenance");
	write_provenance(rw, rec);
	key(rw, "caller");
	write_caller(rw, rec);
	key(rw, "line");
	write_line(rw, rec);
	key(rw, "linker");
	write_linker(rw, rec);
	key(rw, "inputs");
	write_inputs(rw, rec);
	key(rw, "kept");
	write_kept(rw, rec);
}

static void write_outcome(struct rwriter *rw, const struct lk_record_draft *rec)
{
	key(rw, "result");
	write_result(rw, rec);
	key(rw, "stderr");
	write_stderr(rw, rec);
}

static void write_view_and_env(struct rwriter *rw, const struct lk_record_draft *rec)
{
	key(rw, "expansion");
	write_expansion(rw, rec);
	key(rw, "env");
	write_env(rw, rec);
	key_str(rw, "reproducer", rec->reproducer);
}

static void write_tail(struct rwriter *rw, const struct lk_record_draft *rec)
{
	key(rw, "warnings");
	strvec(rw, (const char *const *)rec->warnings.items, rec->warnings.nr);
	/* The log is written as it is: it names places, and is not redacted itself. */
	key(rw, "redactions");
	lk_jsonw_array(&rw->w);
	for (size_t i = 0; i < rw->log.nr; i++)
		lk_jsonw_str(&rw->w, rw->log.items[i]);
	lk_jsonw_end(&rw->w);
	lk_jsonw_end(&rw->w);
}

/* The text of a run written ahead, and the redactions it logged, in order. */
static void take_part(struct rwriter *rw, struct lk_record_part *part)
{
	part->text = rw->w.out;
	lk_buf_init(&rw->w.out);
	part->log = rw->log;
	memset(&rw->log, 0, sizeof(rw->log));
}

static void add_part(struct rwriter *rw, const struct lk_record_part *part)
{
	lk_buf_add(&rw->w.out, part->text.buf, part->text.len);
	for (size_t i = 0; i < part->log.nr; i++)
		lk_strvec_push(&rw->log, part->log.items[i]);
}

void lk_record_prerender(const struct lk_record_draft *rec, struct lk_record_parts *parts)
{
	struct rwriter rw = { LK_JSONW_INIT, !rec->no_redaction, { 0 }, LK_BUF_INIT };

	write_head(&rw, rec);
	take_part(&rw, &parts->head);
	write_body(&rw, rec);
	take_part(&rw, &parts->body);
	write_view_and_env(&rw, rec);
	take_part(&rw, &parts->view_and_env);
	lk_buf_release(&rw.scratch);
}

void lk_record_parts_release(struct lk_record_parts *parts)
{
	struct lk_record_part *all[] = { &parts->head, &parts->body, &parts->view_and_env };

	for (size_t i = 0; i < sizeof(all) / sizeof(*all); i++) {
		lk_buf_release(&all[i]->text);
		lk_strvec_release(&all[i]->log);
	}
}

static void write_record(struct rwriter *rw, const struct lk_record_draft *rec, const char *when)
{
	const struct lk_record_parts *pre = rec->prerendered;

	if (pre) {
		/* The top object is open, with members: as write_head leaves the writer. */
		add_part(rw, &pre->head);
		rw->w.depth = 1;
		rw->w.stack[0].count = 1;
	} else {
		write_head(rw, rec);
	}
	write_when(rw, rec, when);
	if (pre)
		add_part(rw, &pre->body);
	else
		write_body(rw, rec);
	write_outcome(rw, rec);
	if (pre)
		add_part(rw, &pre->view_and_env);
	else
		write_view_and_env(rw, rec);
	write_tail(rw, rec);
}

char *lk_record_text(const struct lk_record_draft *rec, size_t *len, struct lk_record_written *as)
{
	struct rwriter rw = { LK_JSONW_INIT, !rec->no_redaction, { 0 }, LK_BUF_INIT };
	char when[64];

	format_time(rec->start_ns, when, sizeof(when));
	write_record(&rw, rec, when);
	lk_buf_addch(&rw.w.out, '\n');
	if (as) {
		as->start = lk_xstrdup(when);
		as->caller = rec->caller && rec->caller->is_rustc ? lk_xstrdup("rustc") :
			     as_written(&rw, rec->caller_name);
		as->driver = rec->args->nr ? as_written(&rw, rec->args->items[0].text) : NULL;
		as->output = as_written(&rw, rec->info->output_path);
	}
	lk_strvec_release(&rw.log);
	lk_buf_release(&rw.scratch);
	*len = rw.w.out.len;
	return lk_buf_detach(&rw.w.out);
}

void lk_record_written_release(struct lk_record_written *as)
{
	free(as->start);
	free(as->caller);
	free(as->driver);
	free(as->output);
	memset(as, 0, sizeof(*as));
}

static void record_names(const struct lk_record_draft *rec, const char *dir, struct lk_buf *tmp,
			 struct lk_buf *final)
{
	lk_buf_addf(tmp, "%s/.%s.json.tmp", dir, rec->id);
	if (final)
		lk_buf_addf(final, "%s/%s.json", dir, rec->id);
}

void lk_record_open_early(const struct lk_record_draft *rec, const char *dir,
			  struct lk_record_early *early)
{
	struct lk_buf path = LK_BUF_INIT;
	struct lk_err err = LK_ERR_INIT;

	record_names(rec, dir, &path, NULL);
	early->fd = lk_file_create_new(path.buf, &err);
	lk_buf_reset(&path);
	lk_buf_addf(&path, "%s/%s", dir, LK_INDEX_NAME);
	early->index_fd = lk_index_open_append(AT_FDCWD, path.buf);
	lk_buf_release(&path);
}

int lk_record_write(const struct lk_record_draft *rec, const char *dir,
		    struct lk_record_early *early, char **path_out, struct lk_err *err)
{
	struct lk_buf tmp = LK_BUF_INIT, final = LK_BUF_INIT;
	struct lk_record_written as;
	struct stat st;
	size_t len;
	char *text = lk_record_text(rec, &len, &as);
	int rc = -1, fd = early ? early->fd : -1, index_fd = early ? early->index_fd : -1;

	record_names(rec, dir, &tmp, &final);
	/* A prune takes a temp file over 10 minutes old for a dead writer's: after a long link, make it again. */
	if (fd >= 0 && (fstat(fd, &st) < 0 || st.st_nlink == 0)) {
		close(fd);
		fd = -1;
	}
	/* Private whatever the umask: a record may name private paths and hold a private stderr. */
	if (fd < 0)
		fd = lk_file_create_new(tmp.buf, err);
	/* A prune that rewrote the index meanwhile renamed a new one over ours: append to that one. */
	if (index_fd >= 0 && (fstat(index_fd, &st) < 0 || st.st_nlink == 0)) {
		close(index_fd);
		index_fd = -1;
	}
	if (fd >= 0 && lk_file_finish_new(fd, tmp.buf, final.buf, text, len, err) == 0) {
		lk_record_index_append(rec, &as, dir, len, index_fd);
		*path_out = lk_buf_detach(&final);
		rc = 0;
	}
	if (index_fd >= 0)
		close(index_fd);
	free(text);
	lk_record_written_release(&as);
	lk_buf_release(&tmp);
	lk_buf_release(&final);
	return rc;
}
