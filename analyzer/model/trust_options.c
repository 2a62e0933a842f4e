/*
 * The allow-list's driver options (trust.c), option by option: the -f, -m
 * and -g options that change code generation, the ABI, what the driver
 * adds to a link or how diagnostics look, the driver's own valued options
 * (-std=, --target=, -stdlib=, ...) and its plain ones (-shared, -pthread,
 * -O2, ...), each with the values it may take. Every option missing here
 * is dropped and named; so is every value that could name a program, a
 * file or a directory. gcc's and clang's option docs (gcc/common.opt,
 * gcc/config/i386/i386.opt, clang's Options.td) are where these come from.
 */
#include <ctype.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "trust_options.h"

/*
 * A value an allowed option may take: a name, a number or a keyword. Never
 * '/' (a path), ',' (more words), '|', '$', '@', a space or a quote (a
 * program, a shell word, an option file): gcc runs what
 * -fmodule-mapper=|CMD names, and CMD needs no '/'.
 */
int lk_trust_plain_value(const char *v)
{
	if (!*v)
		return 0;
	for (; *v; v++)
		if (!isalnum((unsigned char)*v) && !strchr("_.+-:=", *v))
			return 0;
	return 1;
}

/* Plain values separated by commas: -fsanitize=address,undefined. */
static int plain_list(const char *v)
{
	struct lk_buf part = LK_BUF_INIT;
	int ok = 1;

	for (;;) {
		const char *end = strchr(v, ',');

		lk_buf_reset(&part);
		lk_buf_add(&part, v, end ? (size_t)(end - v) : strlen(v));
		ok = ok && lk_trust_plain_value(part.buf);
		if (!end)
			break;
		v = end + 1;
	}
	lk_buf_release(&part);
	return ok;
}

/* How an allowed driver option's value is checked. */
enum value {
	NO_VALUE,	/* the word exactly (for -f, -m and -g also with no- after the dash) */
	NAME,		/* the name then a plain() value: -fvisibility=hidden, -mavx512f */
	NAMES,		/* ... or plain values separated by commas: -fsanitize=address,undefined */
	ONE_OF,		/* ... one of `keywords` */
};

struct allowed {
	const char *name;	/* after the family's prefix ("-f", "-m", "-g"); whole for the others */
	enum value value;
	const char *const *keywords;	/* ONE_OF */
};

static const char *const visibilities[] = { "default", "hidden", "protected", "internal", NULL };
static const char *const tls_models[] = { "global-dynamic", "local-dynamic", "initial-exec",
	"local-exec", NULL };
static const char *const cf_protections[] = { "full", "branch", "return", "none", "check", NULL };
static const char *const colors[] = { "auto", "always", "never", NULL };
/* -fuse-ld=: the linkers gcc and clang know by name, found in their own dirs or on our PATH. */
static const char *const linkers[] = { "bfd", "gold", "lld", "mold", NULL };
static const char *const cxx_libs[] = { "libstdc++", "libc++", NULL };
static const char *const rt_libs[] = { "libgcc", "compiler-rt", "platform", NULL };
static const char *const unwind_libs[] = { "libgcc", "libunwind", "none", "platform", NULL };

/*
 * -f options: code generation, the ABI, what the driver adds to a link
 * (-fopenmp, -fsanitize=, -fprofile-arcs, -flto, -fuse-ld=) and how
 * diagnostics look. Not here, so dropped: every -f whose value names a
 * program, a file or a directory (-fmodule-mapper=, -fplugin=,
 * -fprofile-generate=DIR, -fprofile-use=, -f*-prefix-map=,
 * -fsanitize-ignorelist=, -fuse-ld=/PATH), and those that write files or
 * load modules (-fdump-*, -fstack-usage, -fcallgraph-info, -fmodules-ts,
 * -fsave-optimization-record, -fcompare-debug, -fdiagnostics-format=).
 */
static const struct allowed f_opts[] = {
	/* position-independent code, sections, layout, visibility */
	{ "PIC", NO_VALUE, NULL }, { "pic", NO_VALUE, NULL }, { "PIE", NO_VALUE, NULL },
	{ "pie", NO_VALUE, NULL }, { "plt", NO_VALUE, NULL }, { "common", NO_VALUE, NULL },
	{ "function-sections", NO_VALUE, NULL }, { "data-sections", NO_VALUE, NULL },
	{ "semantic-interposition", NO_VALUE, NULL }, { "visibility=", ONE_OF, visibilities },
	{ "visibility-inlines-hidden", NO_VALUE, NULL }, { "visibility-ms-compat", NO_VALUE, NULL },
	{ "tls-model=", ONE_OF, tls_models }, { "zero-initialized-in-bss", NO_VALUE, NULL },
	{ "toplevel-reorder", NO_VALUE, NULL }, { "ident", NO_VALUE, NULL },
	{ "leading-underscore", NO_VALUE, NULL }, { "pcc-struct-return", NO_VALUE, NULL },
	{ "reg-struct-return", NO_VALUE, NULL }, { "short-enums", NO_VALUE, NULL },
	{ "short-wchar", NO_VALUE, NULL }, { "signed-char", NO_VALUE, NULL },
	{ "unsigned-char", NO_VALUE, NULL }, { "signed-bitfields", NO_VALUE, NULL },
	{ "unsigned-bitfields", NO_VALUE, NULL }, { "pack-struct", NO_VALUE, NULL },
	{ "pack-struct=", NAME, NULL }, { "align-functions", NO_VALUE, NULL },
	{ "align-functions=", NAME, NULL }, { "standalone-debug", NO_VALUE, NULL },
	/* unwinding, exceptions, the C++ ABI and language */
	{ "exceptions", NO_VALUE, NULL }, { "cxx-exceptions", NO_VALUE, NULL },
	{ "non-call-exceptions", NO_VALUE, NULL }, { "asynchronous-unwind-tables", NO_VALUE, NULL },
	{ "unwind-tables", NO_VALUE, NULL }, { "rtti", NO_VALUE, NULL },
	{ "threadsafe-statics", NO_VALUE, NULL }, { "use-cxa-atexit", NO_VALUE, NULL },
	{ "gnu-unique", NO_VALUE, NULL }, { "weak", NO_VALUE, NULL },
	{ "implicit-templates", NO_VALUE, NULL }, { "implicit-inline-templates", NO_VALUE, NULL },
	{ "sized-deallocation", NO_VALUE, NULL }, { "aligned-new", NO_VALUE, NULL },
	{ "aligned-new=", NAME, NULL }, { "char8_t", NO_VALUE, NULL }, { "abi-version=", NAME, NULL },
	{ "access-control", NO_VALUE, NULL }, { "elide-constructors", NO_VALUE, NULL },
	{ "enforce-eh-specs", NO_VALUE, NULL }, { "nothrow-opt", NO_VALUE, NULL },
	{ "permissive", NO_VALUE, NULL }, { "ms-extensions", NO_VALUE, NULL },
	{ "gnu-keywords", NO_VALUE, NULL }, { "operator-names", NO_VALUE, NULL },
	{ "concepts", NO_VALUE, NULL }, { "coroutines", NO_VALUE, NULL },
	{ "template-depth=", NAME, NULL }, { "constexpr-depth=", NAME, NULL },
	{ "dollars-in-identifiers", NO_VALUE, NULL }, { "extended-identifiers", NO_VALUE, NULL },
	{ "input-charset=", NAME, NULL }, { "exec-charset=", NAME, NULL },
	{ "wide-exec-charset=", NAME, NULL },
	/* inlining, builtins and the calls a compile leaves to the link */
	{ "inline", NO_VALUE, NULL }, { "inline-functions", NO_VALUE, NULL },
	{ "inline-small-functions", NO_VALUE, NULL }, { "keep-inline-functions", NO_VALUE, NULL },
	{ "keep-static-consts", NO_VALUE, NULL }, { "gnu89-inline", NO_VALUE, NULL },
	{ "builtin", NO_VALUE, NULL }, { "builtin-", NAME, NULL }, { "freestanding", NO_VALUE, NULL },
	{ "hosted", NO_VALUE, NULL }, { "tree-loop-distribute-patterns", NO_VALUE, NULL },
	{ "optimize-sibling-calls", NO_VALUE, NULL }, { "jump-tables", NO_VALUE, NULL },
	{ "omit-frame-pointer", NO_VALUE, NULL }, { "strict-aliasing", NO_VALUE, NULL },
	{ "strict-overflow", NO_VALUE, NULL }, { "wrapv", NO_VALUE, NULL }, { "trapv", NO_VALUE, NULL },
	{ "delete-null-pointer-checks", NO_VALUE, NULL }, { "fast-math", NO_VALUE, NULL },
	{ "math-errno", NO_VALUE, NULL }, { "finite-math-only", NO_VALUE, NULL },
	{ "trapping-math", NO_VALUE, NULL }, { "rounding-math", NO_VALUE, NULL },
	{ "signed-zeros", NO_VALUE, NULL }, { "reciprocal-math", NO_VALUE, NULL },
	{ "associative-math", NO_VALUE, NULL }, { "fp-contract=", NAME, NULL },
	{ "excess-precision=", NAME, NULL }, { "merge-constants", NO_VALUE, NULL },
	{ "merge-all-constants", NO_VALUE, NULL }, { "unroll-loops", NO_VALUE, NULL },
	{ "tree-vectorize", NO_VALUE, NULL }, { "whole-program", NO_VALUE, NULL },
	/* hardening and instrumentation */
	{ "stack-protector", NO_VALUE, NULL }, { "stack-protector-all", NO_VALUE, NULL },
	{ "stack-protector-strong", NO_VALUE, NULL }, { "stack-protector-explicit", NO_VALUE, NULL },
	{ "stack-clash-protection", NO_VALUE, NULL }, { "stack-check", NO_VALUE, NULL },
	{ "split-stack", NO_VALUE, NULL }, { "cf-protection", NO_VALUE, NULL },
	{ "cf-protection=", ONE_OF, cf_protections }, { "hardened", NO_VALUE, NULL },
	{ "trivial-auto-var-init=", NAME, NULL }, { "zero-call-used-regs=", NAME, NULL },
	{ "patchable-function-entry=", NAMES, NULL }, { "instrument-functions", NO_VALUE, NULL },
	/* runtimes the driver adds to the link */
	{ "openmp", NO_VALUE, NULL }, { "openmp-simd", NO_VALUE, NULL }, { "openacc", NO_VALUE, NULL },
	{ "gnu-tm", NO_VALUE, NULL }, { "sanitize=", NAMES, NULL }, { "sanitize-recover", NO_VALUE, NULL },
	{ "sanitize-recover=", NAMES, NULL }, { "sanitize-trap", NO_VALUE, NULL },
	{ "sanitize-trap=", NAMES, NULL }, { "sanitize-address-use-after-scope", NO_VALUE, NULL },
	{ "sanitize-undefined-trap-on-error", NO_VALUE, NULL }, { "sanitize-coverage=", NAMES, NULL },
	{ "profile-arcs", NO_VALUE, NULL }, { "test-coverage", NO_VALUE, NULL },
	{ "profile-generate", NO_VALUE, NULL }, { "profile-instr-generate", NO_VALUE, NULL },
	{ "coverage-mapping", NO_VALUE, NULL }, { "profile-update=", NAME, NULL },
	/* link-time optimisation and the linker */
	{ "lto", NO_VALUE, NULL }, { "lto=", NAME, NULL }, { "lto-partition=", NAME, NULL },
	{ "lto-compression-level=", NAME, NULL }, { "fat-lto-objects", NO_VALUE, NULL },
	{ "use-linker-plugin", NO_VALUE, NULL }, { "use-ld=", ONE_OF, linkers },
	/* diagnostics and debug information */
	{ "diagnostics-color", NO_VALUE, NULL }, { "diagnostics-color=", ONE_OF, colors },
	{ "color-diagnostics", NO_VALUE, NULL }, { "diagnostics-show-option", NO_VALUE, NULL },
	{ "diagnostics-show-caret", NO_VALUE, NULL }, { "show-column", NO_VALUE, NULL },
	{ "message-length=", NAME, NULL }, { "max-errors=", NAME, NULL },
	{ "random-seed=", NAME, NULL }, { "record-gcc-switches", NO_VALUE, NULL },
	{ "var-tracking", NO_VALUE, NULL }, { "var-tracking-assignments", NO_VALUE, NULL },
	{ NULL, NO_VALUE, NULL },
};

/* -m options: the target's instruction set, ABI and code model. */
static const struct allowed m_opts[] = {
	{ "16", NO_VALUE, NULL }, { "32", NO_VALUE, NULL }, { "64", NO_VALUE, NULL },
	{ "x32", NO_VALUE, NULL }, { "abi=", NAME, NULL }, { "arch=", NAME, NULL },
	{ "tune=", NAME, NULL }, { "cpu=", NAME, NULL }, { "fpu=", NAME, NULL },
	{ "float-abi=", NAME, NULL }, { "cmodel=", NAME, NULL }, { "tls-dialect=", NAME, NULL },
	{ "fpmath=", NAME, NULL }, { "prefer-vector-width=", NAME, NULL },
	{ "branch-protection=", NAME, NULL }, { "indirect-branch=", NAME, NULL },
	{ "function-return=", NAME, NULL }, { "indirect-branch-register", NO_VALUE, NULL },
	{ "retpoline", NO_VALUE, NULL }, { "stack-protector-guard=", NAME, NULL },
	{ "stack-protector-guard-reg=", NAME, NULL }, { "stack-protector-guard-offset=", NAME, NULL },
	{ "regparm=", NAME, NULL }, { "preferred-stack-boundary=", NAME, NULL },
	{ "incoming-stack-boundary=", NAME, NULL }, { "large-data-threshold=", NAME, NULL },
	{ "tp=", NAME, NULL }, { "sse", NO_VALUE, NULL }, { "sse2", NO_VALUE, NULL },
	{ "sse3", NO_VALUE, NULL }, { "ssse3", NO_VALUE, NULL }, { "sse4", NO_VALUE, NULL },
	{ "sse4", NAME, NULL }, { "avx", NO_VALUE, NULL }, { "avx2", NO_VALUE, NULL },
	{ "avx512", NAME, NULL }, { "fma", NO_VALUE, NULL }, { "fma4", NO_VALUE, NULL },
	{ "f16c", NO_VALUE, NULL }, { "bmi", NO_VALUE, NULL }, { "bmi2", NO_VALUE, NULL },
	{ "lzcnt", NO_VALUE, NULL }, { "popcnt", NO_VALUE, NULL }, { "pclmul", NO_VALUE, NULL },
	{ "aes", NO_VALUE, NULL }, { "sha", NO_VALUE, NULL }, { "rdrnd", NO_VALUE, NULL },
	{ "rdseed", NO_VALUE, NULL }, { "adx", NO_VALUE, NULL }, { "movbe", NO_VALUE, NULL },
	{ "cx16", NO_VALUE, NULL }, { "sahf", NO_VALUE, NULL }, { "xsave", NO_VALUE, NULL },
	{ "xsaveopt", NO_VALUE, NULL }, { "fsgsbase", NO_VALUE, NULL }, { "mmx", NO_VALUE, NULL },
	{ "80387", NO_VALUE, NULL }, { "red-zone", NO_VALUE, NULL },
	{ "omit-leaf-frame-pointer", NO_VALUE, NULL }, { "stackrealign", NO_VALUE, NULL },
	{ "general-regs-only", NO_VALUE, NULL }, { "soft-float", NO_VALUE, NULL },
	{ "hard-float", NO_VALUE, NULL }, { "thumb", NO_VALUE, NULL }, { "arm", NO_VALUE, NULL },
	{ "thumb-interwork", NO_VALUE, NULL }, { "little-endian", NO_VALUE, NULL },
	{ "big-endian", NO_VALUE, NULL }, { "strict-align", NO_VALUE, NULL },
	{ "unaligned-access", NO_VALUE, NULL }, { "outline-atomics", NO_VALUE, NULL },
	{ "fentry", NO_VALUE, NULL }, { "record-mcount", NO_VALUE, NULL },
	{ "nop-mcount", NO_VALUE, NULL }, { "ieee-fp", NO_VALUE, NULL },
	{ "fp-ret-in-387", NO_VALUE, NULL }, { "align-double", NO_VALUE, NULL },
	{ "long-double-64", NO_VALUE, NULL }, { "long-double-80", NO_VALUE, NULL },
	{ "long-double-128", NO_VALUE, NULL }, { "tls-direct-seg-refs", NO_VALUE, NULL },
	{ "direct-extern-access", NO_VALUE, NULL }, { "relax", NO_VALUE, NULL },
	{ "explicit-relocs", NO_VALUE, NULL }, { "abicalls", NO_VALUE, NULL },
	{ "pic-data-is-text-relative", NO_VALUE, NULL }, { "long-calls", NO_VALUE, NULL },
	{ "vzeroupper", NO_VALUE, NULL }, { "fix-cortex-a53-835769", NO_VALUE, NULL },
	{ "fix-cortex-a53-843419", NO_VALUE, NULL }, { "shstk", NO_VALUE, NULL },
	{ NULL, NO_VALUE, NULL },
};

/* -g options: debug information only (-gsplit-dwarf's .dwo goes beside the output). */
static const struct allowed g_opts[] = {
	{ "", NO_VALUE, NULL }, { "0", NO_VALUE, NULL }, { "1", NO_VALUE, NULL },
	{ "2", NO_VALUE, NULL }, { "3", NO_VALUE, NULL }, { "gdb", NO_VALUE, NULL },
	{ "gdb1", NO_VALUE, NULL }, { "gdb2", NO_VALUE, NULL }, { "gdb3", NO_VALUE, NULL },
	{ "dwarf", NO_VALUE, NULL }, { "dwarf-", NAME, NULL }, { "split-dwarf", NO_VALUE, NULL },
	{ "z", NO_VALUE, NULL }, { "z=", NAME, NULL }, { "column-info", NO_VALUE, NULL },
	{ "strict-dwarf", NO_VALUE, NULL }, { "record-gcc-switches", NO_VALUE, NULL },
	{ "pubnames", NO_VALUE, NULL }, { "gnu-pubnames", NO_VALUE, NULL }, { "btf", NO_VALUE, NULL },
	{ "ctf", NO_VALUE, NULL }, { "line-tables-only", NO_VALUE, NULL },
	{ "inline-points", NO_VALUE, NULL }, { "statement-frontiers", NO_VALUE, NULL },
	{ "variable-location-views", NO_VALUE, NULL },
	{ NULL, NO_VALUE, NULL },
};

/* The driver's own options with a joined value, whole. */
static const struct allowed valued_opts[] = {
	{ "-std=", NAME, NULL }, { "--std=", NAME, NULL }, { "--target=", NAME, NULL },
	{ "-stdlib=", ONE_OF, cxx_libs }, { "--stdlib=", ONE_OF, cxx_libs },
	{ "-rtlib=", ONE_OF, rt_libs }, { "--rtlib=", ONE_OF, rt_libs },
	{ "-unwindlib=", ONE_OF, unwind_libs }, { "--unwindlib=", ONE_OF, unwind_libs },
	{ NULL, NO_VALUE, NULL },
};

/* Options with no value that only change code, inputs, the output kind or diagnostics. */
static const char *const plain_opts[] = {
	"-shared", "-static", "-static-pie", "-pie", "-no-pie", "-rdynamic", "-s", "-r",
	"-nostdlib", "-nodefaultlibs", "-nostartfiles", "-nolibc", "-nostdlib++",
	"-static-libgcc", "-shared-libgcc", "-static-libstdc++", "-static-libasan",
	"-static-libtsan", "-static-liblsan", "-static-libubsan", "-static-libhwasan",
	"-static-libsan", "-shared-libsan", "-symbolic", "-pthread", "-ansi", "-w", "-W", "-pipe",
	"-nostdinc", "-nostdinc++", "-undef", "-C", "-P", "-CC", "-traditional", "-traditional-cpp",
	"-trigraphs", "-p", "-pg", "--coverage", "-pedantic", "-pedantic-errors", "-O", "-O0",
	"-O1", "-O2", "-O3", "-Os", "-Oz", "-Og", "-Ofast", NULL,
};

/* Is `rest` an entry of `table`? `negatable`: NO_VALUE entries also as "no-NAME". */
static int allowed_in(const struct allowed *table, const char *rest, int negatable)
{
	if (negatable && !strncmp(rest, "no-", 3) && rest[3])
		rest += 3;
	for (const struct allowed *o = table; o->name; o++) {
		size_t len = strlen(o->name);

		if (o->value == NO_VALUE) {
			if (!strcmp(rest, o->name))
				return 1;
			continue;
		}
		if (strncmp(rest, o->name, len))
			continue;
		if ((o->value == NAME && lk_trust_plain_value(rest + len)) || (o->value == NAMES && plain_list(rest + len)) ||
		    (o->value == ONE_OF && lk_str_in_list(rest + len, o->keywords)))
			return 1;
	}
	return 0;
}

int lk_trust_codegen_option(const char *a)
{
	return lk_str_in_list(a, plain_opts) || allowed_in(valued_opts, a, 0) ||
	       (a[1] == 'f' && allowed_in(f_opts, a + 2, 1)) ||
	       (a[1] == 'm' && allowed_in(m_opts, a + 2, 1)) ||
	       (a[1] == 'g' && allowed_in(g_opts, a + 2, 1));
}
