// The atomic operations DependencyStore needs and Swift's standard library does not offer
// before Synchronization (iOS 18, macOS 15): publishing a pointer once, and reading it back
// without a lock (see Sources/DependencyStore/Injection/OnceCell.swift); and a counter a build
// reads without a lock (see DependencyStore.hasStagesInScope).
#ifndef DEPENDENCY_STORE_ATOMICS_H
#define DEPENDENCY_STORE_ATOMICS_H

#include <stdint.h>

#include "DependencyStoreEscape.h"
#include "DependencyStoreThread.h"

/// Reads `*address` with acquire ordering: what was written before the matching release store
/// is visible after this load.
void *_Nullable dependency_store_load_acquire(void *_Nullable *_Nonnull address);

/// Writes `value` to `*address` with release ordering.
void dependency_store_store_release(void *_Nullable *_Nonnull address, void *_Nullable value);

/// Reads `*address` with no ordering: for a count whose exact moment does not matter. Inline, as
/// it is on the path of every build; a relaxed load is an ordinary load on the platforms Swift
/// runs on, and every write goes through `dependency_store_add`, an atomic operation.
static inline intptr_t dependency_store_load_relaxed(intptr_t *_Nonnull address) {
    return __atomic_load_n(address, __ATOMIC_RELAXED);
}

/// Adds `delta` to `*address` atomically, with no ordering.
void dependency_store_add(intptr_t *_Nonnull address, intptr_t delta);

#endif
