/*
 * A -T linker script's MEMORY regions, filled as GNU ld and lld fill them
 * (issue #33 point 3e): each output section of SECTIONS placed "> REGION"
 * (and "AT> REGION", its load address) takes the input sections its
 * patterns match first, in the script's order (ldlang.c's
 * wild/walk_wild; lld's LinkerScript::computeInputSections), and a region
 * whose sections need more than its LENGTH fails the link: GNU ld's
 * "region `ROM' overflowed by N bytes", lld's "section '.text' will not
 * fit in region 'ROM'". mold 1.10 refuses MEMORY itself
 * (script_commands.c).
 *
 * The sum of the matched input sections is a floor: alignment padding,
 * linker-made sections (.note.gnu.build-id, .got, .eh_frame_hdr) and
 * sections no pattern names (orphans, placed by each linker's own rules)
 * only add to it. A floor over LENGTH is an overflow; the floor with that
 * margin within LENGTH is none; between the two the outcome is unknown.
 * Only scripts of that shape are read: numeric ORIGIN and LENGTH (K and
 * M suffixes), output sections of input-section patterns, ALIGN
 * assignments of '.', and BYTE/SHORT/LONG/QUAD data; anything else
 * (an expression, a '.' moved by any other amount, an output section in
 * no region, EXCLUDE_FILE) leaves it unknown, naming the construct.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "memory.h"
#include "rp.h"

#define MEMORY_SCRIPT_MAX_BYTES ((size_t)1 << 20)
#define MEMORY_LINKER_MADE 256	/* bytes a linker may add to a region of its own sections (build-id and the like) */

struct region {
	char name[64];
	unsigned long long length;
	unsigned long long floor, margin;
};

struct outsec {
	int region, lma_region;	/* -1: none */
	int discard;
	unsigned long long floor, margin;
	struct lk_strvec files, patterns;	/* pairs: the file pattern of each section pattern */
};

struct rp_memory {
	struct { struct region *items; size_t nr, alloc; } regions;
	struct { struct outsec *items; size_t nr, alloc; } secs;
	unsigned long long orphans;
	char *unknown;		/* a construct not read: the regions are not judged */
	char *script;
};

/* ---- a small lexer of the script's tokens ---- */

struct mlex {
	const char *p;
	char tok[128];
	int eof;
};

static void mnext(struct mlex *lx)
{
	size_t n = 0;

	for (;;) {
		while (isspace((unsigned char)*lx->p))
			lx->p++;
		if (lx->p[0] == '/' && lx->p[1] == '*') {
			const char *end = strstr(lx->p + 2, "*/");

			lx->p = end ? end + 2 : lx->p + strlen(lx->p);
			continue;
		}
		break;
	}
	lx->eof = !*lx->p;
	lx->tok[0] = '\0';
	if (lx->eof)
		return;
	if (strchr("{}();:,=>", *lx->p)) {
		lx->tok[0] = *lx->p++;
		lx->tok[1] = '\0';
		return;
	}
	while (*lx->p && !isspace((unsigned char)*lx->p) && !strchr("{}();:,=>", *lx->p) &&
	       !(lx->p[0] == '/' && lx->p[1] == '*')) {
		if (n + 1 < sizeof(lx->tok))
			lx->tok[n++] = *lx->p;
		lx->p++;
	}
	lx->tok[n] = '\0';
}

static int tis(const struct mlex *lx, const char *t)
{
	return !lx->eof && !strcmp(lx->tok, t);
}

static int unread(struct rp_memory *m, const char *what, const char *tok)
{
	struct lk_buf b = LK_BUF_INIT;

	if (!m->unknown) {
		lk_buf_addf(&b, "the linker script '%s' %s ('%s'): whether its MEMORY regions overflow is not modelled",
			    lk_path_base(m->script), what, tok);
		m->unknown = lk_buf_detach(&b);
	}
	return -1;
}

/* A number as ld writes one: 0x..., decimal, with K or M. */
static int number(const char *t, unsigned long long *v)
{
	char *end;

	*v = strtoull(t, &end, 0);
	if (end == t)
		return -1;
	if (*end == 'K' || *end == 'k')
		*v <<= 10, end++;
	else if (*end == 'M' || *end == 'm')
		*v <<= 20, end++;
	return *end ? -1 : 0;
}

static int find_region(const struct rp_memory *m, const char *name)
{
	for (size_t i = 0; i < m->regions.nr; i++)
		if (!strcmp(m->regions.items[i].name, name))
			return (int)i;
	return -1;
}

/* NAME [(attrs)] : ORIGIN = N , LENGTH = N */
static int memory_block(struct rp_memory *m, struct mlex *lx)
{
	mnext(lx);
	if (!tis(lx, "{"))
		return unread(m, "has MEMORY without '{'", lx->tok);
	for (;;) {
		struct region r;
		unsigned long long v;

		memset(&r, 0, sizeof(r));
		mnext(lx);
		if (tis(lx, "}"))
			return 0;
		if (lx->eof)
			return unread(m, "ends inside MEMORY", "");
		snprintf(r.name, sizeof(r.name), "%s", lx->tok);
		mnext(lx);
		if (tis(lx, "(")) {
			while (!lx->eof && !tis(lx, ")"))
				mnext(lx);
			mnext(lx);
		}
		if (!tis(lx, ":"))
			return unread(m, "has a MEMORY line it does not read", lx->tok);
		for (int k = 0; k < 2; k++) {
			int length;

			mnext(lx);
			length = tis(lx, "LENGTH") || tis(lx, "len") || tis(lx, "l");
			if (!length && !tis(lx, "ORIGIN") && !tis(lx, "org") && !tis(lx, "o"))
				return unread(m, "has a MEMORY attribute it does not read", lx->tok);
			mnext(lx);
			if (!tis(lx, "="))
				return unread(m, "has a MEMORY attribute it does not read", lx->tok);
			mnext(lx);
			if (number(lx->tok, &v) < 0)
				return unread(m, "gives a MEMORY attribute as an expression", lx->tok);
			if (length)
				r.length = v;
			if (!k) {
				mnext(lx);
				if (!tis(lx, ","))
					return unread(m, "has a MEMORY line it does not read", lx->tok);
			}
		}
		LK_GROW(m->regions.items, m->regions.nr + 1, m->regions.alloc);
		m->regions.items[m->regions.nr++] = r;
	}
}

/* Skip to the ';' that ends an assignment. */
static void to_semicolon(struct mlex *lx)
{
	while (!lx->eof && !tis(lx, ";"))
		mnext(lx);
}

/* "NAME = ..." at the token: skipped to its ';' (1); else the lexer left where it was (0). */
static int skip_assignment(struct mlex *lx)
{
	const char *save = lx->p;
	char name[128];

	snprintf(name, sizeof(name), "%s", lx->tok);
	mnext(lx);
	if (tis(lx, "=")) {
		to_semicolon(lx);
		return 1;
	}
	lx->p = save;
	snprintf(lx->tok, sizeof(lx->tok), "%s", name);
	lx->eof = 0;
	return 0;
}

/* FILEPATTERN ( SECTIONPATTERN ... ) inside an output section, KEEP( ) and SORT( ) around it taken off. */
static int input_spec(struct rp_memory *m, struct outsec *o, struct mlex *lx)
{
	char file[128];
	int depth = 0;

	if (tis(lx, "KEEP")) {
		mnext(lx);
		if (!tis(lx, "("))
			return unread(m, "has a KEEP it does not read", lx->tok);
		mnext(lx);
		if (input_spec(m, o, lx) < 0)
			return -1;
		mnext(lx);
		return tis(lx, ")") ? 0 : unread(m, "has a KEEP it does not read", lx->tok);
	}
	snprintf(file, sizeof(file), "%s", lx->tok);
	mnext(lx);
	if (!tis(lx, "("))
		return unread(m, "names an input section it does not read", file);
	for (;;) {
		mnext(lx);
		if (lx->eof)
			return unread(m, "ends inside an input section list", "");
		if (tis(lx, ")")) {
			if (!depth--)
				return 0;
			continue;
		}
		if (!strncmp(lx->tok, "SORT", 4)) {
			mnext(lx);
			if (!tis(lx, "("))
				return unread(m, "has a SORT it does not read", lx->tok);
			depth++;
			continue;
		}
		if (!strcmp(lx->tok, "EXCLUDE_FILE") || strchr("{};:,=>(", lx->tok[0]))
			return unread(m, "has an input section list it does not read", lx->tok);
		lk_strvec_push(&o->files, file);
		lk_strvec_push(&o->patterns, lx->tok);
	}
}

static int size_of(const char *t)
{
	return !strcmp(t, "BYTE") ? 1 : !strcmp(t, "SHORT") ? 2 : !strcmp(t, "LONG") ? 4 : !strcmp(t, "QUAD") ? 8 : 0;
}

static int output_section(struct rp_memory *m, struct mlex *lx)
{
	struct outsec o;

	memset(&o, 0, sizeof(o));
	o.region = o.lma_region = -1;
	o.discard = tis(lx, "/DISCARD/");
	mnext(lx);
	if (!tis(lx, ":"))
		return unread(m, "gives an output section an address or type", lx->tok);
	mnext(lx);
	if (!tis(lx, "{"))
		return unread(m, "gives an output section an attribute", lx->tok);
	for (;;) {
		unsigned long long v;
		int n;

		mnext(lx);
		if (tis(lx, "}"))
			break;
		if (lx->eof)
			goto bad;
		if (tis(lx, ".")) {
			/* ". = ALIGN(N);": at most N - 1 bytes of padding */
			mnext(lx);
			if (!tis(lx, "="))
				goto bad;
			mnext(lx);
			if (strcmp(lx->tok, "ALIGN"))
				goto bad;
			mnext(lx);
			mnext(lx);
			if (number(lx->tok, &v) < 0)
				goto bad;
			o.margin += v;
			to_semicolon(lx);
			continue;
		}
		if ((n = size_of(lx->tok))) {
			o.floor += (unsigned long long)n;
			while (!lx->eof && !tis(lx, ")"))
				mnext(lx);
			continue;
		}
		if (tis(lx, ";"))
			continue;
		/* "sym = ." and the like: no room taken */
		if (skip_assignment(lx))
			continue;
		if (input_spec(m, &o, lx) < 0)
			goto fail;
	}
	/* > REGION, AT> REGION, :PHDR, =FILL, in any order up to the next statement */
	for (;;) {
		const char *save = lx->p;

		mnext(lx);
		if (tis(lx, ">") || tis(lx, "AT")) {
			int lma = tis(lx, "AT");

			if (lma) {
				mnext(lx);
				if (!tis(lx, ">"))
					goto bad;
			}
			mnext(lx);
			if (find_region(m, lx->tok) < 0)
				goto bad;
			*(lma ? &o.lma_region : &o.region) = find_region(m, lx->tok);
			continue;
		}
		if (tis(lx, ",") || tis(lx, ";"))
			break;
		lx->p = save;
		break;
	}
	if (o.region < 0 && !o.discard)
		goto bad;
	LK_GROW(m->secs.items, m->secs.nr + 1, m->secs.alloc);
	m->secs.items[m->secs.nr++] = o;
	return 0;
bad:
	unread(m, "has an output section it does not read", lx->tok);
fail:
	lk_strvec_release(&o.files);
	lk_strvec_release(&o.patterns);
	return -1;
}

static int sections_block(struct rp_memory *m, struct mlex *lx)
{
	mnext(lx);
	if (!tis(lx, "{"))
		return unread(m, "has SECTIONS without '{'", lx->tok);
	for (;;) {
		mnext(lx);
		if (tis(lx, "}"))
			return 0;
		if (lx->eof)
			return unread(m, "ends inside SECTIONS", "");
		if (tis(lx, ".") || !strcmp(lx->tok, "OVERLAY") || !strcmp(lx->tok, "INCLUDE"))
			return unread(m, "moves the location counter in SECTIONS", lx->tok);
		if (tis(lx, "ENTRY") || tis(lx, "PROVIDE") || tis(lx, "PROVIDE_HIDDEN") || tis(lx, "ASSERT")) {
			to_semicolon(lx);
			continue;
		}
		if (skip_assignment(lx))
			continue;
		if (output_section(m, lx) < 0)
			return -1;
	}
}

static void parse_script(struct rp_memory *m, const char *text)
{
	struct mlex lx = { text, "", 0 };

	for (;;) {
		mnext(&lx);
		if (lx.eof)
			return;
		if (tis(&lx, "MEMORY")) {
			if (memory_block(m, &lx) < 0)
				return;
		} else if (tis(&lx, "SECTIONS")) {
			if (sections_block(m, &lx) < 0)
				return;
		} else if (tis(&lx, ";")) {
			continue;
		} else {
			/* COMMAND ( ... ) and "sym = expr;": nothing that fills a region */
			mnext(&lx);
			if (tis(&lx, "("))
				while (!lx.eof && !tis(&lx, ")"))
					mnext(&lx);
			else
				to_semicolon(&lx);
		}
	}
}

size_t lk_memory_script_read(const char *text, const char *path, char **unknown)
{
	struct rp_memory m;
	size_t n;

	memset(&m, 0, sizeof(m));
	m.script = lk_xstrdup(path);
	parse_script(&m, text);
	n = m.regions.nr;
	*unknown = m.unknown;
	for (size_t i = 0; i < m.secs.nr; i++) {
		lk_strvec_release(&m.secs.items[i].files);
		lk_strvec_release(&m.secs.items[i].patterns);
	}
	free(m.secs.items);
	free(m.regions.items);
	free(m.script);
	return n;
}

void rp_memory_release(struct rp *r)
{
	struct rp_memory *m = r->memory;

	if (!m)
		return;
	for (size_t i = 0; i < m->secs.nr; i++) {
		lk_strvec_release(&m->secs.items[i].files);
		lk_strvec_release(&m->secs.items[i].patterns);
	}
	free(m->secs.items);
	free(m->regions.items);
	free(m->unknown);
	free(m->script);
	free(m);
	r->memory = NULL;
}

void rp_memory_start(struct rp *r)
{
	for (size_t i = 0; i < r->line->items.nr && !(r->mode & (RP_LLD | RP_WORKER)); i++) {
		const struct lk_line_item *it = &r->line->items.items[i];
		struct lk_buf text = LK_BUF_INIT;
		struct rp_memory *m;

		if (!it->t_script || !it->path || lk_buf_read_file(&text, it->path, MEMORY_SCRIPT_MAX_BYTES) < 0 ||
		    !text.buf || !strstr(text.buf, "MEMORY")) {
			lk_buf_release(&text);
			continue;
		}
		m = lk_xcalloc(1, sizeof(*m));
		m->script = lk_xstrdup(it->path);
		parse_script(m, text.buf);
		lk_buf_release(&text);
		if (!m->regions.nr) {
			r->memory = m;
			rp_memory_release(r);
			continue;
		}
		r->memory = m;
		return;
	}
}

void rp_memory_input(struct rp *r, long input, const struct lk_elf_gc *sections)
{
	struct rp_memory *m = r->memory;
	const char *file;

	if (!m || m->unknown)
		return;
	file = r->out->inputs.items[input].member ? r->out->inputs.items[input].member :
	       lk_path_base(r->out->inputs.items[input].path);
	for (size_t i = 0; i < sections->nsections; i++) {
		const struct lk_elf_gc_section *s = &sections->sections[i];
		int placed = 0;

		if (!s->alloc || !s->size || !s->name)
			continue;
		for (size_t k = 0; k < m->secs.nr && !placed; k++) {
			struct outsec *o = &m->secs.items[k];

			for (size_t p = 0; p < o->patterns.nr && !placed; p++) {
				if (fnmatch(o->files.items[p], file, 0) || fnmatch(o->patterns.items[p], s->name, 0))
					continue;
				placed = 1;
				if (o->discard)
					break;
				o->floor += s->size;
				o->margin += s->align > 1 ? s->align - 1 : 0;
			}
		}
		if (!placed)
			m->orphans += s->size + (s->align > 1 ? s->align - 1 : 0);
	}
}

void rp_memory_finish(struct rp *r)
{
	struct rp_memory *m = r->memory;
	struct lk_replay_warned *w = &r->out->warned;

	if (!m)
		return;
	if (m->unknown) {
		w->memory_unknown = m->unknown;
		m->unknown = NULL;
		return;
	}
	for (size_t k = 0; k < m->secs.nr; k++) {
		const struct outsec *o = &m->secs.items[k];

		if (o->discard)
			continue;
		m->regions.items[o->region].floor += o->floor;
		m->regions.items[o->region].margin += o->margin;
		if (o->lma_region >= 0 && o->lma_region != o->region) {
			m->regions.items[o->lma_region].floor += o->floor;
			m->regions.items[o->lma_region].margin += o->margin;
		}
	}
	for (size_t i = 0; i < m->regions.nr; i++) {
		const struct region *g = &m->regions.items[i];
		struct lk_buf b = LK_BUF_INIT;

		if (g->floor > g->length && !w->memory_overflow) {
			lk_buf_addf(&b, "region `%s' of '%s' (%llu bytes) takes at least %llu bytes of input sections: it overflows by at least %llu",
				    g->name, lk_path_base(m->script), g->length, g->floor, g->floor - g->length);
			w->memory_overflow = lk_buf_detach(&b);
		} else if (g->floor + g->margin + m->orphans + MEMORY_LINKER_MADE > g->length && !w->memory_unknown) {
			lk_buf_addf(&b, "region `%s' of '%s' (%llu bytes) takes %llu bytes of input sections, and padding, orphan and linker-made sections may add up to %llu: whether it overflows is not modelled",
				    g->name, lk_path_base(m->script), g->length, g->floor,
				    g->margin + m->orphans + MEMORY_LINKER_MADE);
			w->memory_unknown = lk_buf_detach(&b);
		}
	}
}
