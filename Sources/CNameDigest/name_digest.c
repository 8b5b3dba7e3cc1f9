#include "name_digest.h"

#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__) && (defined(__x86_64__) || defined(__i386__))
#include <tmmintrin.h>
#define LOADAUDIT_HAS_SHUFFLE_PATH 1
#endif

void loadaudit_name_nibbles_build(uint8_t *nibbles, const uint8_t *classes, uint8_t name_class) {
    // Per half (high nibbles 0-7, then 8-15): 16 bytes by low nibble, then 16 by high nibble.
    memset(nibbles, 0, LOADAUDIT_NAME_NIBBLE_BYTES);
    for (int high = 0; high < 16; high++) {
        uint8_t *half = nibbles + (high >> 3) * 32;
        uint8_t bit = (uint8_t)(1u << (high & 7));
        half[16 + high] = bit;
        for (int low = 0; low < 16; low++) {
            if (classes[(high << 4) | low] & name_class) half[low] |= bit;
        }
    }
}

/// Up to eight bytes from `bytes` as a little-endian number (zeros past `length`).
static inline uint64_t load_up_to_8(const uint8_t *bytes, long length) {
    uint64_t value = 0;
    if (length >= 8) {
        memcpy(&value, bytes, 8);
    } else {
        for (long index = 0; index < length; index++) value |= (uint64_t)bytes[index] << (8 * index);
        return value;
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    value = __builtin_bswap64(value);
#endif
    return value;
}

static inline uint64_t mix(uint64_t value) {
    value ^= value >> 32;
    value *= 0xD6E8FEB86659FD93ull;
    value ^= value >> 32;
    return value;
}

/// The print of a name: its length, its first eight bytes and its last eight (they overlap in a
/// shorter name), and for a longer one every eight bytes between, each mixed in.
uint32_t loadaudit_name_print(const uint8_t *name, long length) {
    uint64_t hash = 0x9E3779B97F4A7C15ull ^ (uint64_t)length;
    if (length <= 8) {
        hash = mix(hash ^ load_up_to_8(name, length));
    } else {
        long offset = 0;
        for (; offset + 8 < length; offset += 8) hash = mix(hash ^ load_up_to_8(name + offset, 8));
        hash = mix(hash ^ load_up_to_8(name + length - 8, 8));
    }
    uint32_t print = (uint32_t)(hash >> 32) ^ (uint32_t)hash;
    return print == 0 ? 1 : print;
}

/// Adds a print to the open-addressing table (`mask` + 1 entries, 0 for empty); 1 when it was new.
static inline int insert(uint32_t *table, uint64_t mask, uint32_t print) {
    uint64_t slot = (print ^ (print >> 16)) & mask;
    while (table[slot] != 0) {
        if (table[slot] == print) return 0;
        slot = (slot + 1) & mask;
    }
    table[slot] = print;
    return 1;
}

/// Sets a bit per name byte in `bitmap` (zeroed, a bit per byte): byte by byte.
static void name_bits_plain(const uint8_t *bytes, long from, long count, const loadaudit_name_look *look, uint64_t *bitmap) {
    for (long index = from; index < count; index++) {
        if (look->classes[bytes[index]] & look->name_class) bitmap[index >> 6] |= 1ull << (index & 63);
    }
}

#if defined(LOADAUDIT_HAS_SHUFFLE_PATH)
/// Sixteen bytes at a time, each looked up by its low and its high nibble (`_mm_shuffle_epi8` as a
/// 16-entry table) in the tables of its half; the last bytes byte by byte.
__attribute__((target("ssse3")))
static void name_bits_vector(const uint8_t *bytes, long count, const loadaudit_name_look *look, uint64_t *bitmap) {
    const uint8_t *nibbles = look->name_nibbles;
    const __m128i below_by_low = _mm_loadu_si128((const __m128i *)nibbles);
    const __m128i below_by_high = _mm_loadu_si128((const __m128i *)(nibbles + 16));
    const __m128i above_by_low = _mm_loadu_si128((const __m128i *)(nibbles + 32));
    const __m128i above_by_high = _mm_loadu_si128((const __m128i *)(nibbles + 48));
    const __m128i nibble = _mm_set1_epi8(0x0F);
    long index = 0;
    for (; index + 16 <= count; index += 16) {
        __m128i block = _mm_loadu_si128((const __m128i *)(bytes + index));
        __m128i low = _mm_and_si128(block, nibble);
        __m128i high = _mm_and_si128(_mm_srli_epi16(block, 4), nibble);
        __m128i below = _mm_and_si128(_mm_shuffle_epi8(below_by_low, low), _mm_shuffle_epi8(below_by_high, high));
        __m128i above = _mm_and_si128(_mm_shuffle_epi8(above_by_low, low), _mm_shuffle_epi8(above_by_high, high));
        __m128i none = _mm_cmpeq_epi8(_mm_or_si128(below, above), _mm_setzero_si128());
        uint16_t names = (uint16_t)~_mm_movemask_epi8(none);
        bitmap[index >> 6] |= (uint64_t)names << (index & 63);
    }
    name_bits_plain(bytes, index, count, look, bitmap);
}
#endif

long loadaudit_name_prints(const uint8_t *bytes, long count, const loadaudit_name_look *look, uint32_t **prints) {
    *prints = NULL;
    long words = (count + 63) >> 6;
    // A name and the byte after it take two bytes: at most count / 2 + 1 names. The table starts at
    // an eighth of the bytes (most files hold a name in about twelve) and doubles past half full.
    uint64_t size = 64;
    while (size < (uint64_t)count / 8) size <<= 1;
    uint64_t *bitmap = calloc((size_t)words + 1, sizeof(uint64_t));
    uint32_t *table = calloc((size_t)size, sizeof(uint32_t));
    uint32_t *found = malloc(((size_t)count / 2 + 2) * sizeof(uint32_t));
    if (bitmap == NULL || table == NULL || found == NULL) {
        free(bitmap);
        free(table);
        free(found);
        return -1;
    }
#if defined(LOADAUDIT_HAS_SHUFFLE_PATH)
    if (__builtin_cpu_supports("ssse3")) {
        name_bits_vector(bytes, count, look, bitmap);
    } else {
        name_bits_plain(bytes, 0, count, look, bitmap);
    }
#else
    name_bits_plain(bytes, 0, count, look, bitmap);
#endif
    long distinct = 0;
    uint64_t carry = 0;
    for (long word = 0; word < words; word++) {
        uint64_t names = bitmap[word];
        uint64_t starts = names & ~((names << 1) | carry);
        carry = names >> 63;
        while (starts != 0) {
            long start = (word << 6) + __builtin_ctzll(starts);
            starts &= starts - 1;
            // Its end: the first byte after it that is no name byte (bits past `count` are clear, and
            // the bitmap has a clear word more).
            long end_word = word;
            uint64_t after = ~bitmap[end_word] & (~0ull << (start & 63));
            while (after == 0) after = ~bitmap[++end_word];
            long end = (end_word << 6) + __builtin_ctzll(after);
            while (start < end && (look->classes[bytes[start]] & look->digit_class)) start++;
            if (start == end) continue;
            uint32_t print = loadaudit_name_print(bytes + start, end - start);
            if (!insert(table, size - 1, print)) continue;
            found[distinct++] = print;
            if ((uint64_t)distinct * 2 > size) {
                uint64_t larger = size * 2;
                uint32_t *grown = calloc((size_t)larger, sizeof(uint32_t));
                if (grown == NULL) {
                    free(bitmap);
                    free(table);
                    free(found);
                    return -1;
                }
                for (long index = 0; index < distinct; index++) insert(grown, larger - 1, found[index]);
                free(table);
                table = grown;
                size = larger;
            }
        }
    }
    free(bitmap);
    free(table);
    *prints = found;
    return distinct;
}
