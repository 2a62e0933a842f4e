/* The CMake, make and argv-file readers land from their own branch (h-wisrc); until then, said so. */
#include "source.h"

static int pending(const char *what, struct lk_err *err)
{
	lk_err_set(err, LK_E_USAGE, "whatif %s: not in this build yet", what);
	return -1;
}

int lk_whatif_from_cmake(const struct lk_record *base, const char *build_dir, const char *target,
			 struct lk_whatif_line *out, struct lk_err *err)
{
	(void)base, (void)build_dir, (void)target, (void)out;
	return pending("--cmake", err);
}

int lk_whatif_from_make(const struct lk_record *base, const char *file, const char *target,
			struct lk_whatif_line *out, struct lk_err *err)
{
	(void)base, (void)file, (void)target, (void)out;
	return pending("--line", err);
}

int lk_whatif_from_argv_file(const struct lk_record *base, const char *file,
			     struct lk_whatif_line *out, struct lk_err *err)
{
	(void)base, (void)file, (void)out;
	return pending("--argv-file", err);
}
