// The atomic operations DependencyStore needs and Swift's standard library does not offer
// before Synchronization (iOS 18, macOS 15): publishing a pointer once, and reading it back
// without a lock (see Sources/DependencyStore/Injection/OnceCell.swift); a counter a build
// reads without a lock (see DependencyStore.hasStagesInScope); the removal epoch that a
// resolution chain and an unload order themselves by (see
// Sources/DependencyStore/Resolution/Tombstones.swift); and the table of instances a store
// publishes for layered stores, with the hazards its readers protect it by (see
// Sources/DependencyStore/Store/SharedInstances.swift).
#ifndef DEPENDENCY_STORE_ATOMICS_H
#define DEPENDENCY_STORE_ATOMICS_H

#include <stdbool.h>
#include <stdint.h>

#include "DependencyStoreMutex.h"
#include "DependencyStoreThread.h"

/// Reads `*address` with acquire ordering: what was written before the matching release store
/// is visible after this load.
void *_Nullable dependency_store_load_acquire(void *_Nullable *_Nonnull address);

/// Writes `value` to `*address` with release ordering.
void dependency_store_store_release(void *_Nullable *_Nonnull address, void *_Nullable value);

/// Reads `*address`, sequentially consistent with every other such operation: what a resolve
/// through a layered store reads a parent's shared instances by, after publishing its chain (see
/// Sources/DependencyStore/Store/SharedInstances.swift).
void *_Nullable dependency_store_load_seq_cst(void *_Nullable *_Nonnull address);

/// Writes `value` to `*address` and returns what was there, sequentially consistent.
void *_Nullable dependency_store_exchange(void *_Nullable *_Nonnull address, void *_Nullable value);

/// Writes `desired` to `*address` if it holds `expected`, with acquire ordering when it does:
/// how a thread takes a gate (see Sources/DependencyStore/Resolution/Gate.swift). Inline, as it is
/// on the path of every first read of an injected property.
static inline bool dependency_store_compare_exchange(
    void *_Nullable *_Nonnull address, void *_Nullable expected, void *_Nullable desired) {
    return __atomic_compare_exchange_n(address, &expected, desired, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/// Writes `value` to `*address` and returns what was there, with release ordering: how a thread
/// leaves a gate. Inline, for the same reason.
static inline void *_Nullable dependency_store_exchange_release(
    void *_Nullable *_Nonnull address, void *_Nullable value) {
    return __atomic_exchange_n(address, value, __ATOMIC_RELEASE);
}

/// Reads `*address` with no ordering: for a count whose exact moment does not matter. Inline, as
/// it is on the path of every build; a relaxed load is an ordinary load on the platforms Swift
/// runs on, and every write goes through `dependency_store_add`, an atomic operation.
static inline intptr_t dependency_store_load_relaxed(intptr_t *_Nonnull address) {
    return __atomic_load_n(address, __ATOMIC_RELAXED);
}

/// Adds `delta` to `*address` atomically, with no ordering.
void dependency_store_add(intptr_t *_Nonnull address, intptr_t delta);

/// Adds one to `*address` with release ordering: a store's count of registrations, which a store
/// layered over it reads with `dependency_store_load_acquire_word` before it reads the filter of
/// registered types that the same lock set first (see StoreCore.swift, `registrationGeneration`).
static inline void dependency_store_increment_release(intptr_t *_Nonnull address) {
    __atomic_fetch_add(address, 1, __ATOMIC_RELEASE);
}

/// Reads `*address` with acquire ordering.
static inline intptr_t dependency_store_load_acquire_word(intptr_t *_Nonnull address) {
    return __atomic_load_n(address, __ATOMIC_ACQUIRE);
}

/// Writes `value` to `*address` with no ordering.
static inline void dependency_store_store_relaxed(intptr_t *_Nonnull address, intptr_t value) {
    __atomic_store_n(address, value, __ATOMIC_RELAXED);
}

/// Writes `value` to `*address` with release ordering.
static inline void dependency_store_store_release_word(intptr_t *_Nonnull address, intptr_t value) {
    __atomic_store_n(address, value, __ATOMIC_RELEASE);
}

/// Writes `desired` to `*address` if it holds `expected`, sequentially consistent: how a store
/// joins or leaves its parent's list of children exactly once (see StoreCore.swift, `membership`).
static inline bool dependency_store_compare_exchange_word(
    intptr_t *_Nonnull address, intptr_t expected, intptr_t desired) {
    return __atomic_compare_exchange_n(address, &expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

// Sets `bits` in the word at `address`, relaxed: a store's filter of the types it registers (see
// StoreCore.swift, `keyFilter`), whose order the stores' locks give.
static inline void dependency_store_or(intptr_t *_Nonnull address, intptr_t bits) {
    __atomic_fetch_or(address, bits, __ATOMIC_RELAXED);
}

// The removal epoch and the chains that order themselves by it (see Tombstones.swift). Every
// operation on a chain's cell and on the epoch is sequentially consistent with the others, except
// the two relaxed reads below, which only ever ask "has anything changed?".

/// The removal epoch: 1 before any removal; only `dependency_store_next_removal_epoch` changes it.
extern intptr_t dependency_store_removal_epoch;

/// How many tombstone batches are kept.
extern intptr_t dependency_store_tombstone_batches;

/// The removal epoch now, with no ordering: what a lookup records, under a store's lock.
static inline intptr_t dependency_store_current_removal_epoch(void) {
    return __atomic_load_n(&dependency_store_removal_epoch, __ATOMIC_RELAXED);
}

/// The removal epoch now, sequentially consistent: what a store reads before it checks its types
/// against its ancestors' registrations and their removals (see StoreCore.swift, `checkShadowing`),
/// so that a removal it does not see in that check has a later epoch.
static inline intptr_t dependency_store_removal_epoch_now(void) {
    return __atomic_load_n(&dependency_store_removal_epoch, __ATOMIC_SEQ_CST);
}

/// Whether any tombstone batch is kept, with no ordering.
static inline intptr_t dependency_store_tombstones_kept(void) {
    return __atomic_load_n(&dependency_store_tombstone_batches, __ATOMIC_RELAXED) != 0;
}

/// Publishes in `*cell` the removal epoch a chain begins in, reading the epoch again until it
/// did not change meanwhile, and returns it. Inline: every build that begins a chain runs it, and
/// a call would cost as much as the rest.
static inline intptr_t dependency_store_begin_chain(intptr_t *_Nonnull cell) {
    intptr_t begun = __atomic_load_n(&dependency_store_removal_epoch, __ATOMIC_SEQ_CST);
    for (;;) {
        __atomic_store_n(cell, begun, __ATOMIC_SEQ_CST);
        intptr_t now = __atomic_load_n(&dependency_store_removal_epoch, __ATOMIC_SEQ_CST);
        if (now == begun) return begun;
        begun = now;
    }
}

/// Clears `*cell`: its chain has ended.
static inline void dependency_store_end_chain(intptr_t *_Nonnull cell) {
    __atomic_store_n(cell, 0, __ATOMIC_SEQ_CST);
}

/// Lets another thread run: what a store taking down a table of shared instances does while a
/// reader still reads it (see Sources/DependencyStore/Store/SharedInstances.swift).
void dependency_store_yield(void);

/// Reads a chain's cell.
intptr_t dependency_store_chain_epoch(intptr_t *_Nonnull cell);

/// Takes the next removal epoch and returns it.
intptr_t dependency_store_next_removal_epoch(void);

/// Adds `delta` to the count of kept tombstone batches.
void dependency_store_add_tombstone_batches(intptr_t delta);

#endif
