/*
 * The recorded environment: allow-list and redaction.
 *
 * Takes: the process environment. Gives: the variables that influence a
 * link (search paths, flags, cargo's and the cc crate's variables, CI
 * context), each value passed through the redactor. Nothing else is kept.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/env.h"
#include "linkscope/vec.h"

static const char *const allowed_names[] = {
	"PATH", "LIBRARY_PATH", "LD_LIBRARY_PATH", "LD_RUN_PATH", "LD_PRELOAD",
	"COMPILER_PATH", "GCC_EXEC_PREFIX", "SYSROOT", "TMPDIR",
	/* GNU ld's own: default target and emulation, demangling in its messages. */
	"GNUTARGET", "LDEMULATION", "COLLECT_NO_DEMANGLE",
	"RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS", "RUSTC", "RUSTC_WRAPPER",
	"RUSTC_LINKER", "RUSTUP_TOOLCHAIN", "CARGO", "CARGO_PKG_NAME",
	"CARGO_PKG_VERSION", "CARGO_CRATE_NAME", "CARGO_MANIFEST_DIR",
	"CARGO_PRIMARY_PACKAGE", "CARGO_BIN_NAME", "CARGO_BUILD_TARGET",
	"TARGET", "HOST", "PROFILE", "OPT_LEVEL", "DEBUG",
	"CC", "CXX", "LD", "AR", "AS", "NM", "RANLIB", "CPP",
	"CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "LDLIBS", "LIBS",
	"PKG_CONFIG", "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR",
	"PKG_CONFIG_SYSROOT_DIR", "SOURCE_DATE_EPOCH", "LANG", "LC_ALL",
	"LC_MESSAGES", "CI", "GITHUB_ACTIONS", "GITHUB_WORKFLOW", "GITHUB_JOB",
	"GITHUB_RUN_ID", "GITHUB_SHA", "GITHUB_REF", "DEB_HOST_MULTIARCH",
	"DEB_BUILD_MAINT_OPTIONS", NULL,
};

/* cargo's per-target settings, the cc crate's CC_<target> family, ours. */
static const char *const allowed_prefixes[] = {
	"LINKSCOPE_", "CARGO_TARGET_", "CARGO_CFG_", "CC_", "CXX_", "AR_",
	"CFLAGS_", "CXXFLAGS_", "LDFLAGS_", "TARGET_", "HOST_", NULL,
};

static const char *const secret_words[] = {
	"TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "APIKEY",
	"API_KEY", "ACCESS_KEY", "PRIVATE_KEY", "AUTH", "COOKIE", "SESSION",
	NULL,
};

/* Token formats that are secrets wherever they appear. */
static const char *const token_prefixes[] = {
	"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-",
	"xoxb-", "xoxp-", "xoxa-", "xoxs-", "npm_", "AKIA", "ASIA", NULL,
};

int lk_env_allowed(const char *name)
{
	/* The first character first: every variable of the environment is asked, on every link. */
	for (const char *const *p = allowed_names; *p; p++)
		if (**p == *name && !strcmp(name, *p))
			return 1;
	for (const char *const *p = allowed_prefixes; *p; p++)
		if (**p == *name && !strncmp(name, *p, strlen(*p)))
			return 1;
	return 0;
}

static int contains_secret_word(const char *s, size_t len)
{
	char upper[256];

	if (len >= sizeof(upper))
		len = sizeof(upper) - 1;
	for (size_t i = 0; i < len; i++)
		upper[i] = (char)toupper((unsigned char)s[i]);
	upper[len] = '\0';
	for (const char *const *w = secret_words; *w; w++)
		if (strstr(upper, *w))
			return 1;
	return 0;
}

int lk_env_name_is_secret(const char *name)
{
	return contains_secret_word(name, strlen(name));
}

static int is_token_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-';
}

static int at_word_start(const char *value, const char *p)
{
	return p == value || !isalnum((unsigned char)p[-1]);
}

/* Length of a well-known token starting at p, or 0. */
static size_t token_at(const char *value, const char *p)
{
	size_t len;

	if (!at_word_start(value, p))
		return 0;
	for (const char *const *t = token_prefixes; *t; t++) {
		size_t plen;

		/* The first character first: this runs at every word start of every string. */
		if (**t != *p || strncmp(p, *t, plen = strlen(*t)))
			continue;
		len = plen;
		while (is_token_char(p[len]))
			len++;
		/* "AKIA" alone or "npm_x" is a word, not a key: demand a body. */
		if (len - plen >= 12)
			return len;
	}
	return 0;
}

/*
 * At "://", the length of "://user:" when a password follows. The user
 * part has no '/', '@' or ':'; the password runs to the last '@' of the
 * word, since people do write '/' and '@' in them unescaped
 * ("https://bob:pa/ss@host/"). A port ("host:8080/x@y") may be taken for a
 * password: better one redaction too many than a password kept.
 */
static size_t url_password_at(const char *p, size_t *pw_len)
{
	const char *start = p + 3, *q = start, *colon, *at = NULL;

	while (*q && *q != ':' && *q != '/' && *q != '@' && !isspace((unsigned char)*q))
		q++;
	if (*q != ':' || q == start)
		return 0;
	colon = q;
	for (q = colon + 1; *q && !isspace((unsigned char)*q) && *q != '"' && *q != '\''; q++)
		if (*q == '@')
			at = q;
	if (!at)
		return 0;
	*pw_len = (size_t)(at - colon - 1);
	return (size_t)(colon + 1 - p);
}

static size_t word_len(const char *p)
{
	size_t n = 0;

	while (p[n] && !isspace((unsigned char)p[n]) && p[n] != '"' && p[n] != '\'')
		n++;
	return n;
}

/*
 * HTTP credentials in a value: "Authorization: <scheme> <credential>" and
 * "Bearer <token>". Returns the offset of the credential from p and its
 * length in *len, or 0.
 */
static size_t http_credential_at(const char *value, const char *p, size_t *len)
{
	const char *q = p;

	if (!at_word_start(value, p))
		return 0;
	if (!strncasecmp(q, "authorization:", 14)) {
		q += 14;
		while (*q == ' ' || *q == '\t')
			q++;
		/* A scheme word (Basic, Bearer, token, ...) then the credential. */
		if (word_len(q) && q[word_len(q)] == ' ' && isalpha((unsigned char)*q) &&
		    word_len(q + word_len(q) + 1))
			q += word_len(q) + 1;
	} else if (!strncasecmp(q, "bearer ", 7)) {
		q += 7;
		while (*q == ' ')
			q++;
		if (word_len(q) < 8)
			return 0;
	} else {
		return 0;
	}
	*len = word_len(q);
	return *len ? (size_t)(q - p) : 0;
}

/* At the start of a word NAME=VALUE with a secret NAME: the offset of VALUE. */
static size_t secret_assignment_at(const char *value, const char *p)
{
	const char *eq;
	const char *name = p;

	if (!at_word_start(value, p) || p[0] == '=')
		return 0;
	while (*name == '-')
		name++;
	eq = name;
	while (*eq && (isalnum((unsigned char)*eq) || *eq == '_' || *eq == '-'))
		eq++;
	if (*eq != '=' || eq == name)
		return 0;
	if (!contains_secret_word(name, (size_t)(eq - name)))
		return 0;
	return (size_t)(eq + 1 - p);
}

/*
 * Could any rule below match in `value`? Each needs a mark the string then
 * holds: a token prefix, "://", an "authorization:" or "bearer " word, or
 * the '=' of NAME=VALUE after a run of name characters that says a secret
 * (every NAME secret_assignment_at() could read ends that run). Most
 * strings of a record (paths, options, -plugin-opt=...) hold none and are
 * copied at once: the shim redacts every string of every record, on every
 * link.
 */
static int may_hold_secret(const char *value)
{
	unsigned char first[256] = { 0 };

	/* The characters a mark can start with: a table, so the scan is one look per character. */
	for (const char *const *t = token_prefixes; *t; t++)
		first[(unsigned char)**t] = 1;
	first['='] = first[':'] = first['a'] = first['A'] = first['b'] = first['B'] = 1;
	for (const char *p = value; *p; p++) {
		if (!first[(unsigned char)*p])
			continue;
		if (*p == '=') {
			/* NAME=VALUE redacts only where a NAME ending here says a secret: within this run. */
			const char *q = p;

			while (q > value && (isalnum((unsigned char)q[-1]) || q[-1] == '_' || q[-1] == '-'))
				q--;
			if (p - q >= 255 || contains_secret_word(q, (size_t)(p - q)))
				return 1;
			continue;
		}
		if (!strncmp(p, "://", 3) ||
		    ((p[1] | 0x20) == 'u' && !strncasecmp(p, "authorization:", 14)) ||
		    ((p[1] | 0x20) == 'e' && !strncasecmp(p, "bearer ", 7)))
			return 1;
		for (const char *const *t = token_prefixes; *t; t++)
			if (**t == *p && (*t)[1] == p[1] && !strncmp(p, *t, strlen(*t)))
				return 1;
	}
	return 0;
}

char *lk_env_redact(const char *value, int *changed)
{
	if (!may_hold_secret(value)) {
		*changed = 0;
		return lk_xstrdup(value);
	}
	return lk_env_redact_every(value, changed);
}

char *lk_env_redact_every(const char *value, int *changed)
{
	struct lk_buf out = LK_BUF_INIT;
	const char *p = value;

	*changed = 0;
	while (*p) {
		size_t n, pw;

		if ((n = token_at(value, p))) {
			lk_buf_addstr(&out, LK_REDACTED);
			p += n;
			*changed = 1;
		} else if (!strncmp(p, "://", 3) && (n = url_password_at(p, &pw))) {
			lk_buf_add(&out, p, n);
			lk_buf_addstr(&out, LK_REDACTED);
			p += n + pw;
			*changed = 1;
		} else if ((n = http_credential_at(value, p, &pw))) {
			lk_buf_add(&out, p, n);
			lk_buf_addstr(&out, LK_REDACTED);
			p += n + pw;
			*changed = 1;
		} else if ((n = secret_assignment_at(value, p))) {
			lk_buf_add(&out, p, n);
			p += n;
			while (*p && !isspace((unsigned char)*p))
				p++;
			lk_buf_addstr(&out, LK_REDACTED);
			*changed = 1;
		} else {
			lk_buf_addch(&out, *p++);
		}
	}
	return lk_buf_detach(&out);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct lk_envvar *)a)->name,
		      ((const struct lk_envvar *)b)->name);
}

void lk_env_collect(const char *const *envp, struct lk_envvars *out)
{
	for (; envp && *envp; envp++) {
		const char *eq = strchr(*envp, '=');
		struct lk_envvar *v;
		char *name;

		if (!eq)
			continue;
		name = lk_xstrndup(*envp, (size_t)(eq - *envp));
		if (!lk_env_allowed(name)) {
			free(name);
			continue;
		}
		LK_GROW(out->items, out->nr + 1, out->alloc);
		v = &out->items[out->nr++];
		v->name = name;
		if (lk_env_name_is_secret(name)) {
			v->value = lk_xstrdup(LK_REDACTED);
			v->redacted = 1;
		} else {
			v->value = lk_env_redact(eq + 1, &v->redacted);
		}
	}
	if (out->nr)
		qsort(out->items, out->nr, sizeof(*out->items), by_name);
}

void lk_envvars_release(struct lk_envvars *vars)
{
	for (size_t i = 0; i < vars->nr; i++) {
		free(vars->items[i].name);
		free(vars->items[i].value);
	}
	free(vars->items);
	vars->items = NULL;
	vars->nr = vars->alloc = 0;
}
