/* libFuzzer target: the parser of the driver's -### output. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/expansion.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct lk_expansion exp;

	memcpy(text, data, size);
	text[size] = '\0';
	memset(&exp, 0, sizeof(exp));
	lk_expansion_parse(text, &exp);
	if (exp.linker_command >= (long)exp.commands.nr)
		abort();
	lk_expansion_release(&exp);
	free(text);
	return 0;
}
