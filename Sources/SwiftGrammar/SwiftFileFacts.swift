// SwiftGrammar: what the Swift grammar's nodes mean (calls, arguments, modifier chains, literals,
// imports, declarations, syntax errors and the grammar's known gaps) and what a word is in Swift
// source (SwiftWords, over the one table of byte classes, ByteClass). It must not know about rules or findings.

import AuditProject
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
    /// The top-level types that are SwiftUI views: a `struct` whose inheritance list names `View`
    /// (or `SwiftUI.View`). What a component rule without `module:` means by its name.
    public private(set) var viewTypes: Set<String> = []
    /// The top-level types whose declaration the parser could not read whole (an ERROR around or
    /// inside it): their kind is a guess, so they neither make a name a view nor another module's type.
    public private(set) var unsureTypes: Set<String> = []
    /// Types the file extends at the top level (`extension Color`).
    public private(set) var extendedTypes: Set<String> = []
    /// Top-level functions and variables, and the members of top-level extensions (`cardStyle` of
    /// `extension View { func cardStyle() }`): names a module adds that a rule may also look for.
    public private(set) var declaredMembers: Set<String> = []
    /// Where an `import` goes that a fix adds: after the last top-level import's line, else before the
    /// first declaration (after the leading comments).
    public private(set) var importInsertion = ImportInsertion(offset: 0, afterImports: false)
    public private(set) var syntaxErrors: [SyntaxErrorSite] = []
    /// The top-level `import X` a fix may remove: a whole module, no attribute (`@_exported`,
    /// `@testable`, `@preconcurrency`), no kind (`import struct X.Y`), outside any `#if`.
    public private(set) var plainImports: [(module: String, range: Range<Int>)] = []

    /// `@_exported import X`: an attribute named `_exported` exactly, not `@_exportedUI` nor the
    /// words of a comment inside the declaration.
    static func isExported(_ declaration: Node) -> Bool {
        declaration.namedChildren.contains { modifiers in
            modifiers.type == SwiftNodeType.modifiers && modifiers.namedChildren.contains { attribute in
                attribute.type == SwiftNodeType.attribute && attribute.namedChildren.contains { $0.type == SwiftNodeType.userType && $0.text == "_exported" }
            }
        }
    }

    /// Whether an offset is inside a `#if` ... `#endif` (by the lines before it that start with one,
    /// after spaces and tabs). Asked of offsets in increasing order (the top-level imports), it reads
    /// each line once; a line is decoded only when its bytes start with `#if` or `#endif`, and then
    /// judged as text, as a whole `String`'s `hasPrefix` does.
    struct ConditionalDepth {
        let bytes: [UInt8]
        /// The lines before `lineStart` are counted in `depth`.
        private var lineStart = 0
        private var depth = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func isInside(_ offset: Int) -> Bool {
            if offset < lineStart { (lineStart, depth) = (0, 0) }
            while let newline = bytes[lineStart..<offset].firstIndex(of: UInt8(ascii: "\n")) {
                depth = Self.counted(bytes[lineStart..<newline], depth)
                lineStart = newline + 1
            }
            // The text before `offset` on its own line counts too.
            return Self.counted(bytes[lineStart..<offset], depth) > 0
        }

        private static func counted(_ line: ArraySlice<UInt8>, _ depth: Int) -> Int {
            let code = line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            guard code.first == UInt8(ascii: "#"), code.starts(with: "#if".utf8) || code.starts(with: "#endif".utf8) else { return depth }
            let text = String(decoding: code, as: UTF8.self)
            if text.hasPrefix("#if") { return depth + 1 }
            if text.hasPrefix("#endif") { return max(0, depth - 1) }
            return depth
        }
    }

    public init(tree: Tree) {
        let root = tree.rootNode
        // Error recovery can wrap top-level declarations in an ERROR node: look one level inside.
        let topLevel = root.namedChildren.flatMap { $0.isError ? $0.namedChildren : [$0] }
        var lastImportEnd: Int?
        var firstDeclarationStart: Int?
        var conditionals = ConditionalDepth(tree.source.bytes)
        for child in topLevel {
            if firstDeclarationStart == nil, !SwiftExpressions.isComment(child), child.type != SwiftNodeType.importDeclaration {
                firstDeclarationStart = child.startByte
            }
            switch child.type {
            case SwiftNodeType.importDeclaration:
                let named = child.namedChildren
                guard let module = named.first(where: { $0.type == SwiftNodeType.identifier })?
                    .namedChildren.first(where: { $0.type == SwiftNodeType.simpleIdentifier })?.text else { continue }
                imports.insert(module)
                if Self.isExported(child) { exportedImports.insert(module) }
                if !child.isError { lastImportEnd = max(lastImportEnd ?? 0, child.endByte) }
                let path = named.filter { $0.type == SwiftNodeType.identifier }
                if named.count == 1, path.count == 1, path[0].namedChildren.count == 1, !child.isError, !child.hasError,
                   child.text.hasPrefix("import"), !conditionals.isInside(child.startByte) {
                    plainImports.append((module, child.startByte..<child.endByte))
                }
            case SwiftNodeType.classDeclaration, SwiftNodeType.protocolDeclaration, SwiftNodeType.typealiasDeclaration:
                guard let name = SwiftDeclarations.declaredName(of: child) else { continue }
                if SwiftDeclarations.isExtension(child) {
                    extendedTypes.insert(name.text)
                    if let body = child.child(byField: SwiftField.body) {
                        for member in body.namedChildren { if let memberName = SwiftDeclarations.memberName(of: member) { declaredMembers.insert(memberName) } }
                    }
                } else {
                    topLevelTypes.insert(name.text)
                    if child.hasError || child.parent?.isError == true {
                        unsureTypes.insert(name.text)
                    } else if Self.isViewStruct(child) {
                        viewTypes.insert(name.text)
                    }
                }
            case SwiftNodeType.functionDeclaration, SwiftNodeType.propertyDeclaration:
                if let name = SwiftDeclarations.memberName(of: child) { declaredMembers.insert(name) }
            default:
                break
            }
        }
        let bytes = tree.source.bytes
        let lineBreak = bytes.firstIndex(of: UInt8(ascii: "\n")).map { $0 > 0 && bytes[$0 - 1] == UInt8(ascii: "\r") ? "\r\n" : "\n" } ?? "\n"
        if let end = lastImportEnd {
            let next = Self.startOfNextLine(after: end, in: bytes)
            let unbroken = next == bytes.count && bytes.last != UInt8(ascii: "\n")
            importInsertion = ImportInsertion(offset: next, afterImports: true, lineBreak: lineBreak, startsLine: unbroken)
        } else if let start = firstDeclarationStart {
            importInsertion = ImportInsertion(offset: Self.startOfLine(at: start, in: bytes), afterImports: false, lineBreak: lineBreak)
        } else {
            importInsertion = ImportInsertion(offset: bytes.count, afterImports: false, lineBreak: lineBreak)
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

    /// `struct Name: View` (also `SwiftUI.View`, among other conformances).
    static func isViewStruct(_ declaration: Node) -> Bool {
        guard declaration.children.contains(where: { !$0.isNamed && $0.type == "struct" }) else { return false }
        return declaration.namedChildren.contains { specifier in
            specifier.type == SwiftNodeType.inheritanceSpecifier && SwiftExpressions.lastName(of: specifier.namedChildren.first ?? specifier) == "View"
        }
    }

    static func startOfNextLine(after offset: Int, in bytes: [UInt8]) -> Int {
        var index = offset
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
        return min(index + 1, bytes.count)
    }

    static func startOfLine(at offset: Int, in bytes: [UInt8]) -> Int {
        var index = min(offset, bytes.count)
        while index > 0, bytes[index - 1] != UInt8(ascii: "\n") { index -= 1 }
        return index
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
                  let tuple = ancestors.last(where: { $0.startByte != $0.endByte }), tuple.type == SwiftNodeType.tupleExpression else { return false }
            return tuple.text.filter { !$0.isWhitespace } == "()"
        }
        let parts = node.children
        guard parts.count == 1, let attribute = parts.first, attribute.type == SwiftNodeType.attribute, !attribute.hasError,
              let next = node.nextSibling else { return false }
        return next.type == SwiftNodeType.macroInvocation
    }
}

/// Where a fix puts an `import` the file lacks: at `offset`, the start of the line after the last
/// import (`afterImports`), or of the first declaration's line (then a blank line follows the new
/// imports), or the end of a file with no declaration; `lineBreak` is the file's (`\r\n` or `\n`).
public struct ImportInsertion: Sendable, Codable, Equatable {
    public let offset: Int
    public let afterImports: Bool
    public var lineBreak = "\n"
    /// The last import ends the file without a line break: the new imports start on a line of their own.
    public var startsLine = false

    public init(offset: Int, afterImports: Bool, lineBreak: String = "\n", startsLine: Bool = false) {
        self.offset = offset
        self.afterImports = afterImports
        self.lineBreak = lineBreak
        self.startsLine = startsLine
    }

    /// The text to insert there for `import` of each module.
    public func text(importing modules: [String]) -> String {
        let lines = modules.map { "import \($0)" + lineBreak }.joined()
        if startsLine { return lineBreak + lines }
        return afterImports ? lines : lines + lineBreak
    }
}

public enum SwiftDeclarations {
    public static let typeDeclarationKinds: Set<String> = [SwiftNodeType.classDeclaration, SwiftNodeType.protocolDeclaration]

    /// The name node of a type declaration (`struct X`, `class X`, `enum X`, `extension X`, `protocol X`).
    public static func declaredName(of declaration: Node) -> Node? {
        // Kinds asked by number (`SwiftKinds`), the children found without an array of them: the
        // scope path of every finding and every type the rotating-text reader meets ask this.
        guard SwiftKinds.namedTypeDeclaration.contains(declaration) else { return nil }
        // The grammar's field names are unreliable here (`name:` can label the keyword): take the first
        // type name among the children; for `extension X` it is wrapped in a user_type.
        guard let name = SwiftKinds.typeName.firstNamedChild(of: declaration) else { return nil }
        if SwiftKinds.userType.contains(name) { return SwiftKinds.typeIdentifier.lastNamedChild(of: name) }
        return name
    }

    /// The name a function or property declaration declares (`cardStyle`, `brandOrange`).
    public static func memberName(of declaration: Node) -> String? {
        switch declaration.type {
        case SwiftNodeType.functionDeclaration:
            return declaration.child(byField: SwiftField.name).flatMap { $0.type == SwiftNodeType.simpleIdentifier ? $0.text : nil }
        case SwiftNodeType.propertyDeclaration:
            let pattern = declaration.namedChildren.first { $0.type == SwiftNodeType.pattern }
            return pattern?.namedChildren.first(where: { $0.type == SwiftNodeType.simpleIdentifier })?.text
        default:
            return nil
        }
    }

    public static func isExtension(_ declaration: Node) -> Bool {
        declaration.children.contains { !$0.isNamed && $0.type == SwiftNodeType.extension }
    }

    /// The declarations around `node`, outermost first, joined with dots: `GamesHistoryView.body`.
    public static func scopePath(of node: Node) -> String {
        scopePath(ancestors: node.ancestors)
    }

    /// The same, from ancestors already known (innermost first).
    public static func scopePath(ancestors: [Node]) -> String {
        var names: [String] = []
        // Kinds asked by number (`SwiftKinds`): every ancestor of every finding is asked.
        for ancestor in ancestors {
            if SwiftKinds.typeDeclaration.contains(ancestor) {
                if let name = declaredName(of: ancestor) { names.append(name.text) }
            } else if SwiftKinds.functionDeclaration.contains(ancestor) {
                if let name = SwiftKinds.simpleIdentifier.firstNamedChild(of: ancestor) { names.append(name.text) }
            } else if SwiftKinds.propertyDeclaration.contains(ancestor) {
                let pattern = SwiftKinds.pattern.firstNamedChild(of: ancestor)
                if let name = pattern.flatMap(SwiftKinds.simpleIdentifier.firstNamedChild(of:)) ?? pattern { names.append(name.text) }
            } else if SwiftKinds.initDeclaration.contains(ancestor) {
                names.append("init")
            }
        }
        return names.reversed().joined(separator: ".")
    }
}
