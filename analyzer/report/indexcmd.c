/*
 * `linkscope index [--cache-dir DIR] DIR...`: build or refresh the
 * provider index (provider.c) of the given dirs ahead of time, and say
 * what it took. make bench passes ld's SEARCH_DIRs, /etc/ld.so.conf's dirs
 * and gcc's runtime dir: the dirs a native link's analysis searches.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/progress.h"
#include "provider.h"
#include "linkscope/vec.h"
#include "indexcmd.h"

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int lk_index_main(int argc, char **argv)
{
	struct lk_strvec dirs = LK_STRVEC_INIT;
	struct lk_provider_index ix;
	struct lk_progress progress;
	char *cache = NULL;
	size_t names = 0;
	double t0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--cache-dir") && i + 1 < argc) {
			free(cache);
			cache = lk_xstrdup(argv[++i]);
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "linkscope: index: unknown option '%s'\n", argv[i]);
			fputs("usage: linkscope index [--cache-dir DIR] DIR...\n", stderr);
			free(cache);
			lk_strvec_release(&dirs);
			return 2;
		} else {
			lk_strvec_push(&dirs, argv[i]);
		}
	}
	if (!dirs.nr) {
		fputs("usage: linkscope index [--cache-dir DIR] DIR...\n", stderr);
		free(cache);
		return 2;
	}
	if (!cache)
		cache = lk_provider_cache_dir();
	t0 = now_s();
	lk_progress_start(&progress, isatty(2) ? stderr : NULL, "indexing", "dirs", dirs.nr);
	lk_provider_index_dirs(&ix, &dirs, 0, cache, &progress);
	lk_progress_end(&progress);
	for (size_t i = 0; i < ix.files.nr; i++)
		names += ix.files.items[i].nnames;
	printf("%zu dirs, %zu libraries (%zu read now, %zu from the cache), %zu exported names, %.3f s\n",
	       ix.dirs.nr, ix.files.nr, ix.read, ix.cached, names, now_s() - t0);
	for (size_t i = 0; i < ix.notes.nr; i++)
		fprintf(stderr, "linkscope: %s\n", ix.notes.items[i]);
	lk_provider_index_release(&ix);
	lk_strvec_release(&dirs);
	free(cache);
	return 0;
}
