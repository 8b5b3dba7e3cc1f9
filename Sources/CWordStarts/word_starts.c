#include "word_starts.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// A letter, `_`, or a byte of a multi-byte character: what a word starts with and what, before a
/// word, makes it no whole word (a digit before it does not: the lexer reads `0Text` as `Text`).
static inline int is_word_byte(uint8_t byte) {
    uint8_t lower = byte | 0x20;
    return (lower >= 'a' && lower <= 'z') || byte == '_' || byte >= 0x80;
}

static inline uint32_t window_at(const uint8_t *bytes, long count, long start) {
    if (start + 4 <= count) {
        uint32_t window;
        memcpy(&window, bytes + start, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        window = __builtin_bswap32(window);
#endif
        return window;
    }
    uint32_t window = 0;
    for (long offset = 0; offset < 4 && start + offset < count; offset++) {
        window |= (uint32_t)bytes[start + offset] << (8 * offset);
    }
    return window;
}

uint32_t loadaudit_window_hash(const uint8_t *bytes, long count, long start, uint32_t window_mask, int hash_bits) {
    return ((window_at(bytes, count, start) & window_mask) * 0x9E3779B1u) >> (32 - hash_bits);
}

/// Whether the window at `start` fits and its hash's bit is set (then its hash in `slot`).
static inline int is_candidate(const uint8_t *bytes, long count, long start, const uint64_t *start_bits,
                               uint32_t window_mask, int hash_bits, int window_length, long *slot) {
    if (start + window_length > count) return 0;
    uint32_t hash = loadaudit_window_hash(bytes, count, start, window_mask, hash_bits);
    if ((start_bits[hash >> 6] >> (hash & 63)) & 1) {
        *slot = (long)hash;
        return 1;
    }
    return 0;
}

long loadaudit_next_word_start(const uint8_t *bytes, long count, long from, const uint64_t *start_bits,
                               uint32_t window_mask, int hash_bits, int window_length, long *slot) {
    long index = from;
    int previous_is_word = index > 0 && is_word_byte(bytes[index - 1]);
#if defined(__SSE2__)
    const __m128i below_a = _mm_set1_epi8('a' - 1);
    const __m128i above_z = _mm_set1_epi8('z' + 1);
    const __m128i case_bit = _mm_set1_epi8(0x20);
    const __m128i underscore = _mm_set1_epi8('_');
    while (index + 16 <= count) {
        __m128i block = _mm_loadu_si128((const __m128i *)(bytes + index));
        __m128i lower = _mm_or_si128(block, case_bit);
        // Signed comparisons: bytes from 0x80 are negative, outside 'a'...'z', and caught by their top bit.
        __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(lower, below_a), _mm_cmplt_epi8(lower, above_z));
        __m128i word = _mm_or_si128(letter, _mm_cmpeq_epi8(block, underscore));
        uint32_t words = (uint32_t)_mm_movemask_epi8(word) | (uint32_t)_mm_movemask_epi8(block);
        uint32_t starts = words & ~((words << 1) | (uint32_t)previous_is_word) & 0xFFFF;
        previous_is_word = (words >> 15) & 1;
        while (starts != 0) {
            long start = index + __builtin_ctz(starts);
            if (is_candidate(bytes, count, start, start_bits, window_mask, hash_bits, window_length, slot)) return start;
            starts &= starts - 1;
        }
        index += 16;
    }
#endif
    for (; index < count; index++) {
        int word = is_word_byte(bytes[index]);
        if (word && !previous_is_word &&
            is_candidate(bytes, count, index, start_bits, window_mask, hash_bits, window_length, slot)) {
            return index;
        }
        previous_is_word = word;
    }
    return -1;
}
