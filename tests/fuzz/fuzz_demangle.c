/* libFuzzer target: the demangler (C++ Itanium, Rust legacy and v0 names from any input's symbol table). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *name = malloc(size + 1);
	char *out;

	memcpy(name, data, size);
	name[size] = '\0';
	out = lk_demangle(name);
	/* A demangled name is a string for people: NUL-terminated, no newline smuggled in. */
	if (out && strchr(out, '\n') && !strchr(name, '\n'))
		abort();
	free(out);
	free(name);
	return 0;
}
