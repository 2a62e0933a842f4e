/*
 * Two lines -> their differences, and which of them changes the outcome.
 *
 * The arguments are aligned with a longest common subsequence after
 * normalizing what differs between any two builds (rustc's temporary
 * directory names). Each argument only in B is then tried on A's line
 * (appended), each argument only in A is tried removed from it, and the
 * replay says which single edit turns A's outcome into B's. This answers
 * "why did removing the fix not make the link fail again?".
 */
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "linkscope/argv.h"
#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/replay.h"
#include "linkscope/rustc.h"
#include "linkscope/vec.h"

/* rustc's "rustcAbC123" temporary directory differs on every run. */
static char *normalize(const char *arg)
{
	struct lk_buf b = LK_BUF_INIT;
	const char *p = arg, *hit;

	while ((hit = strstr(p, "/rustc")) && strlen(hit) >= 13 && hit[12] == '/') {
		lk_buf_add(&b, p, (size_t)(hit - p));
		lk_buf_addstr(&b, "/rustcXXXXXX/");
		p = hit + 13;
	}
	lk_buf_addstr(&b, p);
	return lk_buf_detach(&b);
}

/* in_a[i] / in_b[j]: the argument has a partner in the other line. */
static void align(const struct lk_args *a, const struct lk_args *b, char *in_a, char *in_b)
{
	size_t n = a->nr, m = b->nr;
	unsigned *t = lk_xcalloc((n + 1) * (m + 1), sizeof(*t));
	char **na = lk_xcalloc(n + 1, sizeof(char *)), **nb = lk_xcalloc(m + 1, sizeof(char *));

	for (size_t i = 0; i < n; i++)
		na[i] = normalize(a->items[i].text);
	for (size_t j = 0; j < m; j++)
		nb[j] = normalize(b->items[j].text);
	for (size_t i = n; i-- > 0;)
		for (size_t j = m; j-- > 0;)
			t[i * (m + 1) + j] = !strcmp(na[i], nb[j]) ? t[(i + 1) * (m + 1) + j + 1] + 1 :
				t[(i + 1) * (m + 1) + j] > t[i * (m + 1) + j + 1] ?
				t[(i + 1) * (m + 1) + j] : t[i * (m + 1) + j + 1];
	for (size_t i = 0, j = 0; i < n && j < m;) {
		if (!strcmp(na[i], nb[j])) {
			in_a[i++] = 1;
			in_b[j++] = 1;
		} else if (t[(i + 1) * (m + 1) + j] >= t[i * (m + 1) + j + 1]) {
			i++;
		} else {
			j++;
		}
	}
	for (size_t i = 0; i < n; i++)
		free(na[i]);
	for (size_t j = 0; j < m; j++)
		free(nb[j]);
	free(na);
	free(nb);
	free(t);
}

/* The -o value's position: an output name is no difference worth trying. */
static long output_index(const struct lk_record *rec)
{
	struct lk_argv_info info;
	long out;

	lk_argv_classify(&rec->args, &info);
	out = info.output;
	lk_argv_info_release(&info);
	return out;
}

void lk_diff_print(FILE *out, const struct lk_record *a, struct lk_line *la,
		   const struct lk_record *b, struct lk_line *lb)
{
	char *in_a = lk_xcalloc(a->args.nr + 1, 1), *in_b = lk_xcalloc(b->args.nr + 1, 1);
	long out_a = output_index(a), out_b = output_index(b);
	int ok_a = lk_replay_outcome(a, la, NULL, -1), ok_b = lk_replay_outcome(b, lb, NULL, -1);
	size_t tried = 0, deciding = 0;

	align(&a->args, &b->args, in_a, in_b);
	/* Different output names are shown but never tried. */
	if (out_a >= 0)
		in_a[out_a] = 2;
	if (out_b >= 0)
		in_b[out_b] = 2;
	fprintf(out, "A %s\n  %s under GNU ld's rules (the real linker: %s)\n", a->path,
		ok_a ? "links" : "fails", a->has_exit ? (a->exit_status ? "failed" : "linked") : "not run");
	fprintf(out, "B %s\n  %s under GNU ld's rules (the real linker: %s)\n\n", b->path,
		ok_b ? "links" : "fails", b->has_exit ? (b->exit_status ? "failed" : "linked") : "not run");
	if (out_a >= 0 && out_b >= 0 && strcmp(a->args.items[out_a].text, b->args.items[out_b].text))
		fprintf(out, "  output: A %s, B %s\n", a->args.items[out_a].text, b->args.items[out_b].text);
	for (size_t i = 1; i < a->args.nr; i++)
		if (!in_a[i])
			fprintf(out, "- A %3zu  %-16s %s\n", i, lk_prov_name(a->prov[i]), a->args.items[i].text);
	for (size_t j = 1; j < b->args.nr; j++)
		if (!in_b[j])
			fprintf(out, "+ B %3zu  %-16s %s\n", j, lk_prov_name(b->prov[j]), b->args.items[j].text);
	if (ok_a == ok_b) {
		fprintf(out, "\nboth %s: no difference changes the outcome\n", ok_a ? "link" : "fail");
		goto out;
	}
	fprintf(out, "\nwhich difference turns A's outcome into B's (each tried alone on A):\n");
	for (size_t j = 1; j < b->args.nr && tried < 64; j++) {
		if (in_b[j])
			continue;
		tried++;
		if (lk_replay_outcome(a, la, b->args.items[j].text, -1) == ok_b) {
			fprintf(out, "  adding %s (B %zu) makes A %s\n", b->args.items[j].text, j, ok_b ? "link" : "fail");
			deciding++;
		}
	}
	for (size_t i = 1; i < a->args.nr && tried < 64; i++) {
		if (in_a[i])
			continue;
		tried++;
		if (lk_replay_outcome(a, la, NULL, (long)i) == ok_b) {
			fprintf(out, "  removing %s (A %zu) makes A %s\n", a->args.items[i].text, i, ok_b ? "link" : "fail");
			deciding++;
		}
	}
	if (!deciding)
		fprintf(out, "  no single difference does: it takes several together\n");
out:
	free(in_a);
	free(in_b);
}
