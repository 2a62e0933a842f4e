/*
 * The per-target relocation tables (x86_64.c, aarch64.c) found by
 * e_machine, and a type looked up in one.
 */
#include <elf.h>
#include <stddef.h>

#include "arch.h"

const struct lk_reloc_arch *lk_reloc_arch_of(int machine)
{
	if (machine == EM_X86_64)
		return &lk_reloc_arch_x86_64;
	if (machine == EM_AARCH64)
		return &lk_reloc_arch_aarch64;
	return NULL;
}

const struct lk_reloc_howto *lk_reloc_howto_of(const struct lk_reloc_arch *a, uint32_t type)
{
	size_t lo = 0, hi = a->ntypes;

	if (type < a->ntypes && a->types[type].type == type)
		return &a->types[type];	/* x86-64's table is dense at its start */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (a->types[mid].type == type)
			return &a->types[mid];
		if (a->types[mid].type < type)
			lo = mid + 1;
		else
			hi = mid;
	}
	return a->machine == EM_AARCH64 ? lk_reloc_aarch64_tls(type) : NULL;
}
