/*
 * Inputs -> who made an LLVM bitcode file: the producer string of its
 * IDENTIFICATION block ("LLVM14.0.6", LLVM 3.8 and later write it first),
 * read as llvm/lib/Bitcode/Reader/BitcodeReader.cpp's
 * readIdentificationBlock reads it, with just enough of the bitstream
 * format (llvm/Bitstream/BitstreamReader.h): fixed and VBR fields, one
 * block entered, its abbreviations defined and applied. Every read is
 * bounded by the file's first 64 KiB.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/file.h"
#include "bitcode.h"

#define IDENTIFICATION_BLOCK_ID 13
#define IDENTIFICATION_CODE_STRING 1
#define MAX_ABBREVS 8
#define MAX_OPS 8

struct bits {
	const unsigned char *p;
	size_t nbits, at;
	int bad;
};

static uint64_t fixed(struct bits *b, unsigned width)
{
	uint64_t v = 0;

	if (width > 64 || b->at + width > b->nbits) {
		b->bad = 1;
		return 0;
	}
	for (unsigned i = 0; i < width; i++, b->at++)
		v |= (uint64_t)((b->p[b->at / 8] >> (b->at % 8)) & 1) << i;
	return v;
}

static uint64_t vbr(struct bits *b, unsigned width)
{
	uint64_t v = 0, piece, high = (uint64_t)1 << (width - 1);

	for (unsigned shift = 0; !b->bad && shift < 64; shift += width - 1) {
		piece = fixed(b, width);
		v |= (piece & (high - 1)) << shift;
		if (!(piece & high))
			return v;
	}
	b->bad = 1;
	return 0;
}

static void align32(struct bits *b)
{
	b->at = (b->at + 31) & ~(size_t)31;
	if (b->at > b->nbits)
		b->bad = 1;
}

enum { OP_LITERAL, OP_FIXED = 1, OP_VBR = 2, OP_ARRAY = 3, OP_CHAR6 = 4, OP_BLOB = 5 };
struct op {
	int enc;
	uint64_t value;		/* a literal's value, a fixed or VBR field's width */
};
struct abbrev {
	struct op ops[MAX_OPS];
	size_t nr;
};

static int char6(uint64_t v)
{
	static const char table[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._";

	return table[v & 63];
}

static uint64_t scalar(struct bits *b, const struct op *op)
{
	switch (op->enc) {
	case OP_LITERAL: return op->value;
	case OP_FIXED: return fixed(b, (unsigned)op->value);
	case OP_VBR: return op->value >= 2 ? vbr(b, (unsigned)op->value) : (b->bad = 1, 0);
	case OP_CHAR6: return (uint64_t)char6(fixed(b, 6));
	}
	b->bad = 1;
	return 0;
}

static void define_abbrev(struct bits *b, struct abbrev *a)
{
	uint64_t n = vbr(b, 5);

	a->nr = 0;
	for (uint64_t i = 0; i < n && !b->bad; i++) {
		struct op op = { OP_LITERAL, 0 };

		if (fixed(b, 1)) {
			op.value = vbr(b, 8);
		} else {
			op.enc = (int)fixed(b, 3);
			if (op.enc == OP_FIXED || op.enc == OP_VBR)
				op.value = vbr(b, 5);
		}
		if (a->nr == MAX_OPS)
			b->bad = 1;
		else
			a->ops[a->nr++] = op;
	}
}

/* One record: its code, and its operands as characters into `text` (the producer's are). */
static uint64_t record(struct bits *b, unsigned id, const struct abbrev *abbrevs, size_t nabbrevs,
		       struct lk_buf *text)
{
	const struct abbrev *a;
	uint64_t code;

	lk_buf_reset(text);
	if (id == 3) {	/* UNABBREV_RECORD */
		uint64_t n;

		code = vbr(b, 6);
		n = vbr(b, 6);
		for (uint64_t i = 0; i < n && !b->bad && i < 256; i++)
			lk_buf_addch(text, (char)vbr(b, 6));
		return code;
	}
	if (id < 4 || id - 4 >= nabbrevs) {
		b->bad = 1;
		return 0;
	}
	a = &abbrevs[id - 4];
	code = a->nr ? scalar(b, &a->ops[0]) : 0;
	for (size_t i = 1; i < a->nr && !b->bad; i++) {
		if (a->ops[i].enc == OP_ARRAY && i + 1 < a->nr) {
			uint64_t n = vbr(b, 6);

			for (uint64_t k = 0; k < n && !b->bad && k < 256; k++)
				lk_buf_addch(text, (char)scalar(b, &a->ops[i + 1]));
			i++;
		} else if (a->ops[i].enc == OP_BLOB) {
			b->bad = 1;	/* no blob in an identification block */
		} else {
			lk_buf_addch(text, (char)scalar(b, &a->ops[i]));
		}
	}
	return code;
}

static char *read_identification(struct bits *b)
{
	struct abbrev abbrevs[MAX_ABBREVS];
	struct lk_buf text = LK_BUF_INIT;
	size_t nabbrevs = 0;
	unsigned width;

	if (fixed(b, 2) != 1 || vbr(b, 8) != IDENTIFICATION_BLOCK_ID)	/* ENTER_SUBBLOCK */
		return NULL;
	width = (unsigned)vbr(b, 4);
	align32(b);
	fixed(b, 32);	/* the block's length in words */
	while (!b->bad && width && width <= 32) {
		unsigned id = (unsigned)fixed(b, width);

		if (id == 0 || id == 1)	/* END_BLOCK, or a block inside: no producer string */
			break;
		if (id == 2) {
			if (nabbrevs == MAX_ABBREVS)
				break;
			define_abbrev(b, &abbrevs[nabbrevs++]);
			continue;
		}
		if (record(b, id, abbrevs, nabbrevs, &text) == IDENTIFICATION_CODE_STRING && !b->bad && text.len)
			return lk_buf_detach(&text);
	}
	lk_buf_release(&text);
	return NULL;
}

char *lk_bitcode_producer(const char *path)
{
	unsigned char data[65536];
	struct bits b = { data, 0, 0, 0 };
	int fd = lk_file_open_regular(path, NULL);
	ssize_t n;
	size_t start = 0;
	char *producer;

	if (fd < 0)
		return NULL;
	n = pread(fd, data, sizeof(data), 0);
	close(fd);
	if (n < 8)
		return NULL;
	if (!memcmp(data, "\xde\xc0\x17\x0b", 4) && n >= 20) {
		/* The wrapper Apple's tools write: the bitcode's offset is its third word. */
		start = (size_t)data[8] | (size_t)data[9] << 8 | (size_t)data[10] << 16 | (size_t)data[11] << 24;
		if (start > (size_t)n - 4)
			return NULL;
	}
	if (memcmp(data + start, "BC\xc0\xde", 4))
		return NULL;
	b.p = data + start + 4;
	b.nbits = ((size_t)n - start - 4) * 8;
	producer = read_identification(&b);
	return producer;
}
