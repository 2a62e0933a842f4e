/*
 * An ELF input in memory (see elf.c): an object file, or an archive
 * member, read whole with one pread and opened with elf_memory(), as
 * mold reads its inputs whole (it maps them). Takes a descriptor, an
 * offset and a size; gives an Elf handle whose bytes the caller frees
 * after elf_end().
 *
 * Why whole: with ELF_C_READ libelf reads each piece it is asked for
 * (the ELF header, the section headers, each section's data, each ar
 * header) with its own pread. On the llvm line that was 124,500 calls
 * for one replay, most of 24 to 456 bytes, and most of its system-call
 * time (issue #30). Why not mapped: a file cut while mapped (a build
 * rewriting an archive in place while it is analysed) raises SIGBUS on
 * the next read of a page past the new end, and ending a replay well
 * there would need a signal handler and a jump out of libelf around every
 * read. Read into memory, a file cut before or while it is read comes
 * back short, which the callers check like any truncated input, and a
 * file cut afterwards changes nothing we hold. docs/decisions.md, "Inputs
 * read whole".
 */
#include <errno.h>
#include <stdint.h>
#include <libelf.h>
#include <stdlib.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/vec.h"
#include "elf_parts.h"

Elf *elfr_image_open(int fd, uint64_t off, size_t size, char **bytes, size_t *got)
{
	size_t done = 0;
	Elf *e;

	*bytes = lk_xmalloc(size ? size : 1);
	/* One call; more only when the kernel returns less (a signal, or over 2 GiB). */
	while (done < size) {
		ssize_t n = pread(fd, *bytes + done, size - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;	/* the file ends sooner: cut before or while it was read */
		done += (size_t)n;
	}
	*got = done;
	elf_version(EV_CURRENT);
	e = elf_memory(*bytes, done);
	if (!e) {
		free(*bytes);
		*bytes = NULL;
	}
	return e;
}
