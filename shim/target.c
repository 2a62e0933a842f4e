/*
 * What a link is for: the target triple and the linker it asks for.
 *
 * Stage: argv -> record (the shim). Takes the line (lk_argv_info), the
 * driver's name and rustc's argv when rustc called us. Gives the record's
 * target {triple, source} and linker {flavor, program, program_source}.
 * Nothing runs: the driver's own answer (-print-prog-name) comes with its
 * -### view.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "target.h"
#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"

/* "aarch64-linux-gnu-gcc-12" -> "aarch64-linux-gnu", borrowed into `buf`. */
static const char *triple_from_driver(const char *driver, char *buf, size_t size)
{
	static const char *const tools[] = { "-gcc", "-cc", "-clang", "-g++", "-c++", "-clang++", NULL };
	const char *base = lk_path_base(driver);

	for (const char *const *t = tools; *t; t++) {
		const char *hit = strstr(base, *t);
		const char *rest;

		if (!hit || hit == base)
			continue;
		rest = hit + strlen(*t);
		if (*rest && *rest != '-')
			continue;
		if (!memchr(base, '-', (size_t)(hit - base)) ||
		    (size_t)(hit - base) >= size)
			continue;
		memcpy(buf, base, (size_t)(hit - base));
		buf[hit - base] = '\0';
		return buf;
	}
	return NULL;
}

static const char *rustc_target(const struct lk_rustc_caller *caller)
{
	for (size_t i = 1; caller->is_rustc && i < caller->argv.nr; i++) {
		const char *a = caller->argv.items[i];

		if (!strcmp(a, "--target") && i + 1 < caller->argv.nr)
			return caller->argv.items[i + 1];
		if (!strncmp(a, "--target=", 9))
			return a + 9;
	}
	return NULL;
}

/* rustc links with -L <sysroot>/lib/rustlib/<triple>/lib: the target it builds for. */
static const char *rustlib_triple(const struct lk_argv_info *info, char *buf,
				  size_t size)
{
	for (size_t i = 0; i < info->libdirs.nr; i++) {
		const char *p = strstr(info->libdirs.items[i], "/lib/rustlib/");
		const char *end;

		if (!p)
			continue;
		p += 13;
		end = strchr(p, '/');
		if (!end || strcmp(end, "/lib") || (size_t)(end - p) >= size)
			continue;
		memcpy(buf, p, (size_t)(end - p));
		buf[end - p] = '\0';
		return buf;
	}
	return NULL;
}

void lk_target_find(struct lk_record_draft *rec, const char *driver,
			char *buf, size_t size)
{
	if ((rec->target = rec->info->target))
		rec->target_source = "argv";
	else if ((rec->target = rustc_target(rec->caller)))
		rec->target_source = "rustc --target";
	else if (rec->caller->is_rustc && (rec->target = rustlib_triple(rec->info, buf, size)))
		rec->target_source = "rustc sysroot -L";
	else if ((rec->target = triple_from_driver(driver, buf, size)))
		rec->target_source = "driver name";
}

void lk_target_find_linker(struct lk_record_draft *rec)
{
	const char *fuse = rec->info->fuse_ld;
	const char *base = fuse ? lk_path_base(fuse) : NULL;
	struct lk_buf name = LK_BUF_INIT, cand = LK_BUF_INIT;

	if (!fuse)
		rec->linker_flavor = "default";
	else if (strstr(base, "mold"))
		rec->linker_flavor = "mold";
	else if (strstr(base, "lld"))
		rec->linker_flavor = "lld";
	else if (strstr(base, "gold"))
		rec->linker_flavor = "gold";
	else if (strstr(base, "bfd"))
		rec->linker_flavor = "bfd";
	else
		rec->linker_flavor = "other";

	if (fuse && strchr(fuse, '/')) {
		rec->linker_program = lk_xstrdup(fuse);
		rec->linker_program_source = "-fuse-ld path";
		return;
	}
	lk_buf_addstr(&name, "ld");
	if (fuse)
		lk_buf_addf(&name, ".%s", fuse);
	for (size_t i = 0; i < rec->info->bdirs.nr; i++) {
		const char *dir = rec->info->bdirs.items[i];
		size_t len = strlen(dir);

		lk_buf_reset(&cand);
		lk_buf_addf(&cand, "%s%s%s", dir, len && dir[len - 1] == '/' ? "" : "/", name.buf);
		if (access(cand.buf, X_OK) == 0) {
			rec->linker_program = lk_buf_detach(&cand);
			rec->linker_program_source = "-B dir";
			break;
		}
	}
	lk_buf_release(&name);
	lk_buf_release(&cand);
}
