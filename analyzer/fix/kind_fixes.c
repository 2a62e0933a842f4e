/*
 * The fixes of the diagnostic kinds whose edit is their own (see
 * fix_parts.h): "cannot find -lNAME" (the word replaced where it stands,
 * tried by a replay of the line with it there, LK_EDIT_IN_PLACE; or said
 * when no edit of the line does it), the inputs ld cannot use (rebuilds,
 * a corrected script, another linker: all stated, since no trial can pass
 * while the input stays on the line), and the relocation room's
 * (rebuilding the object with -fPIE, -fPIC or a code model, stated with
 * its name; -no-pie, tried, the workaround).
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "elf.h"
#include "fix_parts.h"
#include "notfound.h"
#include "reloc_explain.h"

/* "PATH" or "PATH(MEMBER)": an input of the replay as ld names it. */
static void object_name(const struct lk_rinput *in, struct lk_buf *b)
{
	if (in->member)
		lk_buf_addf(b, "%s(%s)", in->path, in->member);
	else
		lk_buf_addstr(b, in->path);
}

/* ---- cannot find -lNAME ---- */

/* The line with the -l word of `it` replaced by `word`, replayed where it stood. */
static void try_replace(const struct lk_fixer *fx, const struct lk_line_item *it, const struct lk_diag *d,
			const char *word, const char *description)
{
	struct lk_edit e = { LK_EDIT_KIND_REPLACE, it->position, -1, LK_STRVEC_INIT, NULL, NULL, NULL, 0 };

	lk_strvec_push(&e.words, word);
	lk_fix_offer(fx, d, &e, description);
}

void lk_fix_not_found(const struct lk_fixer *fx, const struct lk_diag *d)
{
	const struct lk_record *rec = fx->rec;
	const struct lk_line *line = fx->line;
	const struct lk_line_item *it = d->item >= 0 ? &line->items.items[d->item] : NULL;
	const char *cause = d->not_found_cause, *file = d->not_found_file;
	struct lk_buf word = LK_BUF_INIT, desc = LK_BUF_INIT;
	char *l = NULL;
	/* A word replaced in place: the driver's own word, not one a script or the driver added. */
	int replaceable = it && it->parent < 0 && it->position >= 0 && (size_t)it->position < rec->args.nr &&
			  !strcmp(rec->args.items[it->position].text, it->word);

	if (!cause || !file)
		return;
	if (!strcmp(cause, "static-only-shared")) {
		lk_buf_addf(&desc, "install lib%s.a (the static library), or link %s without -static: only %s exists",
			    it->word + 2, it->word, file);
		lk_fix_stated(fx, d, LK_EDIT_KIND_OUTSIDE, NULL, "a static library of that name in a dir ld searches", desc.buf);
	} else if (!strcmp(cause, "runtime-only") || !strcmp(cause, "near-name") ||
		   !strcmp(cause, "incompatible-skipped")) {
		const char *base = lk_path_base(file);

		if (!strcmp(cause, "runtime-only"))
			lk_buf_addf(&word, "-l:%s", base);
		else if (!strcmp(cause, "near-name"))
			lk_buf_addstr(&word, (l = lk_notfound_l_word(file)));
		else
			lk_buf_addstr(&word, file);
		lk_buf_addf(&desc, "replace %s (at %ld) with %s", it->word, it->position, word.buf);
		if (!strcmp(cause, "runtime-only"))
			lk_buf_addf(&desc, " (or install the -dev package that has lib%s.so)", it->word + 2);
		else if (!strcmp(cause, "incompatible-skipped"))
			lk_buf_addf(&desc, " (or add -L%.*s before it)", (int)(base - file - 1), file);
		if (replaceable)
			try_replace(fx, it, d, word.buf, desc.buf);
		else
			lk_fix_stated(fx, d, LK_EDIT_KIND_OUTSIDE, NULL, "the word replaced where the build writes it (not a word of this argv)",
				      desc.buf);
	}
	free(l);
	lk_buf_release(&word);
	lk_buf_release(&desc);
}

/* ---- inputs ld cannot use ---- */

/* A fix outside the line, said: `needs` is what would have to be true for it to work. */
static void stated(const struct lk_fixer *fx, const struct lk_diag *d, enum lk_edit_kind kind, const char *input,
		   const char *needs, struct lk_buf *description)
{
	lk_fix_stated(fx, d, kind, input, needs, description->buf);
	lk_buf_reset(description);
}

void lk_fix_unusable(const struct lk_fixer *fx, const struct lk_diag *d)
{
	const struct lk_line *line = fx->line;
	const struct lk_line_item *it = &line->items.items[d->item];	/* the replay names one (replay/unusable.c) */
	const char *file = it->path ? it->path : it->word;
	struct lk_buf b = LK_BUF_INIT;

	switch (d->kind) {
	case LK_DIAG_WRONG_MACHINE:
		lk_buf_addf(&b, "rebuild %s%s%s%s for %s (with that machine's compiler), or take it off the line",
			    d->member ? "member " : "'", d->member ? d->member : file, d->member ? " of " : "'",
			    d->member ? file : "", lk_elf_machine_name(line->machine));
		stated(fx, d, LK_EDIT_KIND_REBUILD, file, "a compiler for the link's machine, and the input's sources", &b);
		break;
	case LK_DIAG_BITCODE:
		lk_buf_addstr(&b, "link with lld, which reads LLVM bitcode: add -fuse-ld=lld");
		{
			/* An edit of the line, but of another linker's reading: stated, with its argv. */
			struct lk_edit e = { LK_EDIT_KIND_INSERT, (long)fx->rec->args.nr, -1, LK_STRVEC_INIT, NULL, NULL,
					     lk_xstrdup("lld installed, and the bitcode of an LLVM that lld reads"), 1 };

			lk_strvec_push(&e.words, "-fuse-ld=lld");
			lk_fix_offer(fx, d, &e, b.buf);
			lk_buf_reset(&b);
		}
		lk_buf_addf(&b, "or rebuild '%s' without link-time optimisation: clang -fno-lto -c (a real object GNU ld reads)",
			    file);
		stated(fx, d, LK_EDIT_KIND_REBUILD, file, "the object's sources, and a compiler that makes real objects", &b);
		break;
	case LK_DIAG_SCRIPT_SYNTAX:
		lk_buf_addf(&b, "correct the linker script '%s' where ld stops; no edit of the link line fixes it while it is on the line",
			    file);
		stated(fx, d, LK_EDIT_KIND_OUTSIDE, file, "the script's author's intent: what it should say", &b);
		break;
	case LK_DIAG_TRUNCATED:
		lk_buf_addf(&b, "rebuild '%s%s%s' (an interrupted build or copy leaves a file cut short)",
			    file, d->member ? "' member '" : "", d->member ? d->member : "");
		stated(fx, d, LK_EDIT_KIND_REBUILD, file, "the input's sources, or an intact copy", &b);
		break;
	case LK_DIAG_NO_INDEX:
		lk_buf_addf(&b, "add the symbol index to '%s': run ranlib on it, or make it with `ar rcs` (the s writes the index) where the build makes it", file);
		stated(fx, d, LK_EDIT_KIND_REBUILD, file, "the archive's members, and the build's ar command for it", &b);
		lk_fix_stated(fx, d, LK_EDIT_KIND_OUTSIDE, file, "lld or mold installed",
			      "link with lld or mold (-fuse-ld=lld, -fuse-ld=mold), which read an archive without an index member by member")->workaround = 1;
		break;
	case LK_DIAG_UNRECOGNIZED:
		lk_buf_addf(&b, "take '%s' off the line, or put there the object or library it stands for", file);
		stated(fx, d, LK_EDIT_KIND_OUTSIDE, file, "the object or library the file stands for", &b);
		break;
	default:
		break;
	}
	lk_buf_release(&b);
}

/* ---- the relocation room ---- */

/* A rebuild (or a declaration changed) of the referencing object, which no replay can try: said, with its name and the flag. */
static void stated_fix(const struct lk_fixer *fx, const struct lk_diag *d, enum lk_edit_kind kind,
		       const char *description)
{
	const struct lk_rinput *in = d->ref_input >= 0 ? &fx->rp->inputs.items[d->ref_input] : NULL;
	struct lk_fix *f = lk_fix_stated(fx, d, kind, in ? in->path : NULL,
					 "the object's sources, and the build's compile command for it", description);

	if (d->reloc->recompile)
		lk_strvec_push(&f->edit.words, d->reloc->recompile);
}

/*
 * Hand-written assembly: -fPIE changes nothing there; the instruction
 * itself must address its operand relative to the program counter, or
 * through the GOT for a symbol another object may define.
 */
static void assembly_fix(const struct lk_fixer *fx, const struct lk_diag *d)
{
	const struct lk_diag_reloc *x = d->reloc;
	struct lk_buf b = LK_BUF_INIT;
	int aarch64 = !strcmp(x->machine, "AArch64");

	lk_buf_addf(&b, "change the instruction at %s+0x%llx of ", x->section, x->offset);
	object_name(&fx->rp->inputs.items[d->ref_input], &b);
	lk_buf_addf(&b, " (hand-written assembly: -fPIE does not change it) to address %s relative to the program counter", d->symbol);
	if (aarch64)
		lk_buf_addf(&b, " (adrp x0, %s; add x0, x0, :lo12:%s), or through the GOT when another object may define it (adrp x0, :got:%s; ldr x0, [x0, :got_lo12:%s])",
			    d->symbol, d->symbol, d->symbol, d->symbol);
	else
		lk_buf_addf(&b, " (%s(%%rip)), or through the GOT when another object may define it (%s@GOTPCREL(%%rip), then a load through it)",
			    d->symbol, d->symbol);
	lk_fix_stated(fx, d, LK_EDIT_KIND_DECLARATION, fx->rp->inputs.items[d->ref_input].path,
		      "the assembly source of the object", b.buf);
	lk_buf_release(&b);
}

static void fix_not_allowed(const struct lk_fixer *fx, const struct lk_diag *d)
{
	const struct lk_replay *out = fx->rp;
	struct lk_buf b = LK_BUF_INIT;

	if (!strcmp(d->reloc->output, "a PIE object")) {
		/* The cause is the object's code; a position-dependent output works around it. */
		lk_fix_try_append(fx, d, "-no-pie",
				  "link a position-dependent executable: add -no-pie to the link line")->workaround = 1;
	}
	if (lk_reloc_from_assembly(d->reloc)) {
		assembly_fix(fx, d);
		return;
	}
	if (d->reloc->tls_le) {
		/* ld says "recompile with -fPIC"; -fPIC code that asks for -ftls-model=local-exec keeps it: the model is the fix. */
		struct lk_fix *f;

		lk_buf_addstr(&b, "rebuild ");
		object_name(&out->inputs.items[d->ref_input], &b);
		lk_buf_addstr(&b, " with -fPIC and without -ftls-model=local-exec (-fPIC's own model, global dynamic, works in any shared object; initial-exec in one loaded at startup)");
		f = lk_fix_stated(fx, d, LK_EDIT_KIND_REBUILD, out->inputs.items[d->ref_input].path,
				  "the object's sources, and the build's compile command for it", b.buf);
		lk_strvec_push(&f->edit.words, "-fPIC");
		lk_strvec_push(&f->edit.words, "-ftls-model=global-dynamic");
		lk_buf_release(&b);
		return;
	}
	lk_buf_addstr(&b, "rebuild ");
	object_name(&out->inputs.items[d->ref_input], &b);
	lk_buf_addf(&b, " with %s (position-independent code)", d->reloc->recompile);
	stated_fix(fx, d, LK_EDIT_KIND_REBUILD, b.buf);
	lk_buf_release(&b);
}

static void fix_overflow(const struct lk_fixer *fx, const struct lk_diag *d)
{
	const struct lk_replay *out = fx->rp;
	const struct lk_diag_reloc *x = d->reloc;
	struct lk_buf b = LK_BUF_INIT;

	lk_buf_addstr(&b, "rebuild ");
	if (x->stub) {
		/* A far call: no code model lifts a BL's reach; stubs between smaller sections serve it. */
		object_name(&out->inputs.items[d->ref_input], &b);
		lk_buf_addf(&b, " with %s, so that its code is many sections the linker can put long-branch veneers between (or smaller: an optimised build)",
			    x->recompile);
		stated_fix(fx, d, LK_EDIT_KIND_REBUILD, b.buf);
		lk_buf_release(&b);
		return;
	}
	if (x->large_inputs.nr && !strcmp(x->recompile, "-mcmodel=medium")) {
		for (size_t i = 0; i < x->large_inputs.nr; i++)
			lk_buf_addf(&b, "%s%s", i ? ", " : "", x->large_inputs.items[i]);
		lk_buf_addstr(&b, " (which hold the large sections) and ");
	}
	object_name(&out->inputs.items[d->ref_input], &b);
	lk_buf_addf(&b, " with %s, so that its references reach past +-%llu MiB", x->recompile, x->reach >> 20);
	if (!strcmp(x->recompile, "-mcmodel=medium"))
		lk_buf_addstr(&b, " (data larger than -mlarge-data-threshold goes to .lbss/.ldata, after .bss)");
	stated_fix(fx, d, LK_EDIT_KIND_REBUILD, b.buf);
	lk_buf_release(&b);
}

static void fix_tls(const struct lk_fixer *fx, const struct lk_diag *d)
{
	const struct lk_replay *out = fx->rp;
	const struct lk_diag_reloc *x = d->reloc;
	struct lk_buf b = LK_BUF_INIT;
	/* The side that disagrees with the definition is rebuilt; with two references, either. */
	long other = !strcmp(x->first_what, "definition") ? d->ref_input :
		     !strcmp(x->second_what, "definition") ? d->def_input : -1;

	lk_buf_addf(&b, "declare %s the same way everywhere (with or without _Thread_local / __thread, as its definition has it) and rebuild ",
		    d->symbol);
	if (other >= 0) {
		object_name(&out->inputs.items[other], &b);
	} else {
		object_name(&out->inputs.items[d->def_input], &b);
		lk_buf_addstr(&b, " or ");
		object_name(&out->inputs.items[d->ref_input], &b);
	}
	stated_fix(fx, d, LK_EDIT_KIND_DECLARATION, b.buf);
	lk_buf_release(&b);
}

void lk_fix_reloc(const struct lk_fixer *fx, const struct lk_diag *d)
{
	if (d->kind == LK_DIAG_RELOC_NOT_ALLOWED)
		fix_not_allowed(fx, d);
	else if (d->kind == LK_DIAG_RELOC_OVERFLOW)
		fix_overflow(fx, d);
	else if (d->kind == LK_DIAG_TLS_MISMATCH)
		fix_tls(fx, d);
}
