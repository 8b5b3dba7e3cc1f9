#ifndef LOADAUDIT_CTREESITTER_SHIM_H
#define LOADAUDIT_CTREESITTER_SHIM_H

#include <tree_sitter/api.h>

// Defined by the CTreeSitterSwift target (the grammar scripts/bootstrap puts in place).
const TSLanguage *tree_sitter_swift(void);

#endif
