import TreeSitter

extension Node {
    /// Every node of `type` in this subtree, in source order.
    func descendants(ofType type: String) -> [Node] {
        var found: [Node] = []
        walk { node in
            if node.type == type { found.append(node) }
            return true
        }
        return found
    }

    func firstDescendant(ofType type: String) -> Node? {
        descendants(ofType: type).first
    }

    /// This subtree as an S-expression of every node (anonymous ones too) with its field and bytes:
    /// what two parses of the same text must agree on.
    var sExpression: String {
        var text = ""
        func write(_ node: Node, field: String?) {
            if let field { text += field + ": " }
            text += "(\(node.isNamed ? node.type : "\"\(node.type)\"") \(node.startByte)-\(node.endByte)\(node.isMissing ? " MISSING" : "")"
            for (child, name) in node.childrenWithFields {
                text += " "
                write(child, field: name)
            }
            text += ")"
        }
        write(self, field: nil)
        return text
    }
}

/// The UTF-8 offset of the first occurrence of `needle`, so tests state positions by content, not by counting bytes.
func byteOffset(of needle: String, in haystack: String) -> Int? {
    let bytes = Array(haystack.utf8)
    let target = Array(needle.utf8)
    guard !target.isEmpty, bytes.count >= target.count else { return nil }
    for start in 0...(bytes.count - target.count) where bytes[start..<(start + target.count)].elementsEqual(target) {
        return start
    }
    return nil
}
