#include "DependencyStoreAtomics.h"

// Plain functions in a C file, not inline ones in the header: SwiftPM compiles this file with
// the sanitizer the package is built with, so the thread sanitizer sees the acquire and the
// release and knows the published value is ordered.

void *dependency_store_load_acquire(void **address) {
    return __atomic_load_n(address, __ATOMIC_ACQUIRE);
}

void dependency_store_store_release(void **address, void *value) {
    __atomic_store_n(address, value, __ATOMIC_RELEASE);
}

void dependency_store_add(intptr_t *address, intptr_t delta) {
    __atomic_fetch_add(address, delta, __ATOMIC_RELAXED);
}
