// SwiftGrammar: what the Swift grammar's nodes mean (calls, arguments, modifier chains, literals,
// imports, declarations, syntax errors and the grammar's known gaps) and what a word is in Swift
// source (SwiftWords). It must not know about rules or findings.

import TreeSitter

/// A syntax error in a file: where it is, and whether it is a real error or a known gap of the grammar.
public struct SyntaxErrorSite {
    public let node: Node
    public let position: TextPosition
}

/// File-level facts the rules need: imports, declared types, syntax errors.
public struct SwiftFileFacts {
    /// Imported modules, e.g. `SwiftUI` (also for `import struct SwiftUI.Text` and `@testable import`).
    public private(set) var imports: Set<String> = []
    /// Modules imported with `@_exported`, which every file of the module then sees.
    public private(set) var exportedImports: Set<String> = []
    /// Type names declared at the top level of the file.
    public private(set) var topLevelTypes: Set<String> = []
    public private(set) var syntaxErrors: [SyntaxErrorSite] = []

    /// `@_exported import X`: an attribute named `_exported` exactly, not `@_exportedUI` nor the
    /// words of a comment inside the declaration.
    static func isExported(_ declaration: Node) -> Bool {
        declaration.namedChildren.contains { modifiers in
            modifiers.type == "modifiers" && modifiers.namedChildren.contains { attribute in
                attribute.type == "attribute" && attribute.namedChildren.contains { $0.type == "user_type" && $0.text == "_exported" }
            }
        }
    }

    public init(tree: Tree) {
        let root = tree.rootNode
        // Error recovery can wrap top-level declarations in an ERROR node: look one level inside.
        let topLevel = root.namedChildren.flatMap { $0.isError ? $0.namedChildren : [$0] }
        for child in topLevel {
            switch child.type {
            case "import_declaration":
                guard let module = child.namedChildren.first(where: { $0.type == "identifier" })?
                    .namedChildren.first(where: { $0.type == "simple_identifier" })?.text else { continue }
                imports.insert(module)
                if Self.isExported(child) { exportedImports.insert(module) }
            case "class_declaration", "protocol_declaration", "typealias_declaration":
                if let name = SwiftDeclarations.declaredName(of: child), !SwiftDeclarations.isExtension(child) {
                    topLevelTypes.insert(name.text)
                }
            default:
                break
            }
        }
        if root.hasError {
            root.walk { node, ancestors in
                if node.isError || node.isMissing {
                    if !Self.isGrammarGap(node, ancestors: ancestors) {
                        syntaxErrors.append(SyntaxErrorSite(node: node, position: node.startPosition))
                    }
                    return false
                }
                return node.hasError
            }
        }
    }

    /// Valid Swift that the grammar (tree-sitter-swift 0.7.4) misreads in one known, harmless way, with
    /// the rest of the tree right. Not a mistake in the file, so not counted as a syntax error:
    /// - the empty tuple as a value, `seal.fulfill(())`, `.success(())`: a `tuple_expression` `()`
    ///   holding a zero-width MISSING node (the grammar wants a value between the parentheses);
    /// - an attribute on a freestanding macro, `@available(iOS 17, *) #Preview { ... }`: an ERROR node
    ///   holding just the attribute, right before the `macro_invocation`, which is parsed as usual.
    /// On six public apps (5,740 files) these two were 139 of the 232 files with a syntax error
    /// (docs/grammar.md).
    /// `ancestors` are the node's, outermost first (tree-sitter 0.20.7's `ts_node_parent` can go astray
    /// at a zero-width node).
    static func isGrammarGap(_ node: Node, ancestors: [Node]) -> Bool {
        if node.isMissing {
            // The MISSING node sits in zero-width wrappers (a `bang` around a missing `!`): the first
            // ancestor with a width must be the tuple, and the tuple nothing but its parentheses.
            guard node.startByte == node.endByte,
                  let tuple = ancestors.last(where: { $0.startByte != $0.endByte }), tuple.type == "tuple_expression" else { return false }
            return tuple.text.filter { !$0.isWhitespace } == "()"
        }
        let parts = node.children
        guard parts.count == 1, let attribute = parts.first, attribute.type == "attribute", !attribute.hasError,
              let next = node.nextSibling else { return false }
        return next.type == "macro_invocation"
    }
}

public enum SwiftDeclarations {
    public static let typeDeclarationKinds: Set<String> = ["class_declaration", "protocol_declaration"]

    /// The name node of a type declaration (`struct X`, `class X`, `enum X`, `extension X`, `protocol X`).
    public static func declaredName(of declaration: Node) -> Node? {
        guard typeDeclarationKinds.contains(declaration.type) || declaration.type == "typealias_declaration" else { return nil }
        // The grammar's field names are unreliable here (`name:` can label the keyword): take the first
        // type name among the children; for `extension X` it is wrapped in a user_type.
        guard let name = declaration.namedChildren.first(where: { $0.type == "type_identifier" || $0.type == "user_type" }) else { return nil }
        if name.type == "user_type" { return name.namedChildren.last(where: { $0.type == "type_identifier" }) }
        return name
    }

    public static func isExtension(_ declaration: Node) -> Bool {
        declaration.children.contains { !$0.isNamed && $0.type == "extension" }
    }

    /// The declarations around `node`, outermost first, joined with dots: `GamesHistoryView.body`.
    public static func scopePath(of node: Node) -> String {
        scopePath(ancestors: node.ancestors)
    }

    /// The same, from ancestors already known (innermost first).
    public static func scopePath(ancestors: [Node]) -> String {
        var names: [String] = []
        for ancestor in ancestors {
            switch ancestor.type {
            case "class_declaration", "protocol_declaration":
                if let name = declaredName(of: ancestor) { names.append(name.text) }
            case "function_declaration":
                if let name = ancestor.namedChildren.first(where: { $0.type == "simple_identifier" }) { names.append(name.text) }
            case "property_declaration":
                let pattern = ancestor.namedChildren.first { $0.type == "pattern" }
                if let name = pattern?.namedChildren.first(where: { $0.type == "simple_identifier" }) ?? pattern { names.append(name.text) }
            case "init_declaration":
                names.append("init")
            default:
                break
            }
        }
        return names.reversed().joined(separator: ".")
    }
}
