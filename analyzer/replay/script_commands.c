/*
 * The linker-script commands lld and mold know (see replay.c): a script on
 * the line with a top-level command the linker does not read stops it
 * before it reads any input. lld's ScriptParser::readLinkerScript
 * (lld/ELF/ScriptParser.cpp) knows ENTRY, EXTERN, GROUP, INCLUDE, INPUT,
 * MEMORY, OUTPUT, OUTPUT_ARCH, OUTPUT_FORMAT, OVERWRITE_SECTIONS, PHDRS,
 * REGION_ALIAS, SEARCH_DIR, SECTIONS, TARGET, VERSION and assignments
 * (ASSERT, PROVIDE, HIDDEN, PROVIDE_HIDDEN among them), else "unknown
 * directive"; rust-lld (LLD 22) also NOCROSSREFS and NOCROSSREFS_TO.
 * mold 1.10's parse_linker_script (elf/linker-script.cc) knows
 * OUTPUT_FORMAT, INPUT, GROUP, VERSION and "a = b;", else "unknown linker
 * script token". Checked with ld.lld 14.0.6, rust-lld 22.1.2 and mold
 * 1.10.1 on FORCE_COMMON_ALLOCATION, INHIBIT_COMMON_ALLOCATION,
 * FORCE_GROUP_ALLOCATION, LD_FEATURE, NOCROSSREFS(_TO), SEARCH_DIR,
 * EXTERN, ENTRY, TARGET, OUTPUT_ARCH, INCLUDE, ASSERT, PROVIDE, OUTPUT.
 */
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "rp.h"

static const char *const lld_commands[] = { "ENTRY", "EXTERN", "GROUP", "INCLUDE", "INPUT", "MEMORY", "OUTPUT",
	"OUTPUT_ARCH", "OUTPUT_FORMAT", "OVERWRITE_SECTIONS", "PHDRS", "REGION_ALIAS", "SEARCH_DIR", "SECTIONS",
	"TARGET", "VERSION", "ASSERT", "PROVIDE", "HIDDEN", "PROVIDE_HIDDEN", "=", NULL };
static const char *const lld_new_commands[] = { "NOCROSSREFS", "NOCROSSREFS_TO", NULL };
static const char *const mold_commands[] = { "OUTPUT_FORMAT", "INPUT", "GROUP", "VERSION", "=", NULL };

static int listed(const char *const *list, const char *word)
{
	for (; *list; list++)
		if (!strcmp(*list, word))
			return 1;
	return 0;
}

static int knows(enum lk_linker linker, int lld_new, const char *command)
{
	if (linker == LK_LINKER_MOLD)
		return listed(mold_commands, command);
	return listed(lld_commands, command) || (lld_new && listed(lld_new_commands, command));
}

int rp_script_refused(const struct lk_line *line, enum lk_linker linker, int lld_new, long skip, const char *who,
		      struct lk_linker_verdict *v)
{
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];
		struct lk_buf b = LK_BUF_INIT;
		const char *cmd = NULL;

		for (size_t k = 0; k < it->script_commands.nr && !cmd && !(skip >= 0 && it->position == skip); k++)
			if (!knows(linker, lld_new, it->script_commands.items[k]))
				cmd = it->script_commands.items[k];
		if (!cmd)
			continue;
		v->success = 0;
		lk_buf_addf(&b, "%s fails: the linker script %s uses %s, which %s does not know (\"%s\"), and stops before reading any input",
			    who, lk_path_base(it->path), cmd, who,
			    linker == LK_LINKER_MOLD ? "unknown linker script token" : "unknown directive");
		lk_strvec_push_owned(&v->why, lk_buf_detach(&b));
		lk_buf_addf(&b, "for %s: take %s out of %s", who, cmd, lk_path_base(it->path));
		rp_linker_fix(v, lk_buf_detach(&b), NULL, -1);
		return 1;
	}
	return 0;
}
