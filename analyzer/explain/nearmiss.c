/*
 * Diagnostics -> names that nearly match (see nearmiss.h).
 *
 * Takes the grouped undefined-symbol diagnostics that nothing explains
 * (no archive on the line, no provider), reads every symbol of the line's
 * inputs (locals, hidden ones, a shared object's .symtab beside its
 * .dynsym, the versions: lk_elf_read_every) and of the objects of the
 * build tree (the link's dir, its inputs' dirs, the -L dirs the user
 * gave), and looks through the provider index's names, and says which of
 * these it is, as lld's "did you mean" does and further:
 *
 *   extern-c       a C++ reference to a C definition (`_Z3fooi` and `foo`), or the reverse
 *   signature      the same C++ name with other parameter types or qualifiers
 *   cxx11-abi      the same name but for std::__cxx11 / [abi:cxx11] (_GLIBCXX_USE_CXX11_ABI)
 *   local          a definition that is `static` (STB_LOCAL)
 *   not-exported   a shared object that has it only in .symtab, or hidden
 *   version        a versioned reference to a library without that version: an older library
 *   key-function   `vtable for X` / `typeinfo for X`: X's key function is not defined
 *   no-rtti        `typeinfo for X` while an object defines `vtable for X`: it
 *                  was compiled with -fno-rtti
 *   template       a template instantiation that no input defines
 *   comdat-discarded  an input defines it only in a COMDAT group that ld discarded:
 *                  an earlier input's group of that signature, kept, does not define it
 *   gcc-lto        an archive member pulled for it is a slim GCC LTO object (gcc -flto):
 *                  GCC's IR, which only GCC's LTO plugin reads; lld reads no symbol from it
 *   static-member  `A::b`, a variable a class or namespace declares and nothing defines
 *                  (a static constexpr member taken by reference before C++17)
 *   main           `main`: a library linked as a program, or its object not on the line
 *   not-on-line    an object of the build tree defines it, and is not on the line
 *
 * Every finding is read from the inputs; the fixes outside the line (a
 * header, a recompile) are stated, those of the line tried as any fix.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "cause.h"
#include "demangle.h"
#include "elf.h"
#include "explain.h"
#include "nearmiss.h"
#include "symtab.h"

#define TREE_FILES_MAX 256	/* objects read from the build tree */
#define BYTES_MAX (512ll << 20)	/* of all files read: a line of 174 archives is read only in part */
#define SYMBOLS_LOOKED_AT 16	/* of a group's symbols */
#define FINDINGS_MAX 6		/* per diagnostic */

struct src {
	char *where;		/* for a sentence: "PATH" or "PATH(MEMBER)", and "(in the build tree, ...)" */
	char *path;
	int on_line;
	const struct lk_elf_every_file *f;
};

struct corpus {
	struct { struct lk_elf_every *items; size_t nr, alloc; } evs;
	struct { struct src *items; size_t nr, alloc; } srcs;
	struct lk_strvec read;	/* the path of each of evs */
	struct lk_strvec tried;	/* every path tried */
	long long bytes;	/* read so far */
};

static int was_read(const struct corpus *c, const char *path)
{
	for (size_t i = 0; i < c->tried.nr; i++)
		if (!strcmp(c->tried.items[i], path))
			return 1;
	return 0;
}

static void corpus_add(struct corpus *c, const char *path)
{
	struct lk_elf_every ev;
	struct lk_err err = LK_ERR_INIT;

	struct stat st;

	if (!path || was_read(c, path))
		return;
	lk_strvec_push(&c->tried, path);
	if (stat(path, &st) < 0 || (c->bytes += st.st_size) > BYTES_MAX)
		return;
	if (lk_elf_read_every(path, &ev, &err) < 0)
		return;	/* the replay has said what it could not read */
	lk_strvec_push(&c->read, path);
	LK_GROW(c->evs.items, c->evs.nr + 1, c->evs.alloc);
	c->evs.items[c->evs.nr++] = ev;
}

/* The sources, once every file is read (the evs array no longer moves). */
static void corpus_index(struct corpus *c, size_t on_line_files)
{
	for (size_t e = 0; e < c->evs.nr; e++)
		for (size_t k = 0; k < c->evs.items[e].nr; k++) {
			const struct lk_elf_every_file *f = &c->evs.items[e].items[k];
			struct lk_buf w = LK_BUF_INIT;
			struct src *s;

			lk_buf_addstr(&w, c->read.items[e]);
			if (f->member)
				lk_buf_addf(&w, "(%s)", f->member);
			LK_GROW(c->srcs.items, c->srcs.nr + 1, c->srcs.alloc);
			s = &c->srcs.items[c->srcs.nr++];
			s->on_line = e < on_line_files;
			if (!s->on_line)
				lk_buf_addstr(&w, " (in the build tree, not on the line)");
			s->where = lk_buf_detach(&w);
			s->path = c->read.items[e];
			s->f = f;
		}
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

/* The objects of `dir` (a dir of the build, not a system one), bounded. */
static void add_tree_dir(struct corpus *c, const char *dir, size_t *budget)
{
	DIR *d;
	struct dirent *de;

	if (!dir || !strncmp(dir, "/usr/", 5) || !strncmp(dir, "/lib", 4) || !(d = opendir(dir)))
		return;
	while (*budget && (de = readdir(d))) {
		struct lk_buf p = LK_BUF_INIT;

		if (ends_with(de->d_name, ".o")) {
			lk_buf_addf(&p, "%s/%s", dir, de->d_name);
			if (!was_read(c, p.buf))
				(*budget)--;
			corpus_add(c, p.buf);
		}
		lk_buf_release(&p);
	}
	closedir(d);
}

static void corpus_build(struct corpus *c, const struct lk_record *rec, const struct lk_line *line,
			 const struct lk_replay *out)
{
	size_t budget = TREE_FILES_MAX, on_line;

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];
		enum lk_file_kind k = it->info.kind;

		if ((it->kind == LK_ITEM_FILE || it->kind == LK_ITEM_LIB) && it->path &&
		    (k == LK_FILE_OBJECT || k == LK_FILE_SHARED || k == LK_FILE_ARCHIVE || k == LK_FILE_RLIB))
			corpus_add(c, it->path);
	}
	for (size_t i = 0; i < out->inputs.nr; i++)
		if (out->inputs.items[i].dso)
			corpus_add(c, out->inputs.items[i].path);
	on_line = c->evs.nr;
	add_tree_dir(c, rec->cwd, &budget);
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];

		if (it->kind == LK_ITEM_FILE && it->position >= 0 && it->path && strrchr(it->path, '/')) {
			char *dir = lk_xstrndup(it->path, (size_t)(strrchr(it->path, '/') - it->path));

			add_tree_dir(c, dir, &budget);
			free(dir);
		}
	}
	for (size_t i = 1; i < rec->args.nr; i++) {
		const char *a = rec->args.items[i].text;

		if (!strncmp(a, "-L", 2) && a[2]) {
			struct lk_buf p = LK_BUF_INIT;

			if (a[2] == '/')
				lk_buf_addstr(&p, a + 2);
			else
				lk_buf_addf(&p, "%s/%s", rec->cwd ? rec->cwd : ".", a + 2);
			add_tree_dir(c, p.buf, &budget);
			lk_buf_release(&p);
		}
	}
	/* The dirs' objects are not on the line, but were read after it: they follow. */
	corpus_index(c, on_line);
}

static void corpus_release(struct corpus *c)
{
	for (size_t i = 0; i < c->evs.nr; i++)
		lk_elf_every_release(&c->evs.items[i]);
	free(c->evs.items);
	for (size_t i = 0; i < c->srcs.nr; i++)
		free(c->srcs.items[i].where);
	free(c->srcs.items);
	lk_strvec_release(&c->read);
	lk_strvec_release(&c->tried);
}

/* ---- C++ names, from their demangled form ---- */

/* "int add<int>(int, int) const": name "add<int>", params "(int, int)", quals " const". */
struct cxx {
	char *dm;
	char *name;		/* qualified, template arguments kept, no return type */
	char *params;		/* "(...)", or NULL for what is no function */
	char *quals;
};

static void cxx_release(struct cxx *x)
{
	free(x->dm);
	free(x->name);
	free(x->params);
	free(x->quals);
	memset(x, 0, sizeof(*x));
}

static int cxx_parse(const char *mangled, struct cxx *x)
{
	const char *r, *l, *start;
	int depth = 0;

	memset(x, 0, sizeof(*x));
	if (strncmp(mangled, "_Z", 2) || !(x->dm = lk_demangle(mangled)))
		return 0;
	r = strrchr(x->dm, ')');
	if (!r || !strncmp(x->dm, "vtable for ", 11) || !strncmp(x->dm, "typeinfo", 8)) {
		x->name = lk_xstrdup(x->dm);
		return 1;
	}
	for (l = r; l > x->dm; l--) {
		depth += *l == ')' ? 1 : *l == '(' ? -1 : 0;
		if (!depth)
			break;
	}
	/* The return type (templates have one) ends at the last space outside <> and (). */
	start = x->dm;
	depth = 0;
	for (const char *p = x->dm; p < l; p++) {
		depth += (*p == '<' || *p == '(') ? 1 : (*p == '>' || *p == ')') ? -1 : 0;
		if (*p == ' ' && !depth && strncmp(p - (p - x->dm >= 8 ? 8 : 0), "operator", 8))
			start = p + 1;
	}
	x->name = lk_xstrndup(start, (size_t)(l - start));
	x->params = lk_xstrndup(l, (size_t)(r - l + 1));
	x->quals = lk_xstrdup(r + 1);
	return 1;
}

/*
 * `s` as either std::string ABI names it (malloc'd): without "__cxx11::"
 * and "[abi:cxx11]", and with the old ABI's abbreviation (Ss demangles
 * as "std::string") for the new one's full name.
 */
static char *without_abi_tag(const char *s)
{
	static const char full[] = "std::basic_string<char, std::char_traits<char>, std::allocator<char> >";
	struct lk_buf b = LK_BUF_INIT, c = LK_BUF_INIT;

	while (*s) {
		if (!strncmp(s, "__cxx11::", 9))
			s += 9;
		else if (!strncmp(s, "[abi:cxx11]", 11))
			s += 11;
		else
			lk_buf_addf(&b, "%c", *s++);
	}
	for (const char *p = b.buf; *p;) {
		if (!strncmp(p, full, sizeof(full) - 1))
			p += sizeof(full) - 1, lk_buf_addstr(&c, "std::string");
		else
			lk_buf_addf(&c, "%c", *p++);
	}
	lk_buf_release(&b);
	return lk_buf_detach(&c);
}

/* "ns::add<int>" -> "ns::add" (malloc'd). */
static char *template_base(const char *name)
{
	size_t n = strlen(name);
	int depth = 0;

	if (!n || name[n - 1] != '>')
		return lk_xstrdup(name);
	for (size_t i = n; i-- > 0;) {
		depth += name[i] == '>' ? 1 : name[i] == '<' ? -1 : 0;
		if (!depth)
			return lk_xstrndup(name, i);
	}
	return lk_xstrdup(name);
}

/* The last identifier of a qualified name ("ns::Foo::bar" -> "bar"), for a cheap look first. */
static const char *last_ident(const char *name)
{
	const char *p = name, *q;

	while ((q = strstr(p, "::")))
		p = q + 2;
	return p;
}

/* ---- findings ---- */

/* The finding added (NULL when it is there already, or too many are): its definition's file may be set. */
static struct lk_finding *add_finding(struct lk_diag *d, const char *kind, const char *found, const char *in,
				      const char *detail, const char *fix)
{
	struct lk_finding *f;

	for (size_t i = 0; i < d->near_misses.nr; i++)
		if (!strcmp(d->near_misses.items[i].kind, kind) &&
		    !strcmp(d->near_misses.items[i].found ? d->near_misses.items[i].found : "", found ? found : "") &&
		    !strcmp(d->near_misses.items[i].in ? d->near_misses.items[i].in : "", in ? in : ""))
			return NULL;
	if (d->near_misses.nr >= FINDINGS_MAX)
		return NULL;
	LK_GROW(d->near_misses.items, d->near_misses.nr + 1, d->near_misses.alloc);
	f = &d->near_misses.items[d->near_misses.nr++];
	memset(f, 0, sizeof(*f));
	f->kind = lk_xstrdup(kind);
	f->found = found ? lk_xstrdup(found) : NULL;
	f->in = in ? lk_xstrdup(in) : NULL;
	f->detail = lk_xstrdup(detail);
	f->fix = fix ? lk_xstrdup(fix) : NULL;
	lk_strvec_push(&d->explanation, detail);
	if (fix) {
		struct lk_buf b = LK_BUF_INIT;

		lk_buf_addf(&b, "stated fix (outside the line, not verified): %s", fix);
		lk_strvec_push_owned(&d->explanation, lk_buf_detach(&b));
	}
	return f;
}

/* A finding of a definition `src` holds: its file, for the source line (srcline.c). */
static void defined_in(struct lk_finding *f, const struct src *src)
{
	if (!f)
		return;
	f->def_path = lk_xstrdup(src->path);
	f->def_member = src->f->member ? lk_xstrdup(src->f->member) : NULL;
}

static int has(const struct lk_strvec *v, const char *s)
{
	for (size_t i = 0; i < v->nr; i++)
		if (!strcmp(v->items[i], s))
			return 1;
	return 0;
}

static int defined_global(const struct lk_elf_every_sym *y)
{
	return y->defined && !y->local;
}

/* An exact definition that the link cannot use: local, or not exported, or in an object off the line. */
static void exact_matches(const struct corpus *c, struct lk_diag *d, const char *u)
{
	struct lk_buf b = LK_BUF_INIT;

	for (size_t s = 0; s < c->srcs.nr; s++) {
		const struct src *src = &c->srcs.items[s];
		int dso_has_dynamic = 0;

		for (size_t k = 0; k < src->f->syms.nr; k++) {
			const struct lk_elf_every_sym *y = &src->f->syms.items[k];

			if (y->dynamic && !strcmp(y->name, u) && y->defined)
				dso_has_dynamic = 1;
		}
		for (size_t k = 0; k < src->f->syms.nr; k++) {
			const struct lk_elf_every_sym *y = &src->f->syms.items[k];
			int dso = 0;

			if (!y->defined || strcmp(y->name, u))
				continue;
			for (size_t j = 0; j < src->f->syms.nr && !dso; j++)
				dso = src->f->syms.items[j].dynamic;
			lk_buf_reset(&b);
			if (y->local && !dso) {
				lk_buf_addf(&b, "%s defines %s, but as a local symbol (static in C or C++, or an anonymous namespace): no other input can bind to it",
					    src->where, u);
				defined_in(add_finding(d, "local", u, src->where, b.buf,
					    "remove `static` from the definition (and declare it in a header), or call it only from its own file"), src);
			} else if (dso && !y->dynamic && !dso_has_dynamic) {
				lk_buf_addf(&b, "%s has %s in its .symtab only, %s: the shared object does not export it, so nothing outside it can bind to it",
					    src->where, u, y->local ? "as a local symbol" : y->hidden ? "with hidden visibility" : "not in .dynsym");
				defined_in(add_finding(d, "not-exported", u, src->where, b.buf,
					    "export it from the library: default visibility (__attribute__((visibility(\"default\"))) under -fvisibility=hidden) and a version script that lists it as global"), src);
			} else if (!src->on_line && defined_global(y)) {
				lk_buf_addf(&b, "%s defines %s", src->where, u);
				defined_in(add_finding(d, "not-on-line", u, src->path, b.buf, NULL), src);
			}
			break;
		}
	}
	lk_buf_release(&b);
}

/* A versioned reference (a shared object's .dynsym) to a library on the line without that version. */
static void version_matches(const struct corpus *c, struct lk_diag *d, const char *u)
{
	struct lk_buf b = LK_BUF_INIT, fix = LK_BUF_INIT;
	const char *want = NULL, *who = NULL;
	/* the replay names a shared object's unbound reference as ld does: "sym@VER" */
	int len = (int)strcspn(u, "@");

	for (size_t s = 0; s < c->srcs.nr && !want; s++)
		for (size_t k = 0; k < c->srcs.items[s].f->syms.nr; k++) {
			const struct lk_elf_every_sym *y = &c->srcs.items[s].f->syms.items[k];

			if (!y->defined && y->dynamic && y->version && !strncmp(y->name, u, (size_t)len) && !y->name[len] &&
			    (!u[len] || !strcmp(u + len + 1, y->version)) && c->srcs.items[s].on_line) {
				want = y->version;
				who = c->srcs.items[s].where;
				break;
			}
		}
	if (!want)
		return;
	/* The libraries on the line that define other versions of the same family (VER_1 for VER_2). */
	for (size_t s = 0; s < c->srcs.nr; s++) {
		const struct src *src = &c->srcs.items[s];
		struct lk_strvec has = LK_STRVEC_INIT;
		int has_want = 0;
		size_t stem = strcspn(want, "0123456789");

		for (size_t k = 0; k < src->f->syms.nr; k++) {
			const struct lk_elf_every_sym *y = &src->f->syms.items[k];

			if (!y->dynamic || !y->defined || !y->version)
				continue;
			if (!strcmp(y->version, want))
				has_want = 1;
			else if (!strncmp(y->version, want, stem)) {
				size_t j;

				for (j = 0; j < has.nr && strcmp(has.items[j], y->version); j++)
					;
				if (j == has.nr)
					lk_strvec_push(&has, y->version);
			}
		}
		if (!has_want && has.nr && src->on_line && stem) {
			lk_buf_reset(&b);
			lk_buf_addf(&b, "%s references %.*s@%s, and %s defines only the versions ", who, len, u, want, src->where);
			for (size_t j = 0; j < has.nr && j < 4; j++)
				lk_buf_addf(&b, "%s%s", j ? ", " : "", has.items[j]);
			lk_buf_addf(&b, ": the library on the line is older than the one %s was built against", who);
			lk_buf_addf(&fix, "link against the library %s was built against (one that defines %s), or rebuild %s against %s",
				    who, want, who, src->where);
			add_finding(d, "version", u, src->where, b.buf, fix.buf);
			lk_buf_reset(&fix);
		}
		lk_strvec_release(&has);
	}
	lk_buf_release(&b);
	lk_buf_release(&fix);
}

/* What differs between two parsed C++ functions of the same name, for a sentence. */
static void say_difference(struct lk_buf *b, const struct cxx *want, const struct cxx *have)
{
	if (strcmp(want->params, have->params))
		lk_buf_addf(b, "the parameter types differ: %s wanted, %s defined", want->params, have->params);
	if (strcmp(want->quals, have->quals))
		lk_buf_addf(b, "%sthe qualifiers differ: \"%s\" wanted, \"%s\" defined", strcmp(want->params, have->params) ? "; " : "",
			    *want->quals ? want->quals + (want->quals[0] == ' ') : "none",
			    *have->quals ? have->quals + (have->quals[0] == ' ') : "none");
}

/*
 * The C++ reference `u` against definitions of the same name: C ones
 * (extern-c), other signatures, the other std::string ABI, other
 * instantiations of a template.
 */
static void cxx_matches(const struct corpus *c, struct lk_diag *d, const char *u, const struct cxx *want)
{
	struct lk_buf b = LK_BUF_INIT, fix = LK_BUF_INIT;
	char *want_base = template_base(want->name), *want_plain = without_abi_tag(want->dm);
	const char *ident = last_ident(want_base);
	int c_name = !strstr(want->name, "::") && !strchr(want->name, '<');
	size_t instances = 0;

	for (size_t s = 0; s < c->srcs.nr; s++) {
		const struct src *src = &c->srcs.items[s];

		for (size_t k = 0; k < src->f->syms.nr; k++) {
			const struct lk_elf_every_sym *y = &src->f->syms.items[k];
			struct cxx have;

			if (!defined_global(y) || !strcmp(y->name, u))
				continue;
			lk_buf_reset(&b);
			lk_buf_reset(&fix);
			if (c_name && !strcmp(y->name, want->name)) {
				lk_buf_addf(&b, "the C++ reference %s is to a C function: %s defines %s, unmangled, without C++'s parameter types",
					    want->dm, src->where, y->name);
				lk_buf_addf(&fix, "declare %s extern \"C\" in the header the C++ code includes (extern \"C\" { ... } around the C declarations, under #ifdef __cplusplus)",
					    y->name);
				defined_in(add_finding(d, "extern-c", y->name, src->where, b.buf, fix.buf), src);
				continue;
			}
			if (strncmp(y->name, "_Z", 2) || !strstr(y->name, ident) || !cxx_parse(y->name, &have))
				continue;
			if (have.params && want->params && !strcmp(have.name, want->name)) {
				char *have_plain = without_abi_tag(have.dm);

				if (!strcmp(have_plain, want_plain)) {
					int want_new = strstr(want->dm, "__cxx11") || strstr(want->dm, "abi:cxx11");

					lk_buf_addf(&b, "%s defines %s, the reference wants %s: the same function but for the std::string ABI; the reference was compiled with _GLIBCXX_USE_CXX11_ABI=%d, the definition with %d",
						    src->where, have.dm, want->dm, want_new, !want_new);
					defined_in(add_finding(d, "cxx11-abi", y->name, src->where, b.buf,
						    "compile both with the same _GLIBCXX_USE_CXX11_ABI (the default, 1, unless a -D_GLIBCXX_USE_CXX11_ABI=0 is in one of the builds)"), src);
				} else {
					lk_buf_addf(&b, "%s defines %s, the reference wants %s: ", src->where, have.dm, want->dm);
					say_difference(&b, want, &have);
					lk_buf_addf(&fix, "make the declaration the caller sees and the definition agree (the header's %s against the definition's %s)",
						    want->dm, have.dm);
					defined_in(add_finding(d, "signature", y->name, src->where, b.buf, fix.buf), src);
				}
				free(have_plain);
			} else if (have.params && want->params && strchr(want->name, '<')) {
				char *have_base = template_base(have.name);

				if (!strcmp(have_base, want_base)) {
					lk_buf_addf(&b, "%s defines %s, another instantiation of the template %s; %s is instantiated nowhere",
						    src->where, have.dm, want_base, want->dm);
					lk_buf_addf(&fix, "a template defined in a .cpp is instantiated only for the types that file uses: define %s in the header, or instantiate it explicitly in that .cpp (template %s;)",
						    want_base, want->dm);
					defined_in(add_finding(d, "template", y->name, src->where, b.buf, fix.buf), src);
					instances++;
				}
				free(have_base);
			}
			cxx_release(&have);
		}
	}
	if (want->params && strchr(want->name, '<') && !instances && !d->near_misses.nr) {
		lk_buf_reset(&b);
		lk_buf_reset(&fix);
		lk_buf_addf(&b, "%s is an instantiation of the template %s, and no input on the line or in the build tree defines any instantiation of it",
			    want->dm, want_base);
		lk_buf_addf(&fix, "if %s is defined in a .cpp, define it in the header instead (or instantiate %s explicitly in that .cpp)",
			    want_base, want->dm);
		add_finding(d, "template", NULL, NULL, b.buf, fix.buf);
	}
	free(want_base);
	free(want_plain);
	lk_buf_release(&b);
	lk_buf_release(&fix);
}

/* The C reference `u` against C++ definitions of a function of that name. */
static void c_matches(const struct corpus *c, struct lk_diag *d, const char *u)
{
	struct lk_buf b = LK_BUF_INIT, fix = LK_BUF_INIT;

	for (size_t s = 0; s < c->srcs.nr; s++) {
		const struct src *src = &c->srcs.items[s];

		for (size_t k = 0; k < src->f->syms.nr; k++) {
			const struct lk_elf_every_sym *y = &src->f->syms.items[k];
			struct cxx have;

			if (!defined_global(y) || strncmp(y->name, "_Z", 2) || !strstr(y->name, u) ||
			    !cxx_parse(y->name, &have))
				continue;
			if (have.params && !strcmp(have.name, u)) {
				lk_buf_reset(&b);
				lk_buf_reset(&fix);
				lk_buf_addf(&b, "the C reference %s is to a C++ function: %s defines %s, mangled as %s", u, src->where,
					    have.dm, y->name);
				lk_buf_addf(&fix, "declare %s extern \"C\" in the header, where the C++ definition sees it too (extern \"C\" { ... } under #ifdef __cplusplus)", u);
				defined_in(add_finding(d, "extern-c", y->name, src->where, b.buf, fix.buf), src);
			}
			cxx_release(&have);
		}
	}
	lk_buf_release(&b);
	lk_buf_release(&fix);
}

/*
 * The next name of `file` from `p` (a name's start) on that begins with
 * `head` (`len` bytes; with its NUL, one that is `head`), or NULL. Found
 * with memmem over the names back to back, not name by name (a C name's
 * search read every name of every library in the index, once per symbol),
 * by its part from `off` on (the name searched for, rare where "_Z" or a
 * name's first letter is not), then checked whole at a name's start.
 */
static const char *next_name_with(const struct lk_provider_file *file, const char *p, const char *head, size_t len,
				  size_t off)
{
	const char *end = file->names + file->names_len, *hit;

	for (; (size_t)(end - p) >= len && (hit = memmem(p + off, (size_t)(end - p) - off, head + off, len - off));
	     p = hit - off + 1) {
		const char *at = hit - off;

		if ((at == file->names || at[-1] == '\0') && !memcmp(at, head, off))
			return at;
	}
	return NULL;
}

/* The provider index: libraries off the line with the C name of a C++ reference, or the reverse. */
static void index_matches(const struct lk_provider_index *ix, struct lk_diag *d, const char *u, const struct cxx *want)
{
	struct lk_buf b = LK_BUF_INIT, head = LK_BUF_INIT;
	const char *c_name = want && !strstr(want->name, "::") && !strchr(want->name, '<') ? want->name : NULL;
	size_t off = 0;

	if (want && !c_name)
		return;	/* a C++ name with no C name to look for */
	/* The C name whole, with its NUL; or the mangled prefix of `u`, "_Z<length>", searched for by `u`. */
	if (c_name) {
		lk_buf_add(&head, c_name, strlen(c_name) + 1);
	} else {
		lk_buf_addf(&head, "_Z%zu", strlen(u));
		off = head.len;
		lk_buf_addstr(&head, u);
	}
	for (size_t f = 0; ix && f < ix->files.nr; f++) {
		const struct lk_provider_file *file = &ix->files.items[f];

		if (file->alias_of >= 0 || (ix->machine && file->machine != ix->machine) || lk_provider_no_fix_reason(ix, (long)f, NULL))
			continue;
		for (const char *p = file->names; (p = next_name_with(file, p, head.buf, head.len, off)); p += strlen(p) + 1) {
			char *path;
			struct cxx have;

			if (c_name) {
				path = lk_provider_path(ix, (long)f);
				lk_buf_addf(&b, "the C++ reference %s is to a C function: %s (not on the line) defines %s, unmangled",
					    want->dm, path, p);
				add_finding(d, "extern-c", p, path, b.buf,
					    "declare it extern \"C\" in the header the C++ code includes, and link the library that defines it");
				free(path);
				lk_buf_reset(&b);
			} else if (cxx_parse(p, &have)) {
				if (have.params && !strcmp(have.name, u)) {
					path = lk_provider_path(ix, (long)f);
					lk_buf_addf(&b, "the C reference %s is to a C++ function: %s (not on the line) defines %s", u, path, have.dm);
					add_finding(d, "extern-c", p, path, b.buf,
						    "declare it extern \"C\" in the header, where its C++ definition sees it too, and link the library that defines it");
					free(path);
					lk_buf_reset(&b);
				}
				cxx_release(&have);
			}
		}
	}
	lk_buf_release(&b);
	lk_buf_release(&head);
}

/*
 * "typeinfo for X" undefined while an input defines "vtable for X": the
 * key function is defined (the vtable is emitted with it), so that object
 * was compiled without RTTI (-fno-rtti: no typeinfo, and none in its
 * vtable), and an object compiled with RTTI needs it (dynamic_cast, typeid,
 * a class derived from X). Returns 1 when that is the story.
 */
static int compiled_without_rtti(const struct corpus *c, struct lk_diag *d, const char *cls)
{
	struct lk_buf vtable = LK_BUF_INIT, b = LK_BUF_INIT, fix = LK_BUF_INIT;
	const struct src *with_vtable = NULL;

	if (strncmp(d->symbol, "_ZTI", 4))
		return 0;
	lk_buf_addf(&vtable, "_ZTV%s", d->symbol + 4);
	for (size_t s = 0; s < c->srcs.nr && !with_vtable; s++)
		for (size_t k = 0; k < c->srcs.items[s].f->syms.nr && !with_vtable; k++) {
			const struct lk_elf_every_sym *y = &c->srcs.items[s].f->syms.items[k];

			if (y->defined && !strcmp(y->name, vtable.buf))
				with_vtable = &c->srcs.items[s];
		}
	lk_buf_release(&vtable);
	if (!with_vtable)
		return 0;
	lk_buf_addf(&b, "%s's key function is defined: %s defines vtable for %s, which is emitted with it, but no typeinfo for %s: it was compiled with -fno-rtti, and an object compiled with RTTI needs the typeinfo (dynamic_cast, typeid, or a class derived from %s)",
		    cls, with_vtable->where, cls, cls, cls);
	lk_buf_addf(&fix, "compile %s with RTTI (without -fno-rtti), or compile every object that uses %s with -fno-rtti and without dynamic_cast or typeid of it",
		    with_vtable->path, cls);
	add_finding(d, "no-rtti", NULL, with_vtable->path, b.buf, fix.buf);
	lk_buf_release(&b);
	lk_buf_release(&fix);
	return 1;
}

/* "vtable for X", "typeinfo for X": X's key function is not defined; the members of X the inputs show. */
static void key_function(const struct corpus *c, struct lk_diag *d, const char *dm)
{
	const char *cls = strstr(dm, " for ") + 5;
	struct lk_strvec defined = LK_STRVEC_INIT, wanted = LK_STRVEC_INIT;
	struct lk_buf b = LK_BUF_INIT, prefix = LK_BUF_INIT;

	if (compiled_without_rtti(c, d, cls))
		return;

	lk_buf_addf(&prefix, "%s::", cls);
	for (size_t s = 0; s < c->srcs.nr; s++)
		for (size_t k = 0; k < c->srcs.items[s].f->syms.nr; k++) {
			const struct lk_elf_every_sym *y = &c->srcs.items[s].f->syms.items[k];
			char *h;

			if (strncmp(y->name, "_Z", 2) || !strstr(y->name, last_ident(cls)) || !(h = lk_demangle(y->name)))
				continue;
			if (!strncmp(h, prefix.buf, prefix.len) && !has(y->defined ? &defined : &wanted, h))
				lk_strvec_push(y->defined ? &defined : &wanted, h);
			free(h);
		}
	lk_buf_addf(&b, "%s is emitted only in the object that defines %s's key function (its first virtual member function that is not inline and not pure), and that function is not defined anywhere on the line",
		    dm, cls);
	for (size_t i = 0; i < wanted.nr; i++)
		if (!has(&defined, wanted.items[i])) {
			lk_buf_addf(&b, "; referenced but defined by no input: %s", wanted.items[i]);
			break;
		}
	if (defined.nr) {
		lk_buf_addstr(&b, "; the members of it that the inputs define: ");
		for (size_t i = 0; i < defined.nr && i < 4; i++)
			lk_buf_addf(&b, "%s%s", i ? ", " : "", defined.items[i]);
		if (defined.nr > 4)
			lk_buf_addf(&b, " and %zu more", defined.nr - 4);
	}
	lk_buf_reset(&prefix);
	lk_buf_addf(&prefix, "define every virtual member function that %s declares and does not define inline (or mark it pure, = 0), in one .cpp on the line", cls);
	add_finding(d, "key-function", NULL, NULL, b.buf, prefix.buf);
	lk_strvec_release(&defined);
	lk_strvec_release(&wanted);
	lk_buf_release(&b);
	lk_buf_release(&prefix);
}

/* libfoo.so, libfoo.so.1, foo.so: an output named like a shared library. */
static int library_name(const char *output)
{
	const char *base = output ? strrchr(output, '/') : NULL;

	base = base ? base + 1 : output;
	return base && (ends_with(base, ".so") || strstr(base, ".so."));
}

/* `main` undefined: the line links a program. A library linked as one, or main's object not on the line. */
static void main_missing(const struct corpus *c, const struct lk_record *rec, struct lk_diag *d)
{
	struct lk_buf b = LK_BUF_INIT;
	struct { const struct src **items; size_t nr, alloc; } mains = { NULL, 0, 0 };

	if (library_name(rec->output)) {
		lk_buf_addf(&b, "the line links a program (no -shared), whose start file references main, but its output %s is named like a shared library: a library linked as a program",
			    rec->output);
		/*
		 * NEEDSWORK(#17): -shared is an edit of the line, but the replay
		 * cannot try it: the driver's start files (Scrt1.o, which
		 * references main) come from its -### view of the line as it was.
		 */
		add_finding(d, "main", NULL, NULL, b.buf,
			    "add -shared to the link (the driver then makes a shared library, without the start file that references main)");
		lk_buf_reset(&b);
	}
	for (size_t s = 0; s < c->srcs.nr; s++) {
		const struct src *src = &c->srcs.items[s];

		if (src->on_line || src->f->member)
			continue;
		for (size_t k = 0; k < src->f->syms.nr; k++)
			if (defined_global(&src->f->syms.items[k]) && !strcmp(src->f->syms.items[k].name, "main")) {
				LK_GROW(mains.items, mains.nr + 1, mains.alloc);
				mains.items[mains.nr++] = src;
				break;
			}
	}
	if (mains.nr == 1) {
		lk_buf_addf(&b, "%s defines main", mains.items[0]->where);
		add_finding(d, "main", "main", mains.items[0]->path, b.buf, NULL);	/* the fix stage appends it */
		lk_buf_reset(&b);
	} else if (mains.nr > 1) {
		/* Several programs' objects: which one is this program's the inputs do not say, so no edit is offered. */
		lk_buf_addf(&b, "%zu objects of the build tree define main, and none is on the line: ", mains.nr);
		for (size_t i = 0; i < mains.nr && i < 4; i++)
			lk_buf_addf(&b, "%s%s", i ? ", " : "", mains.items[i]->path);
		if (mains.nr > 4)
			lk_buf_addf(&b, " and %zu more", mains.nr - 4);
		lk_buf_addstr(&b, "; which one is this program's the inputs do not say");
		add_finding(d, "main", "main", NULL, b.buf, NULL);
		lk_buf_reset(&b);
	}
	if (!d->near_misses.nr) {
		lk_buf_addstr(&b, "no input on the line and no object in the build tree defines main: the object with the program's main is missing, or the line should make a shared library (-shared)");
		add_finding(d, "main", NULL, NULL, b.buf, NULL);
	}
	free(mains.items);
	lk_buf_release(&b);
}

/*
 * `A::b` with no parameters, and no input defines it: a variable a class
 * (a static data member) or a namespace declares, defined nowhere. The
 * common case: a static constexpr member taken by reference (std::max,
 * std::min, a const int & parameter) before C++17, where such a member is
 * not inline and needs one out-of-class definition.
 */
static void static_member(struct lk_diag *d, const char *dm)
{
	struct lk_buf b = LK_BUF_INIT, fix = LK_BUF_INIT;
	const char *member = strrchr(dm, ':') + 1;

	lk_buf_addf(&b, "%s is a variable that a class (a static data member) or a namespace declares, and no input defines it; a static constexpr member taken by reference (std::max, std::min, a const reference parameter) needs a definition before C++17, where it is not inline",
		    dm);
	lk_buf_addf(&fix, "define %s in one .cpp (`constexpr TYPE %s;` for a static constexpr member, with no initializer there; else `TYPE %s = VALUE;`), or compile with -std=c++17 or later, where a static constexpr member is inline (%s is then defined where it is used)",
		    dm, dm, dm, member);
	add_finding(d, "static-member", NULL, NULL, b.buf, fix.buf);
	lk_buf_release(&b);
	lk_buf_release(&fix);
}

/* A C++ name that is no function and no compiler-made object (vtable, typeinfo, guard variable, ...). */
static int plain_variable(const struct cxx *want)
{
	return !want->params && strstr(want->dm, "::") && !strchr(want->dm, ' ') && !strchr(want->dm, '<') &&
	       strncmp(want->dm, "std::", 5) && strncmp(want->dm, "__gnu_cxx::", 11);
}

/* "PATH" or "PATH(MEMBER)" of a replay input, and with `at` " (at N)" when the line has its top-level item there; into b. */
static void input_words(const struct lk_line *line, const struct lk_replay *out, long input, int at, struct lk_buf *b)
{
	const struct lk_rinput *in = &out->inputs.items[input];
	long item = in->item;

	lk_buf_addstr(b, in->path ? in->path : "an input");
	if (in->member)
		lk_buf_addf(b, "(%s)", in->member);
	while (item >= 0 && line->items.items[item].parent >= 0)
		item = line->items.items[item].parent;
	if (at && item >= 0 && line->items.items[item].position >= 0)
		lk_buf_addf(b, " (at %ld)", line->items.items[item].position);
}

/*
 * An input defines `u` only in a COMDAT group that ld discarded (the
 * replay's read.c): ld keeps the first group of a signature it loads and
 * drops the later ones whole, so a symbol that only a dropped copy
 * defines is undefined. The copies differ: compiled from different
 * definitions of the template or inline code, or by different compilers.
 * 1 when it is so (the other near misses would tell a wrong story then).
 */
static int comdat_discarded(const struct lk_line *line, const struct lk_replay *out, struct lk_diag *d, const char *u)
{
	const struct lk_sym *s = out->symtab ? lk_symtab_lookup(out->symtab, u) : NULL;
	struct lk_buf def = LK_BUF_INIT, kept = LK_BUF_INIT, b = LK_BUF_INIT, fix = LK_BUF_INIT, where = LK_BUF_INIT;
	const struct lk_rinput *in;
	struct lk_finding *f;
	char *dm;

	if (!s || !s->discarded_def || s->discarded_kept < 0 || (size_t)s->discarded_kept >= out->inputs.nr ||
	    s->discarded_input < 0 || (size_t)s->discarded_input >= out->inputs.nr)
		return 0;
	dm = lk_demangle(u);
	input_words(line, out, s->discarded_input, 1, &def);
	input_words(line, out, s->discarded_kept, 1, &kept);
	input_words(line, out, s->discarded_kept, 0, &where);
	lk_buf_addf(&b, "%s defines %s, but only in its COMDAT group %s, which ld discarded: %s loaded a group of that signature first, and that copy does not define it (ld keeps the first group of a signature and drops the later ones whole; a symbol only a dropped copy defines is undefined)",
		    def.buf, dm ? dm : u, s->discarded_group, kept.buf);
	in = &out->inputs.items[s->discarded_kept];
	lk_buf_addf(&fix, "the two copies of the COMDAT group %s differ: %s and %s were compiled from different definitions of that template or inline code (an ODR violation: two versions of a header), or by different compilers; rebuild %s from the same headers with the same compiler as %s",
		    s->discarded_group, kept.buf, def.buf, in->member ? in->member : lk_path_base(in->path ? in->path : "it"),
		    lk_path_base(out->inputs.items[s->discarded_input].path ? out->inputs.items[s->discarded_input].path : "the other"));
	f = add_finding(d, "comdat-discarded", u, where.buf, b.buf, fix.buf);
	if (f && in->path) {
		f->def_path = lk_xstrdup(out->inputs.items[s->discarded_input].path);
		f->def_member = out->inputs.items[s->discarded_input].member ?
				lk_xstrdup(out->inputs.items[s->discarded_input].member) : NULL;
	}
	free(dm);
	lk_buf_release(&def);
	lk_buf_release(&kept);
	lk_buf_release(&where);
	lk_buf_release(&b);
	lk_buf_release(&fix);
	return 1;
}

/*
 * The member pulled for `u` is a slim GCC LTO object (archive.c): it
 * holds GCC's IR and no machine code. GNU ld and mold read it through
 * GCC's LTO plugin; lld reads no symbol from it (its own LTO is LLVM's),
 * so under lld `u` stays undefined. 1 when it is so.
 */
static int gcc_lto_member(const struct lk_line *line, const struct lk_replay *out, struct lk_diag *d, const char *u)
{
	struct lk_buf in = LK_BUF_INIT, b = LK_BUF_INIT, fix = LK_BUF_INIT;
	struct lk_finding *f;
	long input = -1;

	for (size_t i = 0; i < out->inputs.nr && input < 0; i++)
		if (out->inputs.items[i].gcc_lto && out->inputs.items[i].pulled_for &&
		    !strcmp(out->inputs.items[i].pulled_for, u))
			input = (long)i;
	if (input < 0)
		return 0;
	input_words(line, out, input, 0, &in);
	lk_buf_addf(&b, "%s, which the archive's map says defines %s, is a GCC LTO object (compiled with -flto, slim: GCC's IR and no machine code): lld reads no symbol from it, where GNU ld and mold read it through GCC's LTO plugin",
		    in.buf, u);
	lk_buf_addf(&fix, "rebuild %s with -ffat-lto-objects (machine code beside the IR, which lld reads), or without -flto; or link with GNU ld (-fuse-ld=bfd; for rustc, -Clinker-features=-lld), which reads the IR through the plugin",
		    out->inputs.items[input].member ? out->inputs.items[input].member : lk_path_base(in.buf));
	f = add_finding(d, "gcc-lto", u, in.buf, b.buf, fix.buf);
	if (f && out->inputs.items[input].path) {
		f->def_path = lk_xstrdup(out->inputs.items[input].path);
		f->def_member = out->inputs.items[input].member ? lk_xstrdup(out->inputs.items[input].member) : NULL;
	}
	lk_buf_release(&in);
	lk_buf_release(&b);
	lk_buf_release(&fix);
	return 1;
}

static void look_at(const struct corpus *c, const struct lk_record *rec, struct lk_diag *d, const char *u,
		    const struct lk_provider_index *ix)
{
	struct cxx want;
	size_t before = d->near_misses.nr;

	if (!strcmp(u, "main")) {
		main_missing(c, rec, d);
		return;
	}
	exact_matches(c, d, u);
	version_matches(c, d, u);
	if (cxx_parse(u, &want)) {
		if (!want.params && (strstr(want.dm, "vtable for ") == want.dm || strstr(want.dm, "typeinfo for ") == want.dm ||
				     strstr(want.dm, "typeinfo name for ") == want.dm))
			key_function(c, d, want.dm);
		else if (want.params)
			cxx_matches(c, d, u, &want);
		if (d->near_misses.nr == before && want.params)
			index_matches(ix, d, u, &want);
		if (d->near_misses.nr == before && plain_variable(&want))
			static_member(d, want.dm);
		cxx_release(&want);
	} else {
		c_matches(c, d, u);
		if (d->near_misses.nr == before)
			index_matches(ix, d, u, NULL);
	}
	/* An object of the build tree that defines it ("not-on-line"): the fix stage appends it. */
}

void lk_nearmiss_find(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out,
		      const struct lk_provider_index *ix)
{
	struct corpus c;
	int any = 0;

	for (size_t i = 0; i < out->diags.nr; i++) {
		const struct lk_diag *d = &out->diags.items[i];

		any |= d->kind == LK_DIAG_UNDEFINED && !d->defined_path && !d->provider;
	}
	if (!any)
		return;
	corpus_build(&c, rec, line, out);
	for (size_t i = 0; i < out->diags.nr; i++) {
		struct lk_diag *d = &out->diags.items[i];

		if (d->kind != LK_DIAG_UNDEFINED || d->defined_path || d->provider)
			continue;
		for (size_t k = 0; k < d->symbols.nr && k < SYMBOLS_LOOKED_AT; k++)
			if (!comdat_discarded(line, out, d, d->symbols.items[k]) &&
			    !gcc_lto_member(line, out, d, d->symbols.items[k]))
				look_at(&c, rec, d, d->symbols.items[k], ix);
	}
	corpus_release(&c);
}
