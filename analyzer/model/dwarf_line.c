/*
 * Inputs -> source lines (dwarf_line.h): the line-number programs of
 * .debug_line run as bfd's dwarf2.c runs them (decode_line_info,
 * concat_filename, lookup_address_in_line_info_table), so a place gets
 * the file:line GNU ld prints for it; and the DIEs of .debug_info walked
 * for a declaration's DW_AT_decl_file and DW_AT_decl_line. Every read is
 * checked against its section's end (and a unit's): bad DWARF stops the
 * unit it is in, never the caller.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "dwarf_line.h"

/* Bounds against a hostile file: what a real object needs is far below them. */
#define UNITS_MAX 4096		/* compilation units read */
#define ENTRIES_MAX 65536	/* directory or file entries of one line table */
#define FORMATS_MAX 32		/* DWARF 5 entry format pairs */
#define ABBREVS_MAX 65536	/* abbreviations of one unit */

/* DW_FORM_* and the line program's opcodes (DWARF 5, 7.5.6 and 6.2.5). */
enum {
	F_ADDR = 0x01, F_BLOCK2 = 0x03, F_BLOCK4 = 0x04, F_DATA2 = 0x05, F_DATA4 = 0x06, F_DATA8 = 0x07,
	F_STRING = 0x08, F_BLOCK = 0x09, F_BLOCK1 = 0x0a, F_DATA1 = 0x0b, F_FLAG = 0x0c, F_SDATA = 0x0d,
	F_STRP = 0x0e, F_UDATA = 0x0f, F_REF_ADDR = 0x10, F_REF1 = 0x11, F_REF2 = 0x12, F_REF4 = 0x13,
	F_REF8 = 0x14, F_REF_UDATA = 0x15, F_INDIRECT = 0x16, F_SEC_OFFSET = 0x17, F_EXPRLOC = 0x18,
	F_FLAG_PRESENT = 0x19, F_STRX = 0x1a, F_ADDRX = 0x1b, F_REF_SUP4 = 0x1c, F_STRP_SUP = 0x1d,
	F_DATA16 = 0x1e, F_LINE_STRP = 0x1f, F_REF_SIG8 = 0x20, F_IMPLICIT_CONST = 0x21, F_LOCLISTX = 0x22,
	F_RNGLISTX = 0x23, F_REF_SUP8 = 0x24, F_STRX1 = 0x25, F_STRX2 = 0x26, F_STRX3 = 0x27, F_STRX4 = 0x28,
	F_ADDRX1 = 0x29, F_ADDRX2 = 0x2a, F_ADDRX3 = 0x2b, F_ADDRX4 = 0x2c,
	F_GNU_ADDR_INDEX = 0x1f01, F_GNU_STR_INDEX = 0x1f02, F_GNU_REF_ALT = 0x1f20, F_GNU_STRP_ALT = 0x1f21,
};
enum {
	AT_NAME = 0x03, AT_STMT_LIST = 0x10, AT_COMP_DIR = 0x1b, AT_DECLARATION = 0x3c, AT_DECL_FILE = 0x3a,
	AT_DECL_LINE = 0x3b, AT_LINKAGE_NAME = 0x6e, AT_STR_OFFSETS_BASE = 0x72, AT_SPECIFICATION = 0x47, AT_MIPS_LINKAGE_NAME = 0x2007,
};
enum { LNCT_PATH = 1, LNCT_DIRECTORY_INDEX = 2 };
enum {
	LNS_COPY = 1, LNS_ADVANCE_PC, LNS_ADVANCE_LINE, LNS_SET_FILE, LNS_SET_COLUMN, LNS_NEGATE_STMT,
	LNS_SET_BASIC_BLOCK, LNS_CONST_ADD_PC, LNS_FIXED_ADVANCE_PC,
};
enum { LNE_END_SEQUENCE = 1, LNE_SET_ADDRESS, LNE_DEFINE_FILE };

/* ---- a bounded cursor ---- */

struct cur {
	const unsigned char *base, *p, *end;
	int be, bad;
};

static void cur_init(struct cur *c, const struct lk_dwarf_bytes *b, size_t from, int be)
{
	c->base = b->p;
	c->be = be;
	c->bad = !b->p || from > b->size;
	c->p = c->bad ? NULL : b->p + from;
	c->end = c->bad ? NULL : b->p + b->size;
}

static size_t cur_left(const struct cur *c)
{
	return c->bad ? 0 : (size_t)(c->end - c->p);
}

static int cur_skip(struct cur *c, uint64_t n)
{
	if (c->bad || n > cur_left(c))
		return c->bad = 1, 0;
	c->p += n;
	return 1;
}

static uint64_t cur_uint(struct cur *c, unsigned n)
{
	uint64_t v = 0;

	if (c->bad || n > cur_left(c) || n > 8) {
		c->bad = 1;
		return 0;
	}
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)c->p[c->be ? n - 1 - i : i] << (8 * i);
	c->p += n;
	return v;
}

static uint64_t cur_leb(struct cur *c, int is_signed)
{
	uint64_t v = 0;
	unsigned shift = 0;
	unsigned char byte;

	do {
		if (c->bad || c->p >= c->end) {
			c->bad = 1;
			return 0;
		}
		byte = *c->p++;
		if (shift < 64)
			v |= (uint64_t)(byte & 0x7f) << shift;
		shift += 7;
	} while (byte & 0x80);
	if (is_signed && shift < 64 && (byte & 0x40))
		v |= ~(uint64_t)0 << shift;
	return v;
}

/* A NUL-terminated string in the cursor's bytes (borrowed), or NULL. */
static const char *cur_str(struct cur *c)
{
	const unsigned char *z;

	if (c->bad || !(z = memchr(c->p, '\0', cur_left(c)))) {
		c->bad = 1;
		return NULL;
	}
	const char *s = (const char *)c->p;

	c->p = z + 1;
	return s;
}

/*
 * The string at `offset` of a string section, or NULL. The section is
 * cut after its last NUL (strings_cut) before a walk, so any offset
 * within it starts a terminated string: no scan for the NUL per use,
 * which a section with no NUL made a scan of all of it per attribute.
 */
static const char *str_at(const struct lk_dwarf_bytes *b, uint64_t offset)
{
	if (!b->p || offset >= b->size)
		return NULL;
	return (const char *)b->p + offset;
}

/* A string section cut after its last NUL (to nothing without one). */
static void strings_cut(struct lk_dwarf_bytes *b)
{
	while (b->size && b->p[b->size - 1])
		b->size--;
}

/* ---- attribute values ---- */

struct unit {
	int version, offset_size, addr_size, be;
	const struct lk_dwarf_input *in;
	uint64_t str_offsets_base;	/* DW_AT_str_offsets_base of the unit's DIE (clang's strx names), or 0 */
	uint64_t start;		/* the unit's offset in .debug_info (its DIEs' references are from there) */
	size_t *specs_left;	/* the walk's budget of attribute specs read (each_unit), or NULL: none */
};

/*
 * The value of one attribute of form `form` at the cursor: a string (for
 * the string forms we can read, else NULL) or a number; the cursor past it.
 */
static uint64_t form_value(struct cur *c, const struct unit *u, uint64_t form, int64_t implicit,
			   const char **str)
{
	uint64_t v = 0;

	*str = NULL;
	switch (form) {
	case F_ADDR: return cur_uint(c, (unsigned)u->addr_size);
	case F_DATA1: case F_REF1: case F_FLAG: case F_STRX1: case F_ADDRX1: return cur_uint(c, 1);
	case F_DATA2: case F_REF2: case F_STRX2: case F_ADDRX2: return cur_uint(c, 2);
	case F_STRX3: case F_ADDRX3: return cur_uint(c, 3);
	case F_DATA4: case F_REF4: case F_REF_SUP4: case F_STRX4: case F_ADDRX4: return cur_uint(c, 4);
	case F_DATA8: case F_REF8: case F_REF_SIG8: case F_REF_SUP8: return cur_uint(c, 8);
	case F_DATA16: cur_skip(c, 16); return 0;
	case F_SDATA: return cur_leb(c, 1);
	case F_UDATA: case F_REF_UDATA: case F_STRX: case F_ADDRX: case F_LOCLISTX: case F_RNGLISTX:
	case F_GNU_ADDR_INDEX: case F_GNU_STR_INDEX:
		return cur_leb(c, 0);
	case F_STRING: *str = cur_str(c); return 0;
	case F_STRP: v = cur_uint(c, (unsigned)u->offset_size); *str = str_at(&u->in->str, v); return v;
	case F_LINE_STRP: v = cur_uint(c, (unsigned)u->offset_size); *str = str_at(&u->in->line_str, v); return v;
	case F_SEC_OFFSET: case F_STRP_SUP: case F_GNU_REF_ALT: case F_GNU_STRP_ALT:
		return cur_uint(c, (unsigned)u->offset_size);
	case F_REF_ADDR: return cur_uint(c, (unsigned)(u->version <= 2 ? u->addr_size : u->offset_size));
	case F_BLOCK1: cur_skip(c, cur_uint(c, 1)); return 0;
	case F_BLOCK2: cur_skip(c, cur_uint(c, 2)); return 0;
	case F_BLOCK4: cur_skip(c, cur_uint(c, 4)); return 0;
	case F_BLOCK: case F_EXPRLOC: cur_skip(c, cur_leb(c, 0)); return 0;
	case F_FLAG_PRESENT: return 1;
	case F_IMPLICIT_CONST: return (uint64_t)implicit;
	case F_INDIRECT:
		form = cur_leb(c, 0);
		if (form == F_INDIRECT || form == F_IMPLICIT_CONST)
			break;
		return form_value(c, u, form, 0, str);
	default:
		break;
	}
	c->bad = 1;	/* a form we do not know: its size is unknown, so is everything after it */
	return 0;
}

/* ---- DIEs: the unit's (where its line table is, its directory) and declarations ---- */

/* The attributes of one DIE that this reader uses. */
struct die {
	uint64_t stmt_list, decl_file, decl_line, str_offsets_base;
	uint64_t specification;	/* DW_AT_specification: the unit offset of the declaration it completes */
	int has_stmt_list, declaration, has_specification;
	const char *comp_dir, *name, *linkage_name;
	/* A name given as an index of .debug_str_offsets (DW_FORM_strx*), read once the base is known. */
	struct { uint64_t attr, index; } strx[3];
	unsigned nstrx;
};

/* One abbreviation of a unit's table: its code, and the offset of its attribute specs in .debug_abbrev. */
struct abbrev {
	uint64_t code;
	size_t specs;
};

/*
 * A unit's abbreviation table, indexed once when read (issue #29): sorted
 * by code, each code's first definition first, so that a DIE's code is
 * found by a binary search, not a scan of the table per DIE (a table of
 * 65,536 codes and a million one-byte DIEs cost 30 CPU s with the scan).
 */
struct abbrevs {
	struct abbrev *items;
	size_t nr, alloc;
	uint64_t offset;	/* where the table is in .debug_abbrev */
};

/* By code, then by place in the table: the first definition of a code wins, as in a scan from the start. */
static int abbrev_cmp(const void *a, const void *b)
{
	const struct abbrev *x = a, *y = b;

	if (x->code != y->code)
		return x->code < y->code ? -1 : 1;
	return x->specs < y->specs ? -1 : x->specs > y->specs;
}

/* The abbreviation table at `offset` (at most ABBREVS_MAX entries), indexed; the bytes it took from `*budget`. */
static void read_abbrevs(const struct lk_dwarf_input *in, uint64_t offset, struct abbrevs *out, size_t *budget)
{
	struct cur a;

	out->offset = offset;
	cur_init(&a, &in->abbrev, offset > SIZE_MAX ? SIZE_MAX : (size_t)offset, in->big_endian);
	if (a.bad)
		return;
	if (cur_left(&a) > *budget)
		a.end = a.p + *budget;	/* what the walk's budget leaves: the table is read up to there */
	while (!a.bad && out->nr < ABBREVS_MAX) {
		uint64_t code = cur_leb(&a, 0);

		if (!code || a.bad)
			break;
		cur_leb(&a, 0);	/* the tag */
		cur_uint(&a, 1);	/* has children */
		LK_GROW(out->items, out->nr + 1, out->alloc);
		out->items[out->nr].code = code;
		out->items[out->nr++].specs = (size_t)(a.p - a.base);
		for (;;) {
			uint64_t name = cur_leb(&a, 0), form = cur_leb(&a, 0);

			if (form == F_IMPLICIT_CONST)
				cur_leb(&a, 1);
			if (a.bad || (!name && !form))
				break;
		}
	}
	*budget -= (size_t)((a.bad ? a.end : a.p) - (a.base + offset));
	if (out->nr > 1)
		qsort(out->items, out->nr, sizeof(*out->items), abbrev_cmp);
}

/* The specs of abbreviation `code`: its first definition, by binary search of the sorted table. */
static int find_abbrev(const struct lk_dwarf_input *in, const struct abbrevs *t, uint64_t code, struct cur *a)
{
	size_t lo = 0, hi = t->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->items[mid].code < code)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == t->nr || t->items[lo].code != code)
		return 0;
	cur_init(a, &in->abbrev, t->items[lo].specs, in->big_endian);
	return !a->bad;
}

static int is_strx(uint64_t form);
static void resolve_strx(const struct unit *u, struct die *die);

/* The DIE at the cursor (its code read: `code`, not 0) into `die`; 0 when it cannot be read. */
static int read_die(struct cur *c, const struct unit *u, const struct abbrevs *t, uint64_t code, struct die *die)
{
	struct cur a;

	memset(die, 0, sizeof(*die));
	if (!find_abbrev(u->in, t, code, &a))
		return 0;
	/* each spec from the walk's budget: past it, the DIE is not read */
	while (!a.bad && !c->bad && (!u->specs_left || (*u->specs_left && (*u->specs_left)--))) {
		uint64_t name = cur_leb(&a, 0), form = cur_leb(&a, 0);
		int64_t implicit = form == F_IMPLICIT_CONST ? (int64_t)cur_leb(&a, 1) : 0;
		const char *s;
		uint64_t v;

		if (a.bad || (!name && !form)) {
			resolve_strx(u, die);
			return 1;
		}
		v = form_value(c, u, form, implicit, &s);
		if (is_strx(form) && (name == AT_NAME || name == AT_COMP_DIR || name == AT_LINKAGE_NAME ||
				      name == AT_MIPS_LINKAGE_NAME) && die->nstrx < 3) {
			die->strx[die->nstrx].attr = name;
			die->strx[die->nstrx++].index = v;
			continue;
		}
		switch (name) {
		case AT_STMT_LIST:
			die->has_stmt_list = form == F_SEC_OFFSET || form == F_DATA4 || form == F_DATA8;
			die->stmt_list = v;
			break;
		case AT_COMP_DIR: die->comp_dir = s; break;
		case AT_NAME: die->name = s; break;
		case AT_LINKAGE_NAME: case AT_MIPS_LINKAGE_NAME: die->linkage_name = s; break;
		case AT_DECLARATION: die->declaration = v != 0; break;
		case AT_DECL_FILE: die->decl_file = v; break;
		case AT_DECL_LINE: die->decl_line = v; break;
		case AT_STR_OFFSETS_BASE: die->str_offsets_base = v; break;
		case AT_SPECIFICATION:
			/* A reference within the unit; DW_FORM_ref_addr is from the section's start. */
			die->has_specification = form != F_REF_SIG8;
			die->specification = form == F_REF_ADDR ? v - u->start : v;
			break;
		default: break;
		}
	}
	return 0;
}

static int is_strx(uint64_t form)
{
	return form == F_STRX || form == F_STRX1 || form == F_STRX2 || form == F_STRX3 || form == F_STRX4;
}

/* The string of index `index` of .debug_str_offsets from `base` (DWARF 5), or NULL. */
static const char *strx_at(const struct unit *u, uint64_t base, uint64_t index)
{
	struct cur c;
	uint64_t at;

	if (!base || index > (SIZE_MAX - base) / (unsigned)u->offset_size)
		return NULL;
	at = base + index * (unsigned)u->offset_size;
	if (at > u->in->str_offsets.size)
		return NULL;
	cur_init(&c, &u->in->str_offsets, (size_t)at, u->be);
	at = cur_uint(&c, (unsigned)u->offset_size);
	return c.bad ? NULL : str_at(&u->in->str, at);
}

/* The DIE's strx names, from the unit's base (or, for the unit's own DIE, its own). */
static void resolve_strx(const struct unit *u, struct die *die)
{
	uint64_t base = die->str_offsets_base ? die->str_offsets_base : u->str_offsets_base;

	for (unsigned i = 0; i < die->nstrx; i++) {
		const char *s = strx_at(u, base, die->strx[i].index);

		if (die->strx[i].attr == AT_NAME)
			die->name = s;
		else if (die->strx[i].attr == AT_COMP_DIR)
			die->comp_dir = s;
		else
			die->linkage_name = s;
	}
}

/* ---- one line table ---- */

struct fileent {
	const char *name;
	uint64_t dir;
};

struct table {
	int version;
	const char *comp_dir;
	struct { const char **items; size_t nr, alloc; } dirs;
	struct { struct fileent *items; size_t nr, alloc; } files;
};

/* One row of the line-number matrix. */
struct row {
	uint32_t section;
	uint64_t address;
	uint64_t file;
	unsigned line;
	int end;
};

/*
 * The sequence being run, row by row: only its last row is kept (the
 * rows of a 64 MiB program of one-byte opcodes would take 2 GiB), and
 * each place the row before the next one holds, answered when the
 * sequence ends.
 */
struct seq {
	struct row last;
	int has_last;
	const struct lk_dwarf_place *places;
	size_t n;
	struct { uint64_t file; unsigned line; int set; } *held;	/* n of them */
};

static int absolute(const char *s)
{
	return s && s[0] == '/';
}

/* bfd's concat_filename: the file of the index `file`, joined to its directory and the unit's (malloc'd). */
static char *file_name(const struct table *t, uint64_t file)
{
	const struct fileent *f;
	const char *dir = NULL, *sub = NULL;
	uint64_t d;
	struct lk_buf b = LK_BUF_INIT;

	/* Before DWARF 5, file and directory 0 mean "none": the tables are read from entry 1. */
	if (t->version < 5) {
		if (file == 0)
			return NULL;
		file--;
	}
	if (file >= t->files.nr || !(f = &t->files.items[file])->name)
		return NULL;
	if (absolute(f->name))
		return lk_xstrdup(f->name);
	d = t->version < 5 ? f->dir - 1 : f->dir;	/* wraps for dir 0 before DWARF 5: no directory */
	if (d < t->dirs.nr)
		sub = t->dirs.items[d];
	if (!sub || !absolute(sub))
		dir = t->comp_dir;
	if (!dir) {
		dir = sub;
		sub = NULL;
	}
	if (!dir)
		return lk_xstrdup(f->name);
	lk_buf_addf(&b, "%s/", dir);
	if (sub)
		lk_buf_addf(&b, "%s/", sub);
	lk_buf_addstr(&b, f->name);
	return lk_buf_detach(&b);
}

/* DWARF 5 entries of the directory or file table: each a list of (content type, form). */
static int read_v5_entries(struct cur *c, const struct unit *u, struct table *t, int files)
{
	uint64_t format[FORMATS_MAX][2], count;
	unsigned nformat = (unsigned)cur_uint(c, 1);

	if (nformat > FORMATS_MAX)
		return 0;
	for (unsigned i = 0; i < nformat; i++) {
		format[i][0] = cur_leb(c, 0);
		format[i][1] = cur_leb(c, 0);
	}
	count = cur_leb(c, 0);
	if (c->bad || count > ENTRIES_MAX)
		return 0;
	for (uint64_t e = 0; e < count && !c->bad; e++) {
		struct fileent ent = { NULL, 0 };

		for (unsigned i = 0; i < nformat && !c->bad; i++) {
			const char *s;
			uint64_t v = form_value(c, u, format[i][1], 0, &s);

			if (format[i][0] == LNCT_PATH)
				ent.name = s;
			else if (format[i][0] == LNCT_DIRECTORY_INDEX)
				ent.dir = v;
		}
		if (files) {
			LK_GROW(t->files.items, t->files.nr + 1, t->files.alloc);
			t->files.items[t->files.nr++] = ent;
		} else {
			LK_GROW(t->dirs.items, t->dirs.nr + 1, t->dirs.alloc);
			t->dirs.items[t->dirs.nr++] = ent.name;
		}
	}
	return !c->bad;
}

static void add_file(struct table *t, const char *name, uint64_t dir)
{
	if (t->files.nr >= ENTRIES_MAX)
		return;
	LK_GROW(t->files.items, t->files.nr + 1, t->files.alloc);
	t->files.items[t->files.nr].name = name;
	t->files.items[t->files.nr++].dir = dir;
}

/* Before DWARF 5: include_directories and file_names, each ended by an empty string. */
static int read_v4_entries(struct cur *c, struct table *t)
{
	const char *s;

	while ((s = cur_str(c)) && *s && t->dirs.nr < ENTRIES_MAX) {
		LK_GROW(t->dirs.items, t->dirs.nr + 1, t->dirs.alloc);
		t->dirs.items[t->dirs.nr++] = s;
	}
	while ((s = cur_str(c)) && *s) {
		uint64_t dir = cur_leb(c, 0);

		cur_leb(c, 0);	/* mtime */
		cur_leb(c, 0);	/* length */
		add_file(t, s, dir);
	}
	return !c->bad;
}

/* The section a DW_LNE_set_address operand at `offset` of .debug_line is relocated against (0: none). */
static uint32_t address_section(const struct lk_dwarf_input *in, uint64_t offset)
{
	size_t lo = 0, hi = in->naddr_relocs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (in->addr_relocs[mid].offset == offset)
			return in->addr_relocs[mid].section;
		if (in->addr_relocs[mid].offset < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* The program's header fields the state machine needs. */
struct header {
	unsigned min_inst, max_ops, line_range, opcode_base;
	int line_base, default_is_stmt;
	unsigned char std_lengths[256];
};

/*
 * bfd's add_line_info: a row at the address of the previous one (and as
 * much an end) replaces it. Else the previous row is final: each place
 * from its address up to this row's (lookup_address_in_line_info_table's
 * row at the greatest address not above it) is held by it, the first
 * row that holds it in the sequence.
 */
static void add_row(struct seq *s, const struct row *r)
{
	const struct row *prev = &s->last;

	if (s->has_last && prev->address == r->address && prev->section == r->section && prev->end == r->end) {
		s->last = *r;
		return;
	}
	for (size_t q = 0; s->has_last && !prev->end && prev->section == r->section && q < s->n; q++)
		if (!s->held[q].set && s->places[q].section == prev->section && s->places[q].offset >= prev->address &&
		    s->places[q].offset < r->address) {
			s->held[q].file = prev->file;
			s->held[q].line = prev->line;
			s->held[q].set = 1;
		}
	s->last = *r;
	s->has_last = 1;
}

/* A sequence ended: the places it holds not answered yet get its row's file and line. */
static void answer(struct seq *s, const struct table *t, struct lk_srcpos *out)
{
	for (size_t q = 0; q < s->n; q++) {
		if (s->held[q].set && !out[q].file) {
			out[q].file = file_name(t, s->held[q].file);
			out[q].line = out[q].file ? s->held[q].line : 0;
		}
		s->held[q].set = 0;
	}
	s->has_last = 0;
}

/* The line program from the cursor to `end`: its sequences answer the places. */
static void run_program(struct cur *c, const struct unit *u, const struct header *h, struct table *t,
			const struct lk_dwarf_place *places, size_t n, struct lk_srcpos *out)
{
	/*
	 * bfd 2.40 starts each DWARF 5 sequence at file 0 (the unit's primary
	 * file), where the standard says 1: gcc 12 does not set the file for
	 * a unit's first function when it comes from a header (file 1), and
	 * ld then prints the primary file with the header's line. Said as ld
	 * says it, which is what the user compares with.
	 */
	const struct row start = { 0, 0, t->version >= 5 ? 0 : 1, 1, 0 };
	struct seq seq = { start, 0, places, n, lk_xcalloc(n ? n : 1, sizeof(*seq.held)) };
	struct row st = start;
	uint64_t op_index = 0;

	while (cur_left(c) && !c->bad) {
		unsigned op = (unsigned)cur_uint(c, 1);

		if (op >= h->opcode_base) {
			unsigned adj = op - h->opcode_base;
			uint64_t adv = adj / h->line_range;

			st.address += h->min_inst * ((op_index + adv) / h->max_ops);
			op_index = (op_index + adv) % h->max_ops;
			st.line += (unsigned)(h->line_base + (int)(adj % h->line_range));
			add_row(&seq, &st);
			continue;
		}
		switch (op) {
		case 0: {
			uint64_t len = cur_leb(c, 0);
			const unsigned char *next = c->p;
			unsigned ext;

			if (c->bad || !len || len > cur_left(c))
				goto out;
			next += len;
			ext = (unsigned)cur_uint(c, 1);
			if (ext == LNE_END_SEQUENCE) {
				st.end = 1;
				add_row(&seq, &st);
				answer(&seq, t, out);
				st = start;
				op_index = 0;
			} else if (ext == LNE_SET_ADDRESS) {
				uint64_t at = (uint64_t)(c->p - c->base);

				st.address = cur_uint(c, (unsigned)(len - 1 > 8 ? 8 : len - 1));
				st.section = address_section(u->in, at);
				op_index = 0;
			} else if (ext == LNE_DEFINE_FILE) {
				const char *name = cur_str(c);
				uint64_t dir = cur_leb(c, 0);

				if (name)
					add_file(t, name, dir);
			}
			c->p = next;	/* whatever the operands, the next opcode is where the length says */
			break;
		}
		case LNS_COPY:
			add_row(&seq, &st);
			break;
		case LNS_ADVANCE_PC: {
			uint64_t adv = cur_leb(c, 0);

			st.address += h->min_inst * ((op_index + adv) / h->max_ops);
			op_index = (op_index + adv) % h->max_ops;
			break;
		}
		case LNS_ADVANCE_LINE:
			st.line += (unsigned)cur_leb(c, 1);
			break;
		case LNS_SET_FILE:
			st.file = cur_leb(c, 0);
			break;
		case LNS_CONST_ADD_PC: {
			uint64_t adv = (255 - h->opcode_base) / h->line_range;

			st.address += h->min_inst * ((op_index + adv) / h->max_ops);
			op_index = (op_index + adv) % h->max_ops;
			break;
		}
		case LNS_FIXED_ADVANCE_PC:
			st.address += cur_uint(c, 2);
			op_index = 0;
			break;
		case LNS_SET_COLUMN:
			cur_leb(c, 0);
			break;
		case LNS_NEGATE_STMT:
		case LNS_SET_BASIC_BLOCK:
			break;
		default:	/* an opcode this reader does not know: skip its ULEB operands */
			for (unsigned i = 0; i < h->std_lengths[op]; i++)
				cur_leb(c, 0);
			break;
		}
	}
out:
	free(seq.held);
}

/*
 * The header of the line table at `offset` of .debug_line, of a unit
 * whose directory is `comp_dir`; `prog` at its program. The table's
 * length is taken from `*budget` (when not NULL): 0 when it is more.
 */
static int open_table(const struct lk_dwarf_input *in, uint64_t offset, const char *comp_dir, struct table *t,
		      struct header *h, struct unit *u, struct cur *prog, size_t *budget)
{
	struct cur c;
	uint64_t len, header_len;

	memset(t, 0, sizeof(*t));
	memset(h, 0, sizeof(*h));
	*u = (struct unit){ 0, 4, in->addr_size, in->big_endian, in, 0, 0, NULL };
	if (offset >= in->line.size)
		return 0;
	cur_init(&c, &in->line, (size_t)offset, in->big_endian);
	len = cur_uint(&c, 4);
	if (len == 0xffffffffu) {
		u->offset_size = 8;
		len = cur_uint(&c, 8);
	}
	if (c.bad || len > cur_left(&c) || len < 2 || (budget && len > *budget))
		return 0;
	if (budget)
		*budget -= len;
	c.end = c.p + len;	/* the unit's end: nothing of it reads past */
	u->version = (int)cur_uint(&c, 2);
	t->version = u->version;
	t->comp_dir = comp_dir;
	if (u->version < 2 || u->version > 5)
		return 0;
	if (u->version >= 5) {
		u->addr_size = (int)cur_uint(&c, 1);
		cur_uint(&c, 1);	/* segment selector size */
	}
	header_len = cur_uint(&c, (unsigned)u->offset_size);
	if (c.bad || header_len > cur_left(&c))
		return 0;
	*prog = c;
	prog->p = c.p + header_len;
	h->min_inst = (unsigned)cur_uint(&c, 1);
	h->max_ops = u->version >= 4 ? (unsigned)cur_uint(&c, 1) : 1;
	h->default_is_stmt = (int)cur_uint(&c, 1);
	h->line_base = (signed char)cur_uint(&c, 1);
	h->line_range = (unsigned)cur_uint(&c, 1);
	h->opcode_base = (unsigned)cur_uint(&c, 1);
	if (c.bad || !h->line_range || !h->max_ops || !h->opcode_base)
		return 0;
	for (unsigned i = 1; i < h->opcode_base; i++)
		h->std_lengths[i] = (unsigned char)cur_uint(&c, 1);
	return u->version >= 5 ? read_v5_entries(&c, u, t, 0) && read_v5_entries(&c, u, t, 1)
			       : read_v4_entries(&c, t);
}

static void table_release(struct table *t)
{
	free(t->dirs.items);
	free(t->files.items);
}

/*
 * Each compilation unit of .debug_info: `fn` gets it with its
 * abbreviations, its first DIE and the cursor after that DIE (to the
 * unit's end); it returns 1 to stop.
 */
typedef int (*unit_fn)(void *ctx, const struct unit *u, const struct abbrevs *t, const struct die *top,
		       struct cur *rest);

/*
 * The abbreviation tables read in one walk, each once: units that share a
 * table (at one offset) share its index. Together they read at most
 * ABBREV_READS times .debug_abbrev's bytes (`budget`): tables of distinct
 * units do not overlap in an object a compiler wrote, and a hostile one
 * whose units start tables at every offset of one long table would read
 * it once per unit.
 */
#define ABBREV_READS 2
/*
 * Attribute specs read per byte of .debug_info in one walk: an attribute
 * of DW_FORM_flag_present or DW_FORM_implicit_const takes no byte of the
 * DIE, so without a bound one abbreviation of a million such attributes
 * used by a million one-byte DIEs is 10^12 steps. gcc's and clang's DIEs
 * have fewer attributes than bytes.
 */
#define SPECS_PER_BYTE 8
struct tables {
	struct abbrevs *items;
	size_t nr, alloc;
	size_t budget;
};

static const struct abbrevs *unit_abbrevs(const struct lk_dwarf_input *in, struct tables *ts, uint64_t offset)
{
	for (size_t i = 0; i < ts->nr; i++)
		if (ts->items[i].offset == offset)
			return &ts->items[i];
	LK_GROW(ts->items, ts->nr + 1, ts->alloc);
	memset(&ts->items[ts->nr], 0, sizeof(ts->items[ts->nr]));
	read_abbrevs(in, offset, &ts->items[ts->nr], &ts->budget);
	return &ts->items[ts->nr++];
}

static void each_unit(const struct lk_dwarf_input *whole, unit_fn fn, void *ctx)
{
	struct lk_dwarf_input cut = *whole;
	const struct lk_dwarf_input *in = &cut;
	struct tables ts = { NULL, 0, 0, 0 };
	struct cur c;
	size_t units = 0, specs_left;
	int stop = 0;

	strings_cut(&cut.str);
	strings_cut(&cut.line_str);
	ts.budget = cut.abbrev.size <= SIZE_MAX / ABBREV_READS ? cut.abbrev.size * ABBREV_READS : SIZE_MAX;
	specs_left = cut.info.size <= (SIZE_MAX - 4096) / SPECS_PER_BYTE ? cut.info.size * SPECS_PER_BYTE + 4096 : SIZE_MAX;
	cur_init(&c, &in->info, 0, in->big_endian);
	while (!stop && cur_left(&c) && units++ < UNITS_MAX) {
		struct unit u = { 0, 4, in->addr_size, in->big_endian, in, 0, (uint64_t)(c.p - c.base), &specs_left };
		const struct abbrevs *t;
		struct die top;
		struct cur die;
		uint64_t len = cur_uint(&c, 4), abbrev_offset, code;
		int unit_type = 1;	/* DW_UT_compile */

		if (len == 0xffffffffu) {
			u.offset_size = 8;
			len = cur_uint(&c, 8);
		}
		if (c.bad || len > cur_left(&c) || len < 2)
			break;
		die = c;
		die.end = c.p + len;
		c.p += len;
		u.version = (int)cur_uint(&die, 2);
		if (u.version < 2 || u.version > 5)
			continue;
		if (u.version >= 5) {
			unit_type = (int)cur_uint(&die, 1);
			u.addr_size = (int)cur_uint(&die, 1);
			abbrev_offset = cur_uint(&die, (unsigned)u.offset_size);
			if (unit_type == 4 || unit_type == 5)	/* DW_UT_skeleton, DW_UT_split_compile: a dwo id */
				cur_uint(&die, 8);
			else if (unit_type == 2 || unit_type == 6)	/* type units: a signature and an offset */
				continue;
		} else {
			abbrev_offset = cur_uint(&die, (unsigned)u.offset_size);
			u.addr_size = (int)cur_uint(&die, 1);
		}
		if (die.bad || (u.addr_size != 4 && u.addr_size != 8))
			continue;
		t = unit_abbrevs(in, &ts, abbrev_offset);
		code = cur_leb(&die, 0);
		if (!die.bad && code && read_die(&die, &u, t, code, &top)) {
			u.str_offsets_base = top.str_offsets_base;
			stop = fn(ctx, &u, t, &top, &die);
		}
	}
	for (size_t i = 0; i < ts.nr; i++)
		free(ts.items[i].items);
	free(ts.items);
}

/*
 * `line_left`: the bytes of .debug_line the walk may still run, once its
 * size: the units of an object a compiler wrote each have a table of
 * their own, and a hostile object's units all naming one long table would
 * run it once per unit.
 */
struct lines_ctx {
	const struct lk_dwarf_place *places;
	size_t n;
	struct lk_srcpos *out;
	size_t line_left;
};

static int unit_lines(void *ctx, const struct unit *u, const struct abbrevs *abbrevs, const struct die *top,
		      struct cur *rest)
{
	struct lines_ctx *x = ctx;
	struct table t;
	struct header h;
	struct unit lu;
	struct cur prog;

	(void)abbrevs, (void)rest;
	memset(&t, 0, sizeof(t));
	if (top->has_stmt_list && open_table(u->in, top->stmt_list, top->comp_dir, &t, &h, &lu, &prog, &x->line_left))
		run_program(&prog, &lu, &h, &t, x->places, x->n, x->out);
	table_release(&t);
	for (size_t i = 0; i < x->n; i++)
		if (!x->out[i].file)
			return 0;
	return 1;
}

void lk_dwarf_lines(const struct lk_dwarf_input *in, const struct lk_dwarf_place *places, size_t n,
		    struct lk_srcpos *out)
{
	struct lines_ctx x = { places, n, out, in->line.size };

	memset(out, 0, n * sizeof(*out));
	if (n)
		each_unit(in, unit_lines, &x);
}

struct decl_ctx {
	const char *symbol;
	int definition;		/* the DIE of a definition (no DW_AT_declaration), else of a declaration */
	struct lk_srcpos *out;
};

/*
 * A declaration of the symbol (a DIE with DW_AT_declaration) or its
 * definition (one without), named so by its linkage name, or by its name
 * without one (C).
 */
static int unit_declaration(void *ctx, const struct unit *u, const struct abbrevs *abbrevs, const struct die *top,
			    struct cur *rest)
{
	struct decl_ctx *x = ctx;
	uint64_t named_decl = 0;	/* the unit offset of the declaration named so (a definition's specification) */

	while (cur_left(rest) && !rest->bad) {
		uint64_t at = (uint64_t)(rest->p - rest->base) - u->start, code = cur_leb(rest, 0);
		const char *name;
		struct die d;
		struct table t;
		struct header h;
		struct unit lu;
		struct cur prog;
		int named;

		if (!code)
			continue;	/* the end of a DIE's children */
		if (!read_die(rest, u, abbrevs, code, &d))
			return 0;
		name = d.linkage_name ? d.linkage_name : d.name;
		named = name && !strcmp(name, x->symbol);
		if (named && d.declaration && !named_decl)
			named_decl = at;
		/* C++: a definition after a declaration names it only by DW_AT_specification. */
		if (x->definition && !name && named_decl && d.has_specification && d.specification == named_decl)
			named = 1;
		if (d.declaration == x->definition || !d.decl_line || !named)
			continue;
		memset(&t, 0, sizeof(t));
		if (top->has_stmt_list && open_table(u->in, top->stmt_list, top->comp_dir, &t, &h, &lu, &prog, NULL)) {
			x->out->file = file_name(&t, d.decl_file);
			x->out->line = x->out->file ? (unsigned)d.decl_line : 0;
		}
		table_release(&t);
		return x->out->file != NULL;
	}
	return 0;
}

int lk_dwarf_declaration(const struct lk_dwarf_input *in, const char *symbol, struct lk_srcpos *out)
{
	struct decl_ctx x = { symbol, 0, out };

	memset(out, 0, sizeof(*out));
	each_unit(in, unit_declaration, &x);
	return out->file != NULL;
}

int lk_dwarf_definition(const struct lk_dwarf_input *in, const char *symbol, struct lk_srcpos *out)
{
	struct decl_ctx x = { symbol, 1, out };

	memset(out, 0, sizeof(*out));
	each_unit(in, unit_declaration, &x);
	return out->file != NULL;
}

void lk_srcpos_release(struct lk_srcpos *p)
{
	free(p->file);
	p->file = NULL;
	p->line = 0;
}
