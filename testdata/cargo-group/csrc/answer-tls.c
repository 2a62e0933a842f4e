/*
 * A member that references __tls_get_addr: a thread-local variable of
 * another object, accessed with the general-dynamic model (-fPIC). glibc
 * defines __tls_get_addr in the dynamic loader only, which libc.so brings
 * AS_NEEDED at rustc's -lc; on x86_64 the link still works because Rust's
 * std references __tls_get_addr before that -lc, so the loader is kept.
 */
extern __thread int lk_counter;
int lk_answer_part(void);
int lk_answer(void) { lk_counter++; return lk_answer_part() * 2 + lk_counter - 1; }
