// Where a thread finds its resolution stack (see Sources/DependencyStore/Resolution/
// ResolutionStack.swift): a C thread-local, which every resolve reads. Reading it is a load or
// two, where `pthread_getspecific` is a call of about 20 instructions, after the check that its
// key was made. The stack's pthread key stays, only to release the stack when the thread exits.
#ifndef DEPENDENCY_STORE_THREAD_H
#define DEPENDENCY_STORE_THREAD_H

/// This thread's stack, retained, or NULL while the thread has none.
extern _Thread_local void *_Nullable dependency_store_thread_stack;

static inline void *_Nullable dependency_store_current_stack(void) {
    return dependency_store_thread_stack;
}

static inline void dependency_store_set_current_stack(void *_Nullable stack) {
    dependency_store_thread_stack = stack;
}

#endif
