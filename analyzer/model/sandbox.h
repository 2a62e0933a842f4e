/*
 * The second wall around a program the analyzer runs for a record
 * (--run-driver, --verify-with-linker; docs/security.md).
 *
 * The first wall is trust.c: which program runs (this machine's driver of
 * the record's name) and which of the record's options it gets (an
 * allow-list), in an environment of its own (lk_trust_env). This one holds
 * whatever those still do (a compiler or linker bug, a linker script, an
 * LTO object's own options), set up by the kernel in the child between
 * fork and exec (runcmd.h's in_child):
 *
 *  - no network: a new network namespace, whose only interface (lo) is
 *    down, inside a new user namespace so that even root cannot setns()
 *    back out (root without user namespaces: the network namespace alone);
 *  - writes only beneath its scratch directory, and to /dev/null:
 *    Landlock, with every write right handled (and TCP connect and bind
 *    denied, abstract unix sockets and signals scoped to the sandbox,
 *    where the kernel's Landlock ABI has them); reading and executing stay
 *    as they are, since the driver reads the toolchain and the inputs;
 *  - no new privileges (prctl PR_SET_NO_NEW_PRIVS): a setuid program runs
 *    with the caller's rights;
 *  - a session of its own (runcmd.c): no controlling terminal, and a
 *    timeout kills the whole process group.
 *
 * A wall the kernel does not offer (an older kernel, Landlock not enabled,
 * no user namespaces for this user, a container that forbids unshare) is
 * left out, never fatal: the run goes on, and the error is kept in
 * `struct lk_walls` so that the analysis says once what it went without.
 * The shim never uses this: the user's own link runs as the user runs it.
 */
#ifndef ANALYZER_SANDBOX_H
#define ANALYZER_SANDBOX_H

#include "linkscope/runcmd.h"

enum lk_wall {
	LK_WALL_NETNS,		/* the network namespace */
	LK_WALL_LANDLOCK,	/* Landlock (and no_new_privs, which it needs) */
	LK_WALL_NR,
};

/* What the sandboxed runs of one analysis went without: per wall, 0, or the errno of the first run that did. */
struct lk_walls {
	int missing[LK_WALL_NR];
};

/*
 * Start `cmd` (runcmd.h) inside the walls, writing only beneath `scratch`
 * (an existing directory; the caller removes it) and to /dev/null: as
 * lk_runcmd_start, with cmd->in_child set (`cmd` must outlive the job).
 * The walls the child could not set up are added to `walls` (may be NULL).
 */
int lk_sandbox_start(struct lk_runcmd *cmd, const char *scratch, struct lk_walls *walls,
		     struct lk_runcmd_job *job);

/* lk_sandbox_start, then lk_runcmd_finish: returns as lk_runcmd. */
int lk_sandbox_run(struct lk_runcmd *cmd, const char *scratch, struct lk_walls *walls,
		   struct lk_runcmd_result *res);

/*
 * "the driver ran without a network namespace: EPERM; without Landlock:
 * ENOSYS" when a run went without a wall (malloc'd), else NULL.
 */
char *lk_walls_note(const struct lk_walls *walls);

#endif
