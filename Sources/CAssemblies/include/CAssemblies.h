// The few thread facts Swift's C modules don't expose on every platform (glibc keeps them behind
// _GNU_SOURCE): where the calling thread's stack lies, and its name; and a relaxed atomic word,
// which `Synchronization.Atomic` offers only from macOS 15 / iOS 18 on. Internal to Assemblies.
#ifndef C_ASSEMBLIES_H
#define C_ASSEMBLIES_H

#include <stddef.h>
#include <stdint.h>

/// Writes the lowest address and the size of the calling thread's stack; returns 0 on success.
int assemblies_current_stack(uintptr_t *lowest, size_t *size);

/// An address in the calling function's stack frame: the stack pointer, roughly.
uintptr_t assemblies_current_stack_address(void);

/// Writes the calling thread's name, NUL-terminated (empty when it has none or it can't be read).
void assemblies_current_thread_name(char *buffer, size_t size);

/// Reads `*word` atomically, with relaxed ordering: one plain load on every platform Swift runs on.
/// Inlined into the caller, so Swift code that calls it pays no call.
static inline intptr_t assemblies_load_relaxed(const intptr_t *word) {
    return __atomic_load_n(word, __ATOMIC_RELAXED);
}

/// Adds `delta` to `*word` atomically, with relaxed ordering.
static inline void assemblies_add_relaxed(intptr_t *word, intptr_t delta) {
    (void)__atomic_fetch_add(word, delta, __ATOMIC_RELAXED);
}

/// The next number in one process-wide sequence, from 1: the order in which reports of reads
/// start, on every thread and task.
uint64_t assemblies_next_resolution_sequence(void);

#endif
