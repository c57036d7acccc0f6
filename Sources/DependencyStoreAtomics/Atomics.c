#include "DependencyStoreAtomics.h"

#include <sched.h>
#include <stdlib.h>

// Plain functions in a C file, not inline ones in the header: SwiftPM compiles this file with
// the sanitizer the package is built with, so the thread sanitizer sees the acquire and the
// release and knows the published value is ordered.

void *dependency_store_load_acquire(dependency_store_atomic_address *cell) {
    return __c11_atomic_load(&cell->value, __ATOMIC_ACQUIRE);
}

void dependency_store_store_release(dependency_store_atomic_address *cell, void *value) {
    __c11_atomic_store(&cell->value, value, __ATOMIC_RELEASE);
}

void *dependency_store_load_seq_cst(dependency_store_atomic_address *cell) {
    return __c11_atomic_load(&cell->value, __ATOMIC_SEQ_CST);
}

void *dependency_store_exchange(dependency_store_atomic_address *cell, void *value) {
    return __c11_atomic_exchange(&cell->value, value, __ATOMIC_SEQ_CST);
}

void dependency_store_add(dependency_store_atomic_word *cell, intptr_t delta) {
    __c11_atomic_fetch_add(&cell->value, delta, __ATOMIC_RELAXED);
}

dependency_store_atomic_word *dependency_store_make_counter(void) {
    dependency_store_atomic_word *counter = malloc(sizeof(dependency_store_atomic_word));
    if (counter == NULL) abort();
    __c11_atomic_init(&counter->value, 0);
    return counter;
}

// MARK: - Gates

void dependency_store_gate_enter_waiting(dependency_store_gate *gate, void *owner) {
    dependency_store_mutex_lock(&gate->mutex);
    __c11_atomic_store(&gate->owner.value, owner, __ATOMIC_RELEASE);
}

void *dependency_store_gate_published(dependency_store_gate *gate) {
    return __c11_atomic_load(&gate->published.value, __ATOMIC_ACQUIRE);
}

bool dependency_store_gate_publish(dependency_store_gate *gate, void *address) {
    // Only the gate's holder publishes, so nothing else writes the word meanwhile.
    if (__c11_atomic_load(&gate->published.value, __ATOMIC_RELAXED) != 0) return false;
    __c11_atomic_store(&gate->published.value, address, __ATOMIC_RELEASE);
    return true;
}

void dependency_store_gate_replace(dependency_store_gate *gate, void *address) {
    __c11_atomic_store(&gate->published.value, address, __ATOMIC_RELEASE);
}

// MARK: - Removal epochs, chains and hazards

dependency_store_atomic_word dependency_store_removal_epoch = {1};

static dependency_store_atomic_address tombstone_list = {0};
static dependency_store_atomic_word prune_requested = {0};

dependency_store_atomic_address *dependency_store_tombstone_list(void) {
    return &tombstone_list;
}

dependency_store_atomic_word *dependency_store_prune_requested(void) {
    return &prune_requested;
}
dependency_store_atomic_word dependency_store_tombstone_batches = {0};

/// The list of every record ever claimed, the latest first. Records are pushed, never removed.
/// Pushed and read sequentially consistent: a chain that publishes its epoch in a new record
/// after the push, and a removal that reads the list after it took its epoch, are ordered as
/// the chain's and the removal's own sequentially consistent operations are, so a removal that
/// the chain's second read of the epoch did not see finds the record.
static _Atomic(dependency_store_chain_cells *) all_cells = NULL;
/// The record given back last: where a claim looks first, before it walks the list.
static _Atomic(dependency_store_chain_cells *) last_unclaimed = NULL;

static bool claim(dependency_store_chain_cells *cells) {
    intptr_t expected = 0;
    return __c11_atomic_compare_exchange_strong(&cells->claimed.value, &expected, 1, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

dependency_store_chain_cells *dependency_store_claim_cells(void) {
    dependency_store_chain_cells *hint = __c11_atomic_load(&last_unclaimed, __ATOMIC_ACQUIRE);
    if (hint != NULL && claim(hint)) return hint;
    for (dependency_store_chain_cells *cells = __c11_atomic_load(&all_cells, __ATOMIC_SEQ_CST); cells != NULL;
         cells = cells->next) {
        if (__c11_atomic_load(&cells->claimed.value, __ATOMIC_RELAXED) == 0 && claim(cells)) return cells;
    }
    dependency_store_chain_cells *cells = malloc(sizeof(dependency_store_chain_cells));
    if (cells == NULL) abort();
    __c11_atomic_init(&cells->chain.value, 0);
    __c11_atomic_init(&cells->hazard.value, 0);
    __c11_atomic_init(&cells->claimed.value, 1);
    dependency_store_chain_cells *head = __c11_atomic_load(&all_cells, __ATOMIC_RELAXED);
    do {
        cells->next = head;
    } while (!__c11_atomic_compare_exchange_weak(&all_cells, &head, cells, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
    return cells;
}

void dependency_store_unclaim_cells(dependency_store_chain_cells *cells) {
    __c11_atomic_store(&cells->chain.value, 0, __ATOMIC_SEQ_CST);
    __c11_atomic_store(&cells->hazard.value, 0, __ATOMIC_SEQ_CST);
    __c11_atomic_store(&cells->claimed.value, 0, __ATOMIC_RELEASE);
    __c11_atomic_store(&last_unclaimed, cells, __ATOMIC_RELEASE);
}

bool dependency_store_chains_begun_before(intptr_t epoch) {
    for (dependency_store_chain_cells *cells = __c11_atomic_load(&all_cells, __ATOMIC_SEQ_CST); cells != NULL;
         cells = cells->next) {
        intptr_t begun = __c11_atomic_load(&cells->chain.value, __ATOMIC_SEQ_CST);
        if (begun != 0 && begun < epoch) return true;
    }
    return false;
}

intptr_t dependency_store_oldest_chain(void) {
    intptr_t oldest = 0;
    for (dependency_store_chain_cells *cells = __c11_atomic_load(&all_cells, __ATOMIC_SEQ_CST); cells != NULL;
         cells = cells->next) {
        intptr_t begun = __c11_atomic_load(&cells->chain.value, __ATOMIC_SEQ_CST);
        if (begun != 0 && (oldest == 0 || begun < oldest)) oldest = begun;
    }
    return oldest;
}

bool dependency_store_is_read(void *address) {
    for (dependency_store_chain_cells *cells = __c11_atomic_load(&all_cells, __ATOMIC_SEQ_CST); cells != NULL;
         cells = cells->next) {
        if (__c11_atomic_load(&cells->hazard.value, __ATOMIC_SEQ_CST) == address) return true;
    }
    return false;
}

intptr_t dependency_store_next_removal_epoch(void) {
    return __c11_atomic_fetch_add(&dependency_store_removal_epoch.value, 1, __ATOMIC_SEQ_CST) + 1;
}

void dependency_store_yield(void) {
    sched_yield();
}

void dependency_store_add_tombstone_batches(intptr_t delta) {
    __c11_atomic_fetch_add(&dependency_store_tombstone_batches.value, delta, __ATOMIC_SEQ_CST);
}
