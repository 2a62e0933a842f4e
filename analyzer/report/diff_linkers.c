/*
 * `linkscope diff`: each linker's outcome of the two lines (GNU ld, lld,
 * mold, the replay's verdicts of lk_replay_run), said in the text and, with
 * --json, as the "linkscope-diff/1" object of docs/report-format.md. Which
 * argument decides is diff.c's, under GNU ld's rules.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "diff.h"
#include "linkscope/banned.h"
#include "linkscope/json.h"
#include "replay.h"

struct side {
	const struct lk_record *rec;
	const struct lk_line *line;
	const struct lk_replay *rp;	/* the line's replay: the caller's, or own */
	struct lk_replay own;
	int ran, owned;
};

/* A side of the comparison: `rp` when the caller replayed the line already, else replayed here. */
static void side_open(struct side *s, const struct lk_record *rec, const struct lk_line *line,
		      const struct lk_replay *rp)
{
	struct lk_err err = LK_ERR_INIT;

	memset(s, 0, sizeof(*s));
	s->rec = rec;
	s->line = line;
	if (rp) {
		s->rp = rp;
		s->ran = 1;
		return;
	}
	s->ran = s->owned = lk_replay_run(rec, line, 0, &s->own, &err) == 0;
	s->rp = &s->own;
}

static void side_close(struct side *s)
{
	if (s->owned)
		lk_replay_release(&s->own);
}

/* "success", "failure" or "unknown" for linker l. */
static const char *outcome(const struct side *s, int l)
{
	if (!s->ran || s->line->unknown.nr || s->rp->unknown || s->rp->linkers[l].unknown)
		return "unknown";
	return s->rp->linkers[l].success ? "success" : "failure";
}

static const char *human(const struct side *s, int l)
{
	const char *v = s->ran ? s->rp->linkers[l].version : NULL;

	if (l == LK_LINKER_BFD)
		return "GNU ld";
	return v && !strncmp(v, "rust-lld", 8) ? "rust-lld" : lk_linker_name((enum lk_linker)l);
}

static const char *verb(const char *outcome_word)
{
	return !strcmp(outcome_word, "success") ? "links" : !strcmp(outcome_word, "failure") ? "fails" : "unknown";
}

void lk_diff_linkers_text(FILE *out, const struct lk_record *ra, const struct lk_line *la,
			  const struct lk_record *rb, const struct lk_line *lb)
{
	lk_diff_linkers_text_replayed(out, ra, la, NULL, rb, lb, NULL);
}

void lk_diff_linkers_text_replayed(FILE *out, const struct lk_record *ra, const struct lk_line *la,
				   const struct lk_replay *rpa, const struct lk_record *rb, const struct lk_line *lb,
				   const struct lk_replay *rpb)
{
	struct side a, b;
	int differ = 0;

	side_open(&a, ra, la, rpa);
	side_open(&b, rb, lb, rpb);
	fprintf(out, "per linker (A, B):");
	for (int l = 0; l < LK_LINKER_COUNT; l++)
		fprintf(out, "%s %s %s, %s", l ? ";" : "", human(&a, l), verb(outcome(&a, l)), verb(outcome(&b, l)));
	fprintf(out, "\n");
	for (int l = 0; l < LK_LINKER_COUNT; l++) {
		if (!strcmp(outcome(&a, l), outcome(&b, l)) || !strcmp(outcome(&a, l), "unknown") ||
		    !strcmp(outcome(&b, l), "unknown"))
			continue;
		fprintf(out, "%s%s", differ++ ? ", " : "the outcomes differ under ", human(&a, l));
	}
	fprintf(out, "%s\n", differ ? "\n" : "");
	side_close(&a);
	side_close(&b);
}

static json_t *side_json(const struct side *s)
{
	json_t *linkers = json_object(), *versions = json_object();

	for (int l = 0; l < LK_LINKER_COUNT; l++) {
		json_object_set_new(linkers, lk_linker_name((enum lk_linker)l), json_string(outcome(s, l)));
		json_object_set_new(versions, lk_linker_name((enum lk_linker)l),
				    lk_json_str(s->ran ? s->rp->linkers[l].version : NULL));
	}
	return json_pack("{s:o, s:o, s:o, s:o, s:o}", "record", lk_json_str(s->rec->path),
			 "flavor", lk_json_str(s->line->flavor),
			 "real_linker", s->rec->has_exit ? json_string(s->rec->exit_status ? "failure" : "success") : json_null(),
			 "linkers", linkers, "versions", versions);
}

int lk_diff_json(FILE *out, const struct lk_record *ra, const struct lk_line *la,
		 const struct lk_record *rb, const struct lk_line *lb)
{
	return lk_diff_json_replayed(out, ra, la, NULL, rb, lb, NULL);
}

int lk_diff_json_replayed(FILE *out, const struct lk_record *ra, const struct lk_line *la, const struct lk_replay *rpa,
			  const struct lk_record *rb, const struct lk_line *lb, const struct lk_replay *rpb)
{
	struct side a, b;
	json_t *root, *differing = json_array();
	int rc;

	side_open(&a, ra, la, rpa);
	side_open(&b, rb, lb, rpb);
	for (int l = 0; l < LK_LINKER_COUNT; l++)
		if (strcmp(outcome(&a, l), outcome(&b, l)) && strcmp(outcome(&a, l), "unknown") &&
		    strcmp(outcome(&b, l), "unknown"))
			json_array_append_new(differing, json_string(lk_linker_name((enum lk_linker)l)));
	root = json_pack("{s:s, s:o, s:o, s:o}", "schema", "linkscope-diff/1", "a", side_json(&a), "b", side_json(&b),
			 "linkers_differing", differing);
	rc = json_dumpf(root, out, JSON_INDENT(2)) == 0 && fputc('\n', out) != EOF ? 0 : -1;
	json_decref(root);
	side_close(&a);
	side_close(&b);
	return rc;
}
