/*
 * Line model: a linker word read through its linker's option table
 * (ldopt_table.c, generated from the linkers themselves). Takes one word
 * (and the next); gives the option it spells, whether the next word is its
 * value, or the failure the linker stops with: GNU ld 2.40 ("unrecognized
 * option"), lld ("unknown argument ..., did you mean ..."), mold ("unknown
 * command line option"), and the enumerated values each refuses
 * (lld 14's --compress-debug-sections=zstd, --build-id=sha256).
 *
 * Models: GNU ld's getopt_long_only (ld/lexsup.c: one or two dashes, an
 * unambiguous prefix of a long option is that option), lld's OptTable
 * (whole names only; some only with two dashes) and mold's cmdline.cc
 * (whole names, one or two dashes). One-letter options take their value
 * joined too ("-lfoo", "-zdefs").
 */
#include <string.h>

#include "linkscope/banned.h"
#include "ldopt.h"

/* -z KEYWORD: every linker takes -z; a keyword it does not know only warns. */
static const struct lk_ldopt z_option = { "z", LK_LDOPT_ONE_DASH, LK_LDOPT_VALUE_REQ, NULL, NULL };

static const struct lk_ldopt *lookup(const struct lk_ldopt_table *t, const char *name, size_t n, unsigned dash)
{
	for (size_t i = 0; i < t->nr; i++)
		if ((t->items[i].dashes & dash) && strlen(t->items[i].name) == n && !strncmp(t->items[i].name, name, n))
			return &t->items[i];
	return NULL;
}

/* An option the linker knows only to refuse it in its own words ("-Ttext-segment is not supported"), or NULL. */
static const struct lk_ldopt *refused_by_name(const struct lk_ldopt_table *t, const char *word)
{
	const char *rest = word + (word[1] == '-' ? 2 : 1);
	size_t n = strcspn(rest, "=");

	for (size_t i = 0; i < t->nr; i++)
		if (t->items[i].refusal && strlen(t->items[i].name) == n && !strncmp(t->items[i].name, rest, n))
			return &t->items[i];
	return NULL;
}

/* GNU ld: the first long option `name` (n bytes) begins (getopt takes an unambiguous prefix). */
static const struct lk_ldopt *prefix_of(const struct lk_ldopt_table *t, const char *name, size_t n, unsigned dash)
{
	for (size_t i = 0; n > 1 && i < t->nr; i++)
		if ((t->items[i].dashes & dash) && t->items[i].name[1] && !strncmp(t->items[i].name, name, n))
			return &t->items[i];
	return NULL;
}

const struct lk_ldopt *lk_ldopt_find(enum lk_ldopt_linker linker, const char *word, const char **value)
{
	const struct lk_ldopt_table *t = &lk_ldopt_tables[linker];
	int two = word[0] == '-' && word[1] == '-';
	const char *rest = word + (two ? 2 : 1), *eq;
	unsigned dash = two ? LK_LDOPT_TWO_DASHES : LK_LDOPT_ONE_DASH;
	size_t n;
	const struct lk_ldopt *o;

	*value = NULL;
	if (word[0] != '-' || !*rest)
		return NULL;
	if (!two && rest[0] == 'z') {
		*value = rest[1] ? rest + 1 : NULL;
		return &z_option;
	}
	if ((o = lookup(t, rest, strlen(rest), dash)))
		return o;
	if (refused_by_name(t, word))
		return NULL;
	eq = strchr(rest, '=');
	n = eq ? (size_t)(eq - rest) : strlen(rest);
	if (eq && (o = lookup(t, rest, n, dash)) && o->value != LK_LDOPT_VALUE_NONE) {
		*value = eq + 1;
		return o;
	}
	if (!two && (o = lookup(t, rest, 1, dash)) && o->value == LK_LDOPT_VALUE_REQ && (o->dashes & LK_LDOPT_JOINED)) {
		*value = rest + 1;
		return o;
	}
	if (linker == LK_LDOPT_BFD && (o = prefix_of(t, rest, n, dash)) && (!eq || o->value != LK_LDOPT_VALUE_NONE)) {
		*value = eq ? eq + 1 : NULL;
		return o;
	}
	return NULL;
}

int lk_ldopt_takes_next(enum lk_ldopt_linker linker, const char *word)
{
	const char *v;
	const struct lk_ldopt *o = lk_ldopt_find(linker, word, &v);

	return o && !v && o->value == LK_LDOPT_VALUE_REQ;
}

/* Levenshtein distance of a and b, each cut at 63 bytes: how far a misspelling is. */
static size_t distance(const char *a, size_t na, const char *b, size_t nb)
{
	size_t row[64], prev;

	na = na > 63 ? 63 : na;
	nb = nb > 63 ? 63 : nb;
	for (size_t j = 0; j <= nb; j++)
		row[j] = j;
	for (size_t i = 1; i <= na; i++) {
		prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= nb; j++) {
			size_t del = row[j] + 1, ins = row[j - 1] + 1, sub = prev + (a[i - 1] != b[j - 1]);
			size_t best = del < ins ? del : ins;

			prev = row[j];
			row[j] = best < sub ? best : sub;
		}
	}
	return row[nb];
}

/*
 * The spelling `word` (an unknown option) most likely meant: the other
 * number of dashes, or a name at most 2 edits away; 1 when lld says it too
 * (it does for -no-relax, not for -require-defined: the table's HINTED).
 */
static int suggest_spelling(enum lk_ldopt_linker linker, const char *word, struct lk_buf *out)
{
	const struct lk_ldopt_table *t = &lk_ldopt_tables[linker];
	int two = word[1] == '-';
	const char *rest = word + (two ? 2 : 1), *eq = strchr(rest, '=');
	size_t n = eq ? (size_t)(eq - rest) : strlen(rest), best = 3;
	const struct lk_ldopt *pick = NULL;

	/*
	 * The whole name with the other dashes (not "-f" and "iller" for
	 * "--filler"); not for GNU ld, which takes every long option with
	 * both: its "-gdb-index" is "-g" "-d" "-b index".
	 */
	if (linker != LK_LDOPT_BFD && (pick = lookup(t, rest, n, two ? LK_LDOPT_ONE_DASH : LK_LDOPT_TWO_DASHES))) {
		lk_buf_addf(out, "%s%s", two ? "-" : "--", rest);
		return (pick->dashes & LK_LDOPT_HINTED) != 0;
	}
	for (size_t i = 0; i < t->nr; i++) {
		size_t d;

		if (!(t->items[i].dashes & (two ? LK_LDOPT_TWO_DASHES : LK_LDOPT_ONE_DASH)))
			continue;
		d = distance(rest, n, t->items[i].name, strlen(t->items[i].name));
		if (d < best) {
			best = d;
			pick = &t->items[i];
		}
	}
	if (pick)
		lk_buf_addf(out, "%s%s%s", two ? "--" : "-", pick->name, eq ? eq : "");
	return pick != NULL;
}

/* Is `v` one of `values`? An entry ending in '*' takes any value it begins ("0x*": lld's --build-id=0xHEX). */
static int value_in(const char *v, const char *const *values)
{
	for (size_t i = 0; values[i]; i++) {
		size_t n = strlen(values[i]);

		if (n && values[i][n - 1] == '*' ? !strncmp(v, values[i], n - 1) : !strcmp(v, values[i]))
			return 1;
	}
	return 0;
}

/*
 * A refusal in the linker's own words, its "VALUE" the word's (mold:
 * "cannot open text-segment=VALUE": it read "-Ttext-segment=V" as "-T" and
 * a script).
 */
static void said_with_value(const char *refusal, const char *word, struct lk_buf *msg)
{
	const char *at = strstr(refusal, "VALUE"), *eq = strchr(word, '=');

	if (!at || !eq) {
		lk_buf_addstr(msg, refusal);
		return;
	}
	lk_buf_add(msg, refusal, (size_t)(at - refusal));
	lk_buf_addstr(msg, eq + 1);
	lk_buf_addstr(msg, at + 5);
}

/* The linker's words for `word`, an option it does not know (`said`: lld's did-you-mean, or NULL). */
static void unknown_option(enum lk_ldopt_linker linker, const char *word, const char *said, struct lk_buf *msg)
{
	switch (linker) {
	case LK_LDOPT_BFD:
		if (word[1] == '-')
			lk_buf_addf(msg, "unrecognized option '%s'", word);
		else
			lk_buf_addf(msg, "Error: unable to disambiguate: %s (did you mean -%s ?)", word, word);
		return;
	case LK_LDOPT_LLD14:
	case LK_LDOPT_LLD_NEW:
		lk_buf_addf(msg, "unknown argument '%s'", word);
		if (said)
			lk_buf_addf(msg, ", did you mean '%s'", said);
		return;
	case LK_LDOPT_MOLD:
	case LK_LDOPT_TABLES:
		break;
	}
	lk_buf_addf(msg, "unknown command line option: %s", word);
}

int lk_ldopt_refused(enum lk_ldopt_linker linker, const char *word, const char *next,
		     struct lk_buf *msg, struct lk_buf *suggest)
{
	const char *v;
	const struct lk_ldopt *o;

	if (word[0] != '-' || !word[1] || !strcmp(word, "-(") || !strcmp(word, "-)"))
		return 0;
	if ((o = refused_by_name(&lk_ldopt_tables[linker], word))) {
		said_with_value(o->refusal, word, msg);
		return 1;
	}
	if (!(o = lk_ldopt_find(linker, word, &v))) {
		int said = suggest_spelling(linker, word, suggest);

		unknown_option(linker, word, said ? suggest->buf : NULL, msg);
		return 1;
	}
	if (!v && o->value == LK_LDOPT_VALUE_REQ)
		v = next;
	if (!o->values || !v || value_in(v, o->values))
		return 0;
	for (size_t i = 0; o->values[i]; i++)
		lk_buf_addf(suggest, "%s--%s=%s", i ? ", " : "", o->name, o->values[i]);
	if (linker == LK_LDOPT_MOLD)
		lk_buf_addf(msg, "invalid --%s argument: %s", o->name, v);
	else if (linker == LK_LDOPT_BFD)
		lk_buf_addf(msg, "invalid --%s value `%s'", o->name, v);
	else
		lk_buf_addf(msg, "unknown --%s value: %s", o->name, v);
	return 1;
}
