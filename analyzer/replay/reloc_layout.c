/*
 * The layout estimate of the relocation room (see reloc.h): every alloc
 * section of the regular inputs placed as GNU ld's default script places
 * them (ld --verbose: code, then read-only data, then writable data, then
 * .bss, and -mcmodel=medium's SHF_X86_64_LARGE sections after .bss), each
 * class in input order, each section at its alignment, a page between
 * classes, with --section-start, -Ttext and the like honoured. GNU ld's
 * .text takes .text.unlikely*, .text.exit*, .text.startup*, .text.hot* and
 * .text.sorted.* before the rest (its default script); lld and mold keep
 * input order. What it leaves out (the PLT, the GOT, the dynamic
 * sections) is small beside a reach of +-128 MiB or +-2 GiB; a distance
 * within 1/16 of the reach is therefore no verdict but `unknown`. Between
 * two code sections the estimate is closer (rr_layout_code_slack): that is
 * what the long-branch stubs are judged by (stubs.c).
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "reloc.h"

enum { CL_TEXT, CL_RODATA, CL_DATA, CL_BSS, CL_LARGE, CL_FIXED, CL_COUNT };

struct rr_section {
	long input;
	uint32_t ndx;
	int cls;
	uint64_t size, addr, align;
	long code;		/* its index in `code`, or -1 */
	char *name;
};

struct rr_layout {
	struct { struct rr_section *items; size_t nr, alloc; } secs;	/* in input order: by (input, ndx) ascending */
	struct { struct rr_code *items; size_t nr, alloc; } code;	/* the code class, in address order */
};

struct rr_layout *rr_layout_new(void)
{
	return lk_xcalloc(1, sizeof(struct rr_layout));
}

void rr_layout_free(struct rr_layout *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->secs.nr; i++)
		free(l->secs.items[i].name);
	free(l->secs.items);
	free(l->code.items);
	free(l);
}

static int class_of(const struct lk_elf_gc_section *s)
{
	if (s->large)
		return CL_LARGE;
	if (s->exec)
		return CL_TEXT;
	if (!s->write)
		return CL_RODATA;
	return s->nobits ? CL_BSS : CL_DATA;
}

void rr_layout_add(struct rr_layout *l, long input, uint32_t ndx, const char *name, const struct lk_elf_gc_section *sec)
{
	struct rr_section *x;

	if (!sec->size)
		return;
	LK_GROW(l->secs.items, l->secs.nr + 1, l->secs.alloc);
	x = &l->secs.items[l->secs.nr++];
	x->input = input;
	x->ndx = ndx;
	x->cls = class_of(sec);
	x->size = sec->size;
	x->align = sec->align > 1 ? sec->align : 1;
	x->code = -1;
	x->addr = 0;
	x->name = lk_xstrdup(name ? name : "?");
}

/* The address --section-start gives the output section `name` belongs to (NAME or NAME.*), else 0. */
static int fixed_start(const struct lk_strvec *starts, const char *name, uint64_t *addr)
{
	for (size_t i = 0; i < starts->nr; i++) {
		const char *eq = strchr(starts->items[i], '=');
		size_t n = eq ? (size_t)(eq - starts->items[i]) : 0;

		if (!n || strncmp(name, starts->items[i], n) || (name[n] && name[n] != '.'))
			continue;
		*addr = strtoull(eq + 1, NULL, 0);
		return 1;
	}
	return 0;
}

void rr_human_size(struct lk_buf *b, uint64_t n)
{
	if (n >= (1ull << 30))
		lk_buf_addf(b, "%.1f GiB", (double)n / (double)(1ull << 30));
	else
		lk_buf_addf(b, "%.1f MiB", (double)n / (double)(1ull << 20));
}

static uint64_t align_up(uint64_t a, uint64_t align)
{
	return align > 1 && !(align & (align - 1)) ? (a + align - 1) & ~(align - 1) : a;
}

/*
 * Where GNU ld's default script puts a code section within .text: the
 * lines of `*(.text.unlikely ...)` ... `*(.text .stub .text.* ...)`, in
 * that order; other code (.init, an orphan) goes with the last.
 */
static int gnu_text_bucket(const char *name)
{
	static const char *const first[][3] = {
		{ ".text.unlikely", "_unlikely", NULL }, { ".text.exit", NULL, NULL },
		{ ".text.startup", NULL, NULL }, { ".text.hot", NULL, NULL }, { ".text.sorted.", NULL, NULL },
	};

	for (int b = 0; b < 5; b++) {
		size_t n = strlen(first[b][0]);

		if (!strncmp(name, first[b][0], n) && (!name[n] || name[n] == '.' || b == 4))
			return b;
		if (first[b][1] && lk_str_starts_with(name, ".text.") && lk_str_ends_with(name, first[b][1]))
			return b;
	}
	return 5;
}

/* The output section a code section joins: .text for .text and .text.*, else its own name. */
static const char *code_output(const char *name)
{
	if (!strcmp(name, ".text") || lk_str_starts_with(name, ".text.") || !strcmp(name, ".stub") ||
	    lk_str_starts_with(name, ".gnu.linkonce.t."))
		return ".text";
	return name;
}

static uint64_t place_one(struct rr_layout *l, struct rr_section *x, uint64_t cursor)
{
	x->addr = align_up(cursor, x->align);
	if (x->cls == CL_TEXT) {
		uint64_t pad = l->code.nr ? l->code.items[l->code.nr - 1].pad : 0;

		LK_GROW(l->code.items, l->code.nr + 1, l->code.alloc);
		x->code = (long)l->code.nr;
		l->code.items[l->code.nr++] = (struct rr_code){
			.addr = x->addr, .size = x->size, .align = x->align, .input = x->input, .ndx = x->ndx,
			.name = x->name, .output = code_output(x->name), .pad = pad + x->align - 1,
		};
	}
	return x->addr + x->size;
}

void rr_layout_place(struct rr_layout *l, uint64_t base, const struct lk_strvec *starts, int gnu_text_order)
{
	uint64_t cursor;

	for (size_t i = 0; i < starts->nr; i++)
		if (starts->items[i][0] == '=')
			base = strtoull(starts->items[i] + 1, NULL, 0);	/* -Ttext-segment */
	cursor = base + 0x1000;	/* the ELF and program headers, and what the driver's crt files add */
	for (size_t i = 0; i < l->secs.nr; i++) {
		struct rr_section *x = &l->secs.items[i];

		if (fixed_start(starts, x->name, &x->addr))
			x->cls = CL_FIXED;	/* each input's part of that output section starts there: an estimate */
	}
	for (int cls = CL_TEXT; cls < CL_FIXED; cls++) {
		int buckets = cls == CL_TEXT && gnu_text_order ? 6 : 1;

		cursor = align_up(cursor, 0x1000);
		for (int b = 0; b < buckets; b++)
			for (size_t i = 0; i < l->secs.nr; i++) {
				struct rr_section *x = &l->secs.items[i];

				if (x->cls == cls && (buckets == 1 || gnu_text_bucket(x->name) == b))
					cursor = place_one(l, x, cursor);
			}
	}
}

size_t rr_layout_code(const struct rr_layout *l, const struct rr_code **code)
{
	*code = l->code.items;
	return l->code.nr;
}

/*
 * Between two code sections the estimate leaves out only padding the
 * alignments may make otherwise and what the linker adds between them
 * (stubs, .plt before .text): 64 KiB and the padding's bound.
 */
uint64_t rr_layout_code_slack(const struct rr_layout *l, long a, long b)
{
	uint64_t pa, pb;

	if (a < 0 || b < 0 || (size_t)a >= l->code.nr || (size_t)b >= l->code.nr)
		return UINT64_MAX / 4;
	pa = l->code.items[a].pad;
	pb = l->code.items[b].pad;
	return (64 << 10) + (pa > pb ? pa - pb : pb - pa);
}

long rr_layout_code_of(const struct rr_layout *l, long input, uint32_t ndx)
{
	size_t lo = 0, hi = l->secs.nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct rr_section *x = &l->secs.items[mid];

		if (x->input == input && x->ndx == ndx)
			return x->code;
		if (x->input < input || (x->input == input && x->ndx < ndx))
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

uint64_t rr_layout_addr(const struct rr_layout *l, long input, uint32_t ndx, int *ok)
{
	size_t lo = 0, hi = l->secs.nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct rr_section *x = &l->secs.items[mid];

		if (x->input == input && x->ndx == ndx) {
			*ok = 1;
			return x->addr;
		}
		if (x->input < input || (x->input == input && x->ndx < ndx))
			lo = mid + 1;
		else
			hi = mid;
	}
	*ok = 0;
	return 0;
}

void rr_layout_between(const struct rr_layout *l, uint64_t lo, uint64_t hi, uint64_t min,
		       void (*fn)(void *ctx, long input, const char *section, uint64_t size), void *ctx)
{
	for (size_t i = 0; i < l->secs.nr; i++) {
		const struct rr_section *x = &l->secs.items[i];

		if (x->size >= min && x->addr + x->size > lo && x->addr < hi)
			fn(ctx, x->input, x->name, x->size);
	}
}
