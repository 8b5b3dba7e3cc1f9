import CTreeSitter
@testable import TreeSitter

/// What the linked grammar has, asked of its C tables: only the vocabulary tests ask (no code of the
/// tool needs to, so it is not in TreeSitter's interface).
extension Language {
    /// Whether the grammar has a node type of this name, named (`call_expression`) or anonymous (`"("`).
    func hasNodeType(_ name: String, named: Bool) -> Bool {
        ts_language_symbol_for_name(pointer, name, UInt32(name.utf8.count), named) != 0
    }

    /// The names of the fields a child can hang under.
    var fieldNames: Set<String> {
        Set((0...ts_language_field_count(pointer)).compactMap { id in
            ts_language_field_name_for_id(pointer, TSFieldId(id)).map { String(cString: $0) }
        })
    }
}
