#ifndef LOADAUDIT_TREE_SITTER_SWIFT_H
#define LOADAUDIT_TREE_SITTER_SWIFT_H

// The Swift grammar's language object, defined by its generated parser.c (see language.c). Swift code
// reaches it through CTreeSitter's shim.h; this header is the target's C interface.
struct TSLanguage;
const struct TSLanguage *tree_sitter_swift(void);

#endif
