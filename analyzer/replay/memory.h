#ifndef LK_MEMORY_H
#define LK_MEMORY_H

/*
 * A -T linker script's MEMORY regions and SECTIONS as memory.c reads them,
 * for the replay and the fuzz target.
 */
#include <stddef.h>

/*
 * Read `text` (the script `path`): the number of MEMORY regions it
 * defines, with `*unknown` NULL when every construct was read, else
 * malloc'd: one line saying which was not (the regions are then not
 * judged). The caller frees *unknown.
 */
size_t lk_memory_script_read(const char *text, const char *path, char **unknown);

#endif
