/*
 * record-as-jansson FILE...: is each file, byte for byte, what jansson
 * writes back when it reads it (json_dumps with JSON_INDENT(1) |
 * JSON_PRESERVE_ORDER and a newline, the shim's format before its
 * streaming writer, common/record_write.c)? Prints each file that is not
 * and exits 1; tests/golden-records.sh runs it over every record of the
 * integration tests. A test tool: not installed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "linkscope/buf.h"

static int same_as_jansson(const char *path)
{
	struct lk_buf text = LK_BUF_INIT;
	json_error_t error;
	json_t *root = NULL;
	char *again = NULL;
	int same = 0;

	if (lk_buf_read_file(&text, path, (size_t)1 << 30) < 0)
		fprintf(stderr, "record-as-jansson: cannot read '%s'\n", path);
	else if (!(root = json_loadb(text.buf, text.len, 0, &error)))
		fprintf(stderr, "record-as-jansson: '%s': %s\n", path, error.text);
	else if (!(again = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER)))
		fprintf(stderr, "record-as-jansson: '%s': jansson cannot write it\n", path);
	else if (strlen(again) + 1 != text.len || memcmp(again, text.buf, text.len - 1) ||
		 text.buf[text.len - 1] != '\n')
		printf("record-as-jansson: '%s' is not what jansson writes\n", path);
	else
		same = 1;
	free(again);
	json_decref(root);
	lk_buf_release(&text);
	return same;
}

int main(int argc, char **argv)
{
	int bad = 0;

	for (int i = 1; i < argc; i++)
		bad += !same_as_jansson(argv[i]);
	if (argc > 1)
		printf("record-as-jansson: %d of %d records as jansson writes them\n", argc - 1 - bad, argc - 1);
	return bad ? 1 : 0;
}
