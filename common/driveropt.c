/*
 * The compiler driver's option table.
 *
 * Takes: one driver argument. Gives: what the driver makes of it, from one
 * table (driveropt.h). Models: gcc's option grammar (gcc/common.opt,
 * c-family/c.opt: "Joined", "Separate") and its link spec (gcc/gcc.cc
 * LINK_COMMAND_SPEC: %{o*} %{e*} %{u*} %{z} %{L*} %{T*} %{static} ... are
 * written ahead of the inputs, %o keeps inputs, -l and -Wl, words in
 * place), with clang's own separate-value options; only the options whose
 * shape decides how the rest of a command line reads, or what ld sees.
 */
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/driveropt.h"

#define SEP LK_DOPT_SEPARATE
#define JOIN LK_DOPT_JOINED
#define LD LK_DOPT_LD
#define HOIST LK_DOPT_HOISTED
#define SPLIT LK_DOPT_SPLIT
#define NOLINK LK_DOPT_NOLINK

static const struct lk_driveropt table[] = {
	/* What ld sees, hoisted to the front of its line. */
	{ "-o", SEP | JOIN | LD | HOIST | SPLIT, NULL },
	{ "-T", SEP | JOIN | LD | HOIST | SPLIT, NULL },
	{ "-e", SEP | JOIN | LD | HOIST, NULL },
	{ "-u", SEP | JOIN | LD | HOIST, NULL },
	{ "-z", SEP | JOIN | LD | HOIST, NULL },
	{ "-L", SEP | JOIN | LD | HOIST, NULL },
	{ "-static", LD | HOIST, NULL },
	{ "-shared", LD | HOIST, NULL },
	{ "-pie", LD | HOIST, NULL },
	{ "-static-pie", LD | HOIST, NULL },
	{ "-s", LD | HOIST, NULL },
	{ "-r", LD | HOIST, NULL },
	{ "-rdynamic", LD | HOIST, "-export-dynamic" },
	/* What ld sees in place. */
	{ "-l", SEP | JOIN | LD, NULL },
	{ "-Xlinker", SEP | LD, NULL },
	/* The driver's own, with a value. */
	{ "-x", SEP | JOIN, NULL },
	{ "-B", SEP | JOIN, NULL },
	{ "-I", SEP | JOIN, NULL },
	{ "-D", SEP | JOIN, NULL },
	{ "-U", SEP | JOIN, NULL },
	{ "-include", SEP | JOIN, NULL },
	{ "-imacros", SEP | JOIN, NULL },
	{ "-iprefix", SEP | JOIN, NULL },
	{ "-iwithprefix", SEP | JOIN, NULL },
	{ "-iwithprefixbefore", SEP | JOIN, NULL },
	{ "-isystem", SEP | JOIN, NULL },
	{ "-idirafter", SEP | JOIN, NULL },
	{ "-iquote", SEP | JOIN, NULL },
	{ "-isysroot", SEP | JOIN, NULL },
	{ "-imultilib", SEP | JOIN, NULL },
	{ "-MF", SEP | JOIN, NULL },
	{ "-MT", SEP | JOIN, NULL },
	{ "-MQ", SEP | JOIN, NULL },
	{ "-MJ", SEP | JOIN, NULL },
	{ "-Xassembler", SEP, NULL },
	{ "-Xpreprocessor", SEP, NULL },
	{ "-Xclang", SEP, NULL },
	{ "-mllvm", SEP, NULL },
	{ "-include-pch", SEP, NULL },
	{ "-aux-info", SEP, NULL },
	{ "--param", SEP, NULL },
	{ "-dumpdir", SEP, NULL },
	{ "-dumpbase", SEP, NULL },
	{ "-dumpbase-ext", SEP, NULL },
	{ "-target", SEP, NULL },
	{ "--sysroot", SEP, NULL },
	{ "-specs", SEP, NULL },
	{ "-wrapper", SEP, NULL },
	{ "-arch", SEP, NULL },
	/* The driver stops before linking. */
	{ "-c", NOLINK, NULL },
	{ "-S", NOLINK, NULL },
	{ "-E", NOLINK, NULL },
	{ "-M", NOLINK, NULL },
	{ "-MM", NOLINK, NULL },
	{ "--version", NOLINK, NULL },
	{ "-dumpversion", NOLINK, NULL },
	{ "-dumpfullversion", NOLINK, NULL },
	{ "-dumpmachine", NOLINK, NULL },
	{ "-dumpspecs", NOLINK, NULL },
	{ "-###", NOLINK, NULL },
	{ "--help", NOLINK, NULL },
	{ "--target-help", NOLINK, NULL },
	{ "-fsyntax-only", NOLINK, NULL },
	{ "-print-", NOLINK | JOIN, NULL },
	{ "--print-", NOLINK | JOIN, NULL },
	{ "--help=", NOLINK | JOIN, NULL },
};

#define TABLE_NR (sizeof(table) / sizeof(*table))

const struct lk_driveropt *lk_driveropt_table(unsigned *nr)
{
	*nr = (unsigned)TABLE_NR;
	return table;
}

const struct lk_driveropt *lk_driveropt_find(const char *arg)
{
	for (size_t i = 0; i < TABLE_NR; i++)
		if (!strcmp(arg, table[i].name))
			return &table[i];
	return NULL;
}

const struct lk_driveropt *lk_driveropt_joined(const char *arg, const char **value)
{
	const struct lk_driveropt *best = NULL;
	size_t best_len = 0;

	for (size_t i = 0; i < TABLE_NR; i++) {
		size_t len = strlen(table[i].name);

		if ((table[i].flags & LK_DOPT_JOINED) && len > best_len &&
		    !strncmp(arg, table[i].name, len) && arg[len]) {
			best = &table[i];
			best_len = len;
		}
	}
	*value = best ? arg + best_len : NULL;
	return best;
}

const char *lk_driveropt_nolink(const char *arg)
{
	for (size_t i = 0; i < TABLE_NR; i++) {
		size_t len = strlen(table[i].name);

		if (!(table[i].flags & LK_DOPT_NOLINK))
			continue;
		if (!strcmp(arg, table[i].name) ||
		    ((table[i].flags & LK_DOPT_JOINED) && !strncmp(arg, table[i].name, len)))
			return table[i].name;
	}
	return NULL;
}
