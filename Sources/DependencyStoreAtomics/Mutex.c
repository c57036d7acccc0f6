#include "DependencyStoreMutex.h"

#if !defined(__APPLE__)
#include <pthread.h>

void dependency_store_mutex_initialize(void *mutex) {
    *(pthread_mutex_t *)mutex = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
}
#endif
