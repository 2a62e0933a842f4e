/*
 * Fingerprints of a link's inputs, for the record: size and mtime of each
 * input file, and of each file a -l may resolve to in the line's own -L
 * dirs (cheap; the driver's default dirs come with the -### expansion).
 *
 * Stage: argv -> record (the shim). Taken while the link runs
 * (shim/main.c), which is right for every input the link does not write.
 * The one it writes is its output: an input with the output's file name,
 * or the output's file as it was before the link (by device and inode:
 * a symlink or a hard link of it) is flagged, and the shim then takes
 * every fingerprint and copy after the link, as it always did. So is a
 * symlink to the output the link has already replaced (GNU ld unlinks the
 * old file and writes a new one: the symlink leads to the new inode, or
 * nowhere for a moment), and any symlink that leads nowhere (the link may
 * be about to make its target): taken while the link ran, 113's
 * -lalias -> libfoo.so read 0 bytes, or no candidate at all.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input_fingerprint.h"
#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"

void lk_fingerprint_note_output(struct lk_output_before *out, const struct lk_argv_info *info)
{
	struct stat st;

	out->path = info->output_path ? info->output_path : "a.out";
	out->name = lk_path_base(out->path);
	out->exists = stat(out->path, &st) == 0;
	out->dev = out->exists ? st.st_dev : 0;
	out->ino = out->exists ? st.st_ino : 0;
}

/* `f` fingerprinted: 1 if it may be the output (its file name, or the output's file before the link). */
static int fingerprint(struct lk_record_file *f, const char *path, const struct lk_output_before *out)
{
	struct stat st, link, now;

	lk_record_file_stat(f, path, &st);
	if (!strcmp(lk_path_base(path), out->name) ||
	    (f->exists && out->exists && st.st_dev == out->dev && st.st_ino == out->ino))
		return 1;
	/* A symlink: to the output as the link has made it by now, or to nothing yet. */
	if (lstat(path, &link) < 0 || !S_ISLNK(link.st_mode))
		return 0;
	return !f->exists || (stat(out->path, &now) == 0 && st.st_dev == now.st_dev && st.st_ino == now.st_ino);
}

static int add_candidate(struct lk_record_input *in, const char *dir,
			 const char *file, const struct lk_output_before *out)
{
	struct lk_buf path = LK_BUF_INIT;
	struct lk_record_file f;
	int is_output;

	lk_buf_addf(&path, "%s/%s", dir, file);
	/* A candidate the link is about to make does not exist yet: its name says so. */
	is_output = fingerprint(&f, path.buf, out);
	lk_buf_release(&path);
	if (!f.exists) {
		free(f.path);
		return is_output;
	}
	LK_GROW(in->candidates.items, in->candidates.nr + 1, in->candidates.alloc);
	in->candidates.items[in->candidates.nr++] = f;
	return is_output;
}

int lk_fingerprint_inputs(struct lk_record_draft *rec, const struct lk_output_before *out)
{
	const struct lk_argv_info *info = rec->info;
	struct lk_buf file = LK_BUF_INIT;
	int output_read = 0;

	for (size_t i = 0; i < info->inputs.nr; i++) {
		struct lk_record_input *in;

		if (info->inputs.items[i].kind == LK_IN_STDIN)
			continue;
		LK_GROW(rec->inputs.items, rec->inputs.nr + 1, rec->inputs.alloc);
		in = &rec->inputs.items[rec->inputs.nr++];
		memset(in, 0, sizeof(*in));
		in->index = info->inputs.items[i].index;
		in->kind = lk_input_kind_name(info->inputs.items[i].kind);
		output_read |= fingerprint(&in->file, info->inputs.items[i].path, out);
	}
	for (size_t i = 0; i < info->libs.nr; i++) {
		const struct lk_argv_lib *lib = &info->libs.items[i];
		struct lk_record_input *in;

		LK_GROW(rec->inputs.items, rec->inputs.nr + 1, rec->inputs.alloc);
		in = &rec->inputs.items[rec->inputs.nr++];
		memset(in, 0, sizeof(*in));
		in->index = lib->index;
		in->kind = "library";
		in->name = lib->name;
		in->name_len = lib->name_len;
		for (size_t d = 0; d < info->libdirs.nr; d++) {
			const char *dir = info->libdirs.items[d];

			lk_buf_reset(&file);
			if (lib->name[0] == ':') {
				lk_buf_add(&file, lib->name + 1, lib->name_len - 1);
				output_read |= add_candidate(in, dir, file.buf, out);
				continue;
			}
			lk_buf_addstr(&file, "lib");
			lk_buf_add(&file, lib->name, lib->name_len);
			lk_buf_addstr(&file, ".so");
			output_read |= add_candidate(in, dir, file.buf, out);
			file.buf[file.len - 2] = 'a';
			file.buf[--file.len] = '\0';
			output_read |= add_candidate(in, dir, file.buf, out);
		}
	}
	lk_buf_release(&file);
	return output_read;
}
