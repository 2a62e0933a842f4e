/*
 * The link-wide rules of a GNU ld line that decide which undefined
 * references fail it: output kind, --unresolved-symbols and its
 * shorthands, and section garbage collection with its roots.
 */
#ifndef ANALYZER_POLICY_H
#define ANALYZER_POLICY_H

#include "line.h"
#include "linkscope/strvec.h"

struct lk_policy {
	int report_objects;	/* undefined references from regular objects fail the link */
	int report_shlibs;	/* undefined references of shared objects fail it */
	int warn_unresolved;	/* --warn-unresolved-symbols: both only warn */
	int gc_sections;	/* --gc-sections (the last of it and --no-gc-sections) */
	int export_dynamic;	/* -E / --export-dynamic */
	int static_link;	/* -static (no dynamic sections unless -pie: -static-pie) */
	const char *entry;	/* -e / --entry (borrowed from the line), or "_start" */
	struct lk_strvec roots;	/* -u, --require-defined, --export-dynamic-symbol names: gc roots */
	struct lk_strvec undefined;	/* -u, --undefined, --require-defined: undefined before any input */
	struct lk_strvec required;	/* --require-defined: must be defined at the end */
};

/* Read the rules from `line`'s options, in order, as ld/lexsup.c does. */
void lk_policy_read(const struct lk_line *line, struct lk_policy *p);
void lk_policy_release(struct lk_policy *p);

#endif
