#include "word_starts.h"

#include <string.h>

#if defined(__SSE2__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define LOADAUDIT_HAS_SHUFFLE_PATH 1
#endif

/// A word byte, as the caller's table says: a letter, `_`, or a byte of a multi-byte character: what a
/// word starts with and what, before a word, makes it no whole word (a digit before it does not: the
/// lexer reads `0Text` as `Text`).
static inline int is_word_byte(const loadaudit_look *look, uint8_t byte) {
    return (look->classes[byte] & look->word_class) != 0;
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

void loadaudit_word_nibbles_build(uint8_t *nibbles, const uint8_t *classes, uint8_t word_class) {
    // Per half (high nibbles 0-7, then 8-15): 16 bytes by low nibble, then 16 by high nibble.
    memset(nibbles, 0, LOADAUDIT_WORD_NIBBLE_BYTES);
    for (int high = 0; high < 16; high++) {
        uint8_t *half = nibbles + (high >> 3) * 32;
        uint8_t bit = (uint8_t)(1u << (high & 7));
        half[16 + high] = bit;
        for (int low = 0; low < 16; low++) {
            if (classes[(high << 4) | low] & word_class) half[low] |= bit;
        }
    }
}

/// Whether the window at `start` fits and its hash's bit is set (then its hash in `slot`).
static inline int is_candidate(const uint8_t *bytes, long count, long start, const loadaudit_look *look, long *slot) {
    if (start + look->window_length > count) return 0;
    uint32_t hash = loadaudit_window_hash(bytes, count, start, look->window_mask, look->hash_bits);
    if ((look->start_bits[hash >> 6] >> (hash & 63)) & 1) {
        *slot = (long)hash;
        return 1;
    }
    return 0;
}

/// Byte by byte: where the machine has no vector loop, and for the last bytes of a file.
static long next_word_start_plain(const uint8_t *bytes, long count, long from, const loadaudit_look *look, long *slot) {
    int previous_is_word = from > 0 && is_word_byte(look, bytes[from - 1]);
    for (long index = from; index < count; index++) {
        int word = is_word_byte(look, bytes[index]);
        if (word && !previous_is_word && is_candidate(bytes, count, index, look, slot)) return index;
        previous_is_word = word;
    }
    return -1;
}

#if defined(LOADAUDIT_HAS_SHUFFLE_PATH)
/// The look's word nibble tables, in registers.
typedef struct {
    __m128i below_by_low, below_by_high, above_by_low, above_by_high;
} word_tables;

static inline word_tables load_word_tables(const uint8_t *nibbles) {
    word_tables tables = {
        _mm_loadu_si128((const __m128i *)nibbles), _mm_loadu_si128((const __m128i *)(nibbles + 16)),
        _mm_loadu_si128((const __m128i *)(nibbles + 32)), _mm_loadu_si128((const __m128i *)(nibbles + 48)),
    };
    return tables;
}

/// The word starts among a block's sixteen bytes, as bits; `previous_is_word` tells whether the byte
/// before the block is a word byte, and is set to whether its last byte is. Each byte is looked up by
/// its low and its high nibble (`_mm_shuffle_epi8` as a 16-entry table), in the tables of its half.
__attribute__((target("ssse3")))
static inline uint32_t word_starts_in(__m128i block, const word_tables *tables, int *previous_is_word) {
    const __m128i nibble = _mm_set1_epi8(0x0F);
    __m128i low = _mm_and_si128(block, nibble);
    __m128i high = _mm_and_si128(_mm_srli_epi16(block, 4), nibble);
    __m128i below = _mm_and_si128(_mm_shuffle_epi8(tables->below_by_low, low), _mm_shuffle_epi8(tables->below_by_high, high));
    __m128i above = _mm_and_si128(_mm_shuffle_epi8(tables->above_by_low, low), _mm_shuffle_epi8(tables->above_by_high, high));
    __m128i none = _mm_cmpeq_epi8(_mm_or_si128(below, above), _mm_setzero_si128());
    uint32_t words = ~(uint32_t)_mm_movemask_epi8(none) & 0xFFFF;
    uint32_t starts = words & ~((words << 1) | (uint32_t)*previous_is_word) & 0xFFFF;
    *previous_is_word = (words >> 15) & 1;
    return starts;
}

/// Sixteen bytes at a time, every word start hashed; the last bytes byte by byte.
__attribute__((target("ssse3")))
static long next_word_start_vector(const uint8_t *bytes, long count, long from, const loadaudit_look *look, long *slot) {
    const word_tables tables = load_word_tables(look->word_nibbles);
    long index = from;
    int previous_is_word = index > 0 && is_word_byte(look, bytes[index - 1]);
    while (index + 16 <= count) {
        uint32_t starts = word_starts_in(_mm_loadu_si128((const __m128i *)(bytes + index)), &tables, &previous_is_word);
        while (starts != 0) {
            long start = index + __builtin_ctz(starts);
            if (is_candidate(bytes, count, start, look, slot)) return start;
            starts &= starts - 1;
        }
        index += 16;
    }
    return next_word_start_plain(bytes, count, index, look, slot);
}

/// Sixteen positions at a time: each of the three bytes from a position looks up, by its low and by
/// its high nibble, the buckets whose literals may have it there (`_mm_shuffle_epi8` as a 16-entry
/// table); a position all six lookups share a bucket for may start a literal, and only a block with
/// one has its word starts worked out. The last blocks (fewer than 18 bytes) go to the loop above.
__attribute__((target("ssse3")))
static long next_fingerprinted_start(const uint8_t *bytes, long count, long from, const loadaudit_look *look, long *slot) {
    const word_tables tables = load_word_tables(look->word_nibbles);
    const uint8_t *masks = look->fingerprints;
    long index = from;
    const __m128i nibble = _mm_set1_epi8(0x0F);
    const __m128i zero = _mm_setzero_si128();
    __m128i low[3], high[3];
    for (int position = 0; position < 3; position++) {
        low[position] = _mm_loadu_si128((const __m128i *)(masks + position * 32));
        high[position] = _mm_loadu_si128((const __m128i *)(masks + position * 32 + 16));
    }
    while (index + 18 <= count) {
        __m128i block = _mm_loadu_si128((const __m128i *)(bytes + index));
        __m128i buckets = _mm_and_si128(_mm_shuffle_epi8(low[0], _mm_and_si128(block, nibble)),
                                        _mm_shuffle_epi8(high[0], _mm_and_si128(_mm_srli_epi16(block, 4), nibble)));
        for (int position = 1; position < 3; position++) {
            __m128i shifted = _mm_loadu_si128((const __m128i *)(bytes + index + position));
            __m128i by_low = _mm_shuffle_epi8(low[position], _mm_and_si128(shifted, nibble));
            __m128i by_high = _mm_shuffle_epi8(high[position], _mm_and_si128(_mm_srli_epi16(shifted, 4), nibble));
            buckets = _mm_and_si128(buckets, _mm_and_si128(by_low, by_high));
        }
        uint32_t hits = ~(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(buckets, zero)) & 0xFFFF;
        if (hits != 0) {
            // Only now the word starts: most blocks hold no possible start. The byte before the block
            // is read afresh, as no carry is kept from block to block.
            int before_is_word = index > 0 && is_word_byte(look, bytes[index - 1]);
            uint32_t candidates = word_starts_in(block, &tables, &before_is_word) & hits;
            while (candidates != 0) {
                long start = index + __builtin_ctz(candidates);
                if (is_candidate(bytes, count, start, look, slot)) return start;
                candidates &= candidates - 1;
            }
        }
        index += 16;
    }
    return next_word_start_vector(bytes, count, index, look, slot);
}

/// The look's word nibble tables, in both lanes of 256-bit registers (`_mm256_shuffle_epi8` looks up
/// within each 128-bit lane).
typedef struct {
    __m256i below_by_low, below_by_high, above_by_low, above_by_high;
} wide_word_tables;

__attribute__((target("avx2")))
static inline __m256i both_lanes(const uint8_t *table) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)table));
}

/// `word_starts_in` for thirty-two bytes.
__attribute__((target("avx2")))
static inline uint32_t wide_word_starts_in(__m256i block, const wide_word_tables *tables, int *previous_is_word) {
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    __m256i low = _mm256_and_si256(block, nibble);
    __m256i high = _mm256_and_si256(_mm256_srli_epi16(block, 4), nibble);
    __m256i below = _mm256_and_si256(_mm256_shuffle_epi8(tables->below_by_low, low), _mm256_shuffle_epi8(tables->below_by_high, high));
    __m256i above = _mm256_and_si256(_mm256_shuffle_epi8(tables->above_by_low, low), _mm256_shuffle_epi8(tables->above_by_high, high));
    __m256i none = _mm256_cmpeq_epi8(_mm256_or_si256(below, above), _mm256_setzero_si256());
    uint32_t words = ~(uint32_t)_mm256_movemask_epi8(none);
    uint32_t starts = words & ~((words << 1) | (uint32_t)*previous_is_word);
    *previous_is_word = (words >> 31) & 1;
    return starts;
}

/// `next_fingerprinted_start` thirty-two positions at a time (the machine's AVX2); the last blocks
/// (fewer than 34 bytes) go to the sixteen-byte loop.
__attribute__((target("avx2")))
static long next_fingerprinted_start_wide(const uint8_t *bytes, long count, long from, const loadaudit_look *look, long *slot) {
    const uint8_t *nibbles = look->word_nibbles;
    const wide_word_tables tables = {both_lanes(nibbles), both_lanes(nibbles + 16), both_lanes(nibbles + 32), both_lanes(nibbles + 48)};
    const uint8_t *masks = look->fingerprints;
    long index = from;
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    const __m256i zero = _mm256_setzero_si256();
    __m256i low[3], high[3];
    for (int position = 0; position < 3; position++) {
        low[position] = both_lanes(masks + position * 32);
        high[position] = both_lanes(masks + position * 32 + 16);
    }
    while (index + 34 <= count) {
        __m256i block = _mm256_loadu_si256((const __m256i *)(bytes + index));
        __m256i buckets = _mm256_and_si256(_mm256_shuffle_epi8(low[0], _mm256_and_si256(block, nibble)),
                                           _mm256_shuffle_epi8(high[0], _mm256_and_si256(_mm256_srli_epi16(block, 4), nibble)));
        for (int position = 1; position < 3; position++) {
            __m256i shifted = _mm256_loadu_si256((const __m256i *)(bytes + index + position));
            __m256i by_low = _mm256_shuffle_epi8(low[position], _mm256_and_si256(shifted, nibble));
            __m256i by_high = _mm256_shuffle_epi8(high[position], _mm256_and_si256(_mm256_srli_epi16(shifted, 4), nibble));
            buckets = _mm256_and_si256(buckets, _mm256_and_si256(by_low, by_high));
        }
        uint32_t hits = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(buckets, zero));
        if (hits != 0) {
            int before_is_word = index > 0 && is_word_byte(look, bytes[index - 1]);
            uint32_t candidates = wide_word_starts_in(block, &tables, &before_is_word) & hits;
            while (candidates != 0) {
                long start = index + __builtin_ctz(candidates);
                if (is_candidate(bytes, count, start, look, slot)) return start;
                candidates &= candidates - 1;
            }
        }
        index += 32;
    }
    return next_fingerprinted_start(bytes, count, index, look, slot);
}
#endif

long loadaudit_next_word_start(const uint8_t *bytes, long count, long from, const loadaudit_look *look, long *slot) {
#if defined(LOADAUDIT_HAS_SHUFFLE_PATH)
    if (look->fingerprints && __builtin_cpu_supports("avx2")) return next_fingerprinted_start_wide(bytes, count, from, look, slot);
    if (__builtin_cpu_supports("ssse3")) {
        return look->fingerprints ? next_fingerprinted_start(bytes, count, from, look, slot)
                                  : next_word_start_vector(bytes, count, from, look, slot);
    }
#endif
    return next_word_start_plain(bytes, count, from, look, slot);
}

void loadaudit_fingerprints_build(uint8_t *masks, const uint8_t *literals, const long *lengths, const uint8_t *buckets, int count) {
    memset(masks, 0, LOADAUDIT_FINGERPRINT_BYTES);
    const uint8_t *literal = literals;
    for (int index = 0; index < count; index++) {
        uint8_t bucket = (uint8_t)(1u << (buckets[index] % 8));
        for (int position = 0; position < 3 && position < lengths[index]; position++) {
            uint8_t byte = literal[position];
            masks[position * 32 + (byte & 0x0F)] |= bucket;
            masks[position * 32 + 16 + (byte >> 4)] |= bucket;
        }
        literal += lengths[index];
    }
}

static long next_nul_or_non_ascii_plain(const uint8_t *bytes, long count, long from) {
    for (long index = from; index < count; index++) {
        if (bytes[index] == 0 || bytes[index] >= 0x80) return index;
    }
    return count;
}

#if defined(LOADAUDIT_HAS_SHUFFLE_PATH)
/// A byte's high bit is set when it is above 0x7F, and in the comparison with zero when it is 0.
__attribute__((target("avx2")))
static long next_nul_or_non_ascii_avx2(const uint8_t *bytes, long count, long from) {
    const __m256i zero = _mm256_setzero_si256();
    long index = from;
    while (index + 32 <= count) {
        __m256i block = _mm256_loadu_si256((const __m256i *)(bytes + index));
        uint32_t found = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(block, _mm256_cmpeq_epi8(block, zero)));
        if (found != 0) return index + __builtin_ctz(found);
        index += 32;
    }
    return next_nul_or_non_ascii_plain(bytes, count, index);
}

static long next_nul_or_non_ascii_sse2(const uint8_t *bytes, long count, long from) {
    const __m128i zero = _mm_setzero_si128();
    long index = from;
    while (index + 16 <= count) {
        __m128i block = _mm_loadu_si128((const __m128i *)(bytes + index));
        uint32_t found = (uint32_t)_mm_movemask_epi8(_mm_or_si128(block, _mm_cmpeq_epi8(block, zero)));
        if (found != 0) return index + __builtin_ctz(found);
        index += 16;
    }
    return next_nul_or_non_ascii_plain(bytes, count, index);
}
#endif

long loadaudit_next_nul_or_non_ascii(const uint8_t *bytes, long count, long from) {
#if defined(LOADAUDIT_HAS_SHUFFLE_PATH)
    if (__builtin_cpu_supports("avx2")) return next_nul_or_non_ascii_avx2(bytes, count, from);
    return next_nul_or_non_ascii_sse2(bytes, count, from);
#else
    return next_nul_or_non_ascii_plain(bytes, count, from);
#endif
}
