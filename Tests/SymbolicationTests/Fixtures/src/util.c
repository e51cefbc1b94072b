/* Fixture unit 2 (DWARF 4): a second compile unit with its own inline chain. */
#include "demo.h"

static inline __attribute__((always_inline)) unsigned rotate(unsigned value, unsigned amount) {
    return (value << amount) | (value >> (32u - amount));
}

static inline __attribute__((always_inline)) unsigned mix(unsigned hash, unsigned value) {
    hash ^= rotate(value, 5);
    return hash * 16777619u;
}

__attribute__((noinline)) int checksum(int seed) {
    unsigned hash = 2166136261u;
    for (int index = 0; index < seed; index++) {
        hash = mix(hash, (unsigned)index);
    }
    return (int)(hash & 0xffff);
}
