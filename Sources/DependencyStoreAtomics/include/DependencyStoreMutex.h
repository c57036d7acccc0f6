// How a pthread mutex is made where pthread is the platform mutex (Linux; Apple platforms use
// os_unfair_lock, which needs nothing): see Sources/DependencyStore/Support/Lock.swift.
#ifndef DEPENDENCY_STORE_MUTEX_H
#define DEPENDENCY_STORE_MUTEX_H

/// Initialises the `pthread_mutex_t` at `mutex` as a default mutex, with the static initialiser:
/// what POSIX specifies as equivalent to `pthread_mutex_init(mutex, NULL)` without its error
/// checks, about 40 instructions fewer. Every store, injected property and cached slot makes one.
/// The type is not named here, so that this module's header does not bring in <pthread.h>.
void dependency_store_mutex_initialize(void *_Nonnull mutex);

#endif
