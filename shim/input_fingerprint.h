/* Fingerprints of a link's inputs (input_fingerprint.c), and whether one may be its output. */
#ifndef SHIM_INPUT_FINGERPRINT_H
#define SHIM_INPUT_FINGERPRINT_H

#include <sys/types.h>

#include "linkscope/argv.h"
#include "linkscope/record.h"

/*
 * The link's output as it was before the link started, to tell whether an
 * input is it (`-o` naming an input, or a -l that finds it): those inputs
 * change under the link, so they are looked at after it.
 */
struct lk_output_before {
	const char *path;	/* as -o gives it (or a.out), borrowed */
	const char *name;	/* its file name, borrowed */
	int exists;
	dev_t dev;
	ino_t ino;
};

/* Before the link: note its output (one stat). `info` outlives `out`. */
void lk_fingerprint_note_output(struct lk_output_before *out, const struct lk_argv_info *info);

/*
 * Fingerprint each input of rec->info into rec->inputs. Returns 1 if an
 * input may be the link's output (see struct lk_output_before), else 0.
 */
int lk_fingerprint_inputs(struct lk_record_draft *rec, const struct lk_output_before *out);

#endif
