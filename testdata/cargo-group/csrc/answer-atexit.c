/*
 * The x86_64 analogue of the case in ../shared/background: glibc keeps
 * atexit in libc_nonshared.a, which libc.so's GROUP brings in at rustc's own
 * -lc, before this archive (appended after it) references atexit. GNU ld
 * then fails with "undefined reference to `atexit'"; rust-lld, which does
 * not depend on archive order, links.
 */
#include <stdlib.h>

int lk_answer_part(void);
static void bye(void) {}
int lk_answer(void) { atexit(bye); return lk_answer_part() * 2; }
