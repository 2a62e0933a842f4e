/* The target and the linker a link asks for (target.c). */
#ifndef SHIM_TARGET_H
#define SHIM_TARGET_H

#include <stddef.h>

#include "linkscope/record.h"

/*
 * rec->target and rec->target_source from the line (--target), rustc's
 * --target or its sysroot -L, or the driver's name (aarch64-linux-gnu-gcc);
 * both NULL when none says. A triple taken from a name is copied into
 * `buf` (`size` bytes), which must outlive the record.
 */
void lk_target_find(struct lk_record_draft *rec, const char *driver, char *buf, size_t size);

/*
 * rec->linker_flavor from -fuse-ld, and rec->linker_program (owned) when
 * -fuse-ld names a path or a -B dir holds the program.
 */
void lk_target_find_linker(struct lk_record_draft *rec);

#endif
