/*
 * lld's and mold's own reproducers (LINKSCOPE_REPRODUCE=1, see repro.h):
 * lld writes its tar where LLD_REPRODUCE says, the record dir; mold has
 * no such variable (MOLD_REPRO=1 writes OUTPUT.repro.tar beside the
 * output), so its tar is moved beside the record after the link (issue
 * #32, point 8: a 7 MB tar was left in the user's build dir).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "repro.h"

void lk_repro_request(struct lk_record_draft *rec, const char *dir)
{
	struct lk_buf path = LK_BUF_INIT;

	if (!strcmp(rec->linker_flavor, "lld")) {
		lk_buf_addf(&path, "%s/%s.repro.tar", dir, rec->id);
		setenv("LLD_REPRODUCE", path.buf, 1);
		rec->reproducer = lk_buf_detach(&path);
	} else if (!strcmp(rec->linker_flavor, "mold")) {
		/* mold writes <output>.repro.tar itself; we can only say where. */
		setenv("MOLD_REPRO", "1", 1);
		lk_buf_addf(&path, "%s.repro.tar",
			    rec->info->output_path ? rec->info->output_path : "a.out");
		rec->reproducer = lk_buf_detach(&path);
	} else {
		lk_buf_release(&path);
	}
}

int lk_repro_settle(struct lk_record_draft *rec, const char *dir)
{
	struct lk_buf to = LK_BUF_INIT;
	struct stat sb;
	int changed = 0;

	if (!rec->reproducer)
		return 0;
	if (stat(rec->reproducer, &sb) < 0) {
		free(rec->reproducer);
		rec->reproducer = NULL;
		return 1;
	}
	if (strcmp(rec->linker_flavor, "mold"))
		return 0;
	if (dir[0] != '/' && rec->cwd)
		lk_buf_addf(&to, "%s/", rec->cwd);
	lk_buf_addf(&to, "%s/%s.repro.tar", dir, rec->id);
	if (rename(rec->reproducer, to.buf) == 0) {
		free(rec->reproducer);
		rec->reproducer = lk_buf_detach(&to);
		changed = 1;
	} else {
		char *abs = realpath(rec->reproducer, NULL);
		struct lk_buf w = LK_BUF_INIT;

		lk_buf_addf(&w, "mold's reproducer stays at '%s': cannot move it beside the record: %s",
			    abs ? abs : rec->reproducer, strerror(errno));
		lk_strvec_push(&rec->warnings, w.buf);
		lk_buf_release(&w);
		if (abs) {
			free(rec->reproducer);
			rec->reproducer = abs;
			changed = 1;
		}
	}
	lk_buf_release(&to);
	return changed;
}

