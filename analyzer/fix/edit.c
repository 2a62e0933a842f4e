/*
 * Diagnostics -> the edit model (see edit.h): an edit applied to the
 * driver's argv, and tried on the replay of the edited line.
 *
 * The replay reads an edit as ld reads the edited argv: appended words
 * after the user's last input (gcc keeps inputs and -Wl words in order,
 * so they come before the driver's own -lgcc -lc), a replaced word where
 * it stood, a removed one not at all, a moved one as removed and
 * appended, a group as --start-group/--end-group around its words. A
 * driver change is the driver's own additions for this line appended:
 * g++ adds -lstdc++ -lm, and nothing under -nodefaultlibs or -nostdlib,
 * so on a rustc line "link with g++" changes nothing and verifies nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "edit.h"
#include "overlay.h"
#include "trial.h"

static const char *const kind_names[] = {
	[LK_EDIT_KIND_INSERT] = "insert", [LK_EDIT_KIND_REPLACE] = "replace",
	[LK_EDIT_KIND_REMOVE] = "remove", [LK_EDIT_KIND_MOVE] = "move",
	[LK_EDIT_KIND_GROUP] = "group", [LK_EDIT_KIND_DRIVER] = "driver",
	[LK_EDIT_KIND_REBUILD] = "rebuild", [LK_EDIT_KIND_DECLARATION] = "declaration",
	[LK_EDIT_KIND_OUTSIDE] = "outside",
};

const char *lk_edit_kind_name(enum lk_edit_kind kind)
{
	return kind_names[kind];
}

int lk_edit_on_line(const struct lk_edit *e)
{
	return e->kind < LK_EDIT_KIND_REBUILD;
}

static void push_words(struct lk_strvec *out, const struct lk_strvec *words)
{
	for (size_t i = 0; i < words->nr; i++)
		lk_strvec_push(out, words->items[i]);
}

int lk_edit_argv(const struct lk_record *rec, const struct lk_edit *e, struct lk_strvec *out)
{
	size_t argc = rec->args.nr;

	if (!lk_edit_on_line(e))
		return -1;
	for (size_t i = 0; i <= argc; i++) {
		long at = (long)i;

		if (e->kind == LK_EDIT_KIND_INSERT && (at == e->position || (i == argc && e->position > (long)argc)))
			push_words(out, &e->words);
		if (e->kind == LK_EDIT_KIND_GROUP && at == e->position)
			lk_strvec_push(out, "-Wl,--start-group");
		if (i == argc)
			break;
		if (i == 0 && e->kind == LK_EDIT_KIND_DRIVER) {
			lk_strvec_push(out, e->driver);
			continue;
		}
		if (at == e->position && e->kind == LK_EDIT_KIND_REPLACE)
			push_words(out, &e->words);
		else if (at != e->position || e->kind == LK_EDIT_KIND_INSERT || e->kind == LK_EDIT_KIND_GROUP ||
			 e->kind == LK_EDIT_KIND_DRIVER)
			lk_strvec_push(out, rec->args.items[i].text);
		if (e->kind == LK_EDIT_KIND_GROUP && at == e->to)
			lk_strvec_push(out, "-Wl,--end-group");
	}
	if (e->kind == LK_EDIT_KIND_MOVE && e->position >= 0 && (size_t)e->position < argc)
		lk_strvec_push(out, rec->args.items[e->position].text);
	return 0;
}

/* -nostdlib, -nodefaultlibs, -nostdlib++ on the driver's argv. */
static int has_arg(const struct lk_record *rec, const char *arg)
{
	for (size_t i = 1; i < rec->args.nr; i++)
		if (!strcmp(rec->args.items[i].text, arg))
			return 1;
	return 0;
}

int lk_edit_driver_adds(const struct lk_record *rec, const char *driver, struct lk_strvec *out)
{
	if (strcmp(driver, "g++") && strcmp(driver, "c++") && strcmp(driver, "clang++"))
		return -1;
	if (has_arg(rec, "-nostdlib") || has_arg(rec, "-nodefaultlibs"))
		return 0;	/* gcc.c: no libraries of the driver's own, the C++ runtime among them */
	if (!has_arg(rec, "-nostdlib++"))
		lk_strvec_push(out, "-lstdc++");
	lk_strvec_push(out, "-lm");
	return 0;
}

/* Words appended at the end of the driver's argv: from the snapshot, else the whole line replayed. */
static int try_append(const struct lk_replay *r, const struct lk_record *rec, const struct lk_line *line,
		      const struct lk_strvec *words, struct lk_strvec *remaining)
{
	struct lk_replay_edit edit = { -1, 0, NULL, -1, words, 0, 0, 0 };
	struct lk_replay trial;
	int ok;

	if (r->trials) {
		ok = lk_trial_ask(r->trials, words, remaining);
		if (ok >= 0)
			return ok;
	}
	lk_replay_edited(rec, line, &edit, &trial);
	ok = trial.success;
	if (remaining)
		lk_replay_remaining(&trial, remaining);
	lk_replay_release(&trial);
	return ok;
}

static int try_edited(const struct lk_record *rec, const struct lk_line *line, const struct lk_replay_edit *edit,
		      struct lk_strvec *remaining)
{
	struct lk_replay trial;
	int ok;

	lk_replay_edited(rec, line, edit, &trial);
	ok = trial.success;
	if (remaining && !ok)
		lk_replay_remaining(&trial, remaining);
	lk_replay_release(&trial);
	return ok;
}

/*
 * What the edit's words bring that ld would not read as the replay does:
 * a file unreadable now, an executable (ld: "cannot use executable file
 * as input"), what the model does not read (a script command). A replay
 * that read past it verifies nothing: "kind word" into `remaining`, 1.
 */
static int rejected(const struct lk_record *rec, const struct lk_line *line, const struct lk_edit *e,
		    struct lk_strvec *remaining)
{
	struct lk_overlay ov;
	struct lk_buf b = LK_BUF_INIT;
	int bad = 0;

	if (!e->words.nr || e->kind == LK_EDIT_KIND_MOVE)
		return 0;
	if (e->kind == LK_EDIT_KIND_REPLACE)
		lk_overlay_open_in_place(&ov, rec, line, &e->words, e->position);
	else
		lk_overlay_open(&ov, rec, line, &e->words);
	for (size_t i = line->items.nr; i < ov.view.items.nr && !bad; i++) {
		const struct lk_line_item *it = &ov.view.items.items[i];

		if ((it->kind == LK_ITEM_FILE || it->kind == LK_ITEM_LIB) &&
		    (it->info.kind == LK_FILE_UNREADABLE || it->info.kind == LK_FILE_EXECUTABLE)) {
			lk_buf_addf(&b, "unrecognized-input %s", it->word);
			bad = 1;
		}
	}
	if (!bad && ov.view.unknown.nr > line->unknown.nr) {
		lk_buf_addf(&b, "unmodelled %s", ov.view.unknown.items[line->unknown.nr]);
		bad = 1;
	}
	lk_overlay_close(&ov);
	if (bad && remaining)
		lk_strvec_push(remaining, b.buf);
	lk_buf_release(&b);
	return bad;
}

/* The edit appends its words (an insert at the end, a driver's additions): a trial from the snapshot. */
static int appends(const struct lk_record *rec, const struct lk_edit *e)
{
	return (e->kind == LK_EDIT_KIND_INSERT && e->position >= (long)rec->args.nr) ||
	       (e->kind == LK_EDIT_KIND_DRIVER && e->words.nr);
}

void lk_edit_expect(const struct lk_replay *r, const struct lk_record *rec, const struct lk_line *line,
		    const struct lk_edit *e)
{
	if (r->trials && lk_edit_on_line(e) && !e->not_on_line && appends(rec, e) && !rejected(rec, line, e, NULL))
		lk_trial_expect(r->trials, &e->words);
}

/* -Wl,--no-whole-archive inserted inside the line: the replay reads what follows it as not whole. */
static int closes_whole_archive(const struct lk_record *rec, const struct lk_edit *e)
{
	return e->words.nr == 1 && !strcmp(e->words.items[0], "-Wl,--no-whole-archive") && e->position > 1 &&
	       (size_t)e->position <= rec->args.nr;
}

int lk_edit_try(const struct lk_replay *r, const struct lk_record *rec, const struct lk_line *line,
		const struct lk_edit *e, struct lk_strvec *remaining)
{
	struct lk_replay_edit edit = { e->position, 0, NULL, -1, &e->words, 0, 0, 0 };
	struct lk_strvec moved = LK_STRVEC_INIT;
	int ok;

	if (!lk_edit_on_line(e) || e->not_on_line)
		return -1;
	if (rejected(rec, line, e, remaining))
		return LK_EDIT_REJECTED;
	switch (e->kind) {
	case LK_EDIT_KIND_INSERT:
		if (closes_whole_archive(rec, e)) {
			edit.skip_position = -1;
			edit.append = NULL;
			edit.close_whole_after = e->position - 1;
			return try_edited(rec, line, &edit, remaining);
		}
		if (!appends(rec, e))
			return -1;	/* the replay reads other added words at the end only */
		return try_append(r, rec, line, &e->words, remaining);
	case LK_EDIT_KIND_DRIVER:
		if (!e->words.nr) {
			/* The driver adds nothing to this line: the link is the one that failed. */
			if (remaining)
				lk_replay_remaining(r, remaining);
			return 0;
		}
		return try_append(r, rec, line, &e->words, remaining);
	case LK_EDIT_KIND_REPLACE:
		edit.flags = LK_EDIT_IN_PLACE;
		return try_edited(rec, line, &edit, remaining);
	case LK_EDIT_KIND_REMOVE:
		edit.append = NULL;
		return try_edited(rec, line, &edit, remaining);
	case LK_EDIT_KIND_MOVE:
		lk_strvec_push(&moved, rec->args.items[e->position].text);
		edit.append = &moved;
		ok = try_edited(rec, line, &edit, remaining);
		lk_strvec_release(&moved);
		return ok;
	case LK_EDIT_KIND_GROUP:
		edit.skip_position = -1;
		edit.append = NULL;
		edit.flags = LK_EDIT_GROUP_RANGE;
		edit.group_from = e->position;
		edit.group_to = e->to;
		return try_edited(rec, line, &edit, remaining);
	default:
		return -1;
	}
}

void lk_edit_release(struct lk_edit *e)
{
	lk_strvec_release(&e->words);
	free(e->driver);
	free(e->input);
	free(e->needs);
	memset(e, 0, sizeof(*e));
}
