/* libFuzzer target: response-file text, split with GCC's buildargv rules. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/rsp.h"
#include "linkscope/strvec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct lk_strvec words = LK_STRVEC_INIT;
	size_t total = 0;

	memcpy(text, data, size);
	text[size] = '\0';
	lk_rsp_split(text, &words);
	/* The words never hold more bytes than the text. */
	for (size_t i = 0; i < words.nr; i++)
		total += strlen(words.items[i]);
	if (total > size)
		abort();
	lk_strvec_release(&words);
	free(text);
	return 0;
}
