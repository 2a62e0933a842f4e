/*
 * Names by meaning (see normalize.h). Used by `diff` to align two lines
 * and by `report --failed` to find the same cause in several links.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "normalize.h"

/* Architectures as they appear in GNU triples, rustc's triples and glibc's loader names. */
static const char *const arches[] = {
	"x86_64", "aarch64", "i686", "i586", "i386", "armv7", "arm", "riscv64gc", "riscv64",
	"powerpc64le", "powerpc64", "s390x", "loongarch64", "mips64el", NULL,
};

/* glibc's loader names differ by architecture only. */
static const char *const loaders[] = {
	"ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1", "ld-linux-armhf.so.3", "ld-linux.so.2",
	"ld-linux-riscv64-lp64d.so.1", "ld64.so.2", "ld64.so.1", NULL,
};

const char *lk_norm_base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* A run of hex digits at `p` (at a word start): its length if it looks like a hash, else 0. */
static size_t hash_at(const char *p)
{
	size_t n = 0;
	int digit = 0;

	while (isxdigit((unsigned char)p[n]) && !isupper((unsigned char)p[n])) {
		digit |= isdigit((unsigned char)p[n]);
		n++;
	}
	return n >= 8 && digit && !word_char(p[n]) ? n : 0;
}

static size_t prefix_in(const char *p, const char *const *list, const char **hit)
{
	for (const char *const *w = list; *w; w++) {
		size_t n = strlen(*w);

		if (!strncmp(p, *w, n)) {
			*hit = *w;
			return n;
		}
	}
	return 0;
}

/* rustc's codegen units: "<crate>-<hash>.<cgu>.<session>.rcgu.o"; the session part differs per build. */
static char *codegen_units(char *s)
{
	struct lk_buf b = LK_BUF_INIT;
	const char *p = s, *hit;

	while ((hit = strstr(p, ".rcgu.o"))) {
		const char *dot = hit;

		while (dot > p && dot[-1] != '.' && dot[-1] != '/')
			dot--;
		if (dot > p && dot[-1] == '.') {
			lk_buf_add(&b, p, (size_t)(dot - p));
			lk_buf_addch(&b, '*');
		} else {
			lk_buf_add(&b, p, (size_t)(hit - p));
		}
		lk_buf_addstr(&b, ".rcgu.o");
		p = hit + 7;
	}
	lk_buf_addstr(&b, p);
	free(s);
	return lk_buf_detach(&b);
}

const char *lk_norm_original(const struct lk_record *rec, const char *path)
{
	const char *blob = strstr(path, "blobs/");

	for (size_t i = 0; blob && i < rec->kept.nr; i++)
		if (rec->kept.items[i].blob && !strcmp(rec->kept.items[i].blob, blob))
			return rec->kept.items[i].path;
	return path;
}

char *lk_norm_name(const char *s)
{
	struct lk_buf b = LK_BUF_INIT;
	const char *p = s;

	while (*p) {
		int at_word = p == s || !word_char(p[-1]);
		const char *hit;
		size_t n;

		if (at_word && !strncmp(p, "rustc", 5) && strlen(p) >= 11 && (p[11] == '/' || !p[11])) {
			/* rustc's temporary directory: "rustc" and six random characters. */
			lk_buf_addstr(&b, "rustc*");
			p += 11;
		} else if (at_word && (n = prefix_in(p, loaders, &hit))) {
			lk_buf_addstr(&b, "<loader>");
			p += n;
		} else if (at_word && (n = prefix_in(p, arches, &hit)) &&
			   (!strncmp(p + n, "-linux-gnu", 10) || !strncmp(p + n, "-unknown-linux-gnu", 18) ||
			    !strncmp(p + n, "-linux-gnueabihf", 16))) {
			lk_buf_addstr(&b, "<arch>");
			p += n;
		} else if (at_word && (n = hash_at(p))) {
			lk_buf_addch(&b, '#');
			p += n;
		} else {
			lk_buf_addch(&b, *p++);
		}
	}
	return codegen_units(lk_buf_detach(&b));
}

/* Replace `from` (a directory, at a path boundary) by `to` in `s`. */
static void replace_dir(struct lk_buf *s, const char *from, const char *to)
{
	struct lk_buf out = LK_BUF_INIT;
	size_t n = strlen(from);
	const char *p = s->buf, *hit;

	if (!n)
		return;
	while ((hit = strstr(p, from))) {
		char after = hit[n];

		if (after && after != '/' && after != ',' && after != ':' && after != '=') {
			lk_buf_add(&out, p, (size_t)(hit - p) + 1);
			p = hit + 1;
			continue;
		}
		lk_buf_add(&out, p, (size_t)(hit - p));
		lk_buf_addstr(&out, to);
		p = hit + n;
	}
	lk_buf_addstr(&out, p);
	lk_buf_release(s);
	*s = out;
}

char *lk_norm_arg(const struct lk_norm *n, const char *arg)
{
	struct lk_buf b = LK_BUF_INIT;
	char *name;

	if (arg[0] && arg[0] != '-' && arg[0] != '/' && arg[0] != '@' && n->cwd)
		lk_buf_addf(&b, "%s/%s", n->cwd, !strncmp(arg, "./", 2) ? arg + 2 : arg);
	else
		lk_buf_addstr(&b, arg);
	/* The longer first: the build root is usually under the cwd. */
	if (n->build_root && n->cwd && strlen(n->build_root) < strlen(n->cwd)) {
		replace_dir(&b, n->cwd, "<cwd>");
		replace_dir(&b, n->build_root, "<build>");
	} else {
		if (n->build_root)
			replace_dir(&b, n->build_root, "<build>");
		if (n->cwd)
			replace_dir(&b, n->cwd, "<cwd>");
	}
	name = lk_norm_name(b.buf);
	lk_buf_release(&b);
	return name;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash != path ? lk_xstrndup(path, (size_t)(slash - path)) : NULL;
}

void lk_norm_init(struct lk_norm *n, const struct lk_record *rec)
{
	struct lk_buf out = LK_BUF_INIT;
	char *dir;

	n->cwd = rec->cwd && strcmp(rec->cwd, "/") ? lk_xstrdup(rec->cwd) : NULL;
	n->build_root = NULL;
	if (!rec->output)
		return;
	if (rec->output[0] != '/' && rec->cwd)
		lk_buf_addf(&out, "%s/%s", rec->cwd, rec->output);
	else
		lk_buf_addstr(&out, rec->output);
	dir = dir_of(out.buf);
	lk_buf_release(&out);
	if (!dir)
		return;
	/* cargo: target/[<triple>/]<profile>/deps/<name>-<hash>; the root is the profile's dir. */
	if (!strcmp(lk_norm_base(dir), "deps")) {
		n->build_root = dir_of(dir);
		free(dir);
	} else if (n->cwd && !strcmp(dir, n->cwd)) {
		free(dir);
	} else {
		n->build_root = dir;
	}
}

void lk_norm_release(struct lk_norm *n)
{
	free(n->cwd);
	free(n->build_root);
	n->cwd = n->build_root = NULL;
}
