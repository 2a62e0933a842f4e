/*
 * libFuzzer target: the driver's view cache entry (shim/viewcache.c), read
 * from a record dir as untrusted input. An entry the parser takes must
 * write back to the same bytes, and its template must fill a line.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"
#include "viewcache.h"
#include "linkscope/expansion.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const argv[] = { "cc", "main.o", "-o", "app", "-L/x", "-lfoo", NULL };
	struct lk_buf key = LK_BUF_INIT, again = LK_BUF_INIT;
	struct lk_view_template t;
	struct lk_view_line line;
	struct lk_expansion exp;

	lk_buf_addstr(&key, "k");
	if (lk_viewcache_parse((const char *)data, size, &key, &t) == 0) {
		lk_viewcache_write(&t, &key, &again);
		if (again.len != size || memcmp(again.buf, data, size))
			abort();
		lk_view_line_read(&line, (char *const *)argv, 0);
		memset(&exp, 0, sizeof(exp));
		lk_view_expand(&t, &line, &exp);
		if (exp.commands.nr != t.cmds.nr)
			abort();
		lk_expansion_release(&exp);
		lk_view_line_release(&line);
		lk_view_template_release(&t);
	}
	lk_buf_release(&again);
	lk_buf_release(&key);
	return 0;
}
