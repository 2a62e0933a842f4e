/* `linkscope index`: the provider index built ahead of time (indexcmd.c). */
#ifndef ANALYZER_INDEXCMD_H
#define ANALYZER_INDEXCMD_H

/* argv[0] is "index". Returns the exit status; prints its summary on stdout. */
int lk_index_main(int argc, char **argv);

#endif
