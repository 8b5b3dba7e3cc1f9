import AuditModel
import Foundation
import TreeSitter

/// A piece of Swift code with metavariables (`$VIEW`, `$COLOR`: any one expression; `$$$ARGS`: any
/// number of items of a list, arguments, statements, none included), matched against
/// syntax trees by shape: the same node kinds in the same order and the same leaves, with the
/// source's comments skipped, and each metavariable bound to one node (to the same text wherever it
/// appears twice). A name stands for a name whether the grammar reads it as a value or as a type
/// (`NavigationView` matches `NavigationView { }` and `let v: NavigationView<Text>`).
///
/// Rewrites are minimal: `edits(_:to:)` aligns the pattern's tokens with the replacement's and
/// changes only the source bytes of the tokens that differ, so everything the pattern matched but did
/// not name (a metavariable's code, line breaks and comments between kept tokens, a trailing closure
/// of a receiver) stays byte for byte.
public struct SwiftPattern: Sendable, CustomStringConvertible {
    /// A node of the parsed pattern, without its tree: patterns are shared by every worker.
    struct Shape: Sendable {
        let type: String
        let isNamed: Bool
        /// A leaf's text (nil for a node with children).
        let text: String?
        /// A metavariable's name (`VIEW` for `$VIEW`).
        let metavariable: String?
        /// A variadic metavariable's name (`ARGS` for `$$$ARGS`): any run of sibling nodes.
        var variadic: String? = nil
        let children: [Shape]
    }

    /// One token of a pattern or replacement: a metavariable or a leaf's text, with where it is in
    /// the pattern's (or replacement's) own text.
    struct Token: Sendable {
        let key: String
        let range: Range<Int>
    }

    public enum Problem: Error, Equatable, CustomStringConvertible {
        case empty
        /// The text near where parsing stops, where that is (a UTF-8 offset in the text as given), and
        /// the token the parser found missing there, if that is the mistake.
        case doesNotParse(near: String, offset: Int, missing: String?)
        case notOneExpression(Int)
        case unknownMetavariables([String])
        case twoVariadicsInOneList

        public var description: String {
            switch self {
            case .empty: return "is empty"
            case .doesNotParse(let near, _, _): return "\(withoutNear) (near '\(near)')"
            case .notOneExpression(let count): return "must be one Swift expression, not \(count) statements"
            case .unknownMetavariables(let names): return "uses \(names.map { "$" + $0 }.joined(separator: ", ")), which the match does not bind"
            case .twoVariadicsInOneList: return "has two $$$ metavariables in one list: which items each takes is not clear"
            }
        }

        /// The description without the text near the mistake (for a caller that shows it itself).
        public var withoutNear: String {
            guard case .doesNotParse(_, _, let missing) = self else { return description }
            return "does not parse as Swift" + (missing.map { ": '\($0)' is missing" } ?? "")
        }
    }

    public let text: String
    /// The text as parsed: each `$$$NAME` written `$__MANY_NAME`, which the grammar reads as one name.
    let parsed: [UInt8]
    let root: Shape
    let tokens: [Token]
    /// The metavariables, in order of first appearance.
    public let metavariables: [String]
    /// The concrete names the pattern holds (every match holds them all): the select step needs a
    /// file to mention one of them; the engine walks only subtrees that hold one.
    public let names: [String]
    /// The node kinds a match starts at (a lone name: both kinds of name).
    public let rootTypes: Set<String>
    /// The text of the pattern's first leaf when no metavariable stands before it (`Button` of
    /// `Button($$$A).overlay { $$$B }`): a match without a module starts with it (`mayStart`).
    let leadingText: [UInt8]?

    public var description: String { text }

    public init(_ text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw Problem.empty }
        self.text = trimmed
        parsed = Array(trimmed.replacingOccurrences(of: "$$$", with: "$" + Self.manyPrefix).utf8)
        let tree = try Parser().parse(SourceText(bytes: parsed))
        let statements = tree.rootNode.namedChildren.filter { !SwiftExpressions.isComment($0) }
        if tree.rootNode.hasError {
            var broken: Node?
            tree.rootNode.walk { node in
                if broken == nil, node.isError || node.isMissing { broken = node }
                return broken == nil
            }
            throw Self.parseProblem(at: broken, in: trimmed, leading: text.utf8.count - text.drop(while: { $0.isWhitespace }).utf8.count)
        }
        guard statements.count == 1 else { throw Problem.notOneExpression(statements.count) }
        root = try Self.shape(of: statements[0])
        var tokens: [Token] = []
        Self.collectTokens(statements[0], into: &tokens)
        self.tokens = tokens
        var metavariables: [String] = []
        var names: [String] = []
        for token in tokens {
            if token.key.hasPrefix("$") {
                let name = String(token.key.drop { $0 == "$" })
                if !metavariables.contains(name) { metavariables.append(name) }
            } else if token.key.unicodeScalars.first.map({ $0 == "_" || ($0.properties.isAlphabetic) }) ?? false, !names.contains(token.key) {
                names.append(token.key)
            }
        }
        self.metavariables = metavariables
        self.names = names
        rootTypes = Self.identifierTypes.contains(root.type) ? Self.identifierTypes : [root.type]
        var first = root
        while first.metavariable == nil, first.variadic == nil, let child = first.children.first { first = child }
        leadingText = first.metavariable == nil && first.variadic == nil ? first.text.map { Array($0.utf8) } : nil
    }

    static let identifierTypes: Set<String> = [SwiftNodeType.simpleIdentifier, SwiftNodeType.typeIdentifier]

    /// Where a pattern stops parsing, told in its own text (`trimmed`, which starts `leading` bytes
    /// into the text as given): an unreadable piece of code is shown as it is; a missing token (an
    /// unclosed call) by the code before it on its line, and what is missing.
    private static func parseProblem(at broken: Node?, in trimmed: String, leading: Int) -> Problem {
        let bytes = Array(trimmed.utf8)
        // The parsed text writes each `$$$` as `$__MANY_`: back to an offset in `trimmed`.
        var parsedOffset = 0, offset = 0
        let target = broken?.byteRange.lowerBound ?? 0
        let many = Array("$$$".utf8)
        while parsedOffset < target, offset < bytes.count {
            if bytes[offset...].starts(with: many) {
                parsedOffset += 1 + manyPrefix.utf8.count
                offset += 3
            } else {
                parsedOffset += 1
                offset += 1
            }
        }
        offset = min(offset, bytes.count)
        guard let broken, broken.isMissing else {
            let shown = broken.map { String($0.text.prefix(40)) } ?? String(trimmed.prefix(40))
            return .doesNotParse(near: shown.isEmpty ? String(trimmed.prefix(40)) : shown, offset: leading + offset, missing: nil)
        }
        let lineStart = bytes[..<offset].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let before = String(decoding: bytes[lineStart..<offset], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        let near = before.count > 40 ? "..." + String(before.suffix(40)) : before
        return .doesNotParse(near: near.isEmpty ? String(trimmed.prefix(40)) : near, offset: leading + offset, missing: broken.type)
    }

    /// Whether the pattern is one name and nothing else (`NavigationView`, `Button`).
    public var isLoneName: Bool { root.children.isEmpty && root.metavariable == nil && root.variadic == nil && Self.identifierTypes.contains(root.type) }

    /// How many of the pattern's tokens are code rather than metavariables: how much a match names.
    public var concreteTokenCount: Int { tokens.filter { !$0.key.hasPrefix("$") }.count }

    /// How `$$$` is written for the grammar.
    static let manyPrefix = "__MANY_"

    /// `$` and an upper-case letter, then upper-case letters, digits and `_`.
    static func metavariableName(_ text: String) -> String? {
        let name = text.utf8.dropFirst()
        guard text.hasPrefix("$"), let first = name.first, ByteClass.of(first).contains(.uppercase),
              name.allSatisfy({ !ByteClass.of($0).isDisjoint(with: [.uppercase, .digit]) || $0 == UInt8(ascii: "_") }) else { return nil }
        return String(text.dropFirst())
    }

    /// The name of `$$$NAME` (written `$__MANY_NAME`), when `text` is exactly one.
    static func variadicName(_ text: String) -> String? {
        guard text.hasPrefix("$" + manyPrefix) else { return nil }
        return metavariableName("$" + text.dropFirst(1 + manyPrefix.count))
    }

    private static func shape(of node: Node) throws -> Shape {
        // The outermost node that is nothing but `$$$NAME` stands for the run of siblings.
        if let name = variadicName(node.text) {
            return Shape(type: node.type, isNamed: node.isNamed, text: nil, metavariable: nil, variadic: name, children: [])
        }
        let children = node.children.filter { !SwiftExpressions.isComment($0) }
        if children.isEmpty {
            return Shape(type: node.type, isNamed: node.isNamed, text: node.text,
                         metavariable: identifierTypes.contains(node.type) ? metavariableName(node.text) : nil, children: [])
        }
        let shapes = try children.map(shape(of:))
        if shapes.filter({ $0.variadic != nil }).count > 1 { throw Problem.twoVariadicsInOneList }
        return Shape(type: node.type, isNamed: node.isNamed, text: nil, metavariable: nil, children: shapes)
    }

    private static func collectTokens(_ node: Node, into tokens: inout [Token]) {
        if let name = variadicName(node.text) {
            tokens.append(Token(key: "$$$" + name, range: node.byteRange))
            return
        }
        let children = node.children.filter { !SwiftExpressions.isComment($0) }
        if children.isEmpty {
            let key = identifierTypes.contains(node.type) ? metavariableName(node.text).map { "$" + $0 } ?? node.text : node.text
            tokens.append(Token(key: key, range: node.byteRange))
        } else {
            for child in children { collectTokens(child, into: &tokens) }
        }
    }

    /// A match: the node it covers, the source range each metavariable stands for (a `$$$` one's
    /// may be empty), and the source range of each of the pattern's tokens, in the pattern's order.
    public struct Match {
        public let node: Node
        public let bindings: [String: Range<Int>]
        let tokenRanges: [Range<Int>]
        /// Whether a name of the pattern was written with the module's name before it (`Module.Name`).
        public let isQualified: Bool
    }

    /// The match of this pattern at `node`, if the node has its shape. A name of the pattern also
    /// matches `Name.init` where it is called, and, given the `module` that declares it,
    /// `module.Name` (`LegacyDesignSystem.HUD.show(...)` for `HUD.show($MESSAGE)`).
    public func match(_ node: Node, module: String? = nil) -> Match? {
        guard module != nil || mayStart(node) else { return nil }
        var state = MatchState(source: node.tree.source, module: module)
        guard state.matches(root, node) else { return nil }
        return Match(node: node, bindings: state.bindings, tokenRanges: state.ranges, isQualified: state.qualified)
    }

    /// Whether `node` may match, by its first bytes: a match pairs the pattern's first leaf with the
    /// node's first leaf (sibling lists are matched from their start unless a `$$$` comes first), of
    /// the same text, or with `Name.init`, which starts with it too. Checked before the shapes, which
    /// build a list of children per level (a size context asks it of every call around a spinner).
    /// The match skips comments: a node whose first child on the way down is one starts with `/`,
    /// and is left to the shapes. (A first child of no width holds no text: it never pairs with a leaf.)
    func mayStart(_ node: Node) -> Bool {
        guard let leadingText else { return true }
        let bytes = node.tree.source.bytes
        let code = bytes[node.startByte..<min(bytes.count, node.endByte)]
        return code.first == UInt8(ascii: "/") || code.starts(with: leadingText)
    }

    private struct MatchState {
        let source: SourceText
        let module: String?
        var bindings: [String: Range<Int>] = [:]
        var ranges: [Range<Int>] = []
        var qualified = false

        init(source: SourceText, module: String?) {
            self.source = source
            self.module = module
        }

        /// A name of the pattern written `Module.Name` (given the rule's module) or, as a callee,
        /// `Name.init`: the whole navigation stands for the name.
        mutating func matchesSpelledOut(_ shape: Shape, _ node: Node) -> Bool {
            guard node.type == SwiftNodeType.navigationExpression, shape.children.isEmpty, shape.metavariable == nil,
                  identifierTypes.contains(shape.type), let name = shape.text,
                  let target = node.child(byField: SwiftField.target), target.type == SwiftNodeType.simpleIdentifier,
                  let suffix = node.child(byField: SwiftField.suffix)?.child(byField: SwiftField.suffix), suffix.type == SwiftNodeType.simpleIdentifier else { return false }
            if let module, target.text == module, suffix.text == name {
                qualified = true
            } else if target.text == name, suffix.text == "init", let parent = node.parent, parent.type == SwiftNodeType.callExpression, parent.namedChild(at: 0) == node {
                // `Name.init(...)`: the same call.
            } else {
                return false
            }
            ranges.append(node.byteRange)
            return true
        }

        mutating func bind(_ name: String, _ range: Range<Int>) -> Bool {
            if let bound = bindings[name] {
                guard source.text(bound) == source.text(range) else { return false }
            } else {
                bindings[name] = range
            }
            ranges.append(range)
            return true
        }

        mutating func matches(_ shape: Shape, _ node: Node) -> Bool {
            if let name = shape.metavariable {
                // A metavariable is one expression: never a comment, never a bare token.
                guard node.isNamed, !SwiftExpressions.isComment(node), !node.isError, !node.isMissing else { return false }
                return bind(name, node.byteRange)
            }
            let sameType = shape.type == node.type || (identifierTypes.contains(shape.type) && identifierTypes.contains(node.type))
            guard sameType, shape.isNamed == node.isNamed, !node.isMissing else { return matchesSpelledOut(shape, node) }
            let children = node.children.filter { !SwiftExpressions.isComment($0) }
            if shape.children.isEmpty {
                guard children.isEmpty, shape.text == node.text else { return false }
                ranges.append(node.byteRange)
                return true
            }
            if let split = Self.splitTrailingClosureCall(node, children), shape.children.count == 2, shape.children[1].type == SwiftNodeType.callSuffix {
                // `let a = Card(x) { }`: the grammar nests the call with its arguments inside the call
                // with its trailing closure, where the statement `Card(x) { }` has one call with one
                // suffix: matched as that one call, whatever holds it.
                let saved = (bindings, ranges, qualified)
                if matches(shape.children[0], split.callee),
                   matches(shape.children[1].children, split.suffixItems, in: split.outerSuffix) { return true }
                (bindings, ranges, qualified) = saved
            }
            return matches(shape.children, children, in: node)
        }

        /// A call the grammar built as `(callee(arguments)) { closure }` (a `let`/`var` initializer,
        /// a modifier's receiver there): the callee, and the items of both call suffixes in order (the
        /// arguments, then the trailing closures and their labels), with the outer suffix, or nil for
        /// any other node.
        static func splitTrailingClosureCall(_ node: Node, _ children: [Node]) -> (callee: Node, suffixItems: [Node], outerSuffix: Node)? {
            guard node.type == SwiftNodeType.callExpression, children.count == 2,
                  children[0].type == SwiftNodeType.callExpression, children[1].type == SwiftNodeType.callSuffix else { return nil }
            let outerItems = children[1].children.filter { !SwiftExpressions.isComment($0) }
            // Trailing closures only (`{ } label: { }`): no arguments of its own.
            guard outerItems.first?.type == SwiftNodeType.lambdaLiteral, !outerItems.contains(where: { $0.type == SwiftNodeType.valueArguments }) else { return nil }
            let inner = children[0].children.filter { !SwiftExpressions.isComment($0) }
            guard inner.count == 2, inner[1].type == SwiftNodeType.callSuffix else { return nil }
            let innerItems = inner[1].children.filter { !SwiftExpressions.isComment($0) }
            guard innerItems.allSatisfy({ $0.type == SwiftNodeType.valueArguments }) else { return nil }
            return (inner[0], innerItems + outerItems, children[1])
        }

        /// A list of shapes against a list of sibling nodes: one by one, except that a `$$$`
        /// metavariable takes whatever stands between the shapes before it and those after it.
        mutating func matches(_ shapes: [Shape], _ nodes: [Node], in parent: Node) -> Bool {
            guard let many = shapes.firstIndex(where: { $0.variadic != nil }) else {
                guard nodes.count == shapes.count else { return false }
                return zip(shapes, nodes).allSatisfy { matches($0, $1) }
            }
            let after = shapes.count - many - 1
            guard nodes.count >= many + after else { return false }
            for index in 0..<many where !matches(shapes[index], nodes[index]) { return false }
            let middle = nodes[many..<(nodes.count - after)]
            let at = many > 0 ? nodes[many - 1].endByte : (after > 0 ? nodes[nodes.count - after].startByte : parent.startByte)
            let range = middle.isEmpty ? at..<at : middle.first!.startByte..<middle.last!.endByte
            guard bind(shapes[many].variadic!, range) else { return false }
            for offset in 0..<after where !matches(shapes[many + 1 + offset], nodes[nodes.count - after + offset]) { return false }
            return true
        }
    }

    /// `replacement` written in place of `match`: the replacement's metavariables take their bound
    /// code, the tokens the two share keep their source bytes (and the bytes between two kept tokens
    /// stay), and only the tokens that differ are replaced, with the replacement's own spacing.
    /// `values`: the code a metavariable's value turns into (a rule's value table), written in
    /// place of the bound code.
    public func edits(_ match: Match, to replacement: SwiftPattern, in source: SourceText, values: [String: String] = [:]) -> [TextEdit] {
        // A metavariable whose value a table turns into other code is never kept as it was.
        let replacementKeys = replacement.tokens.map { token in
            values[String(token.key.drop { $0 == "$" })] != nil && token.key.hasPrefix("$") ? "=" + token.key : token.key
        }
        let kept = Self.alignment(tokens.map(\.key), replacementKeys)
        var edits: [TextEdit] = []
        // Sentinels: before the first and after the last token of both sides.
        let pairs = [(-1, -1)] + kept + [(tokens.count, replacement.tokens.count)]
        for (before, after) in zip(pairs, pairs.dropFirst()) {
            let removed = (before.0 + 1)..<after.0
            let added = (before.1 + 1)..<after.1
            guard !removed.isEmpty || !added.isEmpty else { continue }
            let text = added.isEmpty ? "" : replacement.fill(added, bindings: match.bindings, source: source, values: values)
            if removed.isEmpty {
                // Only added: right after the kept token before (or at the match's start).
                // With the replacement's own blanks around the added tokens; the source's blanks after
                // the kept token stay after them.
                let at = before.0 >= 0 ? match.tokenRanges[before.0].upperBound : match.node.startByte
                let spaced = (before.0 >= 0 ? replacement.space(before: added.lowerBound) : "") + text + replacement.space(after: added.upperBound - 1)
                edits.append(TextEdit(range: at..<at, text: spaced))
                continue
            }
            let start = match.tokenRanges[removed.lowerBound].lowerBound
            var end = match.tokenRanges[removed.upperBound - 1].upperBound
            // The blanks after the removed tokens go too, when only blanks stand before the next kept
            // token: the replacement's own spacing takes their place.
            var suffix = ""
            if after.0 < tokens.count {
                let next = match.tokenRanges[after.0].lowerBound
                if source.bytes[end..<next].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                    end = next
                    suffix = added.isEmpty ? "" : replacement.space(after: added.upperBound - 1)
                }
            }
            // Tokens removed with nothing in their place, alone on their line: the line goes too.
            let removal = added.isEmpty ? LineRemoval.wholeLineIfAlone(start..<end, in: source.bytes) : start..<end
            edits.append(TextEdit(range: removal, text: text + suffix))
        }
        return edits
    }

    /// The replacement's text from token `range.lowerBound` to `range.upperBound - 1`, with each
    /// metavariable's bound source code (or its value from `values`) in its place.
    func fill(_ range: Range<Int>, bindings: [String: Range<Int>], source: SourceText, values: [String: String] = [:]) -> String {
        var output = ""
        var cursor = tokens[range.lowerBound].range.lowerBound
        for index in range {
            let token = tokens[index]
            output += String(decoding: parsed[cursor..<token.range.lowerBound], as: UTF8.self)
            let name = String(token.key.drop { $0 == "$" })
            if token.key.hasPrefix("$"), let value = values[name] {
                output += value
            } else if token.key.hasPrefix("$"), let bound = bindings[name] {
                output += source.text(bound)
            } else {
                output += String(decoding: parsed[token.range], as: UTF8.self)
            }
            cursor = token.range.upperBound
        }
        return output
    }

    /// The replacement's blanks before token `index` (after the token before it).
    func space(before index: Int) -> String {
        guard index > 0 else { return "" }
        return String(decoding: parsed[tokens[index - 1].range.upperBound..<tokens[index].range.lowerBound], as: UTF8.self)
    }

    /// The replacement's blanks after token `index` (before the token after it).
    func space(after index: Int) -> String {
        guard index + 1 < tokens.count else { return "" }
        return space(before: index + 1)
    }

    /// The longest common subsequence of two token lists, as pairs of indices (the tokens kept).
    static func alignment(_ a: [String], _ b: [String]) -> [(Int, Int)] {
        var lengths = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lengths[i][j] = a[i] == b[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var pairs: [(Int, Int)] = []
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if a[i] == b[j] {
                pairs.append((i, j))
                i += 1
                j += 1
            } else if lengths[i + 1][j] >= lengths[i][j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return pairs
    }

    /// How many of the match's first tokens are the receiver it keeps: leading metavariables that the
    /// replacement (if any) starts with too (`$VIEW` of `$VIEW.foregroundColor($COLOR)`). A finding
    /// starts after them, at the code the rule is about, and shows the replacement from there.
    func keptLead(_ replacement: SwiftPattern?) -> Int {
        var count = 0
        while count < tokens.count - 1, tokens[count].key.hasPrefix("$") {
            if let replacement, count >= replacement.tokens.count || replacement.tokens[count].key != tokens[count].key { break }
            count += 1
        }
        return count
    }

    /// The source range a finding of `match` covers: the match, less its kept receiver.
    public func reportedRange(_ match: Match, replacement: SwiftPattern?) -> Range<Int> {
        match.tokenRanges[keptLead(replacement)].lowerBound..<match.node.endByte
    }

    /// What replaces `reportedRange`, for reports: the replacement from where the finding starts.
    public func shownReplacement(_ match: Match, replacement: SwiftPattern, source: SourceText, values: [String: String] = [:]) -> String {
        let lead = keptLead(replacement)
        return lead < replacement.tokens.count ? replacement.fill(lead..<replacement.tokens.count, bindings: match.bindings, source: source, values: values) : ""
    }

    /// The metavariables `replacement` uses that this pattern does not bind.
    public func unbound(in replacement: SwiftPattern) -> [String] {
        replacement.metavariables.filter { !metavariables.contains($0) }
    }
}
