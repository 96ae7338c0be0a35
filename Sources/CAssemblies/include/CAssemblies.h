// The few thread facts Swift's C modules don't expose on every platform (glibc keeps them behind
// _GNU_SOURCE): where the calling thread's stack lies, and its name; thread-local pointers, which
// Swift can't declare; a relaxed atomic word, which `Synchronization.Atomic` offers only from
// macOS 15 / iOS 18 on; the running task, asked of the concurrency runtime without the
// unspecialized generic wrapper Swift offers; and a retain that fails once an object's deinit has
// begun, which Swift offers only through a `weak` reference. Internal to Assemblies.
#ifndef C_ASSEMBLIES_H
#define C_ASSEMBLIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#pragma clang assume_nonnull begin

/// Writes the lowest address and the size of the calling thread's stack; returns 0 on success.
int assemblies_current_stack(uintptr_t *lowest, size_t *size);

/// An address in the calling function's stack frame: the stack pointer, roughly.
uintptr_t assemblies_current_stack_address(void);

/// The frame address of the function this is inlined into: where the stack is now, one register
/// read (and the real stack under AddressSanitizer, whose fake stack holds locals).
static inline uintptr_t assemblies_frame_address(void) {
    return (uintptr_t)__builtin_frame_address(0);
}

/// Writes the calling thread's name, NUL-terminated (empty when it has none or it can't be read), as
/// UTF-8 bytes.
void assemblies_current_thread_name(void *buffer, size_t size);

/// Reads `*word` atomically, with relaxed ordering: one plain load on every platform Swift runs on.
/// Inlined into the caller, so Swift code that calls it pays no call.
static inline intptr_t assemblies_load_relaxed(const intptr_t *word) {
    return __atomic_load_n(word, __ATOMIC_RELAXED);
}

/// Adds `delta` to `*word` atomically, with relaxed ordering.
static inline void assemblies_add_relaxed(intptr_t *word, intptr_t delta) {
    (void)__atomic_fetch_add(word, delta, __ATOMIC_RELAXED);
}

/// The calling thread's current resolver (Swift's `Resolver.current`), or NULL before the thread's
/// first read. A C11 thread-local: reading it, inlined into Swift code, is one load from the thread
/// pointer where the library is linked into the program, and a `__tls_get_addr` call where it is a
/// shared library — against a call of `pthread_getspecific`.
extern _Thread_local void *_Nullable assemblies_current_resolver;

/// Reads ``assemblies_current_resolver``.
static inline void *_Nullable assemblies_resolver(void) {
    return assemblies_current_resolver;
}

/// Sets ``assemblies_current_resolver``.
static inline void assemblies_set_resolver(void *_Nullable resolver) {
    assemblies_current_resolver = resolver;
}

/// The calling thread's own resolver — the one its first read made, whatever resolver is installed
/// over it since — or NULL before the thread's first read.
extern _Thread_local void *_Nullable assemblies_own_resolver;

/// Reads ``assemblies_own_resolver``.
static inline void *_Nullable assemblies_thread_resolver(void) {
    return assemblies_own_resolver;
}

/// Sets ``assemblies_own_resolver``.
static inline void assemblies_set_thread_resolver(void *_Nullable resolver) {
    assemblies_own_resolver = resolver;
}

/// The wiring check's lane the calling thread runs reads for (Swift's `WiringLane`), or NULL: a
/// misuse on such a thread is reported to the check instead of stopping the program.
extern _Thread_local void *_Nullable assemblies_current_lane;

/// Reads ``assemblies_current_lane``.
static inline void *_Nullable assemblies_lane(void) {
    return assemblies_current_lane;
}

/// Sets ``assemblies_current_lane``.
static inline void assemblies_set_lane(void *_Nullable lane) {
    assemblies_current_lane = lane;
}

/// The Swift concurrency runtime's entry point (ABI since Swift 5.5 on every platform): the current
/// task, not retained, or NULL. Declared with the Swift calling convention it is defined with.
extern void *_Nullable swift_task_getCurrent(void) __attribute__((swiftcall));

/// The address of the task running on the calling thread, or 0 outside a task: the concurrency
/// runtime's `swift_task_getCurrent`, which `withUnsafeCurrentTask` calls too, called directly from
/// the caller. The task is not retained, and a number holds no reference to it.
static inline uintptr_t assemblies_running_task(void) {
    return (uintptr_t)swift_task_getCurrent();
}

/// Takes a strong reference to the Swift object at `object` and returns true, unless its last strong
/// reference has gone (its `deinit` has begun): then returns false and changes nothing. The Swift
/// runtime's `swift_tryRetain`, what loading a `weak` reference calls. `object` must be a native
/// Swift object whose memory is allocated.
bool assemblies_try_retain(void *object);

/// Takes the lock `word` stands for (0 when it is free), waiting while another thread holds it: a
/// compare-and-swap when nobody holds it, and on contention the system's wait for an address (a
/// futex on Linux, `os_unfair_lock` on Apple platforms; elsewhere, yielding the processor until the
/// lock is free). Acquire ordering.
void assemblies_lock_word(uint32_t *word);

/// Whether a thread has found the lock `word` stands for held and waits for it (or is about to),
/// for tests; always false on Apple platforms, where `os_unfair_lock` doesn't say.
bool assemblies_lock_word_is_awaited(const uint32_t *word);

/// Lets go of the lock `word` stands for, which the calling thread holds, and wakes a thread waiting
/// for it, if any. Release ordering.
void assemblies_unlock_word(uint32_t *word);

/// The next number of a process-wide sequence, from 1: families' numbers.
uint64_t assemblies_next_family_number(void);

/// The next number in one process-wide sequence, from 1: the order in which reports of reads
/// start, on every thread and task.
uint64_t assemblies_next_resolution_sequence(void);

/// The next number of another process-wide sequence, from 1: resolvers' numbers.
uint64_t assemblies_next_resolver_number(void);

/// The next number of a third process-wide sequence, from 1: the numbers threads and tasks are
/// named by in messages, in the order they first resolved something.
uint64_t assemblies_next_thread_number(void);

#pragma clang assume_nonnull end

#endif
