/*
 * Colours on a terminal only (color.h). NO_COLOR set to anything but the
 * empty string turns them off, as no-color.org asks.
 */
#include <stdlib.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "color.h"

int lk_color_wanted(FILE *out)
{
	const char *no = getenv("NO_COLOR");

	return isatty(fileno(out)) && !(no && *no);
}

void lk_color_init(struct lk_color *c, FILE *out)
{
	c->on = lk_color_wanted(out);
}

const char *lk_color(const struct lk_color *c, const char *code)
{
	return c->on ? code : "";
}
