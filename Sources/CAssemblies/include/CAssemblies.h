// The few thread facts Swift's C modules don't expose on every platform (glibc keeps them behind
// _GNU_SOURCE): where the calling thread's stack lies, and its name. Internal to Assemblies.
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

#endif
