/*
 * Where each linker puts the long-branch stub that a far AArch64 call
 * (R_AARCH64_CALL26, JUMP26: +-128 MiB) goes through, and whether the
 * call reaches it. The relocation room (reloc.c) asks here once the
 * layout estimate says a call does not reach its target directly.
 *
 * GNU ld 2.40 (bfd/elfnn-aarch64.c group_sections, size_stubs): the code
 * input sections of each output section, in output order, form stub
 * groups. A group starts at a section; the next ones join while the end
 * of the next lies less than stub_group_size (127 MiB, or ld's
 * --stub-group-size=N) from the group's start; the stub section goes
 * right after the last one, and the sections that end less than
 * stub_group_size after it use it too (unless N is negative). A far call
 * branches to its group's stub, and one that cannot reach it is
 * "relocation truncated to fit": a section larger than the reach has its
 * stubs after its end, out of reach of the calls near its start.
 *
 * lld 14 (ThunkCreator, Relocations.cpp): a far call uses a thunk section
 * already in reach, else lld adds one right before the call's own input
 * section, else right after it; neither in reach is "InputSection too
 * large for range extension thunk". Thunk sections lie between input
 * sections, so a call fails only when both ends of its own section are
 * out of reach.
 *
 * mold 1.10 (thunks.cc, arch-arm64.cc apply_reloc_alloc): a thunk for the
 * calls of a batch of sections goes after the batch, and the branch to it
 * is written without a range check: mold never fails here, but a call
 * that cannot reach the end of its own section branches to a wrong
 * address (checked on mold 1.10.1's output).
 *
 * GNU ld's groups keep a call within stub_group_size of its stub: a call
 * fails only from a section that is itself that large (its stubs go after
 * it), and the distance then lies within the section, known exactly but
 * for the stubs. A stub group size past the reach (--stub-group-size)
 * makes the estimate decide, within its slack (rr_layout_code_slack). A
 * stub within that of the reach is `close`.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "reloc.h"

/* B/BL: a signed 26-bit word offset (aarch64_valid_branch_p). */
#define FWD_REACH ((int64_t)((1 << 25) - 1) << 2)
#define BWD_REACH (-((int64_t)1 << 27))
#define GNU_GROUP_SIZE ((int64_t)127 << 20)
/* What one stub or thunk adds (GNU ld's long-branch stub is 24 bytes, 8-aligned; lld's 16). */
#define STUB_SLACK 4096

struct rr_stubs {
	const struct rr_layout *layout;
	const struct rr_code *code;
	size_t n;
	int64_t group_size;
	int always_after;	/* --stub-group-size negative: no section after the stubs uses them */
	long *link;		/* GNU ld: each section's group's last section, the one its stubs follow */
};

static int reaches(int64_t d)
{
	return d >= BWD_REACH && d <= FWD_REACH;
}

/* group_sections over the sections of one output section (`seq`, in address order). */
static void group(const struct rr_code *code, const long *seq, size_t m, int64_t size, int always_after, long *link)
{
	size_t h = 0;

	while (h < m) {
		uint64_t start = code[seq[h]].addr;
		size_t c = h, next;

		while (c + 1 < m && (int64_t)(code[seq[c + 1]].addr + code[seq[c + 1]].size - start) < size)
			c++;
		for (size_t k = h; k <= c; k++)
			link[seq[k]] = seq[c];
		next = c + 1;
		start = code[seq[c]].addr + code[seq[c]].size;
		while (!always_after && next < m && (int64_t)(code[seq[next]].addr + code[seq[next]].size - start) < size)
			link[seq[next++]] = seq[c];
		h = next;
	}
}

/* GNU ld's groups, at group size `size`: every output section's code apart. */
static long *groups(const struct rr_stubs *s, int64_t size)
{
	long *link = lk_xcalloc(s->n + 1, sizeof(*link));
	long *seq = lk_xcalloc(s->n + 1, sizeof(*seq));
	char *done = lk_xcalloc(s->n + 1, 1);

	for (size_t i = 0; i < s->n; i++) {
		size_t m = 0;

		if (done[i])
			continue;
		for (size_t k = i; k < s->n; k++)
			if (!done[k] && !strcmp(s->code[k].output, s->code[i].output)) {
				done[k] = 1;
				seq[m++] = (long)k;
			}
		group(s->code, seq, m, size, s->always_after, link);
	}
	free(done);
	free(seq);
	return link;
}

struct rr_stubs *rr_stubs_new(const struct rr_layout *l, int64_t group_size)
{
	struct rr_stubs *s = lk_xcalloc(1, sizeof(*s));
	int64_t size;

	s->layout = l;
	s->n = rr_layout_code(l, &s->code);
	s->always_after = group_size < 0;
	size = group_size < 0 ? -group_size : group_size;
	if (size == 0 || size == 1)
		size = GNU_GROUP_SIZE;
	s->group_size = size;
	s->link = groups(s, size);
	return s;
}

void rr_stubs_free(struct rr_stubs *s)
{
	if (!s)
		return;
	free(s->link);
	free(s);
}

/* Fold one estimate `d` (+- `slack`) into the answer so far: every case must agree for a verdict. */
static void fold(struct rr_stub *out, int64_t d, uint64_t slack, int first)
{
	int sure_in = reaches(d - (int64_t)slack) && reaches(d + (int64_t)slack);
	int sure_out = !reaches(d - (int64_t)slack) && !reaches(d + (int64_t)slack) &&
		       ((d - (int64_t)slack > FWD_REACH) == (d + (int64_t)slack > FWD_REACH));
	enum rr_stub_answer a = sure_in ? RR_STUB_REACHES : sure_out ? RR_STUB_OUT : RR_STUB_CLOSE;

	if (first || out->answer == a)
		out->answer = a;
	else
		out->answer = RR_STUB_CLOSE;
}

static void judge_gnu(const struct rr_stubs *s, long at, uint64_t offset, struct rr_stub *out)
{
	const struct rr_code *c = &s->code[at], *l = &s->code[s->link[at]];
	uint64_t place = c->addr + offset;

	out->section = s->link[at];
	out->distance = (int64_t)(l->addr + l->size - place);
	if (s->link[at] == at)
		fold(out, out->distance, STUB_SLACK, 1);	/* within the call's own section */
	else if (s->group_size <= FWD_REACH - STUB_SLACK)
		out->answer = RR_STUB_REACHES;	/* a group is smaller than the reach, and so the way to its stubs */
	else
		fold(out, out->distance, rr_layout_code_slack(s->layout, at, s->link[at]) + STUB_SLACK, 1);
}

static void judge_lld(const struct rr_code *c, uint64_t offset, struct rr_stub *out)
{
	int64_t back = -(int64_t)offset, ahead = (int64_t)(c->size - offset);
	struct rr_stub before = { 0 }, after = { 0 };

	fold(&before, back, STUB_SLACK, 1);
	fold(&after, ahead, STUB_SLACK, 1);
	out->before = before.answer == RR_STUB_REACHES || after.answer != RR_STUB_REACHES;
	out->distance = out->before ? back : ahead;
	if (before.answer == RR_STUB_REACHES || after.answer == RR_STUB_REACHES)
		out->answer = RR_STUB_REACHES;
	else if (before.answer == RR_STUB_OUT && after.answer == RR_STUB_OUT)
		out->answer = RR_STUB_OUT;
	else
		out->answer = RR_STUB_CLOSE;
}

static void judge_mold(const struct rr_code *c, uint64_t offset, struct rr_stub *out)
{
	struct rr_stub after = { 0 };

	out->answer = RR_STUB_REACHES;	/* the link: mold writes the branch unchecked */
	out->distance = (int64_t)(c->size - offset);
	fold(&after, out->distance, STUB_SLACK, 1);
	out->broken = after.answer == RR_STUB_OUT;
}

void rr_stub_judge(const struct rr_stubs *s, enum rr_stub_linker linker, long at, uint64_t offset,
		   struct rr_stub *out)
{
	memset(out, 0, sizeof(*out));
	out->section = at;
	if (linker == RR_STUBS_GNU)
		judge_gnu(s, at, offset, out);
	else if (linker == RR_STUBS_LLD)
		judge_lld(&s->code[at], offset, out);
	else
		judge_mold(&s->code[at], offset, out);
}

char *rr_stub_words(const struct rr_layout *l, enum rr_stub_linker linker, const struct rr_stub *st, const char *input)
{
	const struct rr_code *code;
	const struct rr_code *c;
	struct lk_buf b = LK_BUF_INIT;
	unsigned long long mag = st->distance < 0 ? 0ull - (unsigned long long)st->distance : (unsigned long long)st->distance;

	rr_layout_code(l, &code);
	c = &code[st->section];
	if (linker == RR_STUBS_GNU)
		lk_buf_addf(&b, "GNU ld puts the long-branch veneer of this call after %s of '%s' (", c->name, input);
	else if (linker == RR_STUBS_LLD)
		lk_buf_addf(&b, "lld puts a range extension thunk right %s %s of '%s' (", st->before ? "before" : "after",
			    c->name, input);
	else
		lk_buf_addf(&b, "mold 1.10 puts the thunk of this call after %s of '%s' (", c->name, input);
	rr_human_size(&b, c->size);
	if (linker == RR_STUBS_GNU)
		lk_buf_addf(&b, "), the last section of its stub group: %llu MiB %s the call",
			    mag >> 20, st->distance < 0 ? "before" : "after");
	else if (linker == RR_STUBS_LLD)
		lk_buf_addf(&b, "), the call's own section, %llu MiB %s it", mag >> 20, st->before ? "before" : "after");
	else
		lk_buf_addf(&b, "), %llu MiB after the call", mag >> 20);
	return lk_buf_detach(&b);
}
