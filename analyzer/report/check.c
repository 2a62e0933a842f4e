/*
 * Facts -> a verdict for CI (see check.h). The output is a function of the
 * two records' replays only (no time, no machine state beyond the inputs),
 * in a fixed order, so two runs over the same records print the same bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "check.h"
#include "color.h"
#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/json.h"
#include "linkscope/suggest.h"
#include "linkscope/vec.h"
#include "md.h"
#include "report.h"

struct verdict {
	int predicted;			/* the link succeeds under its own linker's rules, and every --linkers one's */
	unsigned required;		/* 1 << enum lk_linker: its own linker and the --linkers ones */
	size_t errors, warnings, accepted, portability;
	struct lk_strvec drift;		/* one sentence each */
};

static const char *outcome(int ok)
{
	return ok ? "links" : "fails";
}

/* The linker a fails-with-* fact is about, or -1. */
static int fact_linker(enum lk_fact_kind kind)
{
	switch (kind) {
	case LK_FACT_FAILS_WITH_GNU_LD: return LK_LINKER_BFD;
	case LK_FACT_FAILS_WITH_LLD: return LK_LINKER_LLD;
	case LK_FACT_FAILS_WITH_MOLD: return LK_LINKER_MOLD;
	default: return -1;
	}
}

/* A portability fact about a linker that must link is an error. */
static enum lk_severity severity(const struct lk_fact *f, unsigned required)
{
	int l = fact_linker(f->kind);

	return l >= 0 && (required & (1u << l)) ? LK_SEV_ERROR : lk_fact_severity(f->kind);
}

int lk_check_parse_linkers(const char *list, unsigned *required, struct lk_err *err)
{
	struct lk_buf word = LK_BUF_INIT;
	int rc = 0;

	for (const char *p = list; rc == 0; p++) {
		if (*p && *p != ',') {
			lk_buf_addch(&word, *p);
			continue;
		}
		if (word.len) {
			int l = lk_linker_by_name(word.buf);

			if (l < 0)
				rc = lk_err_set(err, LK_E_USAGE, "--linkers: unknown linker '%.100s' (bfd, lld, mold)", word.buf);
			else
				*required |= 1u << l;
		}
		lk_buf_reset(&word);
		if (!*p)
			break;
	}
	lk_buf_release(&word);
	return rc;
}

/* The linkers a check says, its line's own first (the one that decides), then the others in enum order. */
static void linker_order(const char *flavor, enum lk_linker order[LK_LINKER_COUNT])
{
	enum lk_linker own = lk_linker_of_flavor(flavor);
	int k = 0;

	order[k++] = own;
	for (int l = 0; l < LK_LINKER_COUNT; l++)
		if ((enum lk_linker)l != own)
			order[k++] = (enum lk_linker)l;
}

static const char *rules_name(enum lk_linker l)
{
	return l == LK_LINKER_BFD ? "GNU ld" : lk_linker_name(l);
}

/* "links under lld's rules (its linker), fails under GNU ld's, links under mold's". */
static void outcomes_text(const struct lk_check_side *side, struct lk_buf *b)
{
	enum lk_linker order[LK_LINKER_COUNT];

	linker_order(side->flavor, order);
	lk_buf_addf(b, "%s under %s's rules (its linker: %s)", outcome(side->facts->linkers[order[0]]),
		    rules_name(order[0]), side->flavor);
	for (int k = 1; k < LK_LINKER_COUNT; k++)
		lk_buf_addf(b, ", %s under %s's", outcome(side->facts->linkers[order[k]]), rules_name(order[k]));
}

/*
 * {"lld": "success", "gnu_ld": "failure", "mold": ...}: the line's own
 * linker first; every one "unknown" when the outcome is (then the replay
 * predicted nothing, and a "failure" would be a false alarm).
 */
static json_t *outcome_json(const struct lk_check_side *side)
{
	enum lk_linker order[LK_LINKER_COUNT];
	json_t *o = json_object();

	linker_order(side->flavor, order);
	for (int k = 0; k < LK_LINKER_COUNT; k++)
		json_object_set_new(o, order[k] == LK_LINKER_BFD ? "gnu_ld" : lk_linker_name(order[k]),
				    json_string(side->facts->unknown ? "unknown" :
						side->facts->linkers[order[k]] ? "success" : "failure"));
	return o;
}


/* "kind:symbol" matches the fact's key, or "kind:*" its kind. */
static int accepted(const struct lk_fact *f, const struct lk_strvec *accept)
{
	char *key = lk_fact_key(f);
	const char *kind = lk_fact_kind_name(f->kind);
	int hit = 0;

	for (size_t i = 0; i < accept->nr && !hit; i++) {
		const char *a = accept->items[i];
		size_t n = strlen(kind);

		hit = !strcmp(a, key) || (!strncmp(a, kind, n) && !strcmp(a + n, ":*")) ||
		      (!strncmp(a, kind, n) && a[n] == ':' && !strcmp(a + n + 1, f->subject));
	}
	free(key);
	return hit;
}

/*
 * An --accept that names a fact this link does not have (a typo, or a fact
 * fixed since) accepts nothing: said on stderr, with the nearest key of the
 * link when one is near, so that a stale accept list does not hide silently.
 * KIND:* is a policy, not a fact: never said.
 */
static void say_unmatched_accepts(const struct lk_check_side *cur, const struct lk_strvec *accept)
{
	const struct lk_facts *f = cur->facts;

	for (size_t i = 0; i < accept->nr; i++) {
		char *one[] = { accept->items[i], NULL };
		const struct lk_strvec just_it = { one, 1, 1 };
		const char *a = accept->items[i];
		struct lk_strvec keys = LK_STRVEC_INIT;
		struct lk_suggest s;
		int hit = 0;

		if (!strcmp(a + strcspn(a, ":"), ":*"))
			continue;
		lk_suggest_init(&s, a);
		for (size_t k = 0; k < f->nr && !hit; k++) {
			hit = accepted(&f->items[k], &just_it);
			lk_strvec_push_owned(&keys, lk_fact_key(&f->items[k]));
			lk_suggest_add(&s, keys.items[keys.nr - 1]);
		}
		if (!hit) {
			fprintf(stderr, "linkscope: note: --accept '%s' matches no fact of %s", a,
				cur->path ? cur->path : "the link");
			if (lk_suggest_best(&s))
				fprintf(stderr, "; did you mean '%s'?", lk_suggest_best(&s));
			fputc('\n', stderr);
		}
		lk_strvec_release(&keys);
	}
}

static int has_key(const struct lk_facts *facts, const char *key)
{
	int found = 0;

	for (size_t i = 0; i < facts->nr && !found; i++) {
		char *k = lk_fact_key(&facts->items[i]);

		found = !strcmp(k, key);
		free(k);
	}
	return found;
}

static void judge(struct lk_check_side *cur, const struct lk_check_side *base,
		  const struct lk_check_options *opt, struct verdict *v)
{
	struct lk_facts *f = cur->facts;
	struct lk_buf b = LK_BUF_INIT;
	enum lk_linker order[LK_LINKER_COUNT];

	memset(v, 0, sizeof(*v));
	v->required = opt->required | 1u << lk_linker_of_flavor(cur->flavor);
	v->predicted = 1;
	for (int l = 0; l < LK_LINKER_COUNT; l++)
		if (v->required & (1u << l))
			v->predicted &= f->linkers[l] != 0;
	if (f->unknown) {
		/* An honest "unknown", not a false alarm: no verdict, no drift. */
		v->predicted = 1;
		return;
	}
	for (size_t i = 0; i < f->nr; i++) {
		enum lk_severity sev = severity(&f->items[i], v->required);

		f->items[i].accepted = accepted(&f->items[i], &opt->accept);
		if (f->items[i].accepted)
			v->accepted++;
		else if (sev == LK_SEV_ERROR)
			v->errors++;
		else if (sev == LK_SEV_WARNING)
			v->warnings++;
		else if (sev == LK_SEV_PORTABILITY)
			v->portability++;
	}
	say_unmatched_accepts(cur, &opt->accept);
	if (!base || base->facts->unknown)
		return;
	linker_order(cur->flavor, order);
	for (int k = 0; k < LK_LINKER_COUNT; k++) {
		enum lk_linker l = order[k];

		if (base->facts->linkers[l] == f->linkers[l])
			continue;
		lk_buf_addf(&b, "the outcome under %s's rules changed: the baseline %s, this line %s",
			    rules_name(l), outcome(base->facts->linkers[l]), outcome(f->linkers[l]));
		lk_strvec_push_owned(&v->drift, lk_buf_detach(&b));
	}
	for (size_t i = 0; i < f->nr; i++) {
		char *key = lk_fact_key(&f->items[i]);

		/* A redundant -lc is nothing the link rests on; every other fact is. */
		if (f->items[i].kind != LK_FACT_LC_REDUNDANT && !f->items[i].accepted &&
		    !has_key(base->facts, key)) {
			lk_buf_addf(&b, "newly load bearing: %s (%s)", key, f->items[i].text);
			lk_strvec_push_owned(&v->drift, lk_buf_detach(&b));
		}
		free(key);
	}
	lk_buf_release(&b);
}

static const char *result_word(const struct lk_facts *f, const struct verdict *v)
{
	if (f->unknown)
		return "unknown";
	if (!v->predicted)
		return "fails";
	if (v->errors || v->warnings)
		return "by-accident";
	if (v->drift.nr)
		return "drifted";
	return "ok";
}

static void print_text(FILE *out, const struct lk_check_side *cur, const struct lk_check_side *base,
		       const struct verdict *v, const struct lk_color *c)
{
	const struct lk_facts *f = cur->facts;
	struct lk_buf b = LK_BUF_INIT;
	const char *word = result_word(cur->facts, v);

	if (f->unknown) {
		fprintf(out, "check of %s: the outcome is unknown (its linker: %s)\n", cur->path, cur->flavor);
	} else {
		outcomes_text(cur, &b);
		fprintf(out, "check of %s: %s\n", cur->path, b.buf);
		lk_buf_reset(&b);
	}
	for (size_t i = 0; i < f->nr; i++) {
		const struct lk_fact *x = &f->items[i];
		char *key = lk_fact_key(x);

		fprintf(out, "  %-8s %s\n           %s\n", x->accepted ? "accepted" : lk_severity_name(severity(x, v->required)),
			key, x->text);
		if (x->replay)
			fprintf(out, "           %s\n", x->replay);
		free(key);
	}
	if (base) {
		outcomes_text(base, &b);
		fprintf(out, "baseline %s: %s\n", base->path, b.buf);
	}
	lk_buf_release(&b);
	for (size_t i = 0; i < v->drift.nr; i++)
		fprintf(out, "  drift    %s\n", v->drift.items[i]);
	fprintf(out, "result: %s%s%s (%zu error%s, %zu warning%s, %zu accepted",
		lk_color(c, !strcmp(word, "ok") ? LK_C_GREEN : !strcmp(word, "unknown") ? LK_C_YELLOW : LK_C_RED), word,
		lk_color(c, LK_C_RESET),
		v->errors, v->errors == 1 ? "" : "s", v->warnings, v->warnings == 1 ? "" : "s", v->accepted);
	if (v->portability)
		fprintf(out, ", %zu portability", v->portability);
	if (base)
		fprintf(out, ", %zu drift", v->drift.nr);
	fprintf(out, ")\n");
	if (!v->predicted)
		fprintf(out, "the link fails under the rules of its own linker (%s) or of one --linkers names: see linkscope explain\n", cur->flavor);
	if (f->unknown)
		fprintf(out, "unknown: %s\n", f->unknown);
}

static void print_markdown(FILE *out, const struct lk_check_side *cur, const struct lk_check_side *base,
			   const struct verdict *v)
{
	const struct lk_facts *f = cur->facts;
	struct lk_buf b = LK_BUF_INIT;

	if (f->unknown)
		lk_buf_addf(&b, "the outcome is unknown (its linker: %s): %s", cur->flavor, f->unknown);
	else
		outcomes_text(cur, &b);
	/* Every name from the record in a code span or escaped (md.h). */
	fprintf(out, "## linkscope check: %s\n\n", result_word(cur->facts, v));
	lk_md_code(out, cur->path, 0);
	fputs(": ", out);
	lk_md_text(out, b.buf, 0);
	fputs(".\n", out);
	lk_buf_reset(&b);
	if (f->nr)
		fprintf(out, "\n| severity | fact | what the success rests on | checked by replay |\n|---|---|---|---|\n");
	for (size_t i = 0; i < f->nr; i++) {
		const struct lk_fact *x = &f->items[i];
		char *key = lk_fact_key(x);

		fprintf(out, "| %s | ", x->accepted ? "accepted" : lk_severity_name(severity(x, v->required)));
		lk_md_code(out, key, LK_MD_CELL);
		fputs(" | ", out);
		lk_report_md_cell(out, x->text);
		fputs(" | ", out);
		lk_report_md_cell(out, x->replay);
		fputs(" |\n", out);
		free(key);
	}
	if (base) {
		outcomes_text(base, &b);
		fputs("\nBaseline ", out);
		lk_md_code(out, base->path, 0);
		fputs(": ", out);
		lk_md_text(out, b.buf, 0);
		fputs(".\n", out);
	}
	lk_buf_release(&b);
	for (size_t i = 0; i < v->drift.nr; i++) {
		fprintf(out, "%s- **drift:** ", i ? "" : "\n");
		lk_md_text(out, v->drift.items[i], 0);
		fputc('\n', out);
	}
}

static json_t *required_json(unsigned required)
{
	json_t *a = json_array();

	for (int l = 0; l < LK_LINKER_COUNT; l++)
		if (required & (1u << l))
			json_array_append_new(a, json_string(lk_linker_name((enum lk_linker)l)));
	return a;
}

static int print_json(FILE *out, const struct lk_check_side *cur, const struct lk_check_side *base,
		      const struct verdict *v, int status)
{
	json_t *facts = json_array(), *drift = json_array(), *root;
	const struct lk_facts *f = cur->facts;
	int rc;

	for (size_t i = 0; i < f->nr; i++) {
		const struct lk_fact *x = &f->items[i];
		char *key = lk_fact_key(x);

		json_array_append_new(facts, json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:b, s:b}", "kind",
						       lk_fact_kind_name(x->kind), "severity",
						       lk_severity_name(severity(x, v->required)), "subject", lk_json_str(x->subject),
						       "key", lk_json_str(key), "text", lk_json_str(x->text), "replay", lk_json_str(x->replay),
						       "verified", x->verified, "accepted", x->accepted));
		free(key);
	}
	for (size_t i = 0; i < v->drift.nr; i++)
		json_array_append_new(drift, lk_json_str(v->drift.items[i]));
	root = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:s, s:i, s:o}", "schema", "linkscope-check/1",
			 "record", lk_json_str(cur->path), "baseline", lk_json_str(base ? base->path : NULL),
			 "linker", lk_json_str(cur->flavor), "outcome", outcome_json(cur),
			 "baseline_outcome", base ? outcome_json(base) : json_null(),
			 "required_linkers", required_json(v->required),
			 "facts", facts, "drift", drift, "result", result_word(cur->facts, v), "exit_status", status,
			 "unknown", lk_json_str(f->unknown));
	rc = json_dumpf(root, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
	return rc;
}

int lk_check_print(FILE *out, struct lk_check_side *cur, const struct lk_check_side *base,
		   const struct lk_check_options *opt)
{
	struct verdict v;
	int status;

	judge(cur, base, opt, &v);
	status = !v.predicted || v.errors || v.warnings || v.drift.nr ? 1 : 0;
	if (!strcmp(opt->format, "json"))
		print_json(out, cur, base, &v, status);
	else if (!strcmp(opt->format, "markdown"))
		print_markdown(out, cur, base, &v);
	else
		print_text(out, cur, base, &v, &(struct lk_color){ opt->color });
	lk_strvec_release(&v.drift);
	return status;
}

int lk_check_parse_accept(char *text, const char *path, struct lk_strvec *accept, struct lk_err *err)
{
	char *line, *next;

	for (line = text; line && *line; line = next) {
		char *end;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		while (*line == ' ' || *line == '\t')
			line++;
		end = line + strlen(line);
		while (end > line && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
			*--end = '\0';
		if (!*line || *line == '#')
			continue;
		if (!strchr(line, ':'))
			return lk_err_set(err, LK_E_FORMAT, "'%s': '%.200s' is not KIND:SYMBOL", path, line);
		lk_strvec_push(accept, line);
	}
	return 0;
}

int lk_check_accept_known(const struct lk_strvec *accept, struct lk_err *err)
{
	for (size_t i = 0; i < accept->nr; i++) {
		const char *a = accept->items[i];
		size_t n = strcspn(a, ":");
		struct lk_buf known = LK_BUF_INIT;
		int found = 0;

		for (int k = 0; k < LK_FACT_KINDS; k++) {
			const char *name = lk_fact_kind_name((enum lk_fact_kind)k);

			found |= strlen(name) == n && !strncmp(a, name, n);
			lk_buf_addf(&known, "%s%s", k ? ", " : "", name);
		}
		if (!found || !a[n] || !a[n + 1]) {
			lk_err_set(err, LK_E_USAGE, "--accept '%.200s': %s; the kinds are %s", a,
				   found ? "no SYMBOL after KIND: (KIND:* accepts all of a kind)" : "unknown KIND",
				   known.buf);
			lk_buf_release(&known);
			return -1;
		}
		lk_buf_release(&known);
	}
	return 0;
}

int lk_check_read_accept_file(const char *path, struct lk_strvec *accept, struct lk_err *err)
{
	struct lk_buf text = LK_BUF_INIT;
	int rc;

	if (lk_buf_read_file(&text, path, 1 << 20) < 0) {
		lk_buf_release(&text);
		return lk_err_errno(err, "cannot read accept file '%s'", path);
	}
	rc = lk_check_parse_accept(text.buf, path, accept, err);
	lk_buf_release(&text);
	return rc;
}
