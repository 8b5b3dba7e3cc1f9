#ifndef LOADAUDIT_WORD_STARTS_H
#define LOADAUDIT_WORD_STARTS_H

#include <stddef.h>
#include <stdint.h>

#define LOADAUDIT_FINGERPRINT_BYTES 96
#define LOADAUDIT_WORD_NIBBLE_BYTES 64

/// What a look for word starts is given. This code has no definition of a word byte of its own: it
/// reads the caller's table of byte classes (SwiftGrammar's `ByteClass.table`, 256 entries), where a
/// word byte is one whose entry has a bit of `word_class` (a letter, `_` or a byte of a multi-byte
/// character), and, for the vector loop, the nibble tables built from that table
/// (`loadaudit_word_nibbles_build`).
typedef struct {
    const uint8_t *classes;
    uint8_t word_class;
    /// LOADAUDIT_WORD_NIBBLE_BYTES, from `loadaudit_word_nibbles_build` with the same table and class.
    const uint8_t *word_nibbles;
    /// A bit per hash of a window (`1 << hash_bits` bits), set for the windows that may start a literal.
    const uint64_t *start_bits;
    /// The bits of a window's bytes that count (a window is up to four bytes, little-endian, zeros past
    /// the end), how many bits a hash has, and how many bytes (1 to 4) a window needs.
    uint32_t window_mask;
    int hash_bits;
    int window_length;
    /// LOADAUDIT_FINGERPRINT_BYTES from `loadaudit_fingerprints_build`, or NULL: then every word start
    /// is hashed.
    const uint8_t *fingerprints;
} loadaudit_look;

/// Fills `nibbles` (LOADAUDIT_WORD_NIBBLE_BYTES) from `classes` (256 entries) and `word_class`: for the
/// bytes whose high nibble is below 8 and for the others, a table by low nibble (a bit per high
/// nibble whose byte is a word byte) and a table by high nibble (its bit), so that sixteen bytes are
/// classed at once by four table lookups.
void loadaudit_word_nibbles_build(uint8_t *nibbles, const uint8_t *classes, uint8_t word_class);

/// The first offset at or after `from` where a word starts (a word byte after a byte that is none,
/// or at offset 0) and the hash of the window there has its bit set in `start_bits`: the word screen's
/// candidates, found sixteen bytes at a time where the machine allows. With fingerprints, only the
/// word starts whose first three bytes may begin one of their literals are hashed (nibble tables,
/// compared thirty-two starts at a time with AVX2, else sixteen). The window's hash is `(window * 0x9E3779B1) >> (32 - hash_bits)`,
/// written to `slot`. -1 when there is none.
long loadaudit_next_word_start(const uint8_t *bytes, long count, long from, const loadaudit_look *look, long *slot);

/// The hash of the window at `start` (the one `loadaudit_next_word_start` gives), for the literals
/// the screen looks for: one formula in one place.
uint32_t loadaudit_window_hash(const uint8_t *bytes, long count, long start, uint32_t window_mask, int hash_bits);

/// Fills `masks` (LOADAUDIT_FINGERPRINT_BYTES) for a look's `fingerprints` from `count` literals,
/// concatenated in `literals`, each `lengths[i]` bytes (at least 3), literal `i` in bucket
/// `buckets[i]` (0 to 7): for each of a literal's first three bytes, its bucket's bit in the tables of
/// that position, at the byte's low nibble and at its high nibble.
void loadaudit_fingerprints_build(uint8_t *masks, const uint8_t *literals, const long *lengths, const uint8_t *buckets, int count);

/// The first offset at or after `from` whose byte is 0 or above 0x7F (a NUL, or a byte of a multi-byte
/// character or of none), or `count` when there is none: the ASCII text before it needs no other look
/// (`SourceBytes.problems`). Thirty-two or sixteen bytes at a time where the machine allows.
long loadaudit_next_nul_or_non_ascii(const uint8_t *bytes, long count, long from);


/// The longest length a name sketch tells apart: longer names all count as this long.
#define LOADAUDIT_SKETCH_LENGTH_CAP 33

/// The sketch key of a name (`length` name bytes that start with no digit): its first eight bytes
/// (fewer when it is shorter, zeros after) and its length, capped at LOADAUDIT_SKETCH_LENGTH_CAP, mixed.
uint64_t loadaudit_sketch_key(const uint8_t *name, long length);

/// Adds to `bits` (`1 << log2_bits` bits, at least 64) the keys (`loadaudit_sketch_key`) of the names
/// of `bytes` that start with a byte of `start_class`: at every word start (a byte of `word_class`
/// after one that is none, as `loadaudit_next_word_start` finds them) whose byte is of `start_class`,
/// the run of `name_class` bytes from there. Two bits per key, from its two halves. `word_nibbles`,
/// `name_nibbles` and `start_nibbles` are `loadaudit_word_nibbles_build`'s tables of the three classes.
/// A name of the bytes (a run of name bytes after its leading digits) always starts at such a word
/// start and is that whole run, so the key's bits of each name that starts with a byte of
/// `start_class` are set: such a name whose bits are not all set is not in the bytes.
void loadaudit_sketch_names(const uint8_t *bytes, long count, const uint8_t *classes, uint8_t word_class, uint8_t name_class,
                            uint8_t start_class, const uint8_t *word_nibbles, const uint8_t *name_nibbles, const uint8_t *start_nibbles,
                            uint64_t *bits, int log2_bits);

/// Whether both of the key's bits are set in a sketch of `1 << log2_bits` bits.
int loadaudit_sketch_may_hold(const uint64_t *bits, int log2_bits, uint64_t key);

#endif
