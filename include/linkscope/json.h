/*
 * Strings in linkscope's JSON (records and every JSON report): one rule,
 * so a name is never lost. A path, symbol or argument is a JSON string
 * when it is valid UTF-8; otherwise (argv bytes and ELF names can be any
 * bytes) it is {"hex": "<its bytes as lower-case hex>"}, as
 * docs/record-format.md says. jansson's own json_string() returns NULL for
 * such bytes, and json_pack() with "s" fails whole: what it was building
 * (a diagnostic, a report) silently drops out.
 */
#ifndef LINKSCOPE_JSON_H
#define LINKSCOPE_JSON_H

#include <jansson.h>

/* A new reference: `s` as a string, {"hex": ...}, or null when `s` is NULL. */
json_t *lk_json_str(const char *s);

/*
 * The bytes of a string or of a {"hex": ...} object (exactly that one
 * key, an even number of hex digits), malloc'd; NULL for anything else.
 */
char *lk_json_bytes(const json_t *j);

#endif
