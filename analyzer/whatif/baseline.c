/*
 * whatif's BASELINE given as a record directory: the newest good link of
 * the target there. A target is the output's file name without cargo's
 * "-<16 hex>" metadata suffix (deps/cargo_group-4cd16504d119fb96 is
 * "cargo_group"); build scripts' own links are no target. One target in
 * the directory, or the one --target names; several: a usage error that
 * lists them.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "recdir.h"
#include "whatif.h"

/* "cargo_group" of ".../deps/cargo_group-4cd16504d119fb96", malloc'd. */
static char *target_of(const char *output)
{
	const char *base = lk_path_base(output);
	size_t len = strlen(base);

	if (len > 17 && base[len - 17] == '-' && strspn(base + len - 16, "0123456789abcdef") == 16)
		len -= 17;
	return lk_xstrndup(base, len);
}

/* Does --target NAME name `t` (a crate's name is the package's with '-' as '_')? */
static int names(const char *name, const char *t)
{
	size_t n = strlen(name);

	if (n != strlen(t))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (name[i] != t[i] && !(name[i] == '-' && t[i] == '_'))
			return 0;
	return 1;
}

char *lk_whatif_pick_baseline(const char *dir, const char *target, struct lk_err *err)
{
	struct lk_recdir rd;
	struct lk_strvec seen = LK_STRVEC_INIT;
	const struct lk_index_entry *pick = NULL;
	char *path = NULL;
	int bad = 0;

	if (lk_recdir_read(dir, &rd, &bad) < 0) {
		lk_err_set(err, LK_E_USAGE, "'%s' cannot be read as a record directory", dir);
		return NULL;
	}
	for (size_t i = 0; i < rd.entries.nr; i++) {	/* newest first */
		const struct lk_index_entry *e = &rd.entries.items[i];
		char *t;
		int known = 0;

		if (lk_recdir_failed(e) || !e->output)
			continue;
		t = target_of(e->output);
		if (!strncmp(t, "build_script_", 13) || (target && !names(target, t))) {
			free(t);
			continue;
		}
		for (size_t k = 0; k < seen.nr && !known; k++)
			known = !strcmp(seen.items[k], t);
		if (!known) {
			lk_strvec_push_owned(&seen, t);
			if (!pick)
				pick = e;
		} else {
			free(t);
		}
	}
	if (!pick) {
		lk_err_set(err, LK_E_USAGE, "'%s' has no good link%s%s to be the baseline", dir,
			   target ? " of target " : "", target ? target : "");
	} else if (seen.nr > 1) {
		struct lk_buf list = LK_BUF_INIT;

		for (size_t k = 0; k < seen.nr && k < 12; k++)
			lk_buf_addf(&list, "%s%s", k ? ", " : "", seen.items[k]);
		lk_err_set(err, LK_E_USAGE, "'%s' has good links of %zu targets: --target NAME chooses one (%s%s)", dir,
			   seen.nr, list.buf, seen.nr > 12 ? ", ..." : "");
		lk_buf_release(&list);
	} else {
		path = lk_recdir_path(&rd, pick);
	}
	lk_strvec_release(&seen);
	lk_recdir_release(&rd);
	return path;
}
