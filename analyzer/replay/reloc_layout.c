/*
 * The layout estimate of the relocation room (see reloc.h): every alloc
 * section of the regular inputs placed as GNU ld's default script places
 * them (ld --verbose: code, then read-only data, then writable data, then
 * .bss, and -mcmodel=medium's SHF_X86_64_LARGE sections after .bss), each
 * class in input order, a page between classes, with --section-start,
 * -Ttext and the like honoured. What it leaves out (the PLT, the GOT,
 * the dynamic sections, alignment padding) is small beside a reach of
 * +-128 MiB or +-2 GiB; a distance within 1/16 of the reach is therefore
 * no verdict but `unknown`.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/vec.h"
#include "reloc.h"

enum { CL_TEXT, CL_RODATA, CL_DATA, CL_BSS, CL_LARGE, CL_FIXED, CL_COUNT };

struct rr_section {
	long input;
	uint32_t ndx;
	int cls;
	uint64_t size, addr;
	char *name;
};

struct rr_layout {
	struct { struct rr_section *items; size_t nr, alloc; } secs;	/* in input order: by (input, ndx) ascending */
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

static uint64_t page_up(uint64_t a)
{
	return (a + 0xfff) & ~(uint64_t)0xfff;
}

void rr_layout_place(struct rr_layout *l, uint64_t base, const struct lk_strvec *starts)
{
	uint64_t cursor;

	for (size_t i = 0; i < starts->nr; i++)
		if (starts->items[i][0] == '=')
			base = strtoull(starts->items[i] + 1, NULL, 0);	/* -Ttext-segment */
	cursor = base + 0x1000;	/* the ELF and program headers, and what the driver's crt files add */
	for (int cls = CL_TEXT; cls < CL_FIXED; cls++) {
		cursor = page_up(cursor);
		for (size_t i = 0; i < l->secs.nr; i++) {
			struct rr_section *x = &l->secs.items[i];
			uint64_t at;

			if (x->cls != cls)
				continue;
			if (fixed_start(starts, x->name, &at)) {
				x->cls = CL_FIXED;
				x->addr = at;	/* each input's part of that output section starts there: an estimate */
				continue;
			}
			x->addr = cursor;
			cursor += x->size;
		}
	}
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
