/*
 * The driver's -### output, parsed: each command it would run, and its
 * default search dirs, and the one way to run it. The shim takes it beside
 * every link and stores it in the record; the analyzer reads it the same
 * way, and runs it the same way when asked (--run-driver).
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/expansion.h"
#include "linkscope/vec.h"

static int is_linker_program(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return !strcmp(base, "collect2") || !strcmp(base, "ld") ||
	       !strncmp(base, "ld.", 3) || strstr(base, "-ld") != NULL;
}

static const char *parse_word(const char *p, struct lk_buf *word)
{
	lk_buf_reset(word);
	if (*p == '"') {
		for (p++; *p && *p != '"'; p++) {
			if (*p == '\\' && p[1])
				p++;
			lk_buf_addch(word, *p);
		}
		return *p ? p + 1 : p;
	}
	while (*p && *p != ' ' && *p != '\n')
		lk_buf_addch(word, *p++);
	return p;
}

void lk_expansion_parse(const char *text, struct lk_expansion *exp)
{
	struct lk_buf word = LK_BUF_INIT;
	const char *line = text;

	exp->linker_command = -1;
	while (*line) {
		const char *end = strchr(line, '\n');
		const char *p = line;

		if (!end)
			end = line + strlen(line);
		if (!strncmp(p, "LIBRARY_PATH=", 13) && !exp->library_path)
			exp->library_path = lk_xstrndup(p + 13, (size_t)(end - p - 13));
		else if (!strncmp(p, "COMPILER_PATH=", 14) && !exp->compiler_path)
			exp->compiler_path = lk_xstrndup(p + 14, (size_t)(end - p - 14));
		else if (*p == ' ' && p[1] && p[1] != ' ') {
			struct lk_strvec cmd = LK_STRVEC_INIT;

			while (p < end) {
				while (*p == ' ')
					p++;
				if (p >= end)
					break;
				p = parse_word(p, &word);
				lk_strvec_push(&cmd, word.buf);
			}
			if (cmd.nr && is_linker_program(cmd.items[0]))
				exp->linker_command = (long)exp->commands.nr;
			LK_GROW(exp->commands.items, exp->commands.nr + 1, exp->commands.alloc);
			exp->commands.items[exp->commands.nr++] = cmd;
		}
		line = *end ? end + 1 : end;
	}
	lk_buf_release(&word);
}


void lk_expansion_release(struct lk_expansion *exp)
{
	for (size_t i = 0; i < exp->commands.nr; i++)
		lk_strvec_release(&exp->commands.items[i]);
	free(exp->commands.items);
	free(exp->linker_program);
	free(exp->library_path);
	free(exp->compiler_path);
	memset(exp, 0, sizeof(*exp));
}

void lk_expansion_prepare(struct lk_expansion_query *q, const char *driver,
			  const char *const *argv, const char *cwd, char *const envp[],
			  int timeout_ms)
{
	memset(q, 0, sizeof(*q));
	lk_buf_init(&q->out);
	q->cmd.path = driver;
	q->cmd.argv = argv;
	q->cmd.cwd = cwd;
	q->cmd.envp = envp;
	q->cmd.out = q->cmd.err = &q->out;
	q->cmd.max_bytes = (size_t)4 << 20;
	q->cmd.timeout_ms = timeout_ms;
}

int lk_expansion_start(struct lk_expansion_query *q, const char *driver,
		       const char *const *argv, const char *cwd, char *const envp[],
		       int timeout_ms)
{
	lk_expansion_prepare(q, driver, argv, cwd, envp, timeout_ms);
	return lk_runcmd_start(&q->cmd, &q->job);
}

int lk_expansion_finish(struct lk_expansion_query *q, struct lk_expansion *exp)
{
	struct lk_runcmd_result res;
	int status = lk_runcmd_finish(&q->job, &res);

	if (status < 0 && res.started && !res.timed_out)
		status = 128 + res.signal;
	if (status >= 0) {
		exp->done = 1;
		exp->exit_status = status;
		lk_expansion_parse(q->out.buf, exp);
	}
	lk_buf_release(&q->out);
	return status;
}
