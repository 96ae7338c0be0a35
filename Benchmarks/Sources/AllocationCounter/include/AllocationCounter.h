#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

/// What the calling thread allocated and freed while counting was on.
typedef struct {
    int64_t allocations;
    int64_t allocatedBytes;
    int64_t frees;
    int64_t freedBytes;
} AllocationCounts;

/// Whether this build replaces malloc and friends (glibc Linux); elsewhere counting reports nothing.
bool allocation_counter_is_available(void);

/// Starts counting the calling thread's allocations from zero.
void allocation_counter_start(void);

/// Stops counting on the calling thread and returns what was counted since the start.
AllocationCounts allocation_counter_stop(void);

#endif
