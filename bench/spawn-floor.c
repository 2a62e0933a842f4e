/*
 * spawn-floor: the least any wrapper that runs the real driver as a child
 * can cost: posix_spawn, wait, return the status. Nothing else. Linked
 * statically like the shim. `make bench` times it beside the shim so the
 * shim's own work can be told apart from process creation on the machine.
 */
#include <spawn.h>
#include <sys/wait.h>

extern char **environ;

int main(int argc, char **argv)
{
	pid_t pid;
	int status;

	if (argc < 2 || posix_spawnp(&pid, argv[1], NULL, NULL, argv + 1, environ))
		return 127;
	if (waitpid(pid, &status, 0) < 0)
		return 127;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
