/* Who made an LLVM bitcode file (bitcode.c). */
#ifndef ANALYZER_BITCODE_H
#define ANALYZER_BITCODE_H

/*
 * The producer string of `path`'s IDENTIFICATION block ("LLVM14.0.6"),
 * malloc'd, or NULL when the file is not bitcode or has none (LLVM before
 * 3.8) or it cannot be read.
 */
char *lk_bitcode_producer(const char *path);

#endif
