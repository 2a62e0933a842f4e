/* libFuzzer target: a -T script's MEMORY regions and SECTIONS as analyzer/replay/memory.c reads them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "memory.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *unknown = NULL;
	size_t regions;

	memcpy(text, data, size);
	text[size] = '\0';
	regions = lk_memory_script_read(text, "/x/fuzz.ld", &unknown);
	/* What is not read is said on one line, naming the script. */
	if (unknown && (!strstr(unknown, "'fuzz.ld'") || strchr(unknown, '\n')))
		abort();
	/* Every region needs at least "X:o=0,l=0" in the text. */
	if (regions > size)
		abort();
	free(unknown);
	free(text);
	return 0;
}
