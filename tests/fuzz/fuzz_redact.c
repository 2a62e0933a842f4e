/* libFuzzer target: credential redaction of environment values and argv words. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/env.h"

static size_t spaces(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += !!isspace((unsigned char)*s);
	return n;
}

static size_t commas(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == ',';
	return n;
}

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
	/* A redaction replaces a value, never the words around it (issue #15): */
	if (spaces(value) != spaces(out))
		abort();
	/* nor the items of a -Wl, word. */
	if (!strncmp(value, "-Wl,", 4) && !spaces(value) && commas(value) != commas(out))
		abort();
	free(again);
	free(out);
	free(value);
	return 0;
}
