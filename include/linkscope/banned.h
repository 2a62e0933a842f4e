/* Functions we never call: each has a bounded or growable replacement. */
#ifndef LINKSCOPE_BANNED_H
#define LINKSCOPE_BANNED_H

#define LK_BANNED(func) sorry_##func##_is_banned

#undef strcpy
#define strcpy(x, y) LK_BANNED(strcpy)
#undef strcat
#define strcat(x, y) LK_BANNED(strcat)
#undef sprintf
#define sprintf(...) LK_BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) LK_BANNED(vsprintf)
#undef strtok
#define strtok(x, y) LK_BANNED(strtok)
#undef gets
#define gets(x) LK_BANNED(gets)

#endif
