/*
 * libFuzzer target: a bundle as `linkscope explain B.lkb` reads it
 * (analyzer/bundle.c). The input is the tar inside: it is compressed
 * with zstd and put after the magic, so that the fuzzer works on the
 * members (names, types, sizes, pax headers) and not on zstd's framing;
 * an input starting with 'Z' goes in as the compressed stream itself.
 * Every refusal is one line naming the bundle, and nothing is left: an
 * accepted bundle's dir holds only the names a bundle holds, and its
 * manifest is adopted (lk_bundle_adopt). An input starting with 'M' is a
 * manifest.json itself, beside a record.json and one blob: "@R@" in it
 * becomes the record's SHA-256 and "@B@" the blob's, which a fuzzer
 * would not find, so that the manifest's reader is reached past them.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "bundle.h"
#include "linkscope/buf.h"
#include "linkscope/record.h"
#include "linkscope/sha256.h"
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

/* The unpacked `dir`'s manifest adopted into an empty record: 0, or a refusal in one line naming `bundle`. */
static void adopt(const char *dir, const char *bundle)
{
	struct lk_err err = LK_ERR_INIT;
	struct lk_record rec;

	memset(&rec, 0, sizeof(rec));
	if (lk_bundle_adopt(&rec, dir, bundle, &err) < 0 && (!strstr(err.msg, bundle) || strchr(err.msg, '\n')))
		abort();
	lk_record_release(&rec);
}

static void put(const char *dir, const char *name, const void *text, size_t n)
{
	struct lk_buf path = LK_BUF_INIT;
	FILE *f;

	lk_buf_addf(&path, "%s/%s", dir, name);
	if (!(f = fopen(path.buf, "w")))
		abort();
	fwrite(text, 1, n, f);
	fclose(f);
	lk_buf_release(&path);
}

/* 'M': the manifest's reader alone, on a dir laid out as lk_bundle_unpack leaves one. */
static void manifest_only(const uint8_t *data, size_t size)
{
	static const char record[] = "{}", blob[] = "blob";
	char rsha[65], bsha[65];
	struct lk_buf man = LK_BUF_INIT, name = LK_BUF_INIT;
	struct lk_sha256 h;
	char *dir = lk_scratch_dir("fuzz-bundle");

	if (!dir)
		abort();
	lk_sha256_init(&h);
	lk_sha256_update(&h, record, strlen(record));
	lk_sha256_final_hex(&h, rsha);
	lk_sha256_init(&h);
	lk_sha256_update(&h, blob, strlen(blob));
	lk_sha256_final_hex(&h, bsha);
	for (size_t i = 0; i < size; i++)
		if (i + 3 <= size && (!memcmp(data + i, "@R@", 3) || !memcmp(data + i, "@B@", 3))) {
			lk_buf_addstr(&man, data[i + 1] == 'R' ? rsha : bsha);
			i += 2;
		} else {
			lk_buf_addch(&man, (char)data[i]);
		}
	put(dir, "manifest.json", man.buf, man.len);
	put(dir, "record.json", record, strlen(record));
	lk_buf_addf(&name, "%s/blobs", dir);
	if (mkdir(name.buf, 0700) < 0)
		abort();
	lk_buf_reset(&name);
	lk_buf_addf(&name, "blobs/%s", bsha);
	put(dir, name.buf, blob, strlen(blob));
	adopt(dir, "fuzz.lkb");
	lk_scratch_remove(dir);
	free(dir);
	lk_buf_release(&man);
	lk_buf_release(&name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/fuzz-bundle.XXXXXX";
	struct lk_err err = LK_ERR_INIT;
	size_t bound, n;
	unsigned char *z;
	char *dir;
	FILE *fp;
	int fd;

	if (size && data[0] == 'M') {
		manifest_only(data + 1, size - 1);
		return 0;
	}
	bound = ZSTD_compressBound(size);
	z = malloc(bound + 1);
	fd = mkstemp(path);
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
	dir = lk_bundle_unpack(path, path, &err);
	if (!dir && (!strstr(err.msg, path) || strchr(err.msg, '\n')))
		abort();
	if (dir) {
		check_dir(dir);
		adopt(dir, path);
		lk_scratch_remove(dir);
		free(dir);
	}
	unlink(path);
	return 0;
}
