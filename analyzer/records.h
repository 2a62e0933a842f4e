/*
 * RECORD as the commands open it (records.c): a record file, a bundle, an
 * id, last, -; its kept copies checked; its line model built; a second
 * load for whatif; and a bundle's copies named in the outputs as the link
 * named the files.
 */
#ifndef ANALYZER_RECORDS_H
#define ANALYZER_RECORDS_H

#include <stdio.h>

#include "cli.h"
#include "line.h"
#include "linkscope/buf.h"
#include "linkscope/record.h"
#include "linkscope/strvec.h"

/* Keep from `rec` only the kept copies that are the user's and hold what their names say; why not, said once. */
void lk_records_check_kept(const struct lk_options *opt, struct lk_record *rec, struct lk_strvec *said);
/* RECORD `which` into `rec` (and its file's text into `text` when not NULL); 0, or 1 after saying why. */
int lk_records_open(const struct lk_options *opt, const char *which, struct lk_record *rec, struct lk_buf *text);
/* The line model of a loaded record; 0, or 1 after saying why (the record released). */
int lk_records_build_line(const struct lk_options *opt, struct lk_record *rec, struct lk_line *line);
/* Both: RECORD `which` (opt->record for load_line) and its line model. */
int lk_records_load_line_of(const struct lk_options *opt, const char *which, struct lk_record *rec,
			    struct lk_line *line);
int lk_records_load_line(const struct lk_options *opt, struct lk_record *rec, struct lk_line *line);
/* RECORD into `rec` and again into `again` (whatif's prediction's record); 0, or 1 after saying why. */
int lk_records_load_twice(const struct lk_options *opt, const char *which, struct lk_record *rec,
			  struct lk_record *again);
/* Does the command name a bundle as a file (stdin's is not looked at before it is read)? */
int lk_records_name_a_bundle(const struct lk_options *opt);
/* `text` (a command's output about a bundle) to `out`, each copy named as the link named it (opt->shown's pairs). */
void lk_records_put_names_back(FILE *out, const char *text, size_t len, const struct lk_strvec *shown);

#endif
