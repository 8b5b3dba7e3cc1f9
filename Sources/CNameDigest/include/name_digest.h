#ifndef LOADAUDIT_NAME_DIGEST_H
#define LOADAUDIT_NAME_DIGEST_H

#include <stddef.h>
#include <stdint.h>

#define LOADAUDIT_NAME_NIBBLE_BYTES 64

/// What the follow-up keeps of a file left for later instead of its bytes: a 32-bit print of every
/// distinct name in it (a run of name bytes, after its leading digits, as `FileSelector.forEachName`
/// reads it). This code has no definition of a name byte of its own: it reads the caller's table of
/// byte classes (SwiftGrammar's `ByteClass.table`, 256 entries) with the bits of a name byte and of a
/// digit, and, for the vector loop, nibble tables built from that table (`loadaudit_name_nibbles_build`).
typedef struct {
    const uint8_t *classes;
    uint8_t name_class;
    uint8_t digit_class;
    /// LOADAUDIT_NAME_NIBBLE_BYTES, from `loadaudit_name_nibbles_build` with the same table and class.
    const uint8_t *name_nibbles;
} loadaudit_name_look;

/// Fills `nibbles` (LOADAUDIT_NAME_NIBBLE_BYTES) from `classes` and `name_class`: for the bytes whose
/// high nibble is below 8 and for the others, a table by low nibble (a bit per high nibble whose byte
/// is a name byte) and a table by high nibble (its bit), so that sixteen bytes are classed at once.
void loadaudit_name_nibbles_build(uint8_t *nibbles, const uint8_t *classes, uint8_t name_class);

/// The print of a name's bytes (not 0). Equal names have equal prints; different names rarely do (a
/// print is a fingerprint to rule files out, never the answer: a match is confirmed on the file's
/// bytes by the select step's one hash).
uint32_t loadaudit_name_print(const uint8_t *name, long length);

/// The distinct prints of the names in `bytes`, in no particular order: written to a buffer this
/// allocates (`*prints`, to be released with `free`), their number returned; -1 when memory ran out.
long loadaudit_name_prints(const uint8_t *bytes, long count, const loadaudit_name_look *look, uint32_t **prints);

#endif
