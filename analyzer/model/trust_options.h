/* The allow-list's driver options, one by one (trust_options.c); trust.c applies them. */
#ifndef LINKSCOPE_TRUST_OPTIONS_H
#define LINKSCOPE_TRUST_OPTIONS_H

/*
 * A value an allowed option may take: letters, digits and "_.+-:=" only,
 * never empty (no path, no comma, no shell word, no option file).
 */
int lk_trust_plain_value(const char *v);

/* Is the driver word `a` ("-fPIC", "-march=x86-64", "-shared") an allowed option with an allowed value? */
int lk_trust_codegen_option(const char *a);

#endif
