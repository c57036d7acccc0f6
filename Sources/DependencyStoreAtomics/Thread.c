#include "DependencyStoreThread.h"

_Thread_local void *dependency_store_thread_stack = 0;
