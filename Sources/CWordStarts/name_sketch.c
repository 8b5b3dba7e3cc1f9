#include "word_starts.h"

#include <string.h>

#if defined(__SSE2__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define LOADAUDIT_HAS_SKETCH_VECTOR_PATH 1
#endif

/// A name sketch (see word_starts.h): two bits per name of a file, keyed by its first eight bytes and
/// its length. Built once per file during the first look, asked instead of reading the file again.

/// Spreads a key's bits so that both of its 32-bit halves are usable as bit numbers.
static inline uint64_t mix(uint64_t value) {
    value ^= value >> 29;
    value *= 0xBF58476D1CE4E5B9ull;
    return value ^ (value >> 32);
}

/// The key of the `length` name bytes at `start` (the run is known to be that long, capped).
static inline uint64_t key_at(const uint8_t *bytes, long count, long start, long length) {
    long take = length < 8 ? length : 8;
    uint64_t window = 0;
    if (start + 8 <= count) {
        memcpy(&window, bytes + start, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        window = __builtin_bswap64(window);
#endif
        if (take < 8) window &= (1ull << (8 * take)) - 1;
    } else {
        for (long offset = 0; offset < take; offset++) window |= (uint64_t)bytes[start + offset] << (8 * offset);
    }
    long capped = length < LOADAUDIT_SKETCH_LENGTH_CAP ? length : LOADAUDIT_SKETCH_LENGTH_CAP;
    return mix(window * 0x9E3779B97F4A7C15ull + (uint64_t)capped);
}

uint64_t loadaudit_sketch_key(const uint8_t *name, long length) { return key_at(name, length, 0, length); }

static inline void set_key(uint64_t *bits, uint64_t mask, uint64_t key) {
    uint64_t first = key & mask, second = (key >> 32) & mask;
    bits[first >> 6] |= 1ull << (first & 63);
    bits[second >> 6] |= 1ull << (second & 63);
}

int loadaudit_sketch_may_hold(const uint64_t *bits, int log2_bits, uint64_t key) {
    uint64_t mask = (1ull << log2_bits) - 1;
    uint64_t first = key & mask, second = (key >> 32) & mask;
    return ((bits[first >> 6] >> (first & 63)) & 1) && ((bits[second >> 6] >> (second & 63)) & 1);
}

/// Byte by byte from `from`: where the machine has no vector loop, and for a file's last bytes.
static void sketch_plain(const uint8_t *bytes, long count, long from, const uint8_t *classes, uint8_t word_class, uint8_t name_class,
                         uint8_t start_class, uint64_t *bits, uint64_t mask) {
    int previous_is_word = from > 0 && (classes[bytes[from - 1]] & word_class) != 0;
    for (long index = from; index < count; index++) {
        int word = (classes[bytes[index]] & word_class) != 0;
        if (word && !previous_is_word && (classes[bytes[index]] & start_class)) {
            long end = index + 1;
            while (end < count && end - index < LOADAUDIT_SKETCH_LENGTH_CAP && (classes[bytes[end]] & name_class)) end++;
            set_key(bits, mask, key_at(bytes, count, index, end - index));
        }
        previous_is_word = word;
    }
}

#if defined(LOADAUDIT_HAS_SKETCH_VECTOR_PATH)
/// A class's nibble tables (`loadaudit_word_nibbles_build`) in both lanes of 256-bit registers.
typedef struct {
    __m256i below_by_low, below_by_high, above_by_low, above_by_high;
} class_tables;

__attribute__((target("avx2")))
static inline __m256i in_both_lanes(const uint8_t *table) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)table));
}

__attribute__((target("avx2")))
static inline class_tables load_class_tables(const uint8_t *nibbles) {
    class_tables tables = {in_both_lanes(nibbles), in_both_lanes(nibbles + 16), in_both_lanes(nibbles + 32), in_both_lanes(nibbles + 48)};
    return tables;
}

/// Which of thirty-two bytes are of the tables' class, as bits.
__attribute__((target("avx2")))
static inline uint32_t class_bits(__m256i block, const class_tables *tables) {
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    __m256i low = _mm256_and_si256(block, nibble);
    __m256i high = _mm256_and_si256(_mm256_srli_epi16(block, 4), nibble);
    __m256i below = _mm256_and_si256(_mm256_shuffle_epi8(tables->below_by_low, low), _mm256_shuffle_epi8(tables->below_by_high, high));
    __m256i above = _mm256_and_si256(_mm256_shuffle_epi8(tables->above_by_low, low), _mm256_shuffle_epi8(tables->above_by_high, high));
    __m256i none = _mm256_cmpeq_epi8(_mm256_or_si256(below, above), _mm256_setzero_si256());
    return ~(uint32_t)_mm256_movemask_epi8(none);
}

/// Thirty-two bytes at a time: a block with no byte of the start class costs one class lookup; in
/// the others the word starts of that class are found, with the next thirty-two bytes' name bytes at
/// hand, so that a start in the block has at least 33 classified bytes after it, enough to measure
/// its run up to the cap. Returns where the byte loop is to go on.
__attribute__((target("avx2")))
static long sketch_wide(const uint8_t *bytes, long count, const uint8_t *classes, uint8_t word_class, const uint8_t *word_nibbles,
                        const uint8_t *name_nibbles, const uint8_t *start_nibbles, uint64_t *bits, uint64_t mask) {
    const class_tables word_tables = load_class_tables(word_nibbles), name_tables = load_class_tables(name_nibbles),
                       start_tables = load_class_tables(start_nibbles);
    long index = 0;
    while (index + 64 <= count) {
        __m256i block = _mm256_loadu_si256((const __m256i *)(bytes + index));
        uint32_t starting = class_bits(block, &start_tables);
        if (starting != 0) {
            uint32_t words = class_bits(block, &word_tables);
            uint32_t previous_is_word = index > 0 && (classes[bytes[index - 1]] & word_class) != 0;
            uint32_t starts = starting & words & ~((words << 1) | previous_is_word);
            if (starts != 0) {
                __m256i next = _mm256_loadu_si256((const __m256i *)(bytes + index + 32));
                uint64_t run = (uint64_t)class_bits(block, &name_tables) | ((uint64_t)class_bits(next, &name_tables) << 32);
                while (starts != 0) {
                    int bit = __builtin_ctz(starts);
                    uint64_t after = ~(run >> bit);
                    long length = after != 0 ? __builtin_ctzll(after) : 64;
                    if (length > LOADAUDIT_SKETCH_LENGTH_CAP) length = LOADAUDIT_SKETCH_LENGTH_CAP;
                    set_key(bits, mask, key_at(bytes, count, index + bit, length));
                    starts &= starts - 1;
                }
            }
        }
        index += 32;
    }
    return index;
}
#endif

void loadaudit_sketch_names(const uint8_t *bytes, long count, const uint8_t *classes, uint8_t word_class, uint8_t name_class,
                            uint8_t start_class, const uint8_t *word_nibbles, const uint8_t *name_nibbles, const uint8_t *start_nibbles,
                            uint64_t *bits, int log2_bits) {
    uint64_t mask = (1ull << log2_bits) - 1;
    long index = 0;
#if defined(LOADAUDIT_HAS_SKETCH_VECTOR_PATH)
    if (count >= 64 && __builtin_cpu_supports("avx2")) index = sketch_wide(bytes, count, classes, word_class, word_nibbles, name_nibbles, start_nibbles, bits, mask);
#else
    (void)word_nibbles;
    (void)name_nibbles;
    (void)start_nibbles;
#endif
    sketch_plain(bytes, count, index, classes, word_class, name_class, start_class, bits, mask);
}
