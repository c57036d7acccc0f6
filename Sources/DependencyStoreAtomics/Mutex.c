#include "DependencyStoreMutex.h"

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Waits, briefly, while the word says the lock is held and nobody sleeps: a store's lock is held
/// for a lookup or a registration, with no user code under it, so it is usually free again within
/// a few hundred cycles. Returns the state it saw last.
static int32_t spin(int32_t *word) {
    for (int round = 0; round < 100; round++) {
        int32_t state = __atomic_load_n(word, __ATOMIC_RELAXED);
        if (state != 1) {
            return state;
        }
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
        __asm__ volatile("yield");
#endif
    }
    return __atomic_load_n(word, __ATOMIC_RELAXED);
}

void dependency_store_word_lock_contended(int32_t *word) {
    int32_t state = spin(word);
    if (state == 0) {
        int32_t expected = 0;
        if (__atomic_compare_exchange_n(word, &expected, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
            return;
        }
        state = expected;
    }
    for (;;) {
        // Taken as contended (2): this thread cannot tell whether others sleep, so its unlock
        // wakes one, which at worst finds the word held again and sleeps once more.
        if (state != 2 && __atomic_exchange_n(word, 2, __ATOMIC_ACQUIRE) == 0) {
            return;
        }
        // Sleeps only while the word is still 2; a wake, or a change before the kernel looks,
        // returns at once, and the loop looks again.
        syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
        state = spin(word);
    }
}

void dependency_store_word_wake(int32_t *word) {
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
#endif
