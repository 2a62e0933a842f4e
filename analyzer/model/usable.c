/*
 * Inputs -> which of them ld cannot use: the inputs found and identified
 * (resolve.c) that GNU ld stops at, each with one line naming the file
 * and what is wrong with it (enum lk_unusable, lk_line_item.unusable):
 *  - an object or shared object of another machine given by path
 *    (bfd: "Relocations in generic ELF (EM: 183)", "error adding symbols:
 *    file in wrong format"); one found by -l search was skipped as
 *    incompatible instead (libsearch.c), and an archive's members are
 *    judged when pulled (the replay);
 *  - LLVM bitcode with no LLVM plugin on the line (gcc passes only its own
 *    liblto_plugin, which does not claim it: "file format not
 *    recognized"), naming the compiler that made it;
 *  - text ld reads as a linker script with a syntax error (ldgram.y's
 *    "syntax error"), at its line and token; a script using a command
 *    this model does not read makes the outcome unknown instead;
 *  - an ELF file cut short ("file too short", "file truncated");
 *  - a file that is neither ELF, an archive, bitcode nor text ("file
 *    format not recognized"); an empty file is none of these: ld takes it
 *    as an empty linker script.
 * Inputs a linker other than GNU ld reads, and LTO through a plugin (LLVM
 * bitcode through LLVMgold.so, a gcc -flto object through gcc's
 * liblto_plugin), are not modelled: the outcome is unknown, with the
 * reason. A gcc LTO object with no plugin gives ld nothing but its ELF
 * symbols ("plugin needed to handle lto object"), as the replay reads it.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/file.h"
#include "bitcode.h"
#include "script.h"
#include "usable.h"

static void set_unusable(struct lk_line_item *it, enum lk_unusable kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_unusable(struct lk_line_item *it, enum lk_unusable kind, const char *fmt, ...)
{
	struct lk_buf b = LK_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	lk_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	free(it->unusable_why);
	it->unusable = kind;
	it->unusable_why = lk_buf_detach(&b);
}

static void unknown(struct lk_line *line, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void unknown(struct lk_line *line, const char *fmt, ...)
{
	struct lk_buf b = LK_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	lk_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < line->unknown.nr; i++) {
		if (!strcmp(line->unknown.items[i], b.buf)) {
			lk_buf_release(&b);
			return;
		}
	}
	lk_strvec_push_owned(&line->unknown, lk_buf_detach(&b));
}

/* The -plugin of the line whose name has `what` ("LLVMgold", "lto_plugin"), or NULL. */
static const char *plugin_named(const struct lk_line *line, const char *what)
{
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];
		const char *v = it->kind != LK_ITEM_OPTION ? NULL :
				!strcmp(it->word, "-plugin") || !strcmp(it->word, "--plugin") ? it->value :
				!strncmp(it->word, "-plugin=", 8) ? it->word + 8 :
				!strncmp(it->word, "--plugin=", 9) ? it->word + 9 : NULL;

		if (v && strstr(v, what))
			return v;
	}
	return NULL;
}

static const char *shown(const struct lk_line_item *it)
{
	return it->path ? it->path : it->word;
}

static void judge_bitcode(struct lk_line *line, struct lk_line_item *it)
{
	const char *plugin = plugin_named(line, "LLVMgold");
	char *producer;

	if (plugin || strcmp(line->flavor ? line->flavor : "bfd", "bfd")) {
		unknown(line, "'%s' is LLVM bitcode, read by %s: link-time optimisation is not modelled, so its symbols are unknown",
			shown(it), plugin ? plugin : line->flavor);
		return;
	}
	producer = lk_bitcode_producer(it->path);
	set_unusable(it, LK_UNUSABLE_BITCODE, "'%s' is LLVM bitcode (made by %s%s%s), and GNU ld has no LLVM plugin on this line: \"file format not recognized\"",
		     shown(it), producer ? "clang, producer " : "clang", producer ? producer : "",
		     producer ? "" : ", -flto");
	free(producer);
}

static void judge_script(struct lk_line *line, struct lk_line_item *it)
{
	struct lk_buf text = LK_BUF_INIT;
	struct lk_err err = LK_ERR_INIT;
	struct lk_script script;
	char bad[8];
	int bad_line;

	if (lk_buf_read_file(&text, it->path, (size_t)1 << 20) < 0) {
		lk_buf_release(&text);
		return;	/* resolve.c's note says so; it is read as no script */
	}
	if (!it->t_script && (bad_line = lk_script_invalid_character(text.buf, bad))) {
		set_unusable(it, LK_UNUSABLE_UNRECOGNIZED, "'%s' is a text file with '%s' at line %d outside a comment or a quoted name, which ld's script lexer does not take: \"file format not recognized\"",
			     shown(it), bad, bad_line);
		lk_buf_release(&text);
		return;
	}
	if (lk_script_parse(text.buf, it->path, &script, &err) < 0) {
		if (script.error_line && script.error_token)
			set_unusable(it, LK_UNUSABLE_SCRIPT, "'%s' is read as a linker script, and ld rejects it: \"syntax error\" at line %d, at '%s'",
				     shown(it), script.error_line, script.error_token);
		else if (script.error_line)
			set_unusable(it, LK_UNUSABLE_SCRIPT, "'%s' is read as a linker script, and ld rejects it: \"syntax error\" at the end of the file (line %d: something is not closed)",
				     shown(it), script.error_line);
		else
			unknown(line, "the linker script '%s' uses '%s', which the model does not read: what it adds to the link is unknown",
				shown(it), script.unmodelled ? script.unmodelled : "?");
	}
	lk_script_release(&script);
	lk_buf_release(&text);
}

static int elf_magic(const char *path)
{
	char magic[4];
	int fd = lk_file_open_regular(path, NULL), elf;

	if (fd < 0)
		return 0;
	elf = pread(fd, magic, 4, 0) == 4 && !memcmp(magic, "\x7f" "ELF", 4);
	close(fd);
	return elf;
}

static void judge(struct lk_line *line, struct lk_line_item *it)
{
	/* gcc's plugin reads the LTO sections: the symbols it gives the link are not the ELF table's. */
	if (it->info.kind == LK_FILE_OBJECT && it->info.gcc_lto && plugin_named(line, "lto_plugin"))
		unknown(line, "'%s' is a gcc LTO object read by gcc's LTO plugin: link-time optimisation is not modelled, so its symbols are unknown",
			shown(it));
	switch (it->info.kind) {
	case LK_FILE_OBJECT:
	case LK_FILE_SHARED:
		/* -l search skips these (libsearch.c). */
		if (it->kind != LK_ITEM_FILE || !line->machine || !it->info.machine || it->info.machine == line->machine)
			break;
		if (it->parent >= 0)
			unknown(line, "'%s', named by the linker script '%s', is for %s, and the link is for %s: whether ld skips it or stops is not modelled",
				shown(it), line->items.items[it->parent].path, lk_elf_machine_name(it->info.machine),
				lk_elf_machine_name(line->machine));
		else
			set_unusable(it, LK_UNUSABLE_WRONG_MACHINE, "'%s' is %s for %s (e_machine %d), and the link is for %s: \"file in wrong format\"",
				     shown(it), it->info.kind == LK_FILE_OBJECT ? "an object" : "a shared object",
				     lk_elf_machine_name(it->info.machine), it->info.machine,
				     lk_elf_machine_name(line->machine));
		break;
	case LK_FILE_BITCODE:
		judge_bitcode(line, it);
		break;
	case LK_FILE_TEXT:
		judge_script(line, it);
		break;
	case LK_FILE_CORRUPT:
		/* An ELF file libelf cannot read is one ld cannot either; a broken archive, ld may still take. */
		if ((it->info.problem && !strncmp(it->info.problem, "truncated", 9)) || elf_magic(it->path))
			set_unusable(it, LK_UNUSABLE_TRUNCATED, "'%s' is cut short (%s): \"file too short\"",
				     shown(it), it->info.problem);
		else
			unknown(line, "'%s' is a broken archive or ELF file (%s): how ld takes it is not modelled",
				shown(it), it->info.problem ? it->info.problem : "corrupt");
		break;
	case LK_FILE_ARCHIVE:
	case LK_FILE_THIN_ARCHIVE:
		/* bfd's elf_link_add_archive_symbols: no armap is an error, but for an empty archive; --whole-archive reads no armap. */
		if (!it->info.has_armap && it->info.members && !(it->state & LK_ST_WHOLE_ARCHIVE))
			set_unusable(it, LK_UNUSABLE_NO_INDEX, "'%s' is an archive of %zu members with no symbol index: \"archive has no index; run ranlib to add one\"",
				     shown(it), it->info.members);
		break;
	case LK_FILE_OTHER:
		if (it->info.problem && strcmp(it->info.problem, "empty file"))
			set_unusable(it, LK_UNUSABLE_UNRECOGNIZED, "'%s' is %s: \"file format not recognized\"",
				     shown(it), it->info.problem);
		break;
	default:
		break;
	}
}

void lk_usable_classify(struct lk_line *line, size_t from)
{
	for (size_t i = from; i < line->items.nr; i++) {
		struct lk_line_item *it = &line->items.items[i];

		if ((it->kind == LK_ITEM_FILE || it->kind == LK_ITEM_LIB) && it->path)
			judge(line, it);
	}
}
