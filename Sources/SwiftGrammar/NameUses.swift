import TreeSitter

extension SwiftWords {
    /// How often each of `names` is used in code in `tree`: identifiers (never comments or strings),
    /// as whole words, not the names of their own declarations. (`progress` counts the new
    /// components' uses with it.)
    public static func uses(of names: Set<String>, in tree: Tree) -> [String: Int] {
        var uses: [String: Int] = [:]
        tree.rootNode.walk { node in
            guard node.type == SwiftNodeType.simpleIdentifier || node.type == SwiftNodeType.typeIdentifier else { return true }
            if names.contains(node.text), isWholeWord(node.byteRange, in: tree.source.bytes) {
                if SwiftScopes.isDeclaredName(node, parent: node.parent) { return false }
                uses[node.text, default: 0] += 1
            }
            return false
        }
        return uses
    }
}
