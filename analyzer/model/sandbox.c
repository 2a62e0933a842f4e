/*
 * A run of the driver for a record -> the same run inside the kernel's
 * walls (sandbox.h says which, and why). The walls are set up in the
 * forked child, so the analyzer itself keeps its network and its rights;
 * the child says which walls it got through a pipe before it execs.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/landlock.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "sandbox.h"

/*
 * Landlock's rights past the ABI that older kernel headers know (Debian
 * 12's stop at ABI 2); the kernel says its ABI at run time, and only the
 * rights it has are asked for.
 */
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)		/* ABI 2 */
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)	/* ABI 3 */
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)	/* ABI 5 */
#endif
#define NET_BIND_TCP (1ULL << 0)			/* ABI 4 */
#define NET_CONNECT_TCP (1ULL << 1)
#define SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)		/* ABI 6 */
#define SCOPE_SIGNAL (1ULL << 1)

/* struct landlock_ruleset_attr of ABI 6; the kernel is given the size of the part its ABI knows. */
struct ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

/* What the child needs, made ready in the parent: after fork it only makes system calls. */
struct sandbox {
	const char *scratch;
	char uid_map[32], gid_map[32];	/* "ID ID 1": our own ids, the same inside */
	int report;			/* where the child says which walls it got */
};

/* Every right that writes, for the kernel's Landlock `abi`. */
static uint64_t write_rights(long abi)
{
	uint64_t rights = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |
			  LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR |
			  LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
			  LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |
			  LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM;

	if (abi >= 2)
		rights |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		rights |= LANDLOCK_ACCESS_FS_TRUNCATE;
	if (abi >= 5)
		rights |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
	return rights;
}

#ifdef __NR_landlock_create_ruleset
/* `rights` granted beneath `path` (a file takes only the rights of files): 0 or an errno. */
static int allow(int ruleset, const char *path, uint64_t rights)
{
	struct landlock_path_beneath_attr rule = { 0 };
	int e = 0;

	rule.allowed_access = rights;
	if ((rule.parent_fd = open(path, O_PATH | O_CLOEXEC)) < 0)
		return errno;
	if (syscall(__NR_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) < 0)
		e = errno;
	close(rule.parent_fd);
	return e;
}

/* Writes only beneath `scratch` and to /dev/null, no TCP, nothing outside signalled: 0 or an errno. */
static int landlock(const char *scratch)
{
	const uint64_t file_rights = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE |
				     LANDLOCK_ACCESS_FS_IOCTL_DEV;
	struct ruleset_attr attr = { 0 };
	long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
	int ruleset, e;

	if (abi < 0)
		return errno;
	attr.handled_access_fs = write_rights(abi);
	if (abi >= 4)
		attr.handled_access_net = NET_BIND_TCP | NET_CONNECT_TCP;
	if (abi >= 6)
		attr.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL;
	ruleset = (int)syscall(__NR_landlock_create_ruleset, &attr,
			       abi >= 6 ? sizeof(attr) : abi >= 4 ? 2 * sizeof(uint64_t) : sizeof(uint64_t), 0);
	if (ruleset < 0)
		return errno;
	e = allow(ruleset, scratch, attr.handled_access_fs);
	if (!e)
		e = allow(ruleset, "/dev/null", attr.handled_access_fs & file_rights);
	if (!e && syscall(__NR_landlock_restrict_self, ruleset, 0) < 0)
		e = errno;
	close(ruleset);
	return e;
}
#else
static int landlock(const char *scratch)
{
	(void)scratch;
	return ENOSYS;
}
#endif

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), e = 0;

	if (fd < 0)
		return errno;
	if (write(fd, text, strlen(text)) < 0)
		e = errno;
	close(fd);
	return e;
}

/* In a new user namespace: our uid and gid, the same inside (else no file could be created). */
static int map_ids(const struct sandbox *sb)
{
	int e = write_file("/proc/self/setgroups", "deny");

	if (!e)
		e = write_file("/proc/self/uid_map", sb->uid_map);
	if (!e)
		e = write_file("/proc/self/gid_map", sb->gid_map);
	return e;
}

/* runcmd's in_child: the walls, then what was got said on the pipe. 0, or an errno that stops the run. */
static int enter(void *arg)
{
	const struct sandbox *sb = arg;
	struct lk_walls got = { { 0 } };
	int e;

	/*
	 * The network namespace in a user namespace of its own: the child's
	 * capabilities are then the new namespace's only, so it cannot
	 * setns() back into ours. Both in one call, which fails whole where
	 * the new namespace would have no capabilities (Ubuntu's AppArmor
	 * restriction): a user namespace alone would leave us without ids to
	 * create files with. Where user namespaces are refused, root can
	 * still make the network namespace alone.
	 */
	if (unshare(CLONE_NEWUSER | CLONE_NEWNET) == 0) {
		if ((e = map_ids(sb)))
			return e;
	} else if (unshare(CLONE_NEWNET) < 0) {
		got.missing[LK_WALL_NETNS] = errno;
	}
	/* Landlock needs no_new_privs; a failure of either is Landlock's. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		got.missing[LK_WALL_LANDLOCK] = errno;
	else
		got.missing[LK_WALL_LANDLOCK] = landlock(sb->scratch);
	/* Less than PIPE_BUF into an empty pipe: written whole, never blocks. */
	return write(sb->report, &got, sizeof(got)) == (ssize_t)sizeof(got) ? 0 : EPIPE;
}

int lk_sandbox_start(struct lk_runcmd *cmd, const char *scratch, struct lk_walls *walls,
		     struct lk_runcmd_job *job)
{
	struct sandbox sb = { scratch, "", "", -1 };
	struct lk_walls got;
	int report[2], rc;

	if (pipe2(report, O_CLOEXEC) < 0) {
		memset(job, 0, sizeof(*job));
		job->pid = job->out = job->err = -1;
		job->error = errno;
		return -1;
	}
	snprintf(sb.uid_map, sizeof(sb.uid_map), "%u %u 1", (unsigned)geteuid(), (unsigned)geteuid());
	snprintf(sb.gid_map, sizeof(sb.gid_map), "%u %u 1", (unsigned)getegid(), (unsigned)getegid());
	sb.report = report[1];
	cmd->in_child = enter;
	cmd->in_child_arg = &sb;
	rc = lk_runcmd_start(cmd, job);
	/* Started: the child has exec'd (runcmd waits for that), so what it said is in the pipe. */
	cmd->in_child_arg = NULL;
	close(report[1]);
	if (rc == 0 && walls && read(report[0], &got, sizeof(got)) == (ssize_t)sizeof(got))
		for (int w = 0; w < LK_WALL_NR; w++)
			if (got.missing[w] && !walls->missing[w])
				walls->missing[w] = got.missing[w];
	close(report[0]);
	return rc;
}

int lk_sandbox_run(struct lk_runcmd *cmd, const char *scratch, struct lk_walls *walls,
		   struct lk_runcmd_result *res)
{
	struct lk_runcmd_job job;

	lk_sandbox_start(cmd, scratch, walls, &job);
	return lk_runcmd_finish(&job, res);
}

char *lk_walls_note(const struct lk_walls *walls)
{
	static const char *const names[LK_WALL_NR] = { "a network namespace", "Landlock" };
	struct lk_buf note = LK_BUF_INIT;

	for (int w = 0; w < LK_WALL_NR; w++) {
		const char *name;

		if (!walls->missing[w])
			continue;
		name = strerrorname_np(walls->missing[w]);
		lk_buf_addf(&note, "%s without %s: %s", note.len ? ";" : "the driver ran", names[w],
			    name ? name : strerror(walls->missing[w]));
	}
	if (!note.len) {
		lk_buf_release(&note);
		return NULL;
	}
	return lk_buf_detach(&note);
}
