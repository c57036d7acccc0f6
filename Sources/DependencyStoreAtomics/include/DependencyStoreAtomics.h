// The two atomic operations DependencyStore needs and Swift's standard library does not offer
// before Synchronization (iOS 18, macOS 15): publishing a pointer once, and reading it back
// without a lock. See Sources/DependencyStore/Internal/OnceCell.swift.
#ifndef DEPENDENCY_STORE_ATOMICS_H
#define DEPENDENCY_STORE_ATOMICS_H

/// Reads `*address` with acquire ordering: what was written before the matching release store
/// is visible after this load.
void *_Nullable dependency_store_load_acquire(void *_Nullable *_Nonnull address);

/// Writes `value` to `*address` with release ordering.
void dependency_store_store_release(void *_Nullable *_Nonnull address, void *_Nullable value);

#endif
