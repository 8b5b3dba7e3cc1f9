#ifndef LOADAUDIT_CTREESITTER_SHIM_H
#define LOADAUDIT_CTREESITTER_SHIM_H

#include <tree_sitter/api.h>

// Provided by .tree-sitter/lib/libtree-sitter-swift.a, which scripts/bootstrap builds.
const TSLanguage *tree_sitter_swift(void);

#endif
