/*
 * redact-record IN OUT: the record IN, written by the shim with
 * LINKSCOPE_REDACT=0, through the shim's own redaction (lk_record_redact)
 * into OUT. So a test can analyse one link's record with and without
 * redaction and compare (tests/difftest/difftest.py --redaction,
 * tests/real/realtest.py --redaction). A test tool: not installed.
 */
#include <stdio.h>

#include <jansson.h>

#include "linkscope/record.h"

int main(int argc, char **argv)
{
	json_error_t error;
	json_t *root;

	if (argc != 3) {
		fprintf(stderr, "usage: redact-record IN OUT\n");
		return 2;
	}
	root = json_load_file(argv[1], 0, &error);
	if (!json_is_object(root)) {
		fprintf(stderr, "redact-record: cannot read '%s': %s\n", argv[1],
			root ? "not a JSON object" : error.text);
		json_decref(root);
		return 1;
	}
	lk_record_redact(root);
	if (json_dump_file(root, argv[2], JSON_INDENT(1) | JSON_PRESERVE_ORDER) < 0) {
		fprintf(stderr, "redact-record: cannot write '%s'\n", argv[2]);
		json_decref(root);
		return 1;
	}
	json_decref(root);
	return 0;
}
