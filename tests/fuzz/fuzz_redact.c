/* libFuzzer target: credential redaction of environment values. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/env.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *value = malloc(size + 1);
	char *out, *again, *every;
	int changed, changed_again, changed_every;

	memcpy(value, data, size);
	value[size] = '\0';
	out = lk_env_redact(value, &changed);
	/* The quick look for a mark of a secret never skips one. */
	every = lk_env_redact_every(value, &changed_every);
	if (strcmp(out, every) || changed != changed_every)
		abort();
	free(every);
	/* Redacting twice changes nothing more than once did. */
	again = lk_env_redact(out, &changed_again);
	if (strcmp(out, again) && !strstr(out, LK_REDACTED))
		abort();
	free(again);
	free(out);
	free(value);
	return 0;
}
