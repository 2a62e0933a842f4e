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
#include "line.h"
#include "reloc.h"

enum { CL_TEXT, CL_RODATA, CL_DATA, CL_BSS, CL_LARGE };

struct rr_section {
	long input;
	uint32_t ndx;
	int cls;
	uint64_t size, addr, align;
	uint64_t fixed_at;	/* fixed: the address --section-start gives its output section */
	unsigned fixed : 1, placed : 1;
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

	/* An empty one too: a reference to it is to an address (crtbegin.o's to .tm_clone_table). */
	LK_GROW(l->secs.items, l->secs.nr + 1, l->secs.alloc);
	x = &l->secs.items[l->secs.nr++];
	memset(x, 0, sizeof(*x));
	x->input = input;
	x->ndx = ndx;
	x->cls = class_of(sec);
	x->size = sec->size;
	x->align = sec->align > 1 ? sec->align : 1;
	x->code = -1;
	x->name = lk_xstrdup(name ? name : "?");
}

int rr_read_starts(const struct lk_line *line, struct lk_strvec *starts)
{
	static const struct { const char *opt, *section; } t[] = {
		{ "-Ttext=", ".text" }, { "-Tdata=", ".data" }, { "-Tbss=", ".bss" },
		{ "-Ttext-segment=", NULL }, { "--section-start=", NULL },
	};
	int fixed = 0;

	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];

		if (it->kind == LK_ITEM_FILE && it->t_script)
			fixed = 1;	/* a script places sections its own way: not modelled */
		if (it->kind != LK_ITEM_OPTION)
			continue;
		for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
			size_t n = strlen(t[k].opt);
			struct lk_buf b = LK_BUF_INIT;

			if (strncmp(it->word, t[k].opt, n))
				continue;
			fixed = 1;
			if (t[k].section)
				lk_buf_addf(&b, "%s=%s", t[k].section, it->word + n);
			else if (!strcmp(t[k].opt, "-Ttext-segment="))
				lk_buf_addf(&b, "=%s", it->word + n);	/* the base itself */
			else
				lk_buf_addstr(&b, it->word + n);
			lk_strvec_push_owned(starts, lk_buf_detach(&b));
		}
	}
	return fixed;
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

/* The output section a section joins, for the order of mold's and the parts of a --section-start one. */
static const char *output_of_section(const struct rr_section *x, struct lk_buf *b)
{
	static const char *const prefixes[] = { ".text", ".rodata", ".data.rel.ro", ".data", ".bss", ".ldata", ".lbss", ".lrodata" };

	if (x->cls == CL_TEXT)
		return code_output(x->name);
	for (size_t k = 0; k < sizeof(prefixes) / sizeof(prefixes[0]); k++) {
		size_t n = strlen(prefixes[k]);

		if (!strncmp(x->name, prefixes[k], n) && (!x->name[n] || x->name[n] == '.')) {
			lk_buf_reset(b);
			lk_buf_add(b, x->name, n);
			return b->buf;
		}
	}
	return x->name;
}

/* Place the non-fixed sections of class `cls`, in input order (GNU ld: its .text buckets first). */
static uint64_t place_class(struct rr_layout *l, int cls, uint64_t cursor, enum rr_layout_kind kind)
{
	int buckets = cls == CL_TEXT && kind == RR_LAYOUT_GNU ? 6 : 1;

	cursor = align_up(cursor, 0x1000);
	for (int b = 0; b < buckets; b++)
		for (size_t i = 0; i < l->secs.nr; i++) {
			struct rr_section *x = &l->secs.items[i];

			if (x->cls == cls && !x->fixed && (buckets == 1 || gnu_text_bucket(x->name) == b))
				cursor = place_one(l, x, cursor);
		}
	return cursor;
}

/* The parts of the fixed output section of `first` (the first of them), one after the other from its address. */
static uint64_t place_fixed(struct rr_layout *l, size_t first)
{
	struct lk_buf a = LK_BUF_INIT, b = LK_BUF_INIT;
	const char *out = output_of_section(&l->secs.items[first], &a);
	uint64_t cursor = l->secs.items[first].fixed_at;

	for (size_t i = first; i < l->secs.nr; i++) {
		struct rr_section *x = &l->secs.items[i];

		if (x->fixed && !x->placed && !strcmp(output_of_section(x, &b), out)) {
			cursor = place_one(l, x, cursor);
			x->placed = 1;
		}
	}
	lk_buf_release(&a);
	lk_buf_release(&b);
	return cursor;
}

static int by_output_name(const void *pa, const void *pb)
{
	const struct rr_section *const *a = pa, *const *b = pb;
	struct lk_buf x = LK_BUF_INIT, y = LK_BUF_INIT;
	int c = strcmp(output_of_section(*a, &x), output_of_section(*b, &y));

	lk_buf_release(&x);
	lk_buf_release(&y);
	return c ? c : *a < *b ? -1 : *a > *b;
}

/*
 * mold: each class's output sections by name, one after the other; a
 * --section-start one at its address, and what follows it after it.
 */
static void place_mold(struct rr_layout *l, uint64_t cursor)
{
	static const int order[] = { CL_RODATA, CL_TEXT, CL_DATA, CL_BSS, CL_LARGE };
	struct rr_section **v = lk_xcalloc(l->secs.nr + 1, sizeof(*v));

	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		size_t n = 0;

		for (size_t i = 0; i < l->secs.nr; i++)
			if (l->secs.items[i].cls == order[k])
				v[n++] = &l->secs.items[i];
		qsort(v, n, sizeof(*v), by_output_name);
		cursor = align_up(cursor, 0x1000);
		for (size_t i = 0; i < n; i++) {
			if (v[i]->placed)
				continue;
			if (v[i]->fixed) {
				cursor = place_fixed(l, (size_t)(v[i] - l->secs.items));
				continue;
			}
			cursor = place_one(l, v[i], cursor);
		}
	}
	free(v);
}

void rr_layout_place(struct rr_layout *l, uint64_t base, const struct lk_strvec *starts, enum rr_layout_kind kind)
{
	static const int gnu[] = { CL_TEXT, CL_RODATA, CL_DATA, CL_BSS, CL_LARGE };
	static const int lld[] = { CL_RODATA, CL_TEXT, CL_DATA, CL_BSS, CL_LARGE };
	uint64_t cursor;

	for (size_t i = 0; i < starts->nr; i++)
		if (starts->items[i][0] == '=')
			base = strtoull(starts->items[i] + 1, NULL, 0);	/* -Ttext-segment */
	cursor = base + 0x1000;	/* the ELF and program headers, and what the driver's crt files add */
	for (size_t i = 0; i < l->secs.nr; i++) {
		struct rr_section *x = &l->secs.items[i];

		x->fixed = fixed_start(starts, x->name, &x->fixed_at);
	}
	if (kind == RR_LAYOUT_MOLD) {
		place_mold(l, cursor);
		return;
	}
	/* GNU ld: a --section-start one where it says, the others where they would be; lld: those first, the others after them. */
	for (size_t i = 0; i < l->secs.nr; i++)
		if (l->secs.items[i].fixed && !l->secs.items[i].placed) {
			uint64_t end = place_fixed(l, i);

			if (kind == RR_LAYOUT_LLD)
				cursor = end;
		}
	for (size_t k = 0; k < sizeof(gnu) / sizeof(gnu[0]); k++)
		cursor = place_class(l, kind == RR_LAYOUT_GNU ? gnu[k] : lld[k], cursor, kind);
}

int rr_layout_overlap(const struct rr_layout *l, const char **fixed, const char **other)
{
	struct lk_buf a = LK_BUF_INIT, b = LK_BUF_INIT;
	int found = 0;

	for (size_t i = 0; i < l->secs.nr && !found; i++) {
		const struct rr_section *x = &l->secs.items[i];

		if (!x->fixed || !x->size)
			continue;
		for (size_t k = 0; k < l->secs.nr && !found; k++) {
			const struct rr_section *y = &l->secs.items[k];

			if (!y->size || y->addr >= x->addr + x->size || x->addr >= y->addr + y->size ||
			    !strcmp(output_of_section(x, &a), output_of_section(y, &b)))
				continue;
			*fixed = x->name;
			*other = y->name;
			found = 1;
		}
	}
	lk_buf_release(&a);
	lk_buf_release(&b);
	return found;
}

void rr_layout_drop(struct rr_layout *l, int (*kept)(void *ctx, long input, uint32_t ndx), void *ctx)
{
	size_t n = 0;

	for (size_t i = 0; i < l->secs.nr; i++) {
		if (kept(ctx, l->secs.items[i].input, l->secs.items[i].ndx))
			l->secs.items[n++] = l->secs.items[i];
		else
			free(l->secs.items[i].name);
	}
	l->secs.nr = n;
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
