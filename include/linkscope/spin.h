#ifndef LINKSCOPE_SPIN_H
#define LINKSCOPE_SPIN_H

/*
 * lk_spin_hint: one turn of a spin-wait loop, telling the CPU that this
 * thread waits (analyzer/replay/ahead.c spins a few microseconds before it
 * sleeps on a condition). x86's pause lets the other hyperthread run and
 * leaves the loop without a memory-order flush. On aarch64, isb rather
 * than yield: yield is a no-op on the Neoverse and Cortex-X cores (the
 * GB10 runner's), so ahead.c's 20,000 turns would end long before a member
 * is read; isb waits for the pipeline to drain, about as long as a pause
 * (Rust's core::hint::spin_loop made the same choice).
 * Elsewhere only a compiler barrier, so the loop still rereads memory.
 */
static inline void lk_spin_hint(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("isb" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

#endif
