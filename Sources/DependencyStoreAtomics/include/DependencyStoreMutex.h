// The mutex of a lock on Linux (Apple platforms use os_unfair_lock): one 32-bit word on a futex.
// See Sources/DependencyStore/Support/Lock.swift.
#ifndef DEPENDENCY_STORE_MUTEX_H
#define DEPENDENCY_STORE_MUTEX_H

#if defined(__linux__)
#include <stdbool.h>
#include <stdint.h>

/// The word's states: 0 free, 1 held, 2 held with a thread that may be asleep on it. The
/// three-state futex mutex (as in Drepper's "Futexes Are Tricky" and Rust's standard library): a
/// lock that finds the word free is one compare-and-exchange, an unlock one exchange, and only a
/// contended lock or an unlock that finds a sleeper calls the kernel. A pthread mutex costs about
/// 40 instructions more per lock and unlock, and a store takes its lock for every registration, a
/// lookup and its end.
void dependency_store_word_lock_contended(int32_t *_Nonnull word);
void dependency_store_word_wake(int32_t *_Nonnull word);

/// Takes the lock: acquire ordering, as a mutex's.
static inline void dependency_store_word_lock(int32_t *_Nonnull word) {
    int32_t expected = 0;
    if (__builtin_expect(
            __atomic_compare_exchange_n(word, &expected, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED), 1)) {
        return;
    }
    dependency_store_word_lock_contended(word);
}

/// Releases the lock: release ordering; wakes one sleeper if there may be one.
static inline void dependency_store_word_unlock(int32_t *_Nonnull word) {
    if (__builtin_expect(__atomic_exchange_n(word, 0, __ATOMIC_RELEASE) == 2, 0)) {
        dependency_store_word_wake(word);
    }
}
#endif

#endif
