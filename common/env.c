/*
 * The recorded environment: allow-list and redaction.
 *
 * Takes: the process environment. Gives: the variables that influence a
 * link (search paths, flags, cargo's and the cc crate's variables, CI
 * context); nothing else is kept. And the redactor every string of a
 * record goes through (lk_record_redact applies it, env values included).
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
	"CARGO_PRIMARY_PACKAGE", "CARGO_BIN_NAME", "CARGO_BUILD_TARGET", "OUT_DIR",
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

/*
 * What the name of a secret ends with (GITHUB_TOKEN, --api-token,
 * db_password, AWS_SECRET_ACCESS_KEY, npmAuthToken, authtoken, USE_AUTH),
 * compared upper-cased with '_' and '-' left out (API_KEY, api-key and
 * apiKey alike) and a plural 's' dropped. Only the end: a name that goes
 * on past the word names something about the secret, not the secret
 * (SESSION_TIMEOUT, AUTH_METHOD, TOKEN_FILE, PASSWORD_MIN_LENGTH, a
 * `--defsym` symbol session_base), so its value stays.
 */
static const char *const secret_name_ends[] = {
	"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL",
	"APIKEY", "ACCESSKEY", "PRIVATEKEY", "SECRETKEY", "SESSIONKEY",
	"AUTH", "AUTHORIZATION", "COOKIE", "SESSION", "SESSIONID", NULL,
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

static int ends_with(const char *s, size_t len, const char *end)
{
	size_t n = strlen(end);

	return len >= n && !memcmp(s + len - n, end, n);
}

/* Does the name `s` (`len` bytes) end with a secret word (secret_name_ends)? */
static int name_says_secret(const char *s, size_t len)
{
	char folded[256];
	size_t n = 0;

	/* The end is what counts: keep the last bytes of a long name. */
	for (size_t i = len > sizeof(folded) ? len - sizeof(folded) : 0; i < len; i++)
		if (s[i] != '_' && s[i] != '-')
			folded[n++] = (char)toupper((unsigned char)s[i]);
	for (const char *const *w = secret_name_ends; *w; w++)
		if (ends_with(folded, n, *w) || (n && folded[n - 1] == 'S' && ends_with(folded, n - 1, *w)))
			return 1;
	return 0;
}

int lk_env_name_is_secret(const char *name)
{
	return name_says_secret(name, strlen(name));
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

/*
 * A value no credential can be: empty, a number of at most three digits
 * (a flag, a size: -DUSE_AUTH=1, MAX_SESSIONS=100; a PIN has four), or
 * yes/no/true/false/on/off. Anything else after a secret name is taken
 * for the secret, a word like "hunter2" too.
 */
static int value_is_plain(const char *v, size_t len)
{
	static const char *const words[] = { "yes", "no", "true", "false", "on", "off", NULL };
	size_t sign = len && (v[0] == '-' || v[0] == '+');

	if (!len)
		return 1;
	for (const char *const *w = words; *w; w++)
		if (strlen(*w) == len && !strncasecmp(v, *w, len))
			return 1;
	if (len - sign < 1 || len - sign > 3)
		return 0;
	for (size_t i = sign; i < len; i++)
		if (!isdigit((unsigned char)v[i]))
			return 0;
	return 1;
}

/*
 * At the start of a word NAME=VALUE or --NAME=VALUE with a secret NAME and
 * a value that may be a credential: the offset of VALUE, and its length
 * in *len: to the end of the word, or of the quotes the word is in
 * (ld's "unrecognized option '--token=X'"). Else 0.
 */
static size_t secret_assignment_at(const char *value, const char *p, size_t *len)
{
	const char *eq;
	const char *name = p;
	char quote = 0;

	if (!at_word_start(value, p) || p[0] == '=')
		return 0;
	if (p > value && (p[-1] == '\'' || p[-1] == '"' || p[-1] == '`'))
		quote = p[-1] == '"' ? '"' : '\'';
	while (*name == '-')
		name++;
	eq = name;
	while (*eq && (isalnum((unsigned char)*eq) || *eq == '_' || *eq == '-'))
		eq++;
	if (*eq != '=' || eq == name || !name_says_secret(name, (size_t)(eq - name)))
		return 0;
	for (*len = 0; eq[1 + *len] && !isspace((unsigned char)eq[1 + *len]) &&
	     eq[1 + *len] != quote; (*len)++)
		;
	if (value_is_plain(eq + 1, *len))
		return 0;
	return (size_t)(eq + 1 - p);
}

/*
 * A -Wl, -Wa, or -Wp, word at p (at the start of a word, or after '=' as
 * in rustc's -Clink-arg=-Wl,...): the driver splits it at commas and
 * passes each item on as a word of its own, so each is redacted as one.
 * Returns the length of the prefix ("-Wl,"), or 0.
 */
static size_t comma_list_at(const char *value, const char *p)
{
	static const char *const prefixes[] = { "-Wl,", "-Wa,", "-Wp,", NULL };

	if (p != value && !isspace((unsigned char)p[-1]) && p[-1] != '=' &&
	    p[-1] != '\'' && p[-1] != '"')
		return 0;
	for (const char *const *x = prefixes; *x; x++)
		if (lk_str_starts_with(p, *x))
			return strlen(*x);
	return 0;
}

static void redact_into(struct lk_buf *out, const char *value, int *changed);

/* The items of the comma list at p, each redacted alone; returns the length consumed. */
static size_t redact_comma_list(struct lk_buf *out, const char *p, int *changed)
{
	size_t n = 0;

	while (p[n] && !isspace((unsigned char)p[n])) {
		size_t len = 0;
		char *item;

		while (p[n + len] && p[n + len] != ',' && !isspace((unsigned char)p[n + len]))
			len++;
		item = lk_xstrndup(p + n, len);
		redact_into(out, item, changed);
		free(item);
		n += len;
		if (p[n] == ',')
			lk_buf_addch(out, p[n++]);
	}
	return n;
}

static void redact_into(struct lk_buf *out, const char *value, int *changed)
{
	const char *p = value;

	while (*p) {
		size_t n, pw;

		if ((n = comma_list_at(value, p))) {
			lk_buf_add(out, p, n);
			p += n;
			p += redact_comma_list(out, p, changed);
		} else if ((n = token_at(value, p))) {
			lk_buf_addstr(out, LK_REDACTED);
			p += n;
			*changed = 1;
		} else if (!strncmp(p, "://", 3) && (n = url_password_at(p, &pw))) {
			lk_buf_add(out, p, n);
			lk_buf_addstr(out, LK_REDACTED);
			p += n + pw;
			*changed = 1;
		} else if ((n = http_credential_at(value, p, &pw)) ||
			   (n = secret_assignment_at(value, p, &pw))) {
			lk_buf_add(out, p, n);
			lk_buf_addstr(out, LK_REDACTED);
			p += n + pw;
			*changed = 1;
		} else {
			lk_buf_addch(out, *p++);
		}
	}
}

/*
 * Could any rule above match in `value`? Each needs a mark the string then
 * holds: a token prefix, "://", an "authorization:" or "bearer " word, or
 * the '=' of NAME=VALUE after a run of name characters whose end says a
 * secret (every NAME secret_assignment_at() could read ends that run, and
 * name_says_secret() looks at a name's end only). A -Wl, list's items are
 * redacted by the same rules, each within the string. Most strings of a
 * record (paths, options, -plugin-opt=...) hold no mark and are copied at
 * once: the shim redacts every string of every record, on every link.
 */
int lk_env_may_hold_secret(const char *value)
{
	/*
	 * The characters a mark can start with, one look per character: the
	 * first letters of token_prefixes (TOKEN: g, x, n, A), '=', ':' (of
	 * "://") and the "authorization:"/"bearer " words' a, A, b, B. A
	 * table, not built per call: this runs on every string of every
	 * record. tests/fuzz/fuzz_redact.c finds a letter missing here.
	 */
	enum { MARK = 1, TOKEN = 2 };
	static const unsigned char first[256] = {
		['g'] = TOKEN, ['x'] = TOKEN, ['n'] = TOKEN, ['A'] = MARK | TOKEN,
		['='] = MARK, [':'] = MARK, ['a'] = MARK, ['b'] = MARK, ['B'] = MARK,
	};

	for (const char *p = value; *p; p++) {
		if (!first[(unsigned char)*p])
			continue;
		if (*p == '=') {
			const char *q = p;

			while (q > value && (isalnum((unsigned char)q[-1]) || q[-1] == '_' || q[-1] == '-'))
				q--;
			if (name_says_secret(q, (size_t)(p - q)))
				return 1;
			continue;
		}
		if ((first[(unsigned char)*p] & MARK) &&
		    (!strncmp(p, "://", 3) ||
		     ((p[1] | 0x20) == 'u' && !strncasecmp(p, "authorization:", 14)) ||
		     ((p[1] | 0x20) == 'e' && !strncasecmp(p, "bearer ", 7))))
			return 1;
		for (const char *const *t = token_prefixes; (first[(unsigned char)*p] & TOKEN) && *t; t++)
			if (**t == *p && (*t)[1] == p[1] && !strncmp(p, *t, strlen(*t)))
				return 1;
	}
	return 0;
}

char *lk_env_redact(const char *value, int *changed)
{
	if (!lk_env_may_hold_secret(value)) {
		*changed = 0;
		return lk_xstrdup(value);
	}
	return lk_env_redact_every(value, changed);
}

char *lk_env_redact_every(const char *value, int *changed)
{
	struct lk_buf out = LK_BUF_INIT;

	*changed = 0;
	redact_into(&out, value, changed);
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
		v->value = lk_xstrdup(eq + 1);
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
