// The CTreeSitterSwift target: the Swift grammar compiled by SwiftPM, so that Package.swift needs no
// linker flag to find it. Its C sources are not part of this repository: scripts/bootstrap downloads
// the pinned tree-sitter-swift archive, checks its sha256, adapts parser.c to language ABI 14 and
// copies parser.c, scanner.c and the runtime headers they include into grammar/ (ignored by git),
// where SwiftPM compiles every .c file of the target. Without them the link fails on
// `tree_sitter_swift`: run scripts/bootstrap.
#include "tree_sitter_swift.h"

#if defined(__has_include)
#if !__has_include("grammar/parser.c")
#error "the Swift grammar is not in place (Sources/CTreeSitterSwift/grammar/parser.c): run scripts/bootstrap in this package's folder"
#endif
#endif
