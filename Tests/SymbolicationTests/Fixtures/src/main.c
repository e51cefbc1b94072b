/* Fixture unit 1 (DWARF 5): the entry point and an inline chain two deep. */
#include "demo.h"

static inline __attribute__((always_inline)) int scale(int value, int factor) {
    return value * factor + 3;
}

static inline __attribute__((always_inline)) int adjust(int value) {
    int scaled = scale(value, 7);
    return scaled ^ (value >> 2);
}

__attribute__((noinline)) int compute(int seed) {
    int total = 0;
    for (int index = 0; index < seed; index++) {
        total += adjust(index + seed);
    }
    return total;
}

int main(void) {
    volatile int seed = 5;
    int result = compute(seed);
    result += checksum(seed);
    result += demo_swift_calls(seed);
    result += demo_cpp_calls(seed);
    return result & 0x7f;
}
