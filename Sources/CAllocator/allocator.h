// glibc's allocator settings, for the apm-inspect executable (AllocatorSettings.swift says why): <malloc.h> is not
// part of Swift's Glibc module. Elsewhere (macOS, musl) this does nothing.
#ifndef APM_ALLOCATOR_H
#define APM_ALLOCATOR_H

#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif

/// Serves allocations up to `mmap_threshold` bytes from the heap and keeps up to `trim_threshold` bytes of free heap;
/// returns 1 when both were set.
static inline int apm_tune_allocator(int mmap_threshold, int trim_threshold) {
#if defined(__GLIBC__)
    return mallopt(M_MMAP_THRESHOLD, mmap_threshold) == 1 && mallopt(M_TRIM_THRESHOLD, trim_threshold) == 1;
#else
    (void)mmap_threshold;
    (void)trim_threshold;
    return 0;
#endif
}

#endif
