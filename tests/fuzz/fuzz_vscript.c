/* libFuzzer target: version scripts as GNU ld, lld and mold parse them (analyzer/replay/version_dialects.c). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/buf.h"
#include "linkscope/strvec.h"
#include "version_dialects.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);

	memcpy(text, data, size);
	text[size] = '\0';
	for (int d = LK_VSCRIPT_BFD; d <= LK_VSCRIPT_MOLD; d++) {
		struct lk_strvec nodes = LK_STRVEC_INIT;
		struct lk_buf why = LK_BUF_INIT;
		size_t total = 0;
		int rc = lk_vscript_parse(text, "/x/fuzz.map", (enum lk_vscript_dialect)d, &nodes, &why);

		/* A refusal always says why, on one line, naming the file; a success says nothing. */
		if (rc < 0 && (!strstr(why.buf, "'fuzz.map' line ") || strchr(why.buf, '\n')))
			abort();
		if (rc == 0 && why.len)
			abort();
		/* Node names come from the text: never more bytes than it has. */
		for (size_t i = 0; i < nodes.nr; i++)
			total += strlen(nodes.items[i]);
		if (total > size)
			abort();
		lk_strvec_release(&nodes);
		lk_buf_release(&why);
	}
	free(text);
	return 0;
}
