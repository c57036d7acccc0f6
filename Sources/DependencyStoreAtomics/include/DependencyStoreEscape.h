// A way out of a synchronous stretch of code that cannot return: what `verify()` uses when a
// factory it runs asks for something missing. The factory waits for a value nobody can give it, so
// verification leaves it, abandoning its frames, and goes on (see
// Sources/DependencyStore/Verification/Escape.swift for the rules that make this safe).
#ifndef DEPENDENCY_STORE_ESCAPE_H
#define DEPENDENCY_STORE_ESCAPE_H

#include <stdbool.h>

/// Calls `body(context)`, with `*point` set to a way back here for as long as it runs. Returns true
/// when `body` returned, false when it left through `dependency_store_escape(*point)`. `*point` is
/// set back to what it was before, either way.
bool dependency_store_run_escapable(
    void (*_Nonnull body)(void *_Nullable context), void *_Nullable context, void *_Nullable *_Nonnull point);

/// Leaves the innermost `dependency_store_run_escapable` whose point this is, on this thread.
__attribute__((noreturn)) void dependency_store_escape(void *_Nonnull point);

#endif
