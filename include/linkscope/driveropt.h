/*
 * The compiler driver's options that matter to linkscope, in one table:
 * how each takes its value, whether the driver hands it to ld and where,
 * and whether it stops the driver before linking. The argv model (argv.c),
 * the line model's driver-to-ld translation (analyzer/model/line.c) and the
 * allow-list of what the analyzer may pass to a driver (analyzer/model/trust.c)
 * all read it, so an option learned once is known everywhere.
 */
#ifndef LINKSCOPE_DRIVEROPT_H
#define LINKSCOPE_DRIVEROPT_H

enum lk_driveropt_flags {
	LK_DOPT_SEPARATE = 1 << 0,	/* alone, its value is the next argument: -o FILE */
	LK_DOPT_JOINED = 1 << 1,	/* its value may follow in the same argument: -oFILE */
	LK_DOPT_LD = 1 << 2,		/* the driver passes it on to ld */
	LK_DOPT_HOISTED = 1 << 3,	/* ... ahead of the inputs (gcc's link spec), not in place */
	LK_DOPT_SPLIT = 1 << 4,		/* ... a joined value as a word of its own: -oFILE gives -o FILE */
	LK_DOPT_NOLINK = 1 << 5,	/* the driver stops before linking (-c, --version, -print-*) */
};

struct lk_driveropt {
	const char *name;	/* as written: "-o", "-Xlinker", "--param" */
	unsigned flags;		/* lk_driveropt_flags */
	const char *ld_word;	/* what ld sees instead, when the driver renames it; NULL: the same */
};

/* The option spelled exactly `arg` (no joined value), or NULL. */
const struct lk_driveropt *lk_driveropt_find(const char *arg);

/*
 * The option `arg` is with a joined value (the longest LK_DOPT_JOINED name
 * that `arg` extends: "-ofile" is -o), or NULL; `*value` points into `arg`.
 */
const struct lk_driveropt *lk_driveropt_joined(const char *arg, const char **value);

/* Does this option (exact, or a LK_DOPT_JOINED one extended) stop the driver before linking? Its name, or NULL. */
const char *lk_driveropt_nolink(const char *arg);

/* The whole table, for tests: `*nr` entries. */
const struct lk_driveropt *lk_driveropt_table(unsigned *nr);

#endif
