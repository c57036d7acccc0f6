#include "DependencyStoreMutex.h"

#if !defined(__APPLE__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

static int32_t spin(dependency_store_mutex *mutex) {
    for (int round = 0; round < 100; round++) {
        int32_t state = __c11_atomic_load(&mutex->state, __ATOMIC_RELAXED);
        if (state != 1) {
            return state;
        }
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
        __asm__ volatile("yield");
#endif
    }
    return __c11_atomic_load(&mutex->state, __ATOMIC_RELAXED);
}

void dependency_store_mutex_lock_contended(dependency_store_mutex *mutex) {
    int32_t state = spin(mutex);
    if (state == 0) {
        int32_t expected = 0;
        if (__c11_atomic_compare_exchange_strong(&mutex->state, &expected, 1, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
            return;
        }
        state = expected;
    }
    for (;;) {
        // Taken as contended (2): this thread cannot tell whether others sleep, so its unlock
        // wakes one, which at worst finds the word held again and sleeps once more.
        if (state != 2 && __c11_atomic_exchange(&mutex->state, 2, __ATOMIC_ACQUIRE) == 0) {
            return;
        }
        // Sleeps only while the word is still 2; a wake, or a change before the kernel looks,
        // returns at once, and the loop looks again.
        syscall(SYS_futex, &mutex->state, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
        state = spin(mutex);
    }
}

void dependency_store_mutex_wake(dependency_store_mutex *mutex) {
    syscall(SYS_futex, &mutex->state, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
#endif
