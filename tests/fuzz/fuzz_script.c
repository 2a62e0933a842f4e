/* libFuzzer target: linker scripts given as inputs (GROUP, INPUT, AS_NEEDED, SEARCH_DIR). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "script.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct lk_err err = LK_ERR_INIT;
	struct lk_script s;
	size_t total = 0;
	int rc;

	memcpy(text, data, size);
	text[size] = '\0';
	rc = lk_script_parse(text, "fuzz.ld", &s, &err);
	/* A failure always says why, on one line, naming the file. */
	if (rc < 0 && (!strstr(err.msg, "'fuzz.ld'") || strchr(err.msg, '\n')))
		abort();
	/* ... and is either ld's sure syntax error or what the model does not read, never both or neither. */
	if (rc < 0 && !s.error_line == !s.unmodelled)
		abort();
	/* Names and dirs come from the text: never more bytes than it has. */
	for (size_t i = 0; i < s.inputs.nr; i++)
		total += strlen(s.inputs.items[i].name);
	for (size_t i = 0; i < s.search_dirs.nr; i++)
		total += strlen(s.search_dirs.items[i]);
	if (total > size)
		abort();
	lk_script_release(&s);
	free(text);
	return 0;
}
