import CTreeSitter
@testable import TreeSitter

/// What the linked grammar has, asked of its C tables: only the vocabulary tests ask (no code of the
/// tool needs to, so it is not in TreeSitter's interface).
extension Language {
    /// The names of the fields a child can hang under.
    var fieldNames: Set<String> {
        Set((0...ts_language_field_count(pointer)).compactMap { id in
            ts_language_field_name_for_id(pointer, TSFieldId(id)).map { String(cString: $0) }
        })
    }

    /// The names of the named node types a tree can hold (not the grammar's hidden rules).
    var namedNodeTypes: Set<String> {
        Set((0..<ts_language_symbol_count(pointer)).compactMap { symbol in
            ts_language_symbol_type(pointer, TSSymbol(symbol)) == TSSymbolTypeRegular ? String(cString: ts_language_symbol_name(pointer, TSSymbol(symbol))) : nil
        })
    }
}
