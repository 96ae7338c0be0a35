#define _GNU_SOURCE
#include "CAssemblies.h"

#include <pthread.h>

#if defined(__APPLE__)
#include <os/lock.h>
#else
#include <sched.h>
#endif
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

int assemblies_current_stack(uintptr_t *lowest, size_t *size) {
#if defined(__APPLE__)
    pthread_t self = pthread_self();
    uintptr_t top = (uintptr_t)pthread_get_stackaddr_np(self);
    *size = pthread_get_stacksize_np(self);
    *lowest = top - *size;
    return 0;
#elif defined(__linux__)
#if defined(__GLIBC__)
    if (getpid() == (pid_t)syscall(SYS_gettid)) {
        // The main thread: glibc's pthread_getattr_np would read /proc/self/maps to find its stack,
        // which costs hundreds of microseconds — in the first read of a program. Its stack is instead
        // RLIMIT_STACK below the top of its mapping, which lies just above __libc_stack_end: above that
        // are the program's arguments and environment. Counting them as up to 256 KiB keeps the
        // estimate within the real stack (the lowest address estimated is the real one or above).
        extern void *__libc_stack_end;
        struct rlimit limit;
        const uintptr_t margin = 256 << 10;
        if (getrlimit(RLIMIT_STACK, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur > 2 * margin) {
            uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
            uintptr_t top = ((uintptr_t)__libc_stack_end + page - 1) & ~(page - 1);
            *lowest = top - (uintptr_t)limit.rlim_cur + margin;
            *size = (size_t)limit.rlim_cur - margin;
            return 0;
        }
    }
#endif
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return -1;
    void *address = NULL;
    size_t stackSize = 0;
    int result = pthread_attr_getstack(&attributes, &address, &stackSize);
    pthread_attr_destroy(&attributes);
    if (result != 0 || address == NULL) return -1;
    *lowest = (uintptr_t)address;
    *size = stackSize;
    return 0;
#else
    (void)lowest;
    (void)size;
    return -1;
#endif
}

__attribute__((noinline)) uintptr_t assemblies_current_stack_address(void) {
    return (uintptr_t)__builtin_frame_address(0);
}

void assemblies_current_thread_name(void *buffer, size_t size) {
    if (size == 0) return;
    char *name = buffer;
    name[0] = 0;
#if defined(__APPLE__) || defined(__GLIBC__)
    if (pthread_getname_np(pthread_self(), name, size) != 0) name[0] = 0;
#endif
}

_Thread_local void *assemblies_current_resolver = NULL;

_Thread_local void *assemblies_own_resolver = NULL;

_Thread_local void *assemblies_current_lane = NULL;

// The Swift runtime's entry point, with the C calling convention (exported on every platform, and
// stable ABI on Apple platforms): the object, retained, or NULL when its deinit has begun.
extern void *_Nullable swift_tryRetain(void *object);

bool assemblies_try_retain(void *object) {
    return swift_tryRetain(object) != NULL;
}

#if defined(__APPLE__)

// An os_unfair_lock is a 32-bit word, 0 when free (OS_UNFAIR_LOCK_INIT).
void assemblies_lock_word(uint32_t *word) {
    os_unfair_lock_lock((os_unfair_lock_t)word);
}

void assemblies_unlock_word(uint32_t *word) {
    os_unfair_lock_unlock((os_unfair_lock_t)word);
}

bool assemblies_lock_word_is_awaited(const uint32_t *word) {
    (void)word;
    return false;
}

#else

// 0: free; 1: held; 2: held, and a thread may be waiting (it sleeps on the word's address).
void assemblies_lock_word(uint32_t *word) {
    uint32_t seen = 0;
    if (__atomic_compare_exchange_n(word, &seen, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return;
    if (seen != 2) seen = __atomic_exchange_n(word, 2, __ATOMIC_ACQUIRE);
    while (seen != 0) {
#if defined(__linux__)
        syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
#else
        sched_yield();
#endif
        seen = __atomic_exchange_n(word, 2, __ATOMIC_ACQUIRE);
    }
}

bool assemblies_lock_word_is_awaited(const uint32_t *word) {
    return __atomic_load_n(word, __ATOMIC_RELAXED) == 2;
}

void assemblies_unlock_word(uint32_t *word) {
    if (__atomic_exchange_n(word, 0, __ATOMIC_RELEASE) == 2) {
#if defined(__linux__)
        syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
#endif
    }
}

#endif

// The process-wide sequences, side by side in one struct, and so in one page: the first assembly
// of a process writes it (its family's number), and a thread's first read, which numbers its
// resolver and its thread, then finds the page written and this code mapped, instead of faulting
// both in.
static struct {
    uint64_t family;
    uint64_t resolver;
    uint64_t thread;
    uint64_t resolution;
} last_numbers;

uint64_t assemblies_next_family_number(void) {
    return __atomic_add_fetch(&last_numbers.family, 1, __ATOMIC_RELAXED);
}

uint64_t assemblies_next_resolution_sequence(void) {
    return __atomic_add_fetch(&last_numbers.resolution, 1, __ATOMIC_RELAXED);
}

uint64_t assemblies_next_resolver_number(void) {
    return __atomic_add_fetch(&last_numbers.resolver, 1, __ATOMIC_RELAXED);
}

uint64_t assemblies_next_thread_number(void) {
    return __atomic_add_fetch(&last_numbers.thread, 1, __ATOMIC_RELAXED);
}
