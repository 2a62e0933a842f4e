/*
 * The environment a record may keep: an allow-list of variables that change
 * how a link behaves, with anything that looks like a credential redacted.
 * Records are attached to public pull requests; they never hold the whole
 * environment.
 */
#ifndef LINKSCOPE_ENV_H
#define LINKSCOPE_ENV_H

#include <stddef.h>

struct lk_envvar {
	char *name;	/* owned */
	char *value;	/* owned, already redacted */
	int redacted;	/* 1 when anything in the value was replaced */
};

struct lk_envvars {
	struct lk_envvar *items;
	size_t nr, alloc;
};

#define LK_REDACTED "[redacted]"

/* Is the variable on the allow-list? */
int lk_env_allowed(const char *name);
/* Does the name say its value is a secret (TOKEN, PASSWORD, ...)? */
int lk_env_name_is_secret(const char *name);
/*
 * Return a malloc'd copy of `value` with credentials replaced by
 * LK_REDACTED: passwords in URLs (scheme://user:pw@host), well-known token
 * formats (ghp_..., github_pat_..., glpat-..., xox?-..., AKIA...), and the
 * value of NAME=VALUE / --NAME=VALUE words whose NAME is secret-looking.
 * Sets *changed when anything was replaced.
 */
char *lk_env_redact(const char *value, int *changed);
/*
 * The same rules tried at every character, without the look that lets
 * lk_env_redact() copy a string holding no mark of a secret at once: the
 * two must give the same (tests/fuzz/fuzz_redact.c).
 */
char *lk_env_redact_every(const char *value, int *changed);

/* Collect the allow-listed variables of `envp`, sorted by name. */
void lk_env_collect(const char *const *envp, struct lk_envvars *out);
void lk_envvars_release(struct lk_envvars *vars);

#endif
