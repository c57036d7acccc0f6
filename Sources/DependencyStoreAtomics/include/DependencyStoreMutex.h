// The mutex of a lock, and of a gate (see Sources/DependencyStore/Support/Lock.swift and
// Sources/DependencyStore/Waits/Gate.swift): an os_unfair_lock on Apple platforms, one
// 32-bit word on a futex on Linux.
#ifndef DEPENDENCY_STORE_MUTEX_H
#define DEPENDENCY_STORE_MUTEX_H

#include <stdbool.h>
#include <stdint.h>

#if defined(__APPLE__)
// Darwin-only: the mutex is the platform's, which donates a waiter's priority to its owner.
#include <os/lock.h>

typedef os_unfair_lock dependency_store_mutex;

static inline void dependency_store_mutex_init(dependency_store_mutex *_Nonnull mutex) {
    *mutex = OS_UNFAIR_LOCK_INIT;
}
static inline void dependency_store_mutex_lock(dependency_store_mutex *_Nonnull mutex) { os_unfair_lock_lock(mutex); }
static inline bool dependency_store_mutex_trylock(dependency_store_mutex *_Nonnull mutex) {
    return os_unfair_lock_trylock(mutex);
}
static inline void dependency_store_mutex_unlock(dependency_store_mutex *_Nonnull mutex) {
    os_unfair_lock_unlock(mutex);
}
#else
/// One word, whose states are 0 free, 1 held, 2 held with a thread that may be asleep on it. The
/// three-state futex mutex (as in Drepper's "Futexes Are Tricky" and Rust's standard library): a
/// lock that finds the word free is one compare-and-exchange, an unlock one exchange, and only a
/// contended lock or an unlock that finds a sleeper calls the kernel. A pthread mutex costs about
/// 40 instructions more per lock and unlock, and a store takes its lock for every registration, a
/// lookup and its end. A field of a C struct, `_Atomic`: only these functions touch it.
typedef struct dependency_store_mutex {
    _Atomic(int32_t) state;
} dependency_store_mutex;

void dependency_store_mutex_lock_contended(dependency_store_mutex *_Nonnull mutex);
void dependency_store_mutex_wake(dependency_store_mutex *_Nonnull mutex);

/// Makes the mutex free.
static inline void dependency_store_mutex_init(dependency_store_mutex *_Nonnull mutex) {
    __c11_atomic_init(&mutex->state, 0);
}

/// Takes the mutex: acquire ordering, as a mutex's.
static inline void dependency_store_mutex_lock(dependency_store_mutex *_Nonnull mutex) {
    int32_t expected = 0;
    if (__builtin_expect(
            __c11_atomic_compare_exchange_strong(&mutex->state, &expected, 1, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED), 1)) {
        return;
    }
    dependency_store_mutex_lock_contended(mutex);
}

/// Takes the mutex if it is free, with acquire ordering, and says whether it did.
static inline bool dependency_store_mutex_trylock(dependency_store_mutex *_Nonnull mutex) {
    int32_t expected = 0;
    return __c11_atomic_compare_exchange_strong(&mutex->state, &expected, 1, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/// Releases the mutex: release ordering; wakes one sleeper if there may be one.
static inline void dependency_store_mutex_unlock(dependency_store_mutex *_Nonnull mutex) {
    if (__builtin_expect(__c11_atomic_exchange(&mutex->state, 0, __ATOMIC_RELEASE) == 2, 0)) {
        dependency_store_mutex_wake(mutex);
    }
}
#endif

#endif
