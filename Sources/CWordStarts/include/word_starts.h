#ifndef LOADAUDIT_WORD_STARTS_H
#define LOADAUDIT_WORD_STARTS_H

#include <stddef.h>
#include <stdint.h>

/// The first offset at or after `from` where a word starts (a letter, `_` or a byte of a multi-byte
/// character, after a byte that is none of these, or at offset 0) and the hash of the window there
/// (up to four bytes, little-endian, zeros past the end, masked with `window_mask`) has its bit set
/// in `start_bits`: the word sieve's candidates, found sixteen bytes at a time where the machine
/// allows. The window's hash is `(window * 0x9E3779B1) >> (32 - hash_bits)`, written to `slot`.
/// -1 when there is none. `window_length` (1 to 4) is how many bytes a window needs.
long loadaudit_next_word_start(const uint8_t *bytes, long count, long from, const uint64_t *start_bits,
                               uint32_t window_mask, int hash_bits, int window_length, long *slot);

/// The hash of the window at `start` (the one `loadaudit_next_word_start` gives), for the literals
/// the sieve looks for: one formula in one place.
uint32_t loadaudit_window_hash(const uint8_t *bytes, long count, long start, uint32_t window_mask, int hash_bits);

#define LOADAUDIT_FINGERPRINT_BYTES 96

/// Fills `masks` (LOADAUDIT_FINGERPRINT_BYTES) for `loadaudit_next_fingerprinted_start` from `count`
/// literals, concatenated in `literals`, each `lengths[i]` bytes (at least 3), literal `i` in bucket
/// `buckets[i]` (0 to 7): for each of a literal's first three bytes, its bucket's bit in the tables of
/// that position, at the byte's low nibble and at its high nibble.
void loadaudit_fingerprints_build(uint8_t *masks, const uint8_t *literals, const long *lengths, const uint8_t *buckets, int count);

/// `loadaudit_next_word_start`, asked only at the word starts whose first three bytes may begin one of
/// the literals `masks` was built from (nibble tables, compared sixteen starts at a time).
long loadaudit_next_fingerprinted_start(const uint8_t *bytes, long count, long from, const uint8_t *masks, const uint64_t *start_bits,
                                        uint32_t window_mask, int hash_bits, int window_length, long *slot);

#endif
