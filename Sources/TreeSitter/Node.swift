import CTreeSitter
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A node of a syntax tree. A value: it holds its tree, so it stays valid as long as it is used.
public struct Node {
    let raw: TSNode
    public let tree: Tree

    init(raw: TSNode, tree: Tree) {
        self.raw = raw
        self.tree = tree
    }

    /// nil for the C library's null node, so absence is visible in the type.
    init?(nullable raw: TSNode, tree: Tree) {
        if ts_node_is_null(raw) { return nil }
        self.init(raw: raw, tree: tree)
    }

    public var type: String {
        let symbol = Int(ts_node_symbol(raw))
        // The built-in ERROR symbols sit at the top of the 16-bit range, outside the table.
        return symbol < tree.symbolNames.count ? tree.symbolNames[symbol] : String(cString: ts_node_type(raw))
    }
    /// The node's kind as the grammar numbers it: for walks that ask of every node (compare with
    /// `Language.symbols(named:)`); names say the same in `type`.
    public var symbol: Int { Int(ts_node_symbol(raw)) }
    public var isNamed: Bool { ts_node_is_named(raw) }
    public var isMissing: Bool { ts_node_is_missing(raw) }
    /// Whether the node is a syntax error (`type == "ERROR"`), asked by number: a node's kind is in the
    /// grammar's table except for the built-in error symbols, which are asked of the C library as before.
    public var isError: Bool {
        let symbol = Int(ts_node_symbol(raw))
        return symbol < tree.isErrorNamed.count ? tree.isErrorNamed[symbol] : String(cString: ts_node_type(raw)) == "ERROR"
    }
    public var hasError: Bool { ts_node_has_error(raw) }

    public var startByte: Int { Int(ts_node_start_byte(raw)) }
    public var endByte: Int { Int(ts_node_end_byte(raw)) }
    public var byteRange: Range<Int> { startByte..<endByte }

    public var startPosition: TextPosition { tree.source.position(ofByte: startByte) }
    public var endPosition: TextPosition { tree.source.position(ofByte: endByte) }

    /// The source text the node covers.
    public var text: String { tree.source.text(byteRange) }

    public var parent: Node? { Node(nullable: ts_node_parent(raw), tree: tree) }
    public var childCount: Int { Int(ts_node_child_count(raw)) }
    public var namedChildCount: Int { Int(ts_node_named_child_count(raw)) }

    public func child(at index: Int) -> Node? {
        guard index >= 0, index < childCount else { return nil }
        return Node(nullable: ts_node_child(raw, UInt32(index)), tree: tree)
    }

    public func namedChild(at index: Int) -> Node? {
        guard index >= 0, index < namedChildCount else { return nil }
        return Node(nullable: ts_node_named_child(raw, UInt32(index)), tree: tree)
    }

    /// All children, in order. Through a cursor: `ts_node_child(i)` walks from the first child, so
    /// asking for each index in turn costs n² on a node with many children (a 50 MB file's root).
    public var children: [Node] { collectChildren(namedOnly: false) }
    public var namedChildren: [Node] { collectChildren(namedOnly: true) }

    private func collectChildren(namedOnly: Bool) -> [Node] {
        var result: [Node] = []
        // One allocation (the count is the subtree's own, no walk): appending one by one grew the
        // array two, three times on most nodes.
        result.reserveCapacity(childCount)
        forEachChild { cursor in
            let node = ts_tree_cursor_current_node(&cursor)
            if !namedOnly || ts_node_is_named(node) { result.append(Node(raw: node, tree: tree)) }
        }
        return result
    }

    /// The first named child whose kind number (`symbol`) `matches` accepts: `namedChildren.first(where:)`
    /// without the array, nor a `Node` for each child passed over, nor the walk past the one found.
    public func firstNamedChild(where matches: (Int) -> Bool) -> Node? {
        var found: TSNode?
        forEachChildUntil { cursor in
            let node = ts_tree_cursor_current_node(&cursor)
            if ts_node_is_named(node), matches(Int(ts_node_symbol(node))) { found = node }
            return found != nil
        }
        return found.map { Node(raw: $0, tree: tree) }
    }

    /// The last named child whose kind number `matches` accepts: `namedChildren.last(where:)` without the array.
    public func lastNamedChild(where matches: (Int) -> Bool) -> Node? {
        var found: TSNode?
        forEachChild { cursor in
            let node = ts_tree_cursor_current_node(&cursor)
            if ts_node_is_named(node), matches(Int(ts_node_symbol(node))) { found = node }
        }
        return found.map { Node(raw: $0, tree: tree) }
    }

    /// The first child, named or not, whose kind number `matches` accepts: `children.first(where:)` without the array.
    public func firstChild(where matches: (Int) -> Bool) -> Node? {
        var found: TSNode?
        forEachChildUntil { cursor in
            let node = ts_tree_cursor_current_node(&cursor)
            if matches(Int(ts_node_symbol(node))) { found = node }
            return found != nil
        }
        return found.map { Node(raw: $0, tree: tree) }
    }

    /// Walks the children with one cursor until `body` says stop.
    private func forEachChildUntil(_ body: (inout TSTreeCursor) -> Bool) {
        var cursor = ts_tree_cursor_new(raw)
        defer { ts_tree_cursor_delete(&cursor) }
        guard ts_tree_cursor_goto_first_child(&cursor) else { return }
        repeat { if body(&cursor) { return } } while ts_tree_cursor_goto_next_sibling(&cursor)
    }

    /// Walks the children with one cursor, which also knows the field each hangs under.
    private func forEachChild(_ body: (inout TSTreeCursor) -> Void) {
        var cursor = ts_tree_cursor_new(raw)
        defer { ts_tree_cursor_delete(&cursor) }
        guard ts_tree_cursor_goto_first_child(&cursor) else { return }
        repeat { body(&cursor) } while ts_tree_cursor_goto_next_sibling(&cursor)
    }

    /// The child under the field `name`. The field's number comes from the grammar's table made once
    /// (`Language.fields`, the numbers `ts_language_field_id_for_name` gives); a name not in it is
    /// asked of the C library as before.
    public func child(byField name: String) -> Node? {
        if let field = tree.fields.id(of: name) {
            return Node(nullable: ts_node_child_by_field_id(raw, field), tree: tree)
        }
        return childAskingByName(field: name)
    }

    /// `child(byField:)` the plain way: the C library finds the field's number by its name each time
    /// (kept for names outside the grammar's table, and for the test comparing both ways).
    func childAskingByName(field name: String) -> Node? {
        let utf8 = Array(name.utf8)
        return utf8.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                Node(nullable: ts_node_child_by_field_name(raw, chars.baseAddress, UInt32(chars.count)), tree: tree)
            }
        }
    }

    /// Every child under the field `name` (`case a, b` has two `name`s).
    public func children(byField name: String) -> [Node] {
        childrenWithFields.filter { $0.field == name }.map(\.node)
    }

    /// Every child, with the field name it hangs under, if any. Read through a tree cursor:
    /// `ts_node_field_name_for_child` in tree-sitter 0.20.7 counts hidden children and so names the
    /// wrong child (tree-sitter issue #1642).
    public var childrenWithFields: [(node: Node, field: String?)] {
        var result: [(node: Node, field: String?)] = []
        forEachChild { cursor in
            result.append((Node(raw: ts_tree_cursor_current_node(&cursor), tree: tree), ts_tree_cursor_current_field_name(&cursor).map { String(cString: $0) }))
        }
        return result
    }

    public var nextSibling: Node? { Node(nullable: ts_node_next_sibling(raw), tree: tree) }
    public var previousSibling: Node? { Node(nullable: ts_node_prev_sibling(raw), tree: tree) }
    public var nextNamedSibling: Node? { Node(nullable: ts_node_next_named_sibling(raw), tree: tree) }
    public var previousNamedSibling: Node? { Node(nullable: ts_node_prev_named_sibling(raw), tree: tree) }

    /// Ancestors from the parent up to the root, innermost first.
    ///
    /// Found by walking down from the root with a cursor: `ts_node_parent` in tree-sitter 0.20.7 itself
    /// walks down from the root, so climbing parent by parent costs depth² and stalls on deeply nested
    /// input (seen with 3,000 nested closures).
    public var ancestors: [Node] {
        let root = tree.rootNode
        if self == root { return [] }
        var cursor = ts_tree_cursor_new(root.raw)
        defer { ts_tree_cursor_delete(&cursor) }
        var path: [Node] = [root]
        let start = UInt32(startByte), end = UInt32(endByte)
        while true {
            guard ts_tree_cursor_goto_first_child(&cursor) else { return slowAncestors }
            var found = false
            repeat {
                let candidate = Node(raw: ts_tree_cursor_current_node(&cursor), tree: tree)
                if candidate == self { return path.reversed() }
                let candidateStart = ts_node_start_byte(candidate.raw), candidateEnd = ts_node_end_byte(candidate.raw)
                if candidateStart <= start, candidateEnd >= end, candidateEnd > candidateStart || start == end,
                   candidate.isAncestorCandidate(of: self) {
                    path.append(candidate)
                    found = true
                    break
                }
            } while ts_tree_cursor_goto_next_sibling(&cursor)
            if !found { return slowAncestors }
        }
    }

    /// A node with the same range may be the target's ancestor or a sibling of it (zero-width and
    /// wrapper nodes): ask the C library only in that rare case.
    private func isAncestorCandidate(of other: Node) -> Bool {
        guard startByte == other.startByte, endByte == other.endByte else { return true }
        var node = other.parent
        while let current = node {
            if current == self { return true }
            if current.startByte != startByte || current.endByte != endByte { return false }
            node = current.parent
        }
        return false
    }

    private var slowAncestors: [Node] {
        Array(sequence(first: self, next: { $0.parent }).dropFirst())
    }

    /// Like `walk`, and also hands the visitor the path to the node from this node, outermost first
    /// (the last element is the parent): free here, while `parent` and `ancestors` cost a descent from
    /// the root in tree-sitter 0.20.7, linear in the width of every level on the way.
    public func walk(withAncestors visit: (Node, [Node]) -> Bool) {
        var cursor = ts_tree_cursor_new(raw)
        defer { ts_tree_cursor_delete(&cursor) }
        var stack: [Node] = []
        var current = self
        var descend = visit(self, [])
        while true {
            if descend, ts_tree_cursor_goto_first_child(&cursor) {
                stack.append(current)
            } else {
                while !stack.isEmpty, !ts_tree_cursor_goto_next_sibling(&cursor) {
                    _ = ts_tree_cursor_goto_parent(&cursor)
                    stack.removeLast()
                }
                if stack.isEmpty { return }
            }
            current = Node(raw: ts_tree_cursor_current_node(&cursor), tree: tree)
            descend = visit(current, stack)
        }
    }

    /// Visits this node and every descendant in source order. The visitor returns false to skip a subtree.
    /// Iterative, with a tree cursor, so deeply nested input cannot overflow the stack.
    public func walk(_ visit: (Node) -> Bool) {
        var cursor = ts_tree_cursor_new(raw)
        defer { ts_tree_cursor_delete(&cursor) }
        var depth = 0
        var descend = visit(self)
        while true {
            if descend, ts_tree_cursor_goto_first_child(&cursor) {
                depth += 1
            } else {
                while depth > 0, !ts_tree_cursor_goto_next_sibling(&cursor) {
                    _ = ts_tree_cursor_goto_parent(&cursor)
                    depth -= 1
                }
                if depth == 0 { return }
            }
            descend = visit(Node(raw: ts_tree_cursor_current_node(&cursor), tree: tree))
        }
    }
}

extension Node: Equatable {
    public static func == (lhs: Node, rhs: Node) -> Bool {
        lhs.tree === rhs.tree && ts_node_eq(lhs.raw, rhs.raw)
    }
}

extension Node: CustomStringConvertible {
    public var description: String { "\(type)@\(startPosition)-\(endPosition)" }
}
