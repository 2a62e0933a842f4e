/*
 * Line model -> `linkscope show`.
 *
 * One row per item the linker reads: driver position, provenance, group,
 * input state, the argument, and the file it resolved to with its kind;
 * linker scripts' inputs indented under them; then every -lc, the groups,
 * the DT_NEEDED tree, warnings and what could not be known.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/json.h"
#include "color.h"
#include "linkscope/vec.h"
#include "show.h"


struct painter {
	FILE *out;
	int on;
};

static const char *paint(const struct painter *p, const char *code)
{
	return p->on ? code : "";
}

static void state_text(unsigned state, struct lk_buf *b)
{
	static const struct { unsigned flag; const char *name; } names[] = {
		{ LK_ST_WHOLE_ARCHIVE, "whole-archive" }, { LK_ST_STATIC, "static" },
		{ LK_ST_AS_NEEDED, "as-needed" }, { LK_ST_COPY_DT_NEEDED, "copy-dt-needed" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		if (!(state & names[i].flag))
			continue;
		if (b->len)
			lk_buf_addch(b, ',');
		lk_buf_addstr(b, names[i].name);
	}
}

static void describe_file(const struct lk_line_item *it, struct lk_buf *b)
{
	const struct lk_elf_info *info = &it->info;

	if (it->kind == LK_ITEM_OPTION || it->kind == LK_ITEM_GROUP_START || it->kind == LK_ITEM_GROUP_END)
		return;
	if (it->path && info->kind != LK_FILE_MISSING && strcmp(it->path, it->word))
		lk_buf_addf(b, "-> %s  ", it->path);
	/* A text file that parsed as a script says so in its note. */
	if (info->kind != LK_FILE_TEXT || !it->note)
		lk_buf_addstr(b, lk_file_kind_name(info->kind));
	if (info->soname)
		lk_buf_addf(b, ", SONAME %s", info->soname);
	if (info->kind == LK_FILE_ARCHIVE || info->kind == LK_FILE_RLIB)
		lk_buf_addf(b, ", %zu members%s", info->members, info->has_armap ? "" : ", no index");
	if (it->note)
		lk_buf_addf(b, "%s%s", info->kind == LK_FILE_TEXT ? "" : "; ", it->note);
}

static int foldable(const struct lk_line_item *it)
{
	return it->parent < 0 && it->kind == LK_ITEM_FILE && !it->note &&
	       (it->prov == LK_PROV_RUSTC_OBJECT || it->prov == LK_PROV_RUSTC_RLIB) &&
	       (it->info.kind == LK_FILE_OBJECT || it->info.kind == LK_FILE_RLIB);
}

static void print_row(const struct painter *p, const struct lk_line *line, size_t i, int indent)
{
	const struct lk_line_item *it = &line->items.items[i];
	struct lk_buf state = LK_BUF_INIT, file = LK_BUF_INIT, pos = LK_BUF_INIT, grp = LK_BUF_INIT;
	const char *color = "";

	if (indent) {
		state_text(it->as_needed_script ? LK_ST_AS_NEEDED : 0, &state);
	} else {
		state_text(it->state, &state);
		if (it->position >= 0)
			lk_buf_addf(&pos, "%ld", it->position);
		else
			lk_buf_addch(&pos, '-');
	}
	if (it->group >= 0 && !indent)
		lk_buf_addf(&grp, "g%d", it->group);
	describe_file(it, &file);
	if (lk_line_item_is_libc(it))
		color = paint(p, LK_C_BOLD);
	else if (it->prov == LK_PROV_LINK_ARG && !indent)
		color = paint(p, LK_C_CYAN);
	else if (it->position < 0 && !indent)
		color = paint(p, LK_C_DIM);
	if (it->info.kind == LK_FILE_MISSING && it->kind != LK_ITEM_OPTION &&
	    it->kind != LK_ITEM_GROUP_START && it->kind != LK_ITEM_GROUP_END)
		color = paint(p, LK_C_RED);
	fprintf(p->out, "%s%5s  %-16s %-3s %-24s %s%s%s%s%s  %s%s\n", color, pos.buf,
		indent ? "" : (it->position >= 0 ? lk_prov_name(it->prov) : "driver"),
		grp.buf, state.buf, indent ? "    " : "", it->word,
		it->value ? " " : "", it->value ? it->value : "", paint(p, LK_C_RESET),
		file.buf, "");
	lk_buf_release(&state);
	lk_buf_release(&file);
	lk_buf_release(&pos);
	lk_buf_release(&grp);
}

/*
 * Each item's children, in line order: the first and the next sibling
 * (SIZE_MAX: none), found in one pass. A scan of the whole line for each
 * item's children was quadratic: a linker script naming 60,000 inputs
 * took 10 CPU s to show (issue #29).
 */
struct kids {
	size_t *first, *next;
};

static void kids_init(struct kids *c, const struct lk_line *line)
{
	size_t n = line->items.nr ? line->items.nr : 1;

	c->first = lk_xcalloc(n, sizeof(*c->first));
	c->next = lk_xcalloc(n, sizeof(*c->next));
	for (size_t k = 0; k < line->items.nr; k++)
		c->first[k] = c->next[k] = SIZE_MAX;
	for (size_t k = line->items.nr; k-- > 0;) {
		long parent = line->items.items[k].parent;

		if (parent >= 0 && (size_t)parent < line->items.nr) {
			c->next[k] = c->first[parent];
			c->first[parent] = k;
		}
	}
}

static void print_children(const struct painter *p, const struct lk_line *line, const struct kids *c,
			   size_t parent)
{
	for (size_t k = c->first[parent]; k != SIZE_MAX; k = c->next[k]) {
		print_row(p, line, k, 1);
		print_children(p, line, c, k);
	}
}

static void print_rows(const struct painter *p, const struct lk_line *line, int full)
{
	struct kids c;
	size_t i = 0;

	kids_init(&c, line);
	fprintf(p->out, "%5s  %-16s %-3s %-24s %s\n", "pos", "from", "grp", "state", "argument -> file, kind");
	while (i < line->items.nr) {
		size_t run = i;

		if (line->items.items[i].parent >= 0) {
			i++;
			continue;
		}
		while (!full && run < line->items.nr && foldable(&line->items.items[run]) &&
		       line->items.items[run].prov == line->items.items[i].prov)
			run++;
		if (run - i >= 4) {
			print_row(p, line, i, 0);
			fprintf(p->out, "%s%5s  %-16s     ... %zu more %s (--full shows them)%s\n",
				paint(p, LK_C_DIM), "", "", run - i - 2,
				line->items.items[i].prov == LK_PROV_RUSTC_RLIB ? "rlibs" : "objects",
				paint(p, LK_C_RESET));
			print_row(p, line, run - 1, 0);
			i = run;
			continue;
		}
		print_row(p, line, i, 0);
		print_children(p, line, &c, i);
		i++;
	}
	free(c.first);
	free(c.next);
}

static void print_needed(const struct painter *p, const struct lk_line *line, long parent,
			 long by)
{
	for (size_t i = 0; i < line->needed.nr; i++) {
		const struct lk_needed *n = &line->needed.items[i];

		if (n->parent != parent || (parent < 0 && n->needed_by != by))
			continue;
		fprintf(p->out, "  %*s%s", 2 * (n->depth + 1), "", n->name);
		if (n->on_line_as)
			fprintf(p->out, "  on the line (%s)\n", n->on_line_as);
		else if (n->path)
			fprintf(p->out, "  -> %s  (found via %s; not on the line)\n", n->path, n->found_via);
		else
			fprintf(p->out, "  %snot found%s (ld: \"needed by ..., not found (try using -rpath or -rpath-link)\")\n",
				paint(p, LK_C_RED), paint(p, LK_C_RESET));
		print_needed(p, line, (long)i, by);
	}
}

static const char *driver_part_text(enum lk_driver_part part)
{
	switch (part) {
	case LK_DRIVER_FROM_RECORD: return "from the record's -### expansion";
	case LK_DRIVER_FROM_ANALYSIS: return "from running the driver's -### now";
	case LK_DRIVER_UNKNOWN: return "unknown";
	}
	return "?";
}

static void print_header(const struct painter *p, const struct lk_record *rec, const struct lk_line *line)
{
	fprintf(p->out, "record   %s\n", rec->path);
	fprintf(p->out, "link     %s -> %s, output %s, ", rec->caller_name ? rec->caller_name : "?",
		rec->args.items[0].text, rec->output ? rec->output : "a.out");
	if (rec->signal)
		fprintf(p->out, "killed by signal %d\n", rec->signal);
	else if (rec->has_exit)
		fprintf(p->out, "exit %d\n", rec->exit_status);
	else
		fprintf(p->out, "not run\n");
	if (rec->reproducer) {
		/* Older records of mold's name it relative to the link's dir. */
		int rel = rec->reproducer[0] != '/' && rec->cwd;

		fprintf(p->out, "repro    %s%s%s\n", rel ? rec->cwd : "", rel ? "/" : "", rec->reproducer);
	}
	fprintf(p->out, "linker   %s (%s), %s%s%s; driver's additions %s\n", line->flavor,
		line->linker, line->emulation ? "emulation " : "", line->emulation ? line->emulation : "",
		line->native ? ", native" : ", cross", driver_part_text(line->driver_part));
	fprintf(p->out, "output   %s%s%s%s",
		(line->facts & LK_LINE_SHARED) ? "shared object" : (line->facts & LK_LINE_PIE) ? "PIE executable" : "executable",
		(line->facts & LK_LINE_NO_UNDEFINED) ? ", --no-undefined/-z defs" : "",
		(line->facts & LK_LINE_ALLOW_SHLIB_UNDEFINED) ? ", --allow-shlib-undefined" : "",
		(line->facts & LK_LINE_NOSTDLIB) ? ", -nostdlib" : "");
	if (line->sysroot && *line->sysroot)
		fprintf(p->out, ", sysroot %s", line->sysroot);
	fprintf(p->out, "\n");
	if (line->rpath.nr || line->rpath_link.nr) {
		fprintf(p->out, "rpath   ");
		for (size_t i = 0; i < line->rpath.nr; i++)
			fprintf(p->out, " -rpath %s", line->rpath.items[i]);
		for (size_t i = 0; i < line->rpath_link.nr; i++)
			fprintf(p->out, " -rpath-link %s", line->rpath_link.items[i]);
		fprintf(p->out, "\n");
	}
	fprintf(p->out, "search   -L:");
	for (size_t i = 0; i < line->libdirs.nr; i++)
		fprintf(p->out, " %s", line->libdirs.items[i]);
	fprintf(p->out, "\n         then:");
	for (size_t i = 0; i < line->default_dirs.nr; i++)
		fprintf(p->out, " %s", line->default_dirs.items[i]);
	fprintf(p->out, "%s\n\n", line->default_dirs.nr ? "" : " (none)");
}

static void print_summary(const struct painter *p, const struct lk_line *line)
{
	int groups = 0;

	fprintf(p->out, "\n-lc      ");
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];

		if (lk_line_item_is_libc(it) && it->parent < 0) {
			if (it->position >= 0)
				fprintf(p->out, "at %ld (%s)  ", it->position, lk_prov_name(it->prov));
			else
				fprintf(p->out, "added by the driver  ");
		}
	}
	fprintf(p->out, "\n");
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *g = &line->items.items[i];

		if (g->kind != LK_ITEM_GROUP_START)
			continue;
		fprintf(p->out, "%s g%d at %ld (%s):", groups++ ? "        " : "groups  ", g->group,
			g->position, g->position >= 0 ? lk_prov_name(g->prov) : "driver");
		for (size_t k = i + 1; k < line->items.nr && line->items.items[k].kind != LK_ITEM_GROUP_END; k++)
			if (line->items.items[k].parent < 0)
				fprintf(p->out, " %s", line->items.items[k].word);
		fprintf(p->out, "\n");
	}
	if (line->needed.nr) {
		fprintf(p->out, "\nDT_NEEDED of the shared objects on the line:\n");
		for (size_t i = 0; i < line->items.nr; i++) {
			const struct lk_line_item *it = &line->items.items[i];

			if (it->info.kind != LK_FILE_SHARED || !it->info.needed.nr)
				continue;
			fprintf(p->out, "  %s\n", it->path);
			print_needed(p, line, -1, (long)i);
		}
	}
	for (size_t i = 0; i < line->warnings.nr; i++)
		fprintf(p->out, "%s%s %s%s\n", i ? "" : "\n", paint(p, LK_C_YELLOW), line->warnings.items[i],
			paint(p, LK_C_RESET));
	for (size_t i = 0; i < line->notes.nr; i++)
		fprintf(p->out, "%snote: %s\n", i ? "" : "\n", line->notes.items[i]);
}

void lk_show_text(FILE *out, const struct lk_record *rec, const struct lk_line *line,
		  const struct lk_show_options *opt)
{
	struct painter p = { out, opt->color };

	print_header(&p, rec, line);
	print_rows(&p, line, opt->full);
	print_summary(&p, line);
}

/* ---- JSON ---- */

static json_t *strvec_json(const struct lk_strvec *v)
{
	json_t *a = json_array();

	for (size_t i = 0; i < v->nr; i++)
		json_array_append_new(a, lk_json_str(v->items[i]));
	return a;
}

static json_t *state_json(unsigned state)
{
	json_t *a = json_array();

	for (unsigned f = 1; f < (1u << LK_ST_COUNT); f <<= 1)
		if (state & f)
			json_array_append_new(a, json_string(lk_state_name(f)));
	return a;
}

static json_t *item_json(const struct lk_line_item *it)
{
	static const char *const kinds[] = { "file", "library", "option", "group-start", "group-end" };
	json_t *o = json_object();

	json_object_set_new(o, "position", it->position >= 0 ? json_integer(it->position) : json_null());
	json_object_set_new(o, "provenance", json_string(it->position >= 0 ? lk_prov_name(it->prov) : "driver-implicit"));
	json_object_set_new(o, "kind", json_string(kinds[it->kind]));
	json_object_set_new(o, "word", lk_json_str(it->word));
	json_object_set_new(o, "value", lk_json_str(it->value));
	json_object_set_new(o, "group", it->group >= 0 ? json_integer(it->group) : json_null());
	json_object_set_new(o, "state", state_json(it->state));
	json_object_set_new(o, "parent", it->parent >= 0 ? json_integer(it->parent) : json_null());
	if (it->kind == LK_ITEM_FILE || it->kind == LK_ITEM_LIB) {
		json_object_set_new(o, "path", lk_json_str(it->path));
		json_object_set_new(o, "file_kind", json_string(lk_file_kind_name(it->info.kind)));
		json_object_set_new(o, "soname", lk_json_str(it->info.soname));
		json_object_set_new(o, "needed", strvec_json(&it->info.needed));
		if (it->kind == LK_ITEM_LIB)
			json_object_set_new(o, "tried", strvec_json(&it->tried));
	}
	json_object_set_new(o, "note", lk_json_str(it->note));
	return o;
}

int lk_show_json(FILE *out, const struct lk_record *rec, const struct lk_line *line)
{
	json_t *root = json_object(), *items = json_array(), *needed = json_array(), *lc = json_array();
	static const char *const parts[] = { "record", "analysis", "unknown" };
	int rc;

	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];

		json_array_append_new(items, item_json(it));
		if (lk_line_item_is_libc(it) && it->parent < 0)
			json_array_append_new(lc, json_integer((json_int_t)i));
	}
	for (size_t i = 0; i < line->needed.nr; i++) {
		const struct lk_needed *n = &line->needed.items[i];

		json_array_append_new(needed, json_pack("{s:o, s:I, s:o, s:o, s:o, s:o, s:i}",
			"name", lk_json_str(n->name), "needed_by", (json_int_t)n->needed_by,
			"parent", n->parent >= 0 ? json_integer(n->parent) : json_null(),
			"path", lk_json_str(n->path), "found_via", lk_json_str(n->found_via),
			"on_line_as", lk_json_str(n->on_line_as), "depth", n->depth));
	}
	json_object_set_new(root, "schema", json_string("linkscope-show/1"));
	json_object_set_new(root, "record", lk_json_str(rec->path));
	json_object_set_new(root, "reproducer", lk_json_str(rec->reproducer));
	json_object_set_new(root, "linker", json_pack("{s:o, s:o, s:o, s:o, s:b, s:s}",
		"flavor", lk_json_str(line->flavor), "program", lk_json_str(line->linker),
		"emulation", lk_json_str(line->emulation), "sysroot", lk_json_str(line->sysroot),
		"native", line->native, "driver_additions", parts[line->driver_part]));
	json_object_set_new(root, "libdirs", strvec_json(&line->libdirs));
	json_object_set_new(root, "default_dirs", strvec_json(&line->default_dirs));
	json_object_set_new(root, "items", items);
	json_object_set_new(root, "lc_items", lc);
	json_object_set_new(root, "needed", needed);
	json_object_set_new(root, "warnings", strvec_json(&line->warnings));
	json_object_set_new(root, "notes", strvec_json(&line->notes));
	rc = json_dumpf(root, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
	return rc;
}
