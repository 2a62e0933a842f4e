/* libFuzzer target: the parser of the driver's -### output. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "expand.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct lk_rec_expansion exp;

	memcpy(text, data, size);
	text[size] = '\0';
	memset(&exp, 0, sizeof(exp));
	lk_expand_parse(text, &exp);
	if (exp.linker_command >= (long)exp.commands.nr)
		abort();
	for (size_t i = 0; i < exp.commands.nr; i++)
		lk_strvec_release(&exp.commands.items[i]);
	free(exp.commands.items);
	free(exp.library_path);
	free(exp.compiler_path);
	free(text);
	return 0;
}
