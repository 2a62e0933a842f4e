/*
 * libFuzzer target: a bundle as `linkscope explain B.lkb` reads it
 * (analyzer/bundle.c). The input is the tar inside: it is compressed
 * with zstd and put after the magic, so that the fuzzer works on the
 * members (names, types, sizes, pax headers) and not on zstd's framing;
 * an input starting with 'Z' goes in as the compressed stream itself.
 * Every refusal is one line naming the bundle, and nothing is left: an
 * accepted bundle's dir holds only the names a bundle holds.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zstd.h>

#include "bundle.h"
#include "linkscope/runcmd.h"

static const unsigned char magic[32] = {
	0x50, 0x2a, 0x4d, 0x18, 24, 0, 0, 0,
	'l', 'i', 'n', 'k', 's', 'c', 'o', 'p', 'e', '-', 'b', 'u', 'n', 'd', 'l', 'e', '/', '1',
	0, 0, 0, 0, 0, 0,
};

/* Only manifest.json, record.json and blobs/ (itself only 64-hex names) in an accepted bundle's dir. */
static void check_dir(const char *dir)
{
	char blobs[4096];
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		abort();
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") && strcmp(de->d_name, "manifest.json") &&
		    strcmp(de->d_name, "record.json") && strcmp(de->d_name, "blobs"))
			abort();
	closedir(d);
	snprintf(blobs, sizeof(blobs), "%s/blobs", dir);
	if (!(d = opendir(blobs)))
		abort();
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") && strlen(de->d_name) != 64)
			abort();
	closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/fuzz-bundle.XXXXXX";
	struct lk_err err = LK_ERR_INIT;
	size_t bound = ZSTD_compressBound(size), n;
	unsigned char *z = malloc(bound + 1);
	char *dir;
	FILE *fp;
	int fd = mkstemp(path);

	if (fd < 0 || !(fp = fdopen(fd, "w")))
		abort();
	fwrite(magic, 1, sizeof(magic), fp);
	if (size && data[0] == 'Z') {
		fwrite(data + 1, 1, size - 1, fp);
	} else {
		n = ZSTD_compress(z, bound + 1, data, size, 1);
		if (ZSTD_isError(n))
			abort();
		fwrite(z, 1, n, fp);
	}
	fclose(fp);
	free(z);
	dir = lk_bundle_unpack(path, &err);
	if (!dir && (!strstr(err.msg, path) || strchr(err.msg, '\n')))
		abort();
	if (dir) {
		check_dir(dir);
		lk_scratch_remove(dir);
		free(dir);
	}
	unlink(path);
	return 0;
}
