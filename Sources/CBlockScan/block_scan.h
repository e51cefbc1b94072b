// The byte classes of a 64-byte block of JSON text, one bit per byte (byte k is bit k), found with SSE2 compares.
//
// Swift's SIMD types do not lower their comparisons and masks to vector instructions (a generic SIMD escape scan
// measured six times the instructions of a 64-bit word loop), and the word loop that classifies a block in Swift
// costs about 35 instructions per 8 bytes. SSE2 is part of every x86-64 CPU, so this header is compiled into its
// callers wherever x86-64 is targeted; elsewhere APM_BLOCK_SCAN_SIMD is 0 and the callers keep their word loop.
#ifndef APM_BLOCK_SCAN_H
#define APM_BLOCK_SCAN_H

#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#define APM_BLOCK_SCAN_SIMD 1
#else
#define APM_BLOCK_SCAN_SIMD 0
#endif

typedef struct {
    /// `"` bytes.
    uint64_t quotes;
    /// Bytes 0x00 to 0x1F.
    uint64_t controls;
    /// `[`, `]`, `{` and `}`.
    uint64_t brackets;
    /// `\` bytes.
    uint64_t backslashes;
} apm_block_flags;

#if APM_BLOCK_SCAN_SIMD
/// Classifies the 64 bytes at `p`, all of which the caller has checked are readable.
static inline __attribute__((always_inline)) apm_block_flags apm_block_classify(const uint8_t *p) {
    const __m128i quote = _mm_set1_epi8(0x22);
    const __m128i backslash = _mm_set1_epi8(0x5C);
    const __m128i lastControl = _mm_set1_epi8(0x1F);
    const __m128i fold = _mm_set1_epi8(0x20);
    const __m128i open = _mm_set1_epi8(0x7B);
    const __m128i close = _mm_set1_epi8(0x7D);
    apm_block_flags flags = {0, 0, 0, 0};
    for (int k = 0; k < 4; k++) {
        const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
        // `[` 0x5B and `{` 0x7B both become 0x7B with bit 5 set, `]` 0x5D and `}` 0x7D both 0x7D; no other byte does.
        const __m128i folded = _mm_or_si128(v, fold);
        const __m128i bracket = _mm_or_si128(_mm_cmpeq_epi8(folded, open), _mm_cmpeq_epi8(folded, close));
        // Unsigned v <= 0x1F exactly when the smaller of v and 0x1F is v.
        const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(v, lastControl), v);
        const int shift = 16 * k;
        flags.quotes |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)) << shift;
        flags.controls |= (uint64_t)(uint16_t)_mm_movemask_epi8(control) << shift;
        flags.brackets |= (uint64_t)(uint16_t)_mm_movemask_epi8(bracket) << shift;
        flags.backslashes |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, backslash)) << shift;
    }
    return flags;
}

/// Bit k set when byte k of the 16 at `p` ends a run of plain string text: `"`, `\` or a byte below 0x20.
static inline __attribute__((always_inline)) uint32_t apm_string_stops16(const uint8_t *p) {
    const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    const __m128i stops = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(0x22)), _mm_cmpeq_epi8(v, _mm_set1_epi8(0x5C))),
        _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v));
    return (uint32_t)(uint16_t)_mm_movemask_epi8(stops);
}

/// Bit k set when bytes k and k + 1 of the 17 at `p` are `first` and `second`: the candidates of a substring search.
static inline __attribute__((always_inline)) uint32_t apm_pair_starts16(const uint8_t *p, uint8_t first, uint8_t second) {
    const __m128i here = _mm_loadu_si128((const __m128i *)(const void *)p);
    const __m128i next = _mm_loadu_si128((const __m128i *)(const void *)(p + 1));
    const __m128i both = _mm_and_si128(
        _mm_cmpeq_epi8(here, _mm_set1_epi8((char)first)), _mm_cmpeq_epi8(next, _mm_set1_epi8((char)second)));
    return (uint32_t)(uint16_t)_mm_movemask_epi8(both);
}

/// Bit k set when byte k of the 17 at `p` is a quote and byte k + 1 is `a`, `b` or `c`: where keys that start with
/// one of those letters may begin, for a search of several keys in one pass.
static inline __attribute__((always_inline)) uint32_t apm_quote_then16(const uint8_t *p, uint8_t a, uint8_t b,
                                                                       uint8_t c) {
    const __m128i here = _mm_loadu_si128((const __m128i *)(const void *)p);
    const __m128i next = _mm_loadu_si128((const __m128i *)(const void *)(p + 1));
    const __m128i letter = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(next, _mm_set1_epi8((char)a)), _mm_cmpeq_epi8(next, _mm_set1_epi8((char)b))),
        _mm_cmpeq_epi8(next, _mm_set1_epi8((char)c)));
    const __m128i both = _mm_and_si128(_mm_cmpeq_epi8(here, _mm_set1_epi8(0x22)), letter);
    return (uint32_t)(uint16_t)_mm_movemask_epi8(both);
}
#endif

#endif
