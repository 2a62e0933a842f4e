/*
 * The fix of an undefined symbol that the compiler or the C library's
 * headers put into an object, not its source: what the object was built
 * with or against is the cause, so the fix is a rebuild of it (stated),
 * not a library appended. Known by name:
 *
 *   __stack_chk_fail, __stack_chk_guard, __stack_chk_fail_local
 *       the stack protector (-fstack-protector, on by default in Debian's
 *       gcc), in a link without the C library (-nostdlib, -nodefaultlibs):
 *       freestanding code; rebuild with -fno-stack-protector, or define
 *       them in the program's own runtime.
 *   __isoc23_*
 *       glibc 2.38's headers map strtol, sscanf, ... to their C23
 *       versions; an object compiled against them needs glibc 2.38 or
 *       later at link time: rebuild it against this system's headers.
 *   a hidden definition a shared object references (hidden-symbol)
 *       libc_nonshared.a's atexit, libgcov.a's __gcov_*: the shared
 *       object was linked without that runtime; relink it with it.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "fix_parts.h"

/* The referencing object, as a fix names it ("libx.a(m.o)"), into `b`. */
static void referencing_object(const struct lk_fixer *fx, const struct lk_diag *d, struct lk_buf *b)
{
	const struct lk_rinput *in = d->ref_input >= 0 ? &fx->rp->inputs.items[d->ref_input] : NULL;

	if (!in)
		lk_buf_addstr(b, "the objects that reference it");
	else if (in->member)
		lk_buf_addf(b, "%s(%s)", in->path, in->member);
	else
		lk_buf_addstr(b, in->path);
}

static int stack_protector_symbol(const char *s)
{
	return !strcmp(s, "__stack_chk_fail") || !strcmp(s, "__stack_chk_guard") || !strcmp(s, "__stack_chk_fail_local");
}

static void stack_protector(const struct lk_fixer *fx, const struct lk_diag *d)
{
	struct lk_buf b = LK_BUF_INIT;
	struct lk_fix *f;

	lk_buf_addstr(&b, "rebuild ");
	referencing_object(fx, d, &b);
	lk_buf_addf(&b, " with -fno-stack-protector: the compiler's stack protector calls %s, which the C library defines, and this link has no C library (-nostdlib or -nodefaultlibs: freestanding code)",
		    d->symbol);
	f = lk_fix_stated(fx, d, LK_EDIT_KIND_REBUILD, d->ref_input >= 0 ? fx->rp->inputs.items[d->ref_input].path : NULL,
			  "the object's sources, and the build's compile command for it", b.buf);
	lk_strvec_push(&f->edit.words, "-fno-stack-protector");
	lk_buf_reset(&b);
	lk_buf_addstr(&b, "keep the protector and define its runtime in the program: void __stack_chk_fail(void), which must not return (and, where the target reads the canary from a variable, as on aarch64, uintptr_t __stack_chk_guard)");
	lk_fix_stated(fx, d, LK_EDIT_KIND_DECLARATION, NULL, "a source of the program's own runtime", b.buf)->workaround = 1;
	lk_buf_release(&b);
}

static void newer_glibc(const struct lk_fixer *fx, const struct lk_diag *d)
{
	struct lk_buf b = LK_BUF_INIT;
	struct lk_fix *f;

	lk_buf_addstr(&b, "rebuild ");
	referencing_object(fx, d, &b);
	lk_buf_addf(&b, " against this system's C library headers: %s is the C23 version that glibc 2.38 and later headers substitute for %s, so the object was compiled on a newer system; its glibc defines no %s",
		    d->symbol, d->symbol + strlen("__isoc23_"), d->symbol);
	f = lk_fix_stated(fx, d, LK_EDIT_KIND_REBUILD, d->ref_input >= 0 ? fx->rp->inputs.items[d->ref_input].path : NULL,
			  "the object's sources, compiled on this system (or a prebuilt archive built for its glibc)", b.buf);
	(void)f;
	lk_buf_reset(&b);
	lk_buf_addstr(&b, "link on a system with glibc 2.38 or later, the one the object was built for");
	lk_fix_stated(fx, d, LK_EDIT_KIND_OUTSIDE, NULL, "glibc 2.38 or later", b.buf)->workaround = 1;
	lk_buf_release(&b);
}

/* Does the line read the C library (libc.so, libc.a, or a -lc of any form)? */
static int reads_libc(const struct lk_line *line)
{
	for (size_t i = 0; i < line->items.nr; i++) {
		const char *base = line->items.items[i].path ? lk_path_base(line->items.items[i].path) : "";

		if (!strncmp(base, "libc.so", 7) || !strcmp(base, "libc.a"))
			return 1;
	}
	return 0;
}

/*
 * A shared object references a symbol that a runtime archive defines
 * hidden (libc_nonshared.a's atexit, libgcov.a's __gcov_*): such a
 * definition is meant to be linked into each module that calls it, so the
 * shared object was linked without that runtime. Relink it with it; lld
 * and mold link the line as it is.
 */
static void hidden_runtime(const struct lk_fixer *fx, const struct lk_diag *d)
{
	const char *dso = d->ref_input >= 0 ? fx->rp->inputs.items[d->ref_input].path : NULL;
	const char *lib = d->def_input >= 0 ? lk_path_base(fx->rp->inputs.items[d->def_input].path) : "";
	const char *with = !strcmp(lib, "libc_nonshared.a") ? "the C library (without -nostdlib or -nodefaultlibs in its link, or with -lc)" :
			   !strcmp(lib, "libgcov.a") ? "--coverage (gcc then links libgcov.a into it)" :
			   !strcmp(lib, "libgcc.a") ? "the compiler's runtime (without -nostdlib, or with -lgcc)" : NULL;
	const char *flag = !strcmp(lib, "libgcov.a") ? "--coverage" : !strcmp(lib, "libgcc.a") ? "-lgcc" : "-lc";
	struct lk_buf b = LK_BUF_INIT;
	struct lk_fix *f;

	if (!dso)
		return;
	lk_buf_addf(&b, "relink %s with %s: %s defines %s hidden, to be linked into each module that calls it, and %s was linked without it",
		    dso, with ? with : lib, lib, d->symbol, lk_path_base(dso));
	f = lk_fix_stated(fx, d, LK_EDIT_KIND_REBUILD, dso, "the shared object's own link command", b.buf);
	if (with)
		lk_strvec_push(&f->edit.words, flag);
	lk_fix_stated(fx, d, LK_EDIT_KIND_OUTSIDE, NULL, "lld or mold installed",
		      "link with lld or mold (-fuse-ld=lld, -fuse-ld=mold), which take the hidden definition for the shared object's reference")->workaround = 1;
	lk_buf_release(&b);
}

void lk_fix_runtime(const struct lk_fixer *fx, const struct lk_diag *d)
{
	if (d->kind == LK_DIAG_HIDDEN_DSO_REF) {
		hidden_runtime(fx, d);
		return;
	}
	if (d->kind != LK_DIAG_UNDEFINED || d->defined_path)
		return;
	if (stack_protector_symbol(d->symbol) && !reads_libc(fx->line))
		stack_protector(fx, d);
	else if (!strncmp(d->symbol, "__isoc23_", 9) && d->symbol[9])
		newer_glibc(fx, d);
}
