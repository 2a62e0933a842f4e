/* libFuzzer target: check's --accept-file text (KIND:SYMBOL lines, comments). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "linkscope/strvec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct lk_strvec accept = LK_STRVEC_INIT;
	struct lk_err err = LK_ERR_INIT;
	int rc;

	memcpy(text, data, size);
	text[size] = '\0';
	rc = lk_check_parse_accept(text, "fuzz.accept", &accept, &err);
	/* A failure always says why, on one line, naming the file. */
	if (rc < 0 && (!strstr(err.msg, "'fuzz.accept'") || strchr(err.msg, '\n')))
		abort();
	/* Each accepted entry is one KIND:SYMBOL line, trimmed: no newline, no blank. */
	for (size_t i = 0; i < accept.nr; i++)
		if (!strchr(accept.items[i], ':') || strchr(accept.items[i], '\n') ||
		    accept.items[i][0] == ' ' || accept.items[i][0] == '#')
			abort();
	lk_strvec_release(&accept);
	free(text);
	return 0;
}
