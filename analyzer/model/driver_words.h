/*
 * What gcc's driver passes on to the linker of its own argv (its link
 * spec: which words it keeps in order, %o, and which it hoists), and the
 * linker's argv matched back to driver positions; and the linker's argv of
 * another line of the same driver, made from a recorded one.
 */
#ifndef ANALYZER_DRIVER_WORDS_H
#define ANALYZER_DRIVER_WORDS_H

#include <stddef.h>

#include "linkscope/buf.h"
#include "linkscope/record.h"
#include "linkscope/rsp.h"
#include "linkscope/strvec.h"

/* One word the driver should give the linker. */
struct lk_driver_word {
	char *word;
	long position;	/* the driver argv position it comes from */
	int ordered;	/* gcc keeps it in place (%o): inputs, -l, -Wl/-Xlinker words */
	int source;	/* a source: the linker sees the driver's temporary object */
};

struct lk_driver_words {
	struct lk_driver_word *items;
	size_t nr, alloc;
};

#define LK_DRIVER_WORDS_INIT { NULL, 0, 0 }

/* The words of `args` (a driver argv), in the order gcc's link spec gives them. */
void lk_driver_words(const struct lk_args *args, struct lk_driver_words *out);
void lk_driver_words_release(struct lk_driver_words *w);

/*
 * The linker argv the driver would run for `args`, made from the one it
 * ran for `base`'s line (base->linker_argv, its -### expansion): the
 * driver's own additions (crt files, default -L dirs, -lgcc, -lc) kept,
 * the words of base's argv replaced by those of `args`. That holds only
 * when both lines have the same driver and the same options that change
 * the additions (-shared, -static, -pie, -nostdlib, -m64, --sysroot, -B,
 * -fuse-ld=, ...): else -1 with `why` saying which differs. 0 and `out`.
 * A source the line compiles becomes the object the baseline's call made
 * of the same source (the shim keeps it); one it did not compile is -1.
 */
int lk_driver_expand_again(const struct lk_record *base, const struct lk_args *args,
			   struct lk_strvec *out, struct lk_buf *why);

#endif
