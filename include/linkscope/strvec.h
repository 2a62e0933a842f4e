/* lk_strvec: an owned, NULL-terminated vector of strings (an argv). */
#ifndef LINKSCOPE_STRVEC_H
#define LINKSCOPE_STRVEC_H

#include <stddef.h>

struct lk_strvec {
	char **items;	/* items[nr] is NULL once anything was pushed */
	size_t nr, alloc;
};

#define LK_STRVEC_INIT { NULL, 0, 0 }

void lk_strvec_push(struct lk_strvec *v, const char *s);
/* Take ownership of the malloc'd `s`. */
void lk_strvec_push_owned(struct lk_strvec *v, char *s);
void lk_strvec_release(struct lk_strvec *v);
/* The same strings in the same order? */
int lk_strvec_equal(const struct lk_strvec *a, const struct lk_strvec *b);

#endif
