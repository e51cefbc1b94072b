// libFuzzer's own mutator, which a custom mutator may call (defined by libFuzzer, linked by -sanitize=fuzzer).
#include <stddef.h>
#include <stdint.h>

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);
