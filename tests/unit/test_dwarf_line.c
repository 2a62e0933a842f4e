/*
 * Source lines from DWARF (analyzer/model/dwarf_line.c, elf_dwarf.c): the
 * file:line of a relocation in a relocatable object (DWARF 4 and 5, gcc
 * -g; clang -g -O1), the declaration of an undefined function, a linked
 * program's address against addr2line (bfd) as the oracle; then its
 * sections cut short at every length and with every byte flipped:
 * whatever they then say, never a read out of bounds (the sanitizer
 * build checks that).
 * The fixtures are built at test time with the real cc and objcopy.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "dwarf_line.h"
#include "elf.h"
#include "testdir.h"

static char dir[64];

/* a.c: foo declared at line 1, called at line 5; each compiled as an object and linked, DWARF 4 and 5. */
#define DUMP(v) \
	"cc -g -gdwarf-" #v " -c a.c -o a" #v ".o && cc -g -gdwarf-" #v " a.c f.c -o a" #v " && " SECTIONS(v)
#define SECTIONS(v) \
	"for s in info abbrev line line_str str str_offsets; do objcopy --dump-section .debug_$s=a" #v ".$s a" #v " 2>/dev/null " \
	"; touch a" #v ".$s; done && nm a" #v " | awk '/ T main$/ {print $1}' >a" #v ".addr && " \
	"addr2line -e a" #v " 0x$(cat a" #v ".addr) >a" #v ".expect"
#define FILL \
	"printf '%s\\n' 'int foo(int);' '' 'int main(void)' '{' '\treturn foo(1);' '}' >a.c && " \
	"printf 'int foo(int x) { return x; }\\n' >f.c && clang -g -O1 -c a.c -o ac.o && " DUMP(4) " && " DUMP(5) \
	" && clang -g a.c f.c -o a6 && " SECTIONS(6)

static int setup(void **state)
{
	(void)state;
	test_dir_make(dir, sizeof(dir), "lk-dwarf", FILL);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	test_dir_remove(dir);
	return 0;
}

static char *path_of(const char *name)
{
	struct lk_buf b = LK_BUF_INIT;

	lk_buf_addf(&b, "%s/%s", dir, name);
	return lk_buf_detach(&b);
}

static char *slurp(const char *name, size_t *size)
{
	struct lk_buf b = LK_BUF_INIT;
	char *path = path_of(name);

	assert_int_equal(lk_buf_read_file(&b, path, 1 << 24), 0);
	free(path);
	*size = b.len;
	return lk_buf_detach(&b);
}

/* The reference to foo in the object `name`: its line, and foo's declaration. */
static void object_lines(const char *name)
{
	char *path, *want_call, *want_decl;
	struct lk_elf_syms syms = { 0 };
	struct lk_elf_gc gc = { 0 };
	struct lk_err err = LK_ERR_INIT;
	struct lk_dwarf_place place = { 0, 0 };
	struct lk_srcpos pos, decl;
	struct lk_elf_dwarf *dw;
	int found = 0;

	path = path_of(name);
	gc.fd = -1;
	gc.want = LK_ELF_GC_RELOCS;
	assert_int_equal(lk_elf_read_syms_gc(path, &syms, &gc, &err), 0);
	for (size_t i = 0; i < gc.relocs.nr && !found; i++) {
		const char *n = lk_elf_gc_symbol_name(&gc, gc.relocs.items[i].symbol);

		if (n && !strcmp(n, "foo")) {
			place.section = gc.relocs.items[i].section;
			place.offset = gc.relocs.items[i].offset;
			found = 1;
		}
	}
	assert_true(found);
	assert_non_null(dw = lk_elf_dwarf_open(&gc));
	lk_dwarf_lines(lk_elf_dwarf_input(dw), &place, 1, &pos);
	want_call = path_of("a.c");
	assert_non_null(pos.file);
	assert_string_equal(pos.file, want_call);
	assert_int_equal(pos.line, 5);
	want_decl = want_call;
	assert_int_equal(lk_dwarf_declaration(lk_elf_dwarf_input(dw), "foo", &decl), 1);
	assert_string_equal(decl.file, want_decl);
	assert_int_equal(decl.line, 1);
	lk_srcpos_release(&decl);
	/* main's definition: its declarator's line, not its brace's. */
	assert_int_equal(lk_dwarf_definition(lk_elf_dwarf_input(dw), "main", &decl), 1);
	assert_string_equal(decl.file, want_decl);
	assert_int_equal(decl.line, 3);
	lk_srcpos_release(&decl);
	assert_int_equal(lk_dwarf_declaration(lk_elf_dwarf_input(dw), "bar", &decl), 0);
	assert_null(decl.file);
	lk_srcpos_release(&pos);
	lk_srcpos_release(&decl);
	free(want_call);
	lk_elf_dwarf_close(dw);
	lk_elf_gc_release(&gc);
	lk_elf_syms_release(&syms);
	free(path);
}

static void test_dwarf_line_object_dwarf4(void **state)
{
	(void)state;
	object_lines("a4.o");
}

static void test_dwarf_line_object_dwarf5(void **state)
{
	(void)state;
	object_lines("a5.o");
}

/* clang's DWARF 5: names as indexes of .debug_str_offsets (DW_FORM_strx1); -O1 for the call's declaration DIE. */
static void test_dwarf_line_object_clang(void **state)
{
	(void)state;
	object_lines("ac.o");
}

struct linked {
	char *bytes[6];
	size_t size[6];
	struct lk_dwarf_input in;
	struct lk_dwarf_place place;
	char *expect;
};

static void linked_load(struct linked *l, int version)
{
	static const char *const names[6] = { "info", "abbrev", "line", "line_str", "str", "str_offsets" };
	struct lk_dwarf_bytes *field[6];
	char name[32];
	size_t n;
	char *addr;

	memset(l, 0, sizeof(*l));
	field[0] = &l->in.info, field[1] = &l->in.abbrev, field[2] = &l->in.line;
	field[3] = &l->in.line_str, field[4] = &l->in.str, field[5] = &l->in.str_offsets;
	for (int k = 0; k < 6; k++) {
		snprintf(name, sizeof(name), "a%d.%s", version, names[k]);
		l->bytes[k] = slurp(name, &l->size[k]);
		field[k]->p = (const unsigned char *)l->bytes[k];
		field[k]->size = l->size[k];
	}
	l->in.addr_size = 8;
	snprintf(name, sizeof(name), "a%d.addr", version);
	addr = slurp(name, &n);
	l->place.section = 0;
	l->place.offset = strtoull(addr, NULL, 16);
	free(addr);
	snprintf(name, sizeof(name), "a%d.expect", version);
	l->expect = slurp(name, &n);
	if (n && l->expect[n - 1] == '\n')
		l->expect[n - 1] = '\0';
}

static void linked_release(struct linked *l)
{
	for (int k = 0; k < 6; k++)
		free(l->bytes[k]);
	free(l->expect);
}

/* Looked up: whatever the bytes say, nothing read out of bounds (the sanitizer build checks it). */
static void check(const struct linked *l)
{
	struct lk_srcpos pos;

	lk_dwarf_lines(&l->in, &l->place, 1, &pos);
	lk_srcpos_release(&pos);
	lk_dwarf_declaration(&l->in, "foo", &pos);
	lk_srcpos_release(&pos);
	lk_dwarf_definition(&l->in, "main", &pos);
	lk_srcpos_release(&pos);
}

static void linked_lines(int version)
{
	struct linked l;
	struct lk_srcpos pos;
	char got[4096];

	linked_load(&l, version);
	lk_dwarf_lines(&l.in, &l.place, 1, &pos);
	assert_non_null(pos.file);
	snprintf(got, sizeof(got), "%s:%u", pos.file, pos.line);
	assert_string_equal(got, l.expect);
	lk_srcpos_release(&pos);
	/* Every section cut short at every length, and every byte of .debug_line and .debug_info flipped. */
	for (int k = 0; k < 6; k++) {
		struct lk_dwarf_bytes *field = k == 0 ? &l.in.info : k == 1 ? &l.in.abbrev : k == 2 ? &l.in.line :
					       k == 3 ? &l.in.line_str : k == 4 ? &l.in.str : &l.in.str_offsets;
		size_t full = field->size;

		for (size_t cut = 0; cut < full; cut++) {
			/* A copy of exactly `cut` bytes, so the sanitizer sees a read past it. */
			unsigned char *copy = malloc(cut ? cut : 1);

			memcpy(copy, l.bytes[k], cut);
			field->p = copy;
			field->size = cut;
			check(&l);
			free(copy);
		}
		field->p = (const unsigned char *)l.bytes[k];
		field->size = full;
		for (size_t i = 0; (k == 0 || k == 2) && i < full; i++) {
			l.bytes[k][i] ^= 0xff;
			check(&l);
			l.bytes[k][i] ^= 0xff;
		}
	}
	linked_release(&l);
}

static void test_dwarf_line_linked_dwarf4_and_corrupt(void **state)
{
	(void)state;
	linked_lines(4);
}

static void test_dwarf_line_linked_dwarf5_and_corrupt(void **state)
{
	(void)state;
	linked_lines(5);
}

/* No sections at all, or garbage in each: nothing found, nothing read out of bounds. */
static void test_dwarf_line_empty_and_garbage(void **state)
{
	static const unsigned char garbage[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x05, 0x00 };
	struct lk_dwarf_input in;
	struct lk_dwarf_place place = { 1, 0 };
	struct lk_srcpos pos;

	(void)state;
	memset(&in, 0, sizeof(in));
	in.addr_size = 8;
	lk_dwarf_lines(&in, &place, 1, &pos);
	assert_null(pos.file);
	in.info = in.abbrev = in.line = in.line_str = in.str = (struct lk_dwarf_bytes){ garbage, sizeof(garbage) };
	lk_dwarf_lines(&in, &place, 1, &pos);
	assert_null(pos.file);
	assert_int_equal(lk_dwarf_declaration(&in, "foo", &pos), 0);
}

/* clang's (DWARF 5, names by DW_FORM_strx1), file "a6". */
static void test_dwarf_line_linked_clang_and_corrupt(void **state)
{
	(void)state;
	linked_lines(6);
}

/* A buffer of bytes being built (the test's own sections). */
struct bytes {
	unsigned char *p;
	size_t n, alloc;
};

static void put(struct bytes *b, const void *v, size_t n)
{
	LK_GROW(b->p, b->n + n, b->alloc);
	memcpy(b->p + b->n, v, n);
	b->n += n;
}

static void put_uleb(struct bytes *b, uint64_t v)
{
	do {
		unsigned char c = (unsigned char)(v & 0x7f);

		v >>= 7;
		c |= v ? 0x80 : 0;
		put(b, &c, 1);
	} while (v);
}

static void put_u32(struct bytes *b, uint32_t v)
{
	unsigned char le[4] = { (unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
				(unsigned char)(v >> 24) };

	put(b, le, 4);
}

/*
 * `codes` abbreviations numbered down and `dies` one-byte DIEs of the last
 * one in `in` (its line table kept): the CPU seconds of the search, which
 * finds nothing.
 */
static double many_abbrevs_cpu(struct lk_dwarf_input *in, struct bytes *abbrev, struct bytes *info,
			       struct bytes *body, uint64_t codes, size_t dies)
{
	struct lk_srcpos pos;
	clock_t start;

	abbrev->n = info->n = body->n = 0;
	for (uint64_t code = codes; code >= 1; code--) {
		put_uleb(abbrev, code);
		put(abbrev, "\x34\x00\x00\x00", 4);
	}
	put(abbrev, "", 1);
	put(body, "\x04\x00" "\x00\x00\x00\x00" "\x08", 7);
	for (size_t i = 0; i < dies; i++)
		put(body, "\x01", 1);
	put_u32(info, (uint32_t)body->n);
	put(info, body->p, body->n);
	in->info = (struct lk_dwarf_bytes){ info->p, info->n };
	in->abbrev = (struct lk_dwarf_bytes){ abbrev->p, abbrev->n };
	start = clock();
	assert_int_equal(lk_dwarf_declaration(in, "foo", &pos), 0);
	return (double)(clock() - start) / CLOCKS_PER_SEC;
}

/*
 * The abbreviation table indexed once (issue #29): codes out of order and
 * a code defined twice (the first definition is the one, as a scan from
 * the start found it), and then 65,536 abbreviations numbered down with a
 * million one-byte DIEs of the last one: ten times a tenth's CPU at most
 * (issue #47: a ratio, not a CPU second; a scan of the table per DIE took 22).
 */
static void test_dwarf_line_abbrevs_indexed(void **state)
{
	static const unsigned char line_hdr[] = { 1, 1, 1, 0xfb, 14, 13, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1,
						  0, 'a', '.', 'h', 0, 0, 0, 0, 0 };
	struct bytes abbrev = { 0 }, info = { 0 }, line = { 0 }, body = { 0 };
	struct lk_dwarf_input in;
	struct lk_srcpos pos;
	double big, small;

	(void)state;
	/* code 5: a declaration; code 9: the unit; code 5 again, another tag: never used */
	put(&abbrev, "\x05\x2e\x00" "\x03\x08" "\x3c\x19" "\x3a\x0b" "\x3b\x0b" "\x00\x00", 13);
	put(&abbrev, "\x09\x11\x01" "\x10\x17" "\x1b\x08" "\x00\x00", 9);
	put(&abbrev, "\x05\x34\x00" "\x03\x08" "\x00\x00", 7);
	put(&abbrev, "", 1);
	put(&body, "\x04\x00" "\x00\x00\x00\x00" "\x08", 7);	/* version 4, abbreviations at 0, 8-byte addresses */
	put(&body, "\x09" "\x00\x00\x00\x00" "/src", 10);	/* the unit: its line table at 0, comp_dir "/src" */
	put(&body, "\x05" "foo" "\x00\x01\x07" "\x00", 8);	/* foo, declared in file 1 at line 7; the end of the children */
	put_u32(&info, (uint32_t)body.n);
	put(&info, body.p, body.n);
	put_u32(&line, (uint32_t)(2 + 4 + sizeof(line_hdr)));
	put(&line, "\x04\x00", 2);
	put_u32(&line, sizeof(line_hdr));
	put(&line, line_hdr, sizeof(line_hdr));
	memset(&in, 0, sizeof(in));
	in.addr_size = 8;
	in.info = (struct lk_dwarf_bytes){ info.p, info.n };
	in.abbrev = (struct lk_dwarf_bytes){ abbrev.p, abbrev.n };
	in.line = (struct lk_dwarf_bytes){ line.p, line.n };
	assert_int_equal(lk_dwarf_declaration(&in, "foo", &pos), 1);
	assert_string_equal(pos.file, "/src/a.h");
	assert_int_equal(pos.line, 7);
	lk_srcpos_release(&pos);

	big = many_abbrevs_cpu(&in, &abbrev, &info, &body, 65536, 1000001);
	small = many_abbrevs_cpu(&in, &abbrev, &info, &body, 6554, 100001);
	/* Ten times the table and the DIEs: under 30 times the CPU (a scan per DIE: a hundred). */
	assert_true(big < 30 * (small > 0.001 ? small : 0.001));
	free(abbrev.p);
	free(info.p);
	free(line.p);
	free(body.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dwarf_line_object_dwarf4),
		cmocka_unit_test(test_dwarf_line_object_dwarf5),
		cmocka_unit_test(test_dwarf_line_object_clang),
		cmocka_unit_test(test_dwarf_line_linked_dwarf4_and_corrupt),
		cmocka_unit_test(test_dwarf_line_linked_dwarf5_and_corrupt),
		cmocka_unit_test(test_dwarf_line_linked_clang_and_corrupt),
		cmocka_unit_test(test_dwarf_line_empty_and_garbage),
		cmocka_unit_test(test_dwarf_line_abbrevs_indexed),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
