/*
 * Strings in linkscope's JSON: valid UTF-8 as a JSON string, other bytes as
 * {"hex": ...}, and back. The one place that rule lives (see the header).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/json.h"
#include "linkscope/vec.h"

json_t *lk_json_str(const char *s)
{
	struct lk_buf hex = LK_BUF_INIT;
	json_t *j;

	if (!s)
		return json_null();
	j = json_string(s);	/* NULL when `s` is not valid UTF-8 */
	if (j)
		return j;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		lk_buf_addf(&hex, "%02x", *p);
	j = json_pack("{s:s}", "hex", hex.buf);
	lk_buf_release(&hex);
	return j;
}

char *lk_json_bytes(const json_t *j)
{
	const char *h;
	size_t len;
	char *out;

	if (json_is_string(j))
		return lk_xstrdup(json_string_value(j));
	if (!json_is_object(j) || json_object_size(j) != 1 ||
	    !(h = json_string_value(json_object_get(j, "hex"))) || (len = strlen(h)) % 2)
		return NULL;
	out = lk_xmalloc(len / 2 + 1);
	for (size_t i = 0; i < len / 2; i++) {
		unsigned v;

		if (sscanf(h + 2 * i, "%2x", &v) != 1) {
			free(out);
			return NULL;
		}
		out[i] = (char)v;
	}
	out[len / 2] = '\0';
	return out;
}
