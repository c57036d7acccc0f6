// The memory DependencyStore reads and writes without a lock, as C structs with `_Atomic`
// fields, and the atomic operations on it, which Swift's standard library does not offer before
// Synchronization (iOS 18, macOS 15). Swift code sees each struct with its size and alignment
// but cannot read or write an `_Atomic` field: it holds a pointer to the struct, and every access
// is one of the functions below, by field name, with its ordering in its name or its comment. No
// offset is computed by hand, and no such word is ever copied or read whole.
//
// What is here: a store's words read with no lock (`dependency_store_core_words`, see
// Sources/DependencyStore/Store/StoreCore.swift); the gate of a first read or a first build
// (`dependency_store_gate`, see Sources/DependencyStore/Waits/Gate.swift); what a thread or an
// `async` chain publishes to removals and to stores replacing their tables of shared instances
// (`dependency_store_chain_cells`, see Sources/DependencyStore/Removal/Tombstones.swift and
// Sources/DependencyStore/Store/Sharing.swift); and the removal epoch.
#ifndef DEPENDENCY_STORE_ATOMICS_H
#define DEPENDENCY_STORE_ATOMICS_H

#include <stdbool.h>
#include <stdint.h>

#include "DependencyStoreMutex.h"
#include "DependencyStoreThread.h"

// MARK: - Atomic words and addresses

/// A word read and written only through the functions below.
typedef struct dependency_store_atomic_word {
    _Atomic(intptr_t) value;
} dependency_store_atomic_word;

/// An address read and written only through the functions below.
typedef struct dependency_store_atomic_address {
    _Atomic(void *) value;
} dependency_store_atomic_address;

/// Reads `*cell` with no ordering: for a count or a filter whose exact moment does not matter.
/// Inline, as it is on the path of every build.
static inline intptr_t dependency_store_load_relaxed(dependency_store_atomic_word *_Nonnull cell) {
    return __c11_atomic_load(&cell->value, __ATOMIC_RELAXED);
}

/// Reads `*cell` with acquire ordering.
static inline intptr_t dependency_store_load_acquire_word(dependency_store_atomic_word *_Nonnull cell) {
    return __c11_atomic_load(&cell->value, __ATOMIC_ACQUIRE);
}

/// Writes `value` to `*cell` with no ordering.
static inline void dependency_store_store_relaxed(dependency_store_atomic_word *_Nonnull cell, intptr_t value) {
    __c11_atomic_store(&cell->value, value, __ATOMIC_RELAXED);
}

/// Writes `value` to `*cell` with release ordering.
static inline void dependency_store_store_release_word(dependency_store_atomic_word *_Nonnull cell, intptr_t value) {
    __c11_atomic_store(&cell->value, value, __ATOMIC_RELEASE);
}

/// Adds `delta` to `*cell`, with no ordering.
void dependency_store_add(dependency_store_atomic_word *_Nonnull cell, intptr_t delta);

/// Adds one to `*cell` with release ordering: a store's count of registrations, which a store
/// layered over it reads with `dependency_store_load_acquire_word` before it reads the filter of
/// registered types that the same lock set first (see Sharing.swift, `registrationGeneration`).
static inline void dependency_store_increment_release(dependency_store_atomic_word *_Nonnull cell) {
    __c11_atomic_fetch_add(&cell->value, 1, __ATOMIC_RELEASE);
}

/// Writes `desired` to `*cell` if it holds `expected`, sequentially consistent: how a store joins
/// or leaves its parent's list of children exactly once (see StoreCore.swift, `membership`).
static inline bool dependency_store_compare_exchange_word(
    dependency_store_atomic_word *_Nonnull cell, intptr_t expected, intptr_t desired) {
    return __c11_atomic_compare_exchange_strong(&cell->value, &expected, desired, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

/// Sets `bits` in `*cell`, with no ordering: a store's filters of the types it registers and
/// provides (see Sharing.swift, `keyFilter`), whose order the stores' locks give.
static inline void dependency_store_or(dependency_store_atomic_word *_Nonnull cell, intptr_t bits) {
    __c11_atomic_fetch_or(&cell->value, bits, __ATOMIC_RELAXED);
}

/// Reads `*cell` with acquire ordering: what was written before the matching release store is
/// visible after this load.
void *_Nullable dependency_store_load_acquire(dependency_store_atomic_address *_Nonnull cell);

/// Writes `value` to `*cell` with release ordering.
void dependency_store_store_release(dependency_store_atomic_address *_Nonnull cell, void *_Nullable value);

/// Reads `*cell`, sequentially consistent with every other such operation: what a resolve
/// through a layered store reads a parent's shared instances by, after publishing its hazard (see
/// Sources/DependencyStore/Store/Sharing.swift).
void *_Nullable dependency_store_load_seq_cst(dependency_store_atomic_address *_Nonnull cell);

/// Whether `*cell` holds an address, with no ordering: "has anything been published?".
static inline bool dependency_store_is_set_relaxed(dependency_store_atomic_address *_Nonnull cell) {
    return __c11_atomic_load(&cell->value, __ATOMIC_RELAXED) != 0;
}

/// Writes `value` to `*cell` and returns what was there, sequentially consistent.
void *_Nullable dependency_store_exchange(dependency_store_atomic_address *_Nonnull cell, void *_Nullable value);

/// A count of the process, zero at first, read and changed with no ordering (see
/// `dependency_store_add`).
dependency_store_atomic_word *_Nonnull dependency_store_make_counter(void);

// MARK: - A store's words read with no lock

/// The tables of shared instances of a store (see Sources/DependencyStore/Store/Sharing.swift):
/// the one it publishes, read with no lock, and the list of those it no longer publishes that a
/// reader may still have been reading when they went, which only the store's lock guards.
typedef struct dependency_store_shared_tables {
    dependency_store_atomic_address published;
    void *_Nullable retired;
} dependency_store_shared_tables;

static inline dependency_store_atomic_address *_Nonnull dependency_store_shared_published(
    dependency_store_shared_tables *_Nonnull tables) {
    return &tables->published;
}
/// The head of the list of retired tables. Read and written only under the store's lock.
static inline void *_Nullable *_Nonnull dependency_store_shared_retired(dependency_store_shared_tables *_Nonnull tables) {
    return &tables->retired;
}

/// How many words the filter of a store's registered types has.
#define DEPENDENCY_STORE_KEY_FILTER_WORDS 4

/// What a store's core keeps after its mutex, read with no lock; each field is described where
/// StoreCore.swift or Sharing.swift names it. All zero when the store is made (Swift's zero value of the struct).
typedef struct dependency_store_core_words {
    dependency_store_atomic_word stage_count;
    dependency_store_shared_tables shared_instances;
    dependency_store_atomic_word key_filter[DEPENDENCY_STORE_KEY_FILTER_WORDS];
    dependency_store_atomic_word stops_sharing;
    dependency_store_atomic_word registration_generation;
    dependency_store_atomic_word checked_ancestors_generation;
    dependency_store_atomic_word membership;
    dependency_store_atomic_word provided_filter;
} dependency_store_core_words;

/// The address of a field of a store's words, by its name: `dependency_store_core_stage_count(words)`.
#define DEPENDENCY_STORE_CORE_FIELD(type, field)                                                        \
    static inline type *_Nonnull dependency_store_core_##field(dependency_store_core_words *_Nonnull words) { \
        return &words->field;                                                                            \
    }

DEPENDENCY_STORE_CORE_FIELD(dependency_store_atomic_word, stage_count)
DEPENDENCY_STORE_CORE_FIELD(dependency_store_shared_tables, shared_instances)
DEPENDENCY_STORE_CORE_FIELD(dependency_store_atomic_word, stops_sharing)
DEPENDENCY_STORE_CORE_FIELD(dependency_store_atomic_word, registration_generation)
DEPENDENCY_STORE_CORE_FIELD(dependency_store_atomic_word, checked_ancestors_generation)
DEPENDENCY_STORE_CORE_FIELD(dependency_store_atomic_word, membership)
DEPENDENCY_STORE_CORE_FIELD(dependency_store_atomic_word, provided_filter)

/// The word `index` (0 to DEPENDENCY_STORE_KEY_FILTER_WORDS - 1) of the filter.
static inline dependency_store_atomic_word *_Nonnull dependency_store_core_key_filter(
    dependency_store_core_words *_Nonnull words, intptr_t index) {
    return &words->key_filter[index & (DEPENDENCY_STORE_KEY_FILTER_WORDS - 1)];
}

// MARK: - Gates

/// The gate of a property's first read or a registration's first build (see Gate.swift): the
/// mutex its one holder holds while it resolves, which a waiter sleeps on (so the platform knows
/// whom it waits for), the holder's identity, which the wait-for graph follows, and the address of
/// the value published once.
typedef struct dependency_store_gate {
    dependency_store_atomic_address owner;
    dependency_store_atomic_address published;
    dependency_store_mutex mutex;
} dependency_store_gate;

static inline void dependency_store_gate_init(dependency_store_gate *_Nonnull gate) {
    __c11_atomic_init(&gate->owner.value, 0);
    __c11_atomic_init(&gate->published.value, 0);
    dependency_store_mutex_init(&gate->mutex);
}

/// The holder's identity, or NULL: the gate is free, or its holder has taken the mutex and not yet
/// written its identity, or is leaving. With acquire ordering.
static inline void *_Nullable dependency_store_gate_owner(dependency_store_gate *_Nonnull gate) {
    return __c11_atomic_load(&gate->owner.value, __ATOMIC_ACQUIRE);
}

/// Enters the gate if it is free, as `owner`, and says whether it did. Inline: it is on the path
/// of every first read of a property.
static inline bool dependency_store_gate_try_enter(dependency_store_gate *_Nonnull gate, void *_Nonnull owner) {
    if (!dependency_store_mutex_trylock(&gate->mutex)) return false;
    __c11_atomic_store(&gate->owner.value, owner, __ATOMIC_RELEASE);
    return true;
}

/// Enters the gate as `owner`, sleeping on its mutex until the holder leaves.
void dependency_store_gate_enter_waiting(dependency_store_gate *_Nonnull gate, void *_Nonnull owner);

/// Leaves the gate, which this thread holds.
static inline void dependency_store_gate_leave(dependency_store_gate *_Nonnull gate) {
    __c11_atomic_store(&gate->owner.value, 0, __ATOMIC_RELEASE);
    dependency_store_mutex_unlock(&gate->mutex);
}

/// The published value's address, or NULL, with acquire ordering.
void *_Nullable dependency_store_gate_published(dependency_store_gate *_Nonnull gate);

/// Publishes `address`, with release ordering. Returns false, publishing nothing, when an address
/// was published already.
bool dependency_store_gate_publish(dependency_store_gate *_Nonnull gate, void *_Nonnull address);

/// Publishes `address` in place of the one published, with release ordering: a set of an injected
/// property. Only the holder calls this; the value at the old address stays alive, since a reader
/// may be copying it.
void dependency_store_gate_replace(dependency_store_gate *_Nonnull gate, void *_Nonnull address);

// MARK: - Removal epochs and what threads and chains publish (see Tombstones.swift)
//
// Every operation on a chain's cells and on the epoch is sequentially consistent with the
// others, except the relaxed reads below, which only ever ask "has anything changed?".

/// What a thread with a resolution stack, or a running `async` chain, publishes for others to
/// read: the removal epoch its chain began in (0 while none runs), and the address of the table of
/// shared instances it is reading (a thread's only). Claimed from one list of the process, which
/// only grows: a record is never freed, so a removal or a store walks the list with no lock.
typedef struct dependency_store_chain_cells {
    dependency_store_atomic_word chain;
    dependency_store_atomic_address hazard;
    dependency_store_atomic_word claimed;
    struct dependency_store_chain_cells *_Nullable next;
} dependency_store_chain_cells;

/// Claims a record, zeroed: one the list has that nobody claims, or a new one. No lock.
dependency_store_chain_cells *_Nonnull dependency_store_claim_cells(void);

/// Gives `cells` back to the list, for another thread or chain to claim. Its chain has ended and
/// its hazard is clear.
void dependency_store_unclaim_cells(dependency_store_chain_cells *_Nonnull cells);

static inline dependency_store_atomic_word *_Nonnull dependency_store_cells_chain(
    dependency_store_chain_cells *_Nonnull cells) {
    return &cells->chain;
}
static inline dependency_store_atomic_address *_Nonnull dependency_store_cells_hazard(
    dependency_store_chain_cells *_Nonnull cells) {
    return &cells->hazard;
}

/// Whether a chain that began before `epoch` runs, in any record.
bool dependency_store_chains_begun_before(intptr_t epoch);

/// The epoch the oldest running chain began in, or 0 when none runs.
intptr_t dependency_store_oldest_chain(void);

/// Whether any record's hazard holds `address`.
bool dependency_store_is_read(void *_Nonnull address);

/// The removal epoch: 1 before any removal; only `dependency_store_next_removal_epoch` changes it.
extern dependency_store_atomic_word dependency_store_removal_epoch;

/// How many tombstone batches are kept.
extern dependency_store_atomic_word dependency_store_tombstone_batches;

/// The removal epoch now, with no ordering: what a lookup records, under a store's lock.
static inline intptr_t dependency_store_current_removal_epoch(void) {
    return __c11_atomic_load(&dependency_store_removal_epoch.value, __ATOMIC_RELAXED);
}

/// The removal epoch now, sequentially consistent: what a store reads before it checks its types
/// against its ancestors' registrations and their removals (see Sharing.swift, `checkShadowing`),
/// so that a removal it does not see in that check has a later epoch.
static inline intptr_t dependency_store_removal_epoch_now(void) {
    return __c11_atomic_load(&dependency_store_removal_epoch.value, __ATOMIC_SEQ_CST);
}

/// Whether any tombstone batch is kept, with no ordering.
static inline bool dependency_store_tombstones_kept(void) {
    return __c11_atomic_load(&dependency_store_tombstone_batches.value, __ATOMIC_RELAXED) != 0;
}

/// Publishes in `*cell` the removal epoch a chain begins in, reading the epoch again until it
/// did not change meanwhile, and returns it. Inline: every build that begins a chain runs it, and
/// a call would cost as much as the rest.
static inline intptr_t dependency_store_begin_chain(dependency_store_atomic_word *_Nonnull cell) {
    intptr_t begun = __c11_atomic_load(&dependency_store_removal_epoch.value, __ATOMIC_SEQ_CST);
    for (;;) {
        __c11_atomic_store(&cell->value, begun, __ATOMIC_SEQ_CST);
        intptr_t now = __c11_atomic_load(&dependency_store_removal_epoch.value, __ATOMIC_SEQ_CST);
        if (now == begun) return begun;
        begun = now;
    }
}

/// Clears `*cell`: its chain has ended.
static inline void dependency_store_end_chain(dependency_store_atomic_word *_Nonnull cell) {
    __c11_atomic_store(&cell->value, 0, __ATOMIC_SEQ_CST);
}

/// The list of tombstone batches published for the miss path to read with no lock (see
/// Tombstones.swift, `BatchList`), or NULL.
dependency_store_atomic_address *_Nonnull dependency_store_tombstone_list(void);

/// Set by the end of a chain that found the batches' writer lock taken: the writer prunes for it.
dependency_store_atomic_word *_Nonnull dependency_store_prune_requested(void);

/// A sequentially consistent fence.
static inline void dependency_store_fence(void) {
    __c11_atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/// Lets another thread run: what a store whose replaced table of shared instances a reader still
/// reads does, with no lock held (see Sources/DependencyStore/Store/Sharing.swift).
void dependency_store_yield(void);

/// Takes the next removal epoch and returns it.
intptr_t dependency_store_next_removal_epoch(void);

/// Adds `delta` to the count of kept tombstone batches.
void dependency_store_add_tombstone_batches(intptr_t delta);

#endif
