/*
 * The environment a record may keep: an allow-list of variables that change
 * how a link behaves; and the redactor of credentials that every string of
 * a record goes through (lk_record_redact). Records are attached to public
 * pull requests; they never hold the whole environment.
 */
#ifndef LINKSCOPE_ENV_H
#define LINKSCOPE_ENV_H

#include <stddef.h>

struct lk_envvar {
	char *name;	/* owned */
	char *value;	/* owned, as in the environment (the record's writer redacts it) */
};

struct lk_envvars {
	struct lk_envvar *items;
	size_t nr, alloc;
};

#define LK_REDACTED "[redacted]"

/* Is the variable on the allow-list? */
int lk_env_allowed(const char *name);
/*
 * Does the name say its value is a secret: does it end with TOKEN,
 * PASSWORD, API_KEY, AUTH, ... (docs/security.md has the list)?
 */
int lk_env_name_is_secret(const char *name);
/*
 * Return a malloc'd copy of `value` with credentials replaced by
 * LK_REDACTED and nothing else changed: passwords in URLs
 * (scheme://user:pw@host), Authorization and Bearer credentials,
 * well-known token formats (ghp_..., github_pat_..., glpat-..., xox?-...,
 * AKIA...), and the value of NAME=VALUE / --NAME=VALUE / -DNAME=VALUE
 * words whose NAME says a secret, unless the value cannot be one (a number
 * of at most three digits, yes/no/true/false/on/off). Each item of a -Wl,
 * -Wa, or -Wp, word is a word of its own. Sets *changed when anything was
 * replaced.
 */
char *lk_env_redact(const char *value, int *changed);
/*
 * Could any rule of lk_env_redact match in `value`: does it hold a mark
 * of a secret (a token prefix, "://", an authorization or bearer word, a
 * '=' after a secret name)? When not, lk_env_redact copies it unchanged.
 */
int lk_env_may_hold_secret(const char *value);
/*
 * The same rules tried at every character, without the look that lets
 * lk_env_redact() copy a string holding no mark of a secret at once: the
 * two must give the same (tests/fuzz/fuzz_redact.c).
 */
char *lk_env_redact_every(const char *value, int *changed);

/* Collect the allow-listed variables of `envp`, sorted by name, values as they are. */
void lk_env_collect(const char *const *envp, struct lk_envvars *out);
void lk_envvars_release(struct lk_envvars *vars);

#endif
