#include "DependencyStoreAtomics.h"

#include <sched.h>

// Plain functions in a C file, not inline ones in the header: SwiftPM compiles this file with
// the sanitizer the package is built with, so the thread sanitizer sees the acquire and the
// release and knows the published value is ordered.

void *dependency_store_load_acquire(void **address) {
    return __atomic_load_n(address, __ATOMIC_ACQUIRE);
}

void dependency_store_store_release(void **address, void *value) {
    __atomic_store_n(address, value, __ATOMIC_RELEASE);
}

void *dependency_store_load_seq_cst(void **address) {
    return __atomic_load_n(address, __ATOMIC_SEQ_CST);
}

void *dependency_store_exchange(void **address, void *value) {
    return __atomic_exchange_n(address, value, __ATOMIC_SEQ_CST);
}

void dependency_store_add(intptr_t *address, intptr_t delta) {
    __atomic_fetch_add(address, delta, __ATOMIC_RELAXED);
}

intptr_t dependency_store_removal_epoch = 1;
intptr_t dependency_store_tombstone_batches = 0;

intptr_t dependency_store_chain_epoch(intptr_t *cell) {
    return __atomic_load_n(cell, __ATOMIC_SEQ_CST);
}

intptr_t dependency_store_next_removal_epoch(void) {
    return __atomic_add_fetch(&dependency_store_removal_epoch, 1, __ATOMIC_SEQ_CST);
}

void dependency_store_yield(void) {
    sched_yield();
}

void dependency_store_add_tombstone_batches(intptr_t delta) {
    __atomic_fetch_add(&dependency_store_tombstone_batches, delta, __ATOMIC_SEQ_CST);
}
