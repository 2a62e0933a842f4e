/*
 * Per-target facts of copy relocations (copy.c), apart from arch.h so that
 * the relocation tables stay as they are.
 */
#ifndef ANALYZER_ARCH_COPY_H
#define ANALYZER_ARCH_COPY_H

#include "arch.h"

/*
 * Does GNU ld serve a PC-relative reference from read-only code of a PIE
 * to a shared object's symbol with a copy relocation (or a canonical PLT
 * entry)? 0: it refuses the relocation as in a shared object.
 */
int lk_reloc_gnu_pie_copies(const struct lk_reloc_arch *a);

#endif
