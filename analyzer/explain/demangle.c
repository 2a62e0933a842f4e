/*
 * Symbol names for people: C++ (Itanium) and Rust (legacy and v0)
 * demangling through libbfd's bfd_demangle, which is libiberty's. This is
 * the only file that includes <bfd.h>; the shim never links libbfd.
 */
/* bfd.h refuses to be included without the names of the package using it. */
#define PACKAGE "linkscope"
#define PACKAGE_VERSION "0"
#include <bfd.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"

/* libiberty's DMGL_PARAMS | DMGL_ANSI: parameter lists and const qualifiers. */
#define LK_DMGL_FLAGS (1 << 0 | 1 << 1)

char *lk_demangle(const char *name)
{
	char *d = bfd_demangle(NULL, name, LK_DMGL_FLAGS);

	if (d && !strcmp(d, name)) {
		free(d);
		return NULL;
	}
	return d;
}
