/* gcc's own temporary response files on the linker's command line. */
#ifndef ANALYZER_ATFILE_H
#define ANALYZER_ATFILE_H

#include "linkscope/strvec.h"

/*
 * When the driver was given a response file, gcc hands the linker the
 * user's -L options and the in-order words (inputs, -l, -Wl words) through
 * two temporary response files of its own, deleted after the link: the
 * record's -### expansion names `@/tmp/ccXXXXXX` words that are gone.
 * Replace each such word in `argv` by what gcc wrote there: the first by
 * `l_words` (when there are any: gcc writes no empty file), the next by
 * `ordered`. A word that is not such a file is left alone. Returns how
 * many words were replaced.
 */
/* How many of `argv`'s words are gcc's temporary response files, gone now. */
size_t lk_atfile_count(const struct lk_strvec *argv);

/* Stands in `ordered` for the temporary object gcc compiled a source to (its name was in the file). */
#define LK_ATFILE_SOURCE_OBJECT "/tmp/cc-source-object.o"

size_t lk_atfile_fill(struct lk_strvec *argv, const struct lk_strvec *l_words,
		      const struct lk_strvec *ordered);

#endif
