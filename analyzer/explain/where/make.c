#include "parts.h"
struct lk_fix_where *wh_make(const struct wh_ask *a)
{
	(void)a;
	return NULL;
}
