#ifndef LK_VERSION_DIALECTS_H
#define LK_VERSION_DIALECTS_H

/*
 * A version script as one linker parses it (version_dialects.c), for the
 * replay's end of the line and the fuzz target.
 */
#include "linkscope/buf.h"
#include "linkscope/strvec.h"

enum lk_vscript_dialect { LK_VSCRIPT_BFD, LK_VSCRIPT_LLD, LK_VSCRIPT_MOLD };

/*
 * Parse `text` (the version script `path`) as `dialect` does: 0, or -1
 * with `why` set to one line naming the file's base name and the line
 * ("'v.map' line 3: syntax error"). The names of the nodes it defines are
 * appended to `nodes` (may be NULL) when it parses.
 */
int lk_vscript_parse(const char *text, const char *path, enum lk_vscript_dialect dialect,
		     struct lk_strvec *nodes, struct lk_buf *why);

#endif
