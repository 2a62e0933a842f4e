/* libFuzzer target: ELF and archive readers (identification, symbols, armap, members, every symbol; thin archives), bitcode's producer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bitcode.h"
#include "elf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct lk_elf_info info;
	struct lk_elf_syms syms = { 0 };
	struct lk_elf_archive ar;
	struct lk_err err = LK_ERR_INIT;
	FILE *fp;

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/lk-fuzz-elf-%ld", (long)getpid());
	fp = fopen(path, "wb");
	if (!fp)
		return 0;
	fwrite(data, 1, size, fp);
	fclose(fp);
	lk_elf_identify(path, &info);
	free(lk_bitcode_producer(path));
	if (lk_elf_read_syms(path, &syms, &err) < 0 && !err.msg[0])
		abort();
	lk_elf_syms_release(&syms);
	if (lk_elf_archive_open(path, &ar, &err) == 0) {
		size_t total = 0;

		/* What the replay does with the index: every name read to its end. */
		for (size_t i = 0; i < ar.armap.nr; i++)
			total += strlen(ar.armap.items[i].name) + ar.armap.items[i].offset;
		if (total == (size_t)-1)
			abort();
		for (size_t i = 0; i < ar.members.nr && i < 16; i++) {
			char *name = NULL;
			struct lk_elf_syms m = { 0 };

			lk_elf_archive_member(&ar, ar.members.items[i], &name, &m, &err);
			free(name);
			lk_elf_syms_release(&m);
		}
		/* The index's offsets, as the replay opens members by them: any number, no header there. */
		for (size_t i = 0; i < ar.armap.nr && i < 16; i++) {
			char *name = NULL;
			struct lk_elf_syms m = { 0 };

			lk_elf_archive_member(&ar, ar.armap.items[i].offset, &name, &m, &err);
			free(name);
			lk_elf_syms_release(&m);
		}
		lk_elf_archive_close(&ar);
	}
	{
		struct lk_elf_every ev;

		/* The explanations' reader: every symbol of every member, bounded (zeroed when it fails). */
		err.msg[0] = 0;
		if (lk_elf_read_every(path, &ev, &err) < 0 && !err.msg[0])
			abort();
		lk_elf_every_release(&ev);
	}
	lk_elf_info_release(&info);
	return 0;
}
