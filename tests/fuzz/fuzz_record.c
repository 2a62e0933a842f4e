/* libFuzzer target: the record reader on arbitrary bytes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "linkscope/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct lk_record s;
	struct lk_err err = LK_ERR_INIT;
	FILE *fp;

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/lk-fuzz-record-%ld.json", (long)getpid());
	fp = fopen(path, "wb");
	if (!fp)
		return 0;
	fwrite(data, 1, size, fp);
	fclose(fp);
	if (lk_record_load(path, &s, &err) == 0)
		lk_record_release(&s);
	else if (!err.msg[0])
		abort();	/* every failure names its cause */
	return 0;
}
