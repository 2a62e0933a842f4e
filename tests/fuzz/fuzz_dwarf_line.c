/*
 * libFuzzer target: the DWARF line reader (analyzer/model/dwarf_line.c),
 * over .debug_info, .debug_abbrev, .debug_line, .debug_line_str,
 * .debug_str and .debug_str_offsets as an object gives them. Input: a flags byte (bit 0 big
 * endian, bit 1 32-bit addresses, bit 2 3-byte section lengths), then each
 * section as a 2-byte (or 3-byte) little endian length and its bytes (cut
 * to what is left), then the places looked up, 9 bytes each (a section
 * byte and an 8-byte offset). The 3-byte lengths are for the large
 * inputs of issue #29 (sections of up to 16 MiB, make fuzz's -max_len):
 * a reader superlinear in them is a libFuzzer timeout.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf_line.h"

#define PLACES_MAX 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lk_dwarf_input in;
	struct lk_dwarf_bytes *sections[6];
	struct lk_dwarf_place places[PLACES_MAX];
	struct lk_srcpos out[PLACES_MAX], decl;
	/* One relocation of .debug_line, so set_address meets a section too. */
	static const struct lk_dwarf_addr_reloc reloc = { 0x2b, 1 };
	size_t at = 1, n = 0;
	unsigned width;

	if (size < 1)
		return 0;
	memset(&in, 0, sizeof(in));
	in.big_endian = data[0] & 1;
	in.addr_size = data[0] & 2 ? 4 : 8;
	width = data[0] & 4 ? 3 : 2;
	in.addr_relocs = &reloc;
	in.naddr_relocs = 1;
	sections[0] = &in.info, sections[1] = &in.abbrev, sections[2] = &in.line;
	sections[3] = &in.line_str, sections[4] = &in.str, sections[5] = &in.str_offsets;
	for (int k = 0; k < 6; k++) {
		size_t len = 0;

		if (at + width <= size) {
			for (unsigned b = 0; b < width; b++)
				len |= (size_t)data[at + b] << (8 * b);
			at += width;
		}
		if (len > size - at)
			len = size - at;
		/* Each section in a buffer of its own size: a read past it is the sanitizer's to see. */
		if (len) {
			unsigned char *copy = malloc(len);

			memcpy(copy, data + at, len);
			sections[k]->p = copy;
			sections[k]->size = len;
		}
		at += len;
	}
	while (n < PLACES_MAX && at + 9 <= size) {
		places[n].section = data[at];
		memcpy(&places[n].offset, data + at + 1, 8);
		at += 9;
		n++;
	}
	if (!n) {
		places[0].section = 0, places[0].offset = 0x1129;
		places[1].section = 1, places[1].offset = 0;
		n = 2;
	}
	lk_dwarf_lines(&in, places, n, out);
	for (size_t i = 0; i < n; i++) {
		/* A line is said only with its file. */
		if (!out[i].file && out[i].line)
			abort();
		lk_srcpos_release(&out[i]);
	}
	if (lk_dwarf_declaration(&in, "foo", &decl) != (decl.file != NULL))
		abort();
	lk_srcpos_release(&decl);
	if (lk_dwarf_definition(&in, "main", &decl) != (decl.file != NULL))
		abort();
	lk_srcpos_release(&decl);
	for (int k = 0; k < 6; k++)
		free((void *)sections[k]->p);
	return 0;
}
