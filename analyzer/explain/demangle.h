/* Demangling C++ and Rust (legacy and v0) symbol names for people, with libbfd. */
#ifndef LINKSCOPE_DEMANGLE_H
#define LINKSCOPE_DEMANGLE_H

/* The demangled form of `name` (malloc'd), or NULL when it is not mangled. */
char *lk_demangle(const char *name);

#endif
