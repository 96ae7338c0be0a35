// Counts heap allocations by defining malloc and friends in the executable itself.
//
// On glibc Linux the executable comes first in the dynamic linker's symbol search, so the
// definitions below replace the C library's for the whole process (the Swift runtime included),
// with no LD_PRELOAD. They forward to glibc's own entry points (__libc_malloc, ...), so the
// allocator itself is unchanged. Counting is per thread and off unless a thread turns it on: the
// only cost when it is off is one thread-local load and a branch per call, the same for every
// variant being measured. Sizes are malloc_usable_size, so allocated and freed bytes balance.

#include "AllocationCounter.h"

#if defined(__linux__) && defined(__GLIBC__)

#include <errno.h>
#include <malloc.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);

static __thread bool counting;
static __thread AllocationCounts counts;

static inline void count_allocation(void *pointer) {
    if (counting && pointer != NULL) {
        counts.allocations += 1;
        counts.allocatedBytes += (int64_t)malloc_usable_size(pointer);
    }
}

static inline void count_free(void *pointer) {
    if (counting && pointer != NULL) {
        counts.frees += 1;
        counts.freedBytes += (int64_t)malloc_usable_size(pointer);
    }
}

void *malloc(size_t size) {
    void *pointer = __libc_malloc(size);
    count_allocation(pointer);
    return pointer;
}

void *calloc(size_t count, size_t size) {
    void *pointer = __libc_calloc(count, size);
    count_allocation(pointer);
    return pointer;
}

void *realloc(void *pointer, size_t size) {
    count_free(pointer);
    void *result = __libc_realloc(pointer, size);
    count_allocation(result);
    return result;
}

void free(void *pointer) {
    count_free(pointer);
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
    void *pointer = __libc_memalign(alignment, size);
    count_allocation(pointer);
    return pointer;
}

void *aligned_alloc(size_t alignment, size_t size) {
    return memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) {
        return EINVAL;
    }
    void *pointer = memalign(alignment, size);
    if (pointer == NULL) {
        return ENOMEM;
    }
    *result = pointer;
    return 0;
}

bool allocation_counter_is_available(void) {
    allocation_counter_start();
    void *volatile probe = malloc(24);
    free(probe);
    AllocationCounts probed = allocation_counter_stop();
    return probed.allocations == 1 && probed.frees == 1;
}

void allocation_counter_start(void) {
    counts = (AllocationCounts){0, 0, 0, 0};
    counting = true;
}

AllocationCounts allocation_counter_stop(void) {
    counting = false;
    return counts;
}

#else

bool allocation_counter_is_available(void) { return false; }
void allocation_counter_start(void) {}
AllocationCounts allocation_counter_stop(void) { return (AllocationCounts){0, 0, 0, 0}; }

#endif
