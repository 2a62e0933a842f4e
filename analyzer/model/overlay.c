/*
 * Line model -> an overlay of it (see overlay.h). The view is a shallow
 * copy of the line: its arrays of items and DT_NEEDED entries are copies
 * (so appending never moves the line's own), their entries shared; the
 * lists resolution may append to (search dirs, unknowns, notes) are
 * copied whole. Closing frees only what the overlay added.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/vec.h"
#include "overlay.h"
#include "resolve.h"

static void *copy_array(const void *items, size_t nr, size_t size, size_t *alloc)
{
	void *p = lk_xcalloc(nr ? nr : 1, size);

	if (nr)
		memcpy(p, items, nr * size);
	*alloc = nr ? nr : 1;
	return p;
}

static void copy_strvec(struct lk_strvec *to, const struct lk_strvec *from)
{
	*to = (struct lk_strvec)LK_STRVEC_INIT;
	for (size_t i = 0; i < from->nr; i++)
		lk_strvec_push(to, from->items[i]);
}

static void open_view(struct lk_overlay *o, const struct lk_line *base)
{
	struct lk_line *v = &o->view;

	o->base = base;
	*v = *base;
	v->items.items = copy_array(base->items.items, base->items.nr, sizeof(*base->items.items),
				    &v->items.alloc);
	v->needed.items = copy_array(base->needed.items, base->needed.nr, sizeof(*base->needed.items),
				     &v->needed.alloc);
	copy_strvec(&v->default_dirs, &base->default_dirs);
	copy_strvec(&v->unknown, &base->unknown);
	copy_strvec(&v->notes, &base->notes);
}

void lk_overlay_open(struct lk_overlay *o, const struct lk_record *rec, const struct lk_line *base,
		     const struct lk_strvec *words)
{
	open_view(o, base);
	for (size_t i = 0; words && i < words->nr; i++)
		lk_resolve_append(rec, &o->view, words->items[i], (long)rec->args.nr,
				  lk_line_state_at_end(&o->view));
}

void lk_overlay_open_in_place(struct lk_overlay *o, const struct lk_record *rec, const struct lk_line *base,
			      const struct lk_strvec *words, long position)
{
	unsigned state = lk_line_state_at_end(base);

	for (size_t i = 0; i < base->items.nr; i++) {
		if (base->items.items[i].position == position && base->items.items[i].parent < 0) {
			state = base->items.items[i].state;
			break;
		}
	}
	open_view(o, base);
	for (size_t i = 0; words && i < words->nr; i++)
		lk_resolve_append(rec, &o->view, words->items[i], position, state);
}

void lk_overlay_close(struct lk_overlay *o)
{
	struct lk_line *v = &o->view;

	/* The items (and their DT_NEEDED entries) the overlay added. */
	lk_line_truncate(v, o->base->items.nr);
	free(v->items.items);
	free(v->needed.items);
	lk_strvec_release(&v->default_dirs);
	lk_strvec_release(&v->unknown);
	lk_strvec_release(&v->notes);
	for (int l = 0; l < 3; l++)
	{
		if (v->read_otherwise[l] != o->base->read_otherwise[l])
			free(v->read_otherwise[l]);	/* said of an appended word's script */
		if (v->fails_otherwise[l] != o->base->fails_otherwise[l])
			free(v->fails_otherwise[l]);
	}
	if (v->scratch != o->base->scratch) {
		/* An appended object was compiled again into a directory of its own: removed with it. */
		struct lk_line scratch_only;

		memset(&scratch_only, 0, sizeof(scratch_only));
		scratch_only.scratch = v->scratch;
		lk_line_release(&scratch_only);
	}
	memset(o, 0, sizeof(*o));
}
