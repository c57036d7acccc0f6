#include "DependencyStoreEscape.h"

#include <setjmp.h>

bool dependency_store_run_escapable(void (*body)(void *context), void *context, void **point) {
    // volatile: read after a longjmp, so it must not live only in a register setjmp saved early.
    void *volatile previous = *point;
    jmp_buf buffer;
    if (setjmp(buffer) == 0) {
        *point = &buffer;
        body(context);
        *point = previous;
        return true;
    }
    *point = previous;
    return false;
}

void dependency_store_escape(void *point) {
    longjmp(*(jmp_buf *)point, 1);
}
