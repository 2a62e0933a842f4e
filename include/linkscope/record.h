/*
 * The record: one JSON file per link (schema "linkscope-record/1", see
 * docs/record-format.md and docs/record.schema.json), with jansson: the
 * shim writes records with it, the analyzer reads them with it. One prefix,
 * lk_record_: struct lk_record_draft is what the shim fills in while the
 * link runs and writes; struct lk_record is a record read back.
 */
#ifndef LINKSCOPE_RECORD_H
#define LINKSCOPE_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "linkscope/argv.h"
#include "linkscope/buf.h"
#include "linkscope/env.h"
#include "linkscope/err.h"
#include "linkscope/expansion.h"
#include "linkscope/rsp.h"
#include "linkscope/rustc.h"
#include "linkscope/strvec.h"

#define LK_RECORD_SCHEMA "linkscope-record/1"
#define LK_RECORD_SCHEMA_NAME "linkscope-record"
#define LK_RECORD_SCHEMA_VERSION 1

/* A file's fingerprint: enough to tell later whether it changed. */
struct lk_record_file {
	char *path;		/* owned */
	int exists;
	int64_t size;
	int64_t mtime_ns;
};

/* One input of the line: a file, or a -l with the files it may resolve to. */
struct lk_record_input {
	size_t index;
	const char *kind;	/* lk_input_kind_name(), or "library" */
	const char *name;	/* the -l name (borrowed from lk_argv_info), or NULL */
	size_t name_len;
	struct lk_record_file file;	/* for files */
	struct { struct lk_record_file *items; size_t nr, alloc; } candidates;
};

/* A copy of an input kept with the record because the original will not survive. */
struct lk_record_copy {
	char *path;		/* owned; the original's path as named on the line */
	char sha256[65];
	int64_t size;
	const char *reason;	/* static: "rustc-temp", "response-file", "source" */
};

/* A run of the record's text written ahead, and the redactions it logged. */
struct lk_record_part {
	struct lk_buf text;
	struct lk_strvec log;
};

/* What lk_record_prerender writes while the link runs. */
struct lk_record_parts {
	struct lk_record_part head;		/* schema, id, tool */
	struct lk_record_part body;		/* host ... kept */
	struct lk_record_part view_and_env;	/* expansion, env, reproducer */
};

/* The record of the link under way: what the shim fills in, then writes. */
struct lk_record_draft {
	char *id;			/* owned; also the file name without ".json" */
	int64_t start_ns;		/* CLOCK_REALTIME */
	int64_t duration_ns;
	const char *tool_version;
	char *cwd;			/* owned */
	const char *mode;		/* "linker", "launcher" or "alias" */
	const char *driver_given;	/* borrowed */
	const char *driver_source;	/* "LINKSCOPE_LINKER", "default", ... */
	char *driver_resolved;		/* owned; NULL if not found */
	char *driver_real;		/* owned; realpath of the resolved driver */
	char host_machine[65];		/* uname -m */
	const char *target;		/* borrowed; NULL when unknown */
	const char *target_source;

	const char *const *argv;	/* the driver argv as received */
	size_t argc;
	const struct lk_args *args;	/* after response-file expansion */
	const struct lk_rspfiles *rspfiles;
	const struct lk_argv_info *info;
	const struct lk_provenance *prov;
	const struct lk_rustc_caller *caller;
	char *caller_name;		/* owned; the parent's comm, or NULL */
	const struct lk_envvars *env;

	const char *linker_flavor;	/* "bfd", "gold", "lld", "mold", "default", "other" */
	char *linker_program;		/* owned; the program the driver runs, or NULL */
	const char *linker_program_source;
	char *linker_version;		/* owned; its first --version line, or NULL */
	const char *linker_identified_by;	/* "--version" when the flavor is the program's own */

	struct { struct lk_record_input *items; size_t nr, alloc; } inputs;
	struct { struct lk_record_copy *items; size_t nr, alloc; } kept;

	int ran;			/* the driver was started */
	int exit_status;		/* when it exited */
	int signal;			/* when it was killed, else 0 */
	int shim_exit;			/* what the shim returns */
	char *spawn_error;		/* owned; why it could not start */

	const char *stderr_text;	/* borrowed; head, marker, tail */
	size_t stderr_len;
	uint64_t stderr_bytes;		/* all the driver wrote */
	int stderr_truncated;

	struct lk_expansion expansion;
	char *reproducer;		/* owned; path asked of lld/mold */
	struct lk_strvec warnings;
	int no_redaction;		/* LINKSCOPE_REDACT=0: every string as it was */
	/* borrowed; NULL, or the runs lk_record_prerender wrote of this draft, still true of it */
	const struct lk_record_parts *prerendered;
};

/*
 * Where records live: `dir_env` (LINKSCOPE_DIR) when set, else
 * $XDG_STATE_HOME/linkscope, ~/.local/state/linkscope, /tmp/linkscope-UID.
 * Returns a malloc'd path.
 */
char *lk_record_dir(const char *dir_env);

/*
 * gmtime_r's date and time of day (year, mon, mday, hour, min, sec; the
 * rest 0) without its tzset: glibc's first gmtime_r reads /etc/localtime,
 * on every link, for times that are UTC anyway.
 */
struct tm;
void lk_record_utc(int64_t secs, struct tm *tm);

/*
 * Write ahead the runs of the record's text that do not depend on how the
 * link ends: schema to tool; host to kept; expansion, env and reproducer.
 * With rec->prerendered pointing at them, lk_record_text writes only the
 * rest (time, result, stderr, warnings, redactions) and the text is what
 * it would be without: the caller must not change what those runs show
 * (the view, the inputs, the copies, ...) after this.
 */
void lk_record_prerender(const struct lk_record_draft *rec, struct lk_record_parts *parts);
void lk_record_parts_release(struct lk_record_parts *parts);

/* Free what the record owns (not what it borrows). */
void lk_record_draft_release(struct lk_record_draft *rec);
/* rec->inputs and their candidates, freed and emptied (the shim fingerprints them again). */
void lk_record_inputs_release(struct lk_record_draft *rec);
/* `path`'s fingerprint into `f`; its stat(2) into `st` too when `st` is not NULL and it exists. */
struct stat;
void lk_record_file_stat(struct lk_record_file *f, const char *path, struct stat *st);

/*
 * What the shim opens while the link runs, so that what is left after it
 * is a write, a rename and a write: the record's temporary file, empty
 * (on a VM the create is the dearest of the file system calls after a
 * wait), and the directory's index, opened for appending. Each is -1 when
 * it cannot be opened; lk_record_write then opens it itself (and says why
 * the record cannot be written).
 */
struct lk_record_early {
	int fd;			/* the record's temporary file */
	int index_fd;		/* the index (recindex.h, lk_index_open_append) */
};

/* Open both for `rec` (rec->id set) in `dir`. */
void lk_record_open_early(const struct lk_record_draft *rec, const char *dir,
			  struct lk_record_early *early);

/*
 * Serialize `rec` and write it as <dir>/<rec->id>.json atomically: a
 * temporary file in `dir`, then rename(2), so readers and parallel writers
 * never see a partial record; then its line in the directory's index
 * (recindex.h), appended in one write. `early` is what
 * lk_record_open_early opened, or NULL; its fds are closed. Returns 0 and
 * the final path in *path_out (malloc'd), or -1 with `err` filled.
 */
int lk_record_write(const struct lk_record_draft *rec, const char *dir,
		    struct lk_record_early *early, char **path_out, struct lk_err *err);

/*
 * Redact the record `root` (read back) in place, as lk_record_write does unless
 * rec->no_redaction (docs/security.md): an allow-listed variable whose
 * name says a secret is replaced whole, then every string (argv,
 * argv_expanded, group contents, the -### commands, stderr, the caller's
 * argv and link_args, paths, env values) goes through lk_env_redact.
 * Sets "redactions" to the JSON path of each string changed and
 * "env.redacted" to the names of the variables changed.
 */
struct json_t;
void lk_record_redact(struct json_t *root);

/*
 * What the record says of itself that its index line repeats, as written
 * (redacted as the record is): list's fields. Owned.
 */
struct lk_record_written {
	char *start;		/* time.start */
	char *caller;		/* "rustc", the caller's name, or NULL */
	char *driver;		/* argv_expanded[0], or NULL */
	char *output;		/* line.output, or NULL */
};

void lk_record_written_release(struct lk_record_written *as);

/*
 * The record's text (what lk_record_write writes), malloc'd, its length
 * in *len; and, when `as` is not NULL, what the index repeats of it.
 */
char *lk_record_text(const struct lk_record_draft *rec, size_t *len, struct lk_record_written *as);

/*
 * After lk_record_write's rename: the line of the record (as written,
 * `bytes` long) appended to DIR's index in one write (recindex.h), through
 * `index_fd` when it is not -1 (lk_record_open_early's; not closed here).
 * Nothing is said when it cannot be: the record is the truth, and readers
 * add a line the index lacks.
 */
void lk_record_index_append(const struct lk_record_draft *rec, const struct lk_record_written *as,
			    const char *dir, size_t bytes, int index_fd);

/* A record read back in full, for the analyzer. Everything is owned. */
struct lk_record_kept {
	char *path;
	char *blob;		/* relative to the record's directory */
	char *reason;		/* "source", "source-object", ... or NULL */
};

/* An input's fingerprint at link time, as the shim took it right after the link. */
struct lk_record_seen {
	long index;		/* driver argv position */
	int existed;		/* the file, or for a -l one of its candidates, was there */
	char *path;		/* the file (a -l: its first existing candidate), or NULL */
	int64_t size, mtime_ns;	/* of `path` */
};

struct lk_record {
	char *path;		/* the record file */
	char *dir;		/* its directory (where blobs/ is) */
	char *id;
	char *start;		/* ISO 8601 UTC */
	int64_t start_ns;
	char *cwd;
	char *mode;
	char *caller_name;	/* "rustc", the parent's name, or NULL */
	struct lk_strvec caller_argv;	/* rustc's argv, when the caller is rustc */
	struct lk_strvec caller_link_args;	/* ... and its -C link-arg(s) values */
	char *build_output;	/* the package's build-script output file (caller.build_script), or NULL */
	struct lk_strvec build_directives;	/* ... and its link directives, "KEY=VALUE" */
	char *output;		/* -o, or NULL */
	char *driver_given;
	char *driver_resolved;
	char *target;
	struct lk_args args;		/* argv_expanded with origins */
	struct lk_strvec rspfiles;	/* response file paths, by index */
	enum lk_prov *prov;		/* one per argument */
	char *prov_method;
	long link_args_start, link_args_end;
	int caller_is_rustc;
	char *linker_flavor;
	char *linker_program;
	char *linker_version;
	char *print_prog_name;
	char *reproducer;	/* lld's or mold's reproducer (LINKSCOPE_REPRODUCE=1), as recorded, or NULL */
	int has_expansion;
	struct lk_strvec linker_argv;	/* the driver's collect2/ld command, if expanded */
	char *library_path;
	int has_exit, exit_status, signal;
	char *stderr_text;
	struct { struct lk_record_kept *items; size_t nr, alloc; } kept;
	struct { struct lk_record_seen *items; size_t nr, alloc; } seen;
	struct lk_envvars env;
	char *unpacked;		/* a bundle's record: the private dir it was unpacked into (dir is in it), removed by lk_record_release; else NULL */
};

/* A record file larger than this is not read (a record of the LLVM line is about 1 MiB). */
#define LK_RECORD_MAX_BYTES ((size_t)256 << 20)

/*
 * Read a record in full, only from a regular file (a FIFO named like a
 * record fails at once). Fails, naming the file, for unreadable or
 * malformed JSON, another or a newer schema, and missing or mistyped
 * fields. Release with lk_record_release().
 */
int lk_record_load(const char *path, struct lk_record *out, struct lk_err *err);

/* The same, the file named `name` in what it says (a bundle's record.json, not the private dir's file). */
int lk_record_load_as(const char *path, const char *name, struct lk_record *out, struct lk_err *err);
void lk_record_release(struct lk_record *rec);
/* The value of an environment variable as recorded, or NULL. */
const char *lk_record_env(const struct lk_record *rec, const char *name);

/*
 * A record's line in the directory's index, but for its name, mtime, size
 * and blobs (the caller's: it knows the file): list's fields, owned by `e`.
 */
struct lk_index_entry;
void lk_record_index_entry(const struct lk_record *rec, struct lk_index_entry *e);

/* Copy of `s` as valid UTF-8, invalid bytes replaced by U+FFFD. Exposed for tests. */
char *lk_record_utf8_lossy(const char *s, size_t len);

#endif
