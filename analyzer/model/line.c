/*
 * Record -> line model.
 *
 * Takes a record; gives struct lk_line: the linker's own argv as items, in
 * the order ld reads them, each with the driver position it came from,
 * its provenance, the group it is in and the input state in force
 * (--whole-archive, -Bstatic, --as-needed, --copy-dt-needed-entries, with
 * --push-state/--pop-state). The driver's additions (crt files, default -L
 * dirs, its -lgcc -lc) come from the record's -### expansion, or from the
 * same driver run now with -###. Resolution and the DT_NEEDED closure are
 * in resolve.c; warnings in warn.c.
 *
 * Models: gcc's link spec (which words it hoists: -o, -e, -u, -z, -L, -T,
 * and which it keeps in order: inputs, -l, -Wl, and -Xlinker words) and
 * GNU ld's option parser (ld/lexsup.c) for the options that change how
 * inputs are read.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linkscope/argv.h"
#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/driveropt.h"
#include "linkscope/expansion.h"
#include "line.h"
#include "linkscope/rsp.h"
#include "linkscope/runcmd.h"
#include "trust.h"
#include "linkscope/vec.h"
#include "atfile.h"
#include "driver_words.h"
#include "ldopt.h"

const char *lk_state_name(unsigned flag)
{
	switch (flag) {
	case LK_ST_WHOLE_ARCHIVE: return "--whole-archive";
	case LK_ST_STATIC: return "-Bstatic";
	case LK_ST_AS_NEEDED: return "--as-needed";
	case LK_ST_COPY_DT_NEEDED: return "--copy-dt-needed-entries";
	}
	LK_BUG("unknown state flag");
}

int lk_line_item_is_libc(const struct lk_line_item *it)
{
	return it->kind == LK_ITEM_LIB && lk_argv_is_libc(it->word + 2, strlen(it->word + 2));
}

/* ---- getting the linker argv ---- */

/*
 * --run-driver: this machine's driver of the record's name with -### and the
 * allowed words (trust.c); 0 and its linker command, or -1. -### runs
 * nothing, but the words are filtered all the same.
 */
static int run_expansion(const struct lk_record *rec, const char *driver, struct lk_line *line,
			 struct lk_strvec *out)
{
	struct lk_strvec argv = LK_STRVEC_INIT, dropped = LK_STRVEC_INIT, envp = LK_STRVEC_INIT;
	const char *scratch = lk_line_scratch(line);
	struct lk_expansion_query query;
	struct lk_expansion exp;
	char *note;

	if (!scratch)
		return -1;
	lk_strvec_push(&argv, driver);
	lk_strvec_push(&argv, "-###");
	lk_trust_filter(rec, LK_TRUST_EXPAND, &argv, &dropped);
	if ((note = lk_trust_dropped_note(&dropped)))
		lk_strvec_push_owned(&line->notes, note);
	memset(&exp, 0, sizeof(exp));
	exp.linker_command = -1;
	lk_trust_env(rec, LK_TRUST_EXPAND, scratch, &envp);
	lk_expansion_prepare(&query, driver, (const char *const *)argv.items,
			     rec->cwd && access(rec->cwd, X_OK) == 0 ? rec->cwd : NULL, envp.items,
			     LK_TRUST_TIMEOUT_MS);
	lk_sandbox_start(&query.cmd, scratch, line->walls, &query.job);
	lk_expansion_finish(&query, &exp);
	lk_strvec_release(&envp);
	lk_strvec_release(&argv);
	lk_strvec_release(&dropped);
	if (exp.linker_command >= 0) {
		struct lk_strvec *cmdv = &exp.commands.items[exp.linker_command];

		for (size_t i = 0; i < cmdv->nr; i++)
			lk_strvec_push(out, cmdv->items[i]);
	}
	lk_expansion_release(&exp);
	return out->nr ? 0 : -1;
}

/* Without the driver's view: the words the user's own arguments give ld. */
static void words_from_driver(const struct lk_record *rec, struct lk_strvec *out)
{
	struct lk_driver_words e = LK_DRIVER_WORDS_INIT;

	lk_driver_words(&rec->args, &e);
	lk_strvec_push(out, rec->args.items[0].text);
	for (size_t i = 0; i < e.nr; i++)
		if (!e.items[i].source)
			lk_strvec_push(out, e.items[i].word);
	lk_driver_words_release(&e);
}

static void push_notef(struct lk_strvec *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void push_notef(struct lk_strvec *v, const char *fmt, ...)
{
	struct lk_buf b = LK_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	lk_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	lk_strvec_push_owned(v, lk_buf_detach(&b));
}

/* -nostdlib (or -nostartfiles with -nodefaultlibs): the driver adds no input. */
static int driver_adds_no_input(const struct lk_record *rec)
{
	struct lk_argv_info info;
	int none;

	lk_argv_classify(&rec->args, &info);
	none = (info.flags & LK_ARGV_NOSTDLIB) ||
	       ((info.flags & LK_ARGV_NOSTARTFILES) && (info.flags & LK_ARGV_NODEFAULTLIBS));
	lk_argv_info_release(&info);
	return none;
}

/* What gcc's temporary response files held (analyzer/model/atfile.c), when the driver had one of its own. */
static void fill_gcc_atfiles(const struct lk_record *rec, struct lk_strvec *argv)
{
	struct lk_driver_words e = LK_DRIVER_WORDS_INIT;
	struct lk_strvec l_words = LK_STRVEC_INIT, ordered = LK_STRVEC_INIT;

	if (!rec->rspfiles.nr)
		return;
	lk_driver_words(&rec->args, &e);
	for (size_t i = 0; i < e.nr; i++)
		if (e.items[i].ordered)
			lk_strvec_push(&ordered, e.items[i].source ? LK_ATFILE_SOURCE_OBJECT : e.items[i].word);
		else if (lk_str_starts_with(e.items[i].word, "-L"))
			lk_strvec_push(&l_words, e.items[i].word);
	lk_atfile_fill(argv, &l_words, &ordered);
	lk_strvec_release(&l_words);
	lk_strvec_release(&ordered);
	lk_driver_words_release(&e);
}

static void linker_argv(const struct lk_record *rec, const struct lk_line_options *opt,
			struct lk_line *line, struct lk_strvec *out)
{
	struct lk_err err = LK_ERR_INIT;

	if (opt->run_driver && !(line->run_driver = lk_trust_driver(rec, &err))) {
		push_notef(&line->notes, "--run-driver: not run: %s", err.msg);
		line->no_driver_why = lk_xstrdup(err.msg);
	}
	if (rec->linker_argv.nr) {
		line->driver_part = LK_DRIVER_FROM_RECORD;
		for (size_t i = 0; i < rec->linker_argv.nr; i++)
			lk_strvec_push(out, rec->linker_argv.items[i]);
		return;
	}
	if (line->run_driver && run_expansion(rec, line->run_driver, line, out) == 0) {
		line->driver_part = LK_DRIVER_FROM_ANALYSIS;
		push_notef(&line->notes, "the driver's additions (crt files, default -L dirs and libraries) come from running this machine's %s -### now; the record has none",
				line->run_driver);
		return;
	}
	line->driver_part = LK_DRIVER_UNKNOWN;
	if (!driver_adds_no_input(rec))
		push_notef(&line->unknown, "the driver's additions (crt files, default -L dirs, -lgcc, -lc) are unknown: the record has no -### expansion, and %s",
			   line->run_driver ? "this machine's driver gave none" :
			   line->no_driver_why ? line->no_driver_why :
			   "the analyzer runs no driver unless asked (--run-driver)");
	lk_strvec_push(&line->notes, line->unknown.nr ? line->unknown.items[line->unknown.nr - 1] :
		       "the record has no -### expansion: with -nostdlib the driver adds only its default -L dirs, which are not known");
	words_from_driver(rec, out);
}

/* ---- linker argv -> items with state ---- */

/*
 * ld reads the next word as this option's value: by GNU ld's option table,
 * or for an option GNU ld does not know, by lld's or mold's (ldopt.c).
 * "-Wl,-init,foo" gives "-init" "foo": foo is no input.
 */
static int takes_next(const char *w)
{
	const char *v;

	for (int k = 0; k < LK_LDOPT_TABLES; k++)
		if (lk_ldopt_find((enum lk_ldopt_linker)k, w, &v))
			return lk_ldopt_takes_next((enum lk_ldopt_linker)k, w);
	return 0;
}

struct builder {
	struct lk_line *line;
	const struct lk_record *rec;
	unsigned state;
	long since[LK_ST_COUNT];
	struct { unsigned state; long since[LK_ST_COUNT]; } stack[LK_LINE_PUSH_STATE_MAX];
	int depth;
	int group, next_group;
	long group_start;
};

static int flag_index(unsigned flag)
{
	for (int i = 0; i < LK_ST_COUNT; i++)
		if (flag == 1u << i)
			return i;
	LK_BUG("not a single state flag");
}

/*
 * ld's spellings (ld/lexsup.c) of the options a later stage asks about, in
 * the order they are tried. A "--" name is also taken with one dash. With
 * a value: "NAME=V", or "NAME" with the next word (the item's value);
 * JOINED also "NAMEV".
 */
enum value_form { NO_VALUE, VALUE, JOINED };

static const struct ld_spelling {
	const char *name;
	enum lk_ld_option id;
	enum value_form form;
} ld_spellings[] = {
	{ "-shared", LK_LD_SHARED, NO_VALUE }, { "-Bshareable", LK_LD_SHARED, NO_VALUE },
	{ "--no-undefined", LK_LD_NO_UNDEFINED, NO_VALUE },
	{ "-z", LK_LD_OTHER, JOINED },	/* the keyword says: z_keyword() */
	{ "--allow-shlib-undefined", LK_LD_ALLOW_SHLIB_UNDEFINED, NO_VALUE },
	{ "--no-allow-shlib-undefined", LK_LD_NO_ALLOW_SHLIB_UNDEFINED, NO_VALUE },
	{ "--unresolved-symbols", LK_LD_UNRESOLVED_SYMBOLS, VALUE },
	{ "--warn-unresolved-symbols", LK_LD_WARN_UNRESOLVED, NO_VALUE },
	{ "--error-unresolved-symbols", LK_LD_ERROR_UNRESOLVED, NO_VALUE },
	{ "--gc-sections", LK_LD_GC_SECTIONS, NO_VALUE },
	{ "--no-gc-sections", LK_LD_NO_GC_SECTIONS, NO_VALUE },
	{ "-E", LK_LD_EXPORT_DYNAMIC, NO_VALUE },
	{ "--export-dynamic", LK_LD_EXPORT_DYNAMIC, NO_VALUE },
	{ "--no-export-dynamic", LK_LD_NO_EXPORT_DYNAMIC, NO_VALUE },
	{ "-static", LK_LD_STATIC, NO_VALUE },
	{ "--entry", LK_LD_ENTRY, VALUE }, { "-e", LK_LD_ENTRY, VALUE },
	{ "--require-defined", LK_LD_REQUIRE_DEFINED, VALUE },
	{ "--undefined", LK_LD_UNDEFINED, VALUE }, { "-u", LK_LD_UNDEFINED, VALUE },
	{ "--export-dynamic-symbol", LK_LD_EXPORT_DYNAMIC_SYMBOL, VALUE },
	{ "-pie", LK_LD_PIE, NO_VALUE }, { "--pic-executable", LK_LD_PIE, NO_VALUE },
	{ "-nostdlib", LK_LD_NOSTDLIB, NO_VALUE },
	{ "--copy-dt-needed-entries", LK_LD_COPY_DT_NEEDED, NO_VALUE },
	{ "--add-needed", LK_LD_COPY_DT_NEEDED, NO_VALUE },
	{ "--allow-multiple-definition", LK_LD_MULDEFS, NO_VALUE },
	{ "--version-script", LK_LD_VERSION_SCRIPT, VALUE },
	{ "--noinhibit-exec", LK_LD_NOINHIBIT_EXEC, NO_VALUE },
	{ "--fatal-warnings", LK_LD_FATAL_WARNINGS, NO_VALUE },
	{ "--no-fatal-warnings", LK_LD_NO_FATAL_WARNINGS, NO_VALUE },
	{ "--warn-common", LK_LD_WARN_COMMON, NO_VALUE },
	{ "-N", LK_LD_OMAGIC, NO_VALUE }, { "--omagic", LK_LD_OMAGIC, NO_VALUE },
	{ "-n", LK_LD_NMAGIC, NO_VALUE }, { "--nmagic", LK_LD_NMAGIC, NO_VALUE },
	{ "--no-warn-execstack", LK_LD_NO_WARN_EXECSTACK, NO_VALUE },
	{ "--no-warn-rwx-segments", LK_LD_NO_WARN_RWX, NO_VALUE },
};

/* Is `w` spelling `sp` (`value`: the item's separate value)? Then 1, with `*v` its value. */
static int spelled(const struct ld_spelling *sp, const char *w, const char *value, const char **v)
{
	for (int pass = 0; pass < 2; pass++) {
		const char *nm = pass ? sp->name + 1 : sp->name;
		size_t n = strlen(nm);

		if (pass && strncmp(sp->name, "--", 2))
			break;
		if (!strcmp(w, nm)) {
			*v = sp->form == NO_VALUE ? NULL : value;
			return 1;
		}
		if (sp->form == NO_VALUE || strncmp(w, nm, n))
			continue;
		if (w[n] == '=') {
			*v = w + n + 1;
			return 1;
		}
		if (sp->form == JOINED && !pass && w[n]) {
			*v = w + n;
			return 1;
		}
	}
	return 0;
}

/* What -z KEYWORD means, for the keywords a later stage asks about. */
static enum lk_ld_option z_keyword(const char *keyword)
{
	if (!keyword)
		return LK_LD_OTHER;
	if (!strcmp(keyword, "defs"))
		return LK_LD_NO_UNDEFINED;
	if (!strcmp(keyword, "undefs"))
		return LK_LD_UNDEFS;
	if (!strcmp(keyword, "muldefs"))
		return LK_LD_MULDEFS;
	if (!strcmp(keyword, "execstack") || !strcmp(keyword, "noexecstack"))
		return LK_LD_Z_EXECSTACK;
	if (!strcmp(keyword, "text") || !strcmp(keyword, "notext") || !strcmp(keyword, "textoff"))
		return LK_LD_Z_TEXT;
	if (!strcmp(keyword, "nocopyreloc"))
		return LK_LD_NOCOPYRELOC;
	if (!strncmp(keyword, "cet-report=", 11))
		return LK_LD_CET_REPORT;
	return LK_LD_OTHER;
}

void lk_line_parse_option(struct lk_line_item *it)
{
	for (size_t i = 0; i < sizeof(ld_spellings) / sizeof(*ld_spellings); i++) {
		const struct ld_spelling *sp = &ld_spellings[i];
		const char *v;

		if (!spelled(sp, it->word, it->value, &v))
			continue;
		/* A value-taking option without its value is not that option (ld fails on it). */
		if (sp->form != NO_VALUE && !v)
			continue;
		it->ld_option = !strcmp(sp->name, "-z") ? z_keyword(v) : sp->id;
		it->ld_value = v;
		return;
	}
}

static struct lk_line_item *add_item(struct builder *b, enum lk_item_kind kind,
				     const char *word, const char *value, long position)
{
	struct lk_line *line = b->line;
	struct lk_line_item *it;

	LK_GROW(line->items.items, line->items.nr + 1, line->items.alloc);
	it = &line->items.items[line->items.nr++];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	it->word = lk_xstrdup(word);
	it->value = value ? lk_xstrdup(value) : NULL;
	if (kind == LK_ITEM_OPTION)
		lk_line_parse_option(it);
	it->position = position;
	it->prov = position >= 0 && (size_t)position < b->rec->args.nr ?
		   b->rec->prov[position] : LK_PROV_DRIVER;
	it->state = b->state;
	memcpy(it->since, b->since, sizeof(it->since));
	it->group = b->group;
	it->parent = -1;
	return it;
}

static void set_state(struct builder *b, unsigned flag, int on)
{
	if (on)
		b->state |= flag;
	else
		b->state &= ~flag;
	/* The option item was just added: it is the last one. */
	b->since[flag_index(flag)] = (long)b->line->items.nr - 1;
}

static void split_path_list(struct lk_strvec *out, const char *list)
{
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ":");

		if (n)
			lk_strvec_push_owned(out, lk_xstrndup(p, n));
		p += n;
		if (*p)
			p++;
	}
}

/* State and group options; 1 when `w` was one of them. */
static int state_option(struct builder *b, const char *w, long pos)
{
	static const struct { const char *word; unsigned flag; int on; } table[] = {
		{ "--whole-archive", LK_ST_WHOLE_ARCHIVE, 1 },
		{ "--no-whole-archive", LK_ST_WHOLE_ARCHIVE, 0 },
		{ "-Bstatic", LK_ST_STATIC, 1 }, { "-static", LK_ST_STATIC, 1 },
		{ "-dn", LK_ST_STATIC, 1 }, { "-non_shared", LK_ST_STATIC, 1 },
		{ "-Bdynamic", LK_ST_STATIC, 0 }, { "-dy", LK_ST_STATIC, 0 },
		{ "-call_shared", LK_ST_STATIC, 0 },
		/* -N and -n also turn shared objects off for what follows (GNU ld, lld and mold alike; --no-omagic does not undo it). */
		{ "-N", LK_ST_STATIC, 1 }, { "--omagic", LK_ST_STATIC, 1 }, { "-omagic", LK_ST_STATIC, 1 },
		{ "-n", LK_ST_STATIC, 1 }, { "--nmagic", LK_ST_STATIC, 1 }, { "-nmagic", LK_ST_STATIC, 1 },
		{ "--as-needed", LK_ST_AS_NEEDED, 1 }, { "--no-as-needed", LK_ST_AS_NEEDED, 0 },
		{ "--copy-dt-needed-entries", LK_ST_COPY_DT_NEEDED, 1 },
		{ "--no-copy-dt-needed-entries", LK_ST_COPY_DT_NEEDED, 0 },
		{ "--add-needed", LK_ST_COPY_DT_NEEDED, 1 },
		{ "--no-add-needed", LK_ST_COPY_DT_NEEDED, 0 },
	};

	for (size_t i = 0; i < sizeof(table) / sizeof(*table); i++) {
		if (strcmp(w, table[i].word))
			continue;
		add_item(b, LK_ITEM_OPTION, w, NULL, pos);
		set_state(b, table[i].flag, table[i].on);
		return 1;
	}
	if (!strcmp(w, "--push-state")) {
		add_item(b, LK_ITEM_OPTION, w, NULL, pos);
		if (b->depth < LK_LINE_PUSH_STATE_MAX) {
			b->stack[b->depth].state = b->state;
			memcpy(b->stack[b->depth].since, b->since, sizeof(b->since));
		}
		b->depth++;
		return 1;
	}
	if (!strcmp(w, "--pop-state")) {
		struct lk_line_item *it = add_item(b, LK_ITEM_OPTION, w, NULL, pos);

		if (b->depth == 0) {
			it->note = lk_xstrdup("--pop-state without --push-state (ld fails)");
		} else if (--b->depth < LK_LINE_PUSH_STATE_MAX) {
			b->state = b->stack[b->depth].state;
			memcpy(b->since, b->stack[b->depth].since, sizeof(b->since));
		}
		return 1;
	}
	if (!strcmp(w, "--start-group") || !strcmp(w, "-(")) {
		struct lk_line_item *it;

		if (b->group >= 0) {
			it = add_item(b, LK_ITEM_OPTION, w, NULL, pos);
			it->note = lk_xstrdup("nested --start-group (ld fails: \"may not nest groups\")");
			return 1;
		}
		b->group = b->next_group++;
		add_item(b, LK_ITEM_GROUP_START, w, NULL, pos);
		return 1;
	}
	if (!strcmp(w, "--end-group") || !strcmp(w, "-)")) {
		struct lk_line_item *it = add_item(b, LK_ITEM_GROUP_END, w, NULL, pos);

		if (b->group < 0)
			it->note = lk_xstrdup("--end-group without --start-group (ld fails)");
		b->group = -1;
		return 1;
	}
	return 0;
}

/* Options that set line-wide facts; the item is kept either way. */
static void line_option(struct builder *b, const struct lk_line_item *it)
{
	struct lk_line *line = b->line;
	const char *w = it->word, *value = it->value;

	if (it->ld_option == LK_LD_SHARED)
		line->facts |= LK_LINE_SHARED;
	else if (it->ld_option == LK_LD_PIE)
		line->facts |= LK_LINE_PIE;
	else if (it->ld_option == LK_LD_NO_UNDEFINED)
		line->facts |= LK_LINE_NO_UNDEFINED;
	else if (it->ld_option == LK_LD_ALLOW_SHLIB_UNDEFINED)
		line->facts |= LK_LINE_ALLOW_SHLIB_UNDEFINED;
	else if (it->ld_option == LK_LD_NOSTDLIB)
		line->facts |= LK_LINE_NOSTDLIB;
	else if ((!strcmp(w, "-m") && value) || (lk_str_starts_with(w, "-m") && w[2] && !value)) {
		free(line->emulation);
		line->emulation = lk_xstrdup(value ? value : w + 2);
	} else if (lk_str_starts_with(w, "--sysroot=")) {
		free(line->sysroot);
		line->sysroot = lk_xstrdup(w + 10);
		line->sysroot_said = 1;
	}
}

/* The value of "-opt=value", "--opt=value", "-opt value" or "-optvalue" for `name`. */
static const char *option_value(const char *w, const char *next, const char *name,
				int joined_ok, int *consumed)
{
	size_t n = strlen(name);

	*consumed = 0;
	if (!strcmp(w, name) && next) {
		*consumed = 1;
		return next;
	}
	if (!strncmp(w, name, n) && w[n] == '=')
		return w + n + 1;
	if (w[0] == '-' && w[1] == '-' && !strncmp(w + 1, name, n) && w[n + 1] == '=')
		return w + n + 2;
	if (joined_ok && !strncmp(w, name, n) && w[n])
		return w + n;
	return NULL;
}

static void add_libdir(struct lk_line *line, const char *dir)
{
	struct lk_buf d = LK_BUF_INIT;

	/* "=/dir" is relative to the sysroot, applied once the line is read. */
	lk_buf_addstr(&d, dir);
	lk_strvec_push_owned(&line->libdirs, lk_buf_detach(&d));
}

static size_t read_word(struct builder *b, const struct lk_strvec *argv, size_t i,
			long pos)
{
	const char *w = argv->items[i];
	const char *next = i + 1 < argv->nr ? argv->items[i + 1] : NULL;
	const char *v;
	int used;

	if (state_option(b, w, pos))
		return 0;
	if ((v = option_value(w, next, "-l", 1, &used)) || (v = option_value(w, next, "--library", 0, &used))) {
		struct lk_buf word = LK_BUF_INIT;

		lk_buf_addf(&word, "-l%s", v);
		add_item(b, LK_ITEM_LIB, word.buf, NULL, pos);
		lk_buf_release(&word);
		return (size_t)used;
	}
	/* "-L=/dir": the '=' is the sysroot's prefix, part of the value (ld's getopt reads -L's value joined). */
	if (!strncmp(w, "-L=", 3)) {
		used = 0;
		v = w + 2;
	} else {
		v = NULL;
	}
	if (v || (v = option_value(w, next, "-L", 1, &used)) || (v = option_value(w, next, "--library-path", 0, &used))) {
		add_libdir(b->line, v);
		add_item(b, LK_ITEM_OPTION, w, used ? v : NULL, pos);
		return (size_t)used;
	}
	if ((!strcmp(w, "-T") || !strcmp(w, "--script")) && next) {
		struct lk_line_item *it = add_item(b, LK_ITEM_FILE, next, NULL, pos);

		it->note = lk_xstrdup("-T script");
		it->t_script = 1;
		return 1;
	}
	if ((v = option_value(w, next, "-rpath-link", 0, &used))) {
		split_path_list(&b->line->rpath_link, v);
		add_item(b, LK_ITEM_OPTION, w, used ? v : NULL, pos);
		return (size_t)used;
	}
	if ((v = option_value(w, next, "-rpath", 0, &used))) {
		split_path_list(&b->line->rpath, v);
		add_item(b, LK_ITEM_OPTION, w, used ? v : NULL, pos);
		return (size_t)used;
	}
	if (next && takes_next(w)) {
		line_option(b, add_item(b, LK_ITEM_OPTION, w, next, pos));
		return 1;
	}
	if (w[0] != '-' || !w[1]) {
		add_item(b, LK_ITEM_FILE, w, NULL, pos);
		return 0;
	}
	line_option(b, add_item(b, LK_ITEM_OPTION, w, NULL, pos));
	return 0;
}

static void build_items(struct builder *b, const struct lk_strvec *argv, const long *pos)
{
	/* argv[0] is the linker program (collect2, ld, or the driver when unknown). */
	for (size_t i = 1; i < argv->nr; i++)
		i += read_word(b, argv, i, pos[i]);
	if (b->group >= 0)
		lk_strvec_push(&b->line->warnings, "a --start-group is never closed (ld fails: \"group ended before it began\" at the end of the line)");
}

/*
 * The linker's own response files: a word "@FILE" of the linker's argv
 * (-Wl,@FILE) is FILE's words, split with buildargv's rules (GNU ld's
 * libiberty expandargv; lld and mold read them alike), nested ones too; a
 * FILE that cannot be read is kept as the word, as each linker keeps it.
 * gcc's own temporary ones were filled in before (atfile.c). Each word
 * gets the driver position of its "@FILE". `depth` bounds the nesting.
 */
#define LK_LINE_RSP_MAX_DEPTH 16
#define LK_LINE_RSP_MAX_BYTES ((size_t)16 << 20)
/*
 * libiberty's expandargv stops after 2,000 response files ("too many
 * @-files encountered"): a file that names itself many times would
 * otherwise expand to its width to the power of the depth.
 */
#define LK_LINE_RSP_MAX_FILES 2000

struct positions {
	long *items;
	size_t nr, alloc;
	int files_left;		/* response files still to expand (LK_LINE_RSP_MAX_FILES) */
};

static void expand_linker_rsp(const struct lk_record *rec, const char *word, long position, int depth,
			      struct lk_strvec *out, struct positions *pos)
{
	struct lk_buf path = LK_BUF_INIT, text = LK_BUF_INIT;
	struct lk_strvec words = LK_STRVEC_INIT;

	if (pos->files_left <= 0)
		return;	/* given up: lk_line_build keeps the line unexpanded */
	if (word[0] == '@' && word[1] && depth < LK_LINE_RSP_MAX_DEPTH) {
		pos->files_left--;
		if (word[1] != '/' && rec->cwd)
			lk_buf_addf(&path, "%s/", rec->cwd);
		lk_buf_addstr(&path, word + 1);
	}
	if (!path.len || lk_buf_read_file(&text, path.buf, LK_LINE_RSP_MAX_BYTES) < 0) {
		lk_strvec_push(out, word);
		LK_GROW(pos->items, pos->nr + 1, pos->alloc);
		pos->items[pos->nr++] = position;
	} else {
		lk_rsp_split(text.buf ? text.buf : "", &words);
		for (size_t i = 0; i < words.nr; i++)
			expand_linker_rsp(rec, words.items[i], position, depth + 1, out, pos);
	}
	lk_strvec_release(&words);
	lk_buf_release(&text);
	lk_buf_release(&path);
}

int lk_line_build(const struct lk_record *rec, const struct lk_line_options *opt,
		  struct lk_line *line, struct lk_err *err)
{
	struct lk_strvec argv = LK_STRVEC_INIT;
	struct builder b;
	long *pos;

	(void)err;
	memset(line, 0, sizeof(*line));
	line->walls = opt->walls;
	line->rec = rec;
	linker_argv(rec, opt, line, &argv);
	fill_gcc_atfiles(rec, &argv);
	pos = lk_xcalloc(argv.nr + 1, sizeof(*pos));
	lk_line_match(&rec->args, &argv, pos);
	for (size_t i = 1; i < argv.nr; i++) {
		if (argv.items[i][0] == '@') {
			struct lk_strvec out = LK_STRVEC_INIT;
			struct positions p = { NULL, 0, 0, LK_LINE_RSP_MAX_FILES };

			for (size_t k = 0; k < argv.nr && p.files_left > 0; k++)
				expand_linker_rsp(rec, argv.items[k], pos[k], k ? 0 : LK_LINE_RSP_MAX_DEPTH, &out, &p);
			if (p.files_left <= 0) {
				/* The line as given, its @FILE words unread: what it would be is not modelled. */
				lk_strvec_push(&line->unknown, "the linker's response files name more than 2000 response files (GNU ld stops: \"too many @-files encountered\"): the line is not expanded");
				lk_strvec_release(&out);
				free(p.items);
				break;
			}
			lk_strvec_release(&argv);
			argv = out;
			free(pos);
			LK_GROW(p.items, p.nr + 1, p.alloc);
			pos = p.items;
			break;
		}
	}
	memset(&b, 0, sizeof(b));
	b.line = line;
	b.rec = rec;
	b.group = -1;
	for (int i = 0; i < LK_ST_COUNT; i++)
		b.since[i] = -1;
	build_items(&b, &argv, pos);
	free(pos);
	line->linker = lk_xstrdup(argv.nr ? argv.items[0] : "ld");
	lk_strvec_release(&argv);
	return 0;
}

const char *lk_line_scratch(struct lk_line *line)
{
	if (!line->scratch)
		line->scratch = lk_scratch_dir("lk-driver");
	return line->scratch;
}

unsigned lk_line_state_at_end(const struct lk_line *line)
{
	unsigned state = 0;

	for (size_t i = 0; i < line->items.nr; i++)
		if (line->items.items[i].parent < 0 && line->items.items[i].position >= 0)
			state = line->items.items[i].state;
	return state;
}

void lk_line_truncate(struct lk_line *line, size_t nr)
{
	for (size_t i = nr; i < line->items.nr; i++) {
		struct lk_line_item *it = &line->items.items[i];

		free(it->word);
		free(it->value);
		free(it->path);
		free(it->note);
		free(it->unusable_why);
		lk_strvec_release(&it->tried);
		lk_strvec_release(&it->skipped);
		free(it->foreign_format);
		lk_strvec_release(&it->script_commands);
		lk_elf_info_release(&it->info);
	}
	line->items.nr = nr;
	/* The DT_NEEDED entries of dropped items were added after all the others. */
	for (size_t i = 0; i < line->needed.nr; i++) {
		if (line->needed.items[i].needed_by < (long)nr)
			continue;
		for (size_t k = i; k < line->needed.nr; k++) {
			free(line->needed.items[k].name);
			free(line->needed.items[k].path);
			free(line->needed.items[k].found_via);
			free(line->needed.items[k].on_line_as);
		}
		line->needed.nr = i;
		break;
	}
}

void lk_line_release(struct lk_line *line)
{
	lk_line_truncate(line, 0);
	free(line->items.items);
	for (size_t i = 0; i < line->needed.nr; i++) {
		free(line->needed.items[i].name);
		free(line->needed.items[i].path);
		free(line->needed.items[i].found_via);
		free(line->needed.items[i].on_line_as);
	}
	free(line->needed.items);
	free(line->linker);
	free(line->emulation);
	free(line->sysroot);
	for (int l = 0; l < 3; l++) {
		free(line->read_otherwise[l]);
		free(line->fails_otherwise[l]);
		lk_strvec_release(&line->libdir_otherwise[l]);
	}
	lk_strvec_release(&line->libdirs);
	lk_strvec_release(&line->default_dirs);
	lk_strvec_release(&line->rpath);
	lk_strvec_release(&line->rpath_link);
	lk_strvec_release(&line->warnings);
	lk_strvec_release(&line->notes);
	lk_strvec_release(&line->unknown);
	free(line->run_driver);
	free(line->no_driver_why);
	if (line->scratch)
		lk_scratch_remove(line->scratch);
	free(line->scratch);
	memset(line, 0, sizeof(*line));
}
