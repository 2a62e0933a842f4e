/*
 * gcc's temporary response files, filled in from the driver's argv.
 *
 * gcc.cc: when any argument came from an @file (at_file_supplied), the
 * link spec's `%@{L*}` and `%o` write the user's -L options and the
 * in-order words (objects, sources' temporary objects, -l, -Wl and
 * -Xlinker words) into response files made by make_temp_file ("cc" and
 * six characters in TMPDIR), one for each, which the driver deletes when
 * the link is over; an empty one is not written (close_at_file). So a
 * record's -### expansion names two gone files, in that order, and the
 * driver's argv (response files expanded) says what was in them, but for
 * what the driver itself adds among the inputs (g++'s -lstdc++ and -lm):
 * a failure predicted from such a line is "unknown" (certainty.c). The
 * shim since takes the expansion with the response files expanded, so
 * this is for records that have such files (older ones, or where that
 * -### could not be run).
 */
#include <string.h>
#include <unistd.h>

#include "atfile.h"
#include "linkscope/banned.h"

/* `@DIR/ccXXXXXX`, gone now: one of the driver's temporary response files. */
static int gcc_temp_atfile(const char *word)
{
	const char *base;

	if (word[0] != '@' || word[1] != '/')
		return 0;
	base = strrchr(word, '/') + 1;
	return !strncmp(base, "cc", 2) && strlen(base) == 8 && access(word + 1, F_OK) != 0;
}

static void splice(struct lk_strvec *argv, size_t at, const struct lk_strvec *words)
{
	struct lk_strvec out = LK_STRVEC_INIT;

	for (size_t i = 0; i < argv->nr; i++) {
		if (i != at) {
			lk_strvec_push(&out, argv->items[i]);
			continue;
		}
		for (size_t k = 0; k < words->nr; k++)
			lk_strvec_push(&out, words->items[k]);
	}
	lk_strvec_release(argv);
	*argv = out;
}

size_t lk_atfile_count(const struct lk_strvec *argv)
{
	size_t n = 0;

	for (size_t i = 1; i < argv->nr; i++)
		n += gcc_temp_atfile(argv->items[i]);
	return n;
}

size_t lk_atfile_fill(struct lk_strvec *argv, const struct lk_strvec *l_words,
		      const struct lk_strvec *ordered)
{
	const struct lk_strvec *next = l_words->nr ? l_words : ordered;
	size_t replaced = 0;

	for (size_t i = 1; i < argv->nr && next; i++) {
		const struct lk_strvec *words = next;

		if (!gcc_temp_atfile(argv->items[i]))
			continue;
		next = next == l_words ? ordered : NULL;
		splice(argv, i, words);
		i += words->nr;
		i--;
		replaced++;
	}
	return replaced;
}
