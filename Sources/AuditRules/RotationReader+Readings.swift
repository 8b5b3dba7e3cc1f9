import AuditModel
import SwiftGrammar
import TreeSitter

/// `RotationReader`'s readings of expressions, of where code is, and of single nodes.
extension RotationReader {
    // MARK: - Expressions

    /// What an expression is (see `RotationFacts.ValueShape`).
    func shape(of value: Node) -> RotationFacts.ValueShape {
        if value.hasError { return .other }
        switch value.type {
        case "tuple_expression":
            let parts = value.namedChildren.filter { !Self.isComment($0) }
            return parts.count == 1 ? shape(of: parts[0]) : .other
        case "integer_literal":
            return .step
        case "prefix_expression":
            if value.child(byField: "operation")?.text == ".", let target = value.child(byField: "target"), target.type == "simple_identifier" {
                return .enumCase(target.text)
            }
            return .other
        case "ternary_expression":
            guard let condition = value.child(byField: "condition"), let then = value.child(byField: "if_true"), let otherwise = value.child(byField: "if_false") else { return .other }
            let literals = [then, otherwise].flatMap(Self.messages(in:))
            guard Set(literals).count >= 2, literals.count == Self.branchCount(then) + Self.branchCount(otherwise) else { return .other }
            return .choice(reads: Self.paths(in: condition), messages: Set(literals).count)
        case "nil_coalescing_expression":
            return value.namedChildren.first.map(shape(of:)) ?? .other
        case "postfix_expression":
            // `tips.randomElement()!`
            return value.namedChildren.first.map(shape(of:)) ?? .other
        case "call_expression":
            guard let call = SwiftCall(value) else { return .other }
            if let arguments = value.namedChildren.first(where: { $0.type == "call_suffix" })?.namedChildren.first(where: { $0.type == "value_arguments" }),
               arguments.child(at: 0)?.type == "[" {
                guard let collection = Self.path(of: call.callee) else { return .other }
                if collection.names.last == "allCases" { return .enumCase(nil) }
                return .element(collection: collection, index: Self.paths(in: arguments))
            }
            let name = call.calleeName ?? ""
            if vocabulary.randomPicks.contains(name), let target = call.callee.child(byField: "target"), let collection = Self.path(of: target) {
                return .random(collection: collection, pick: place(name, value))
            }
            if Self.textWrappers.contains(name) || (name == "String" && call.argument(labelled: "localized") != nil),
               let first = call.arguments.first {
                return shape(of: first.value)
            }
            if name == "next" || name.hasPrefix("timeIntervalSince") { return name == "next" ? .enumCase(nil) : .time }
            if name == "Date" { return .time }
            return .other
        case "simple_identifier", "navigation_expression", "self_expression":
            guard let path = Self.path(of: value) else {
                return Self.contains(value, name: "timeIntervalSince1970") || Self.contains(value, name: "timeIntervalSinceNow") ? .time : .other
            }
            if path.names.last == "next" { return .enumCase(nil) }
            if path.names.last == "now" || path.names.last?.hasPrefix("timeIntervalSince") == true { return .time }
            return .path(path)
        default:
            return .other
        }
    }

    /// Calls that show their first argument as text: localization wrappers.
    static let textWrappers: Set<String> = ["LocalizedStringKey", "NSLocalizedString", "LocalizedStringResource"]

    /// The plain string literals a branch of a choice ends in (`"a"`, or both of a nested `c ? "b" : "c"`).
    static func messages(in node: Node) -> [String] {
        if SwiftExpressions.isPlainStringLiteral(node) { return [node.text] }
        if node.type == "ternary_expression", let then = node.child(byField: "if_true"), let otherwise = node.child(byField: "if_false") {
            return messages(in: then) + messages(in: otherwise)
        }
        if node.type == "tuple_expression", let only = node.namedChildren.first, node.namedChildren.count == 1 { return messages(in: only) }
        return []
    }

    static func branchCount(_ node: Node) -> Int {
        if node.type == "ternary_expression", let then = node.child(byField: "if_true"), let otherwise = node.child(byField: "if_false") {
            return branchCount(then) + branchCount(otherwise)
        }
        if node.type == "tuple_expression", let only = node.namedChildren.first, node.namedChildren.count == 1 { return branchCount(only) }
        return 1
    }

    /// `index`, `self.index`, `model.tips`, `SyncCopy.lines`, `self?.index`: names joined by dots from a
    /// name or `self`; nil for anything else (a call, a subscript, a literal).
    static func path(of node: Node) -> RotationFacts.ValuePath? {
        var names: [String] = []
        var current = node
        while true {
            switch current.type {
            case "simple_identifier":
                guard isPlainName(current.text), SwiftWords.isWholeWord(current.byteRange, in: current.tree.source.bytes) else { return nil }
                names.insert(current.text, at: 0)
                return RotationFacts.ValuePath(names: names, fromSelf: false)
            case "self_expression":
                return names.isEmpty ? nil : RotationFacts.ValuePath(names: names, fromSelf: true)
            case "navigation_expression":
                guard let suffix = current.child(byField: "suffix")?.child(byField: "suffix"), suffix.type == "simple_identifier",
                      word(suffix) != nil, let target = current.child(byField: "target") else { return nil }
                names.insert(suffix.text, at: 0)
                current = target
            case "postfix_expression":
                // `model!.tips` (`self?.index` is a navigation whose target is `self`)
                guard let inner = current.namedChildren.first else { return nil }
                current = inner
            default:
                return nil
            }
        }
    }

    /// Every path an expression reads, outermost first (`tips` and `index` of `tips[(index + 1) % tips.count]`).
    static func paths(in node: Node) -> [RotationFacts.ValuePath] {
        var found: [RotationFacts.ValuePath] = []
        node.walk { inner in
            // An implicit member (`.loading`) names no value of its own.
            if inner.type == "prefix_expression", inner.child(byField: "operation")?.text == "." { return false }
            if inner.type == "navigation_expression" || inner.type == "simple_identifier" || inner.type == "self_expression",
               let path = path(of: inner) {
                found.append(path)
                return false
            }
            return !inner.isError
        }
        return unique(found)
    }

    static func unique(_ paths: [RotationFacts.ValuePath]) -> [RotationFacts.ValuePath] {
        var seen = Set<RotationFacts.ValuePath>()
        return paths.filter { seen.insert($0).inserted }
    }

    static func contains(_ node: Node, type: String) -> Bool {
        var found = false
        node.walk { inner in
            if inner.type == type { found = true }
            return !found
        }
        return found
    }

    static func contains(_ node: Node, name: String) -> Bool {
        var found = false
        node.walk { inner in
            if inner.type == "simple_identifier", inner.text == name { found = true }
            return !found
        }
        return found
    }

    // MARK: - Where code is

    /// The code around a node: its type, its locals of stated type.
    mutating func context(_ path: [Node]) -> RotationFacts.Context {
        var context = RotationFacts.Context(owner: Self.owner(path))
        // Locals and parameters of the functions and blocks around it (inner ones first); the type's
        // own members are the resolver's business.
        for ancestor in path.reversed() {
            guard ancestor.type != "class_declaration", ancestor.type != "protocol_declaration" else { return context }
            guard ancestor.type == "function_declaration" || ancestor.type == "init_declaration" || ancestor.type == "statements" else { continue }
            for (name, type) in locals(of: ancestor) where context.localTypes[name] == nil { context.localTypes[name] = type }
        }
        return context
    }

    /// The parameters of a function, or the locals of a block, of stated type (read once per node).
    private mutating func locals(of node: Node) -> [(name: String, type: String)] {
        if let known = localsOf[node.startByte &* 31 &+ node.endByte] { return known }
        var found: [(name: String, type: String)] = []
        if node.type == "statements" {
            for statement in node.namedChildren where statement.type == "property_declaration" {
                if let name = Self.boundName(statement), let type = Self.statedType(of: statement) { found.append((name, type)) }
            }
        } else {
            for parameter in node.namedChildren where parameter.type == "parameter" {
                if let name = parameter.namedChildren.first(where: { $0.type == "simple_identifier" }).flatMap(Self.word),
                   let type = parameter.namedChildren.last(where: { $0.type == "user_type" })?.namedChildren.last(where: { $0.type == "type_identifier" }).flatMap(Self.word) {
                    found.append((name, type))
                }
            }
        }
        localsOf[node.startByte &* 31 &+ node.endByte] = found
        return found
    }

    /// The name of the type (or extension) around code, from its ancestors (outermost first).
    static func owner(_ path: [Node]) -> String? {
        path.last { $0.type == "class_declaration" || $0.type == "protocol_declaration" }.flatMap(SwiftDeclarations.declaredName(of:)).flatMap(word)
    }

    /// `advance` of `advance()`, `self.advance()`, `self?.advance()`; nil for calls on anything else.
    static func calledMethodName(_ call: Node) -> String? {
        guard let callee = call.namedChild(at: 0) else { return nil }
        if callee.type == "simple_identifier" { return callee.text }
        guard let path = path(of: callee), path.fromSelf, path.names.count == 1 else { return nil }
        return path.names[0]
    }

    /// The type a declaration states: its annotation (`: JournalLoader`, `: [String]` gives nil), the
    /// type it calls (`= Store()`, `= Store.shared`, `= Phase.idle`), or the type named in a wrapper's
    /// argument (`@Environment(Store.self)`).
    static func statedType(of declaration: Node) -> String? {
        statedTypeAsWritten(of: declaration).flatMap { isPlainName($0) ? $0 : nil }
    }

    private static func statedTypeAsWritten(of declaration: Node) -> String? {
        if let annotation = declaration.namedChildren.first(where: { $0.type == "type_annotation" }),
           let type = annotation.child(byField: "name") ?? annotation.namedChildren.last {
            if type.type == "user_type" { return type.namedChildren.last(where: { $0.type == "type_identifier" }).flatMap(word) }
            if type.type == "optional_type", let wrapped = type.namedChildren.first, wrapped.type == "user_type" {
                return wrapped.namedChildren.last(where: { $0.type == "type_identifier" }).flatMap(word)
            }
            return nil
        }
        if let value = declaration.child(byField: "value") {
            var node = value
            while node.type == "call_expression" || node.type == "navigation_expression" || node.type == "postfix_expression" {
                if node.type == "call_expression" {
                    if let arguments = node.namedChildren.first(where: { $0.type == "call_suffix" })?.namedChildren.first(where: { $0.type == "value_arguments" }),
                       arguments.child(at: 0)?.type == "[" { return nil }
                    guard let callee = node.namedChild(at: 0) else { return nil }
                    node = callee
                } else if node.type == "navigation_expression" {
                    guard let target = node.child(byField: "target") else { return nil }
                    node = target
                } else {
                    guard let inner = node.namedChildren.first else { return nil }
                    node = inner
                }
            }
            if node.type == "simple_identifier", node.text.first?.isUppercase == true { return word(node) }
        }
        // `@Environment(Store.self) var store`
        for modifiers in declaration.namedChildren where modifiers.type == "modifiers" {
            for attribute in modifiers.namedChildren where attribute.type == "attribute" {
                for argument in attribute.namedChildren where argument.type == "navigation_expression" {
                    if argument.child(byField: "suffix")?.child(byField: "suffix")?.text == "self", let target = argument.child(byField: "target"),
                       target.type == "simple_identifier", target.text.first?.isUppercase == true {
                        return word(target)
                    }
                }
            }
        }
        return nil
    }

    /// Whether a computed value's stated type is text: `String` (or `String?`), `LocalizedStringKey`,
    /// `LocalizedStringResource`, `AttributedString`, `Text`. (`statedType` gives `String` for both.)
    static func isTextType(_ type: String?) -> Bool {
        guard let type else { return false }
        return ["String", "LocalizedStringKey", "LocalizedStringResource", "AttributedString", "Text"].contains(type)
    }

    /// The names of a declaration's attributes (`State`, `Published`, `Observable`, `MainActor`).
    static func attributeNames(_ declaration: Node) -> Set<String> {
        var names = Set<String>()
        for modifiers in declaration.namedChildren where modifiers.type == "modifiers" {
            for attribute in modifiers.namedChildren where attribute.type == "attribute" {
                if let type = attribute.namedChildren.first(where: { $0.type == "user_type" }), let name = SwiftExpressions.lastName(of: type) { names.insert(name) }
            }
        }
        return names
    }

    func place(_ name: String, _ node: Node) -> RotationFacts.Place {
        let position = node.startPosition
        return RotationFacts.Place(name: name, file: file, line: position.line, column: position.column)
    }

    // MARK: - Small readings

    static func isComment(_ node: Node) -> Bool { node.type == "comment" || node.type == "multiline_comment" }

    /// A name node's text when it is a plain name standing as a word of its own: the grammar's error
    /// recovery can cut a name out of a longer word (`structatPill` read as `struct atPill`), and such
    /// a name is no evidence, nor can the select step's whole-word search see it.
    static func word(_ node: Node) -> String? {
        guard isPlainName(node.text), SwiftWords.isWholeWord(node.byteRange, in: node.tree.source.bytes) else { return nil }
        return node.text
    }

    /// Letters, digits, `_` and non-ASCII, with a leading `$` or surrounding backticks allowed.
    static func isPlainName(_ name: String) -> Bool {
        var bytes = Substring(name).utf8.drop { $0 == UInt8(ascii: "$") }
        if bytes.first == UInt8(ascii: "`"), bytes.last == UInt8(ascii: "`"), bytes.count >= 2 { bytes = bytes.dropFirst().dropLast() }
        return !bytes.isEmpty && bytes.allSatisfy { SwiftWords.isNameByte[Int($0)] }
    }

    static func boundName(_ property: Node) -> String? {
        let pattern = property.namedChildren.first { $0.type == "pattern" }
        guard let name = pattern?.namedChildren.first(where: { $0.type == "simple_identifier" }) else { return nil }
        return SwiftWords.isWholeWord(name.byteRange, in: name.tree.source.bytes) ? name.text : nil
    }

    /// An array literal of two or more elements, all string literals.
    static func isStringArray(_ array: Node) -> Bool {
        let elements = array.namedChildren.filter { !isComment($0) }
        return elements.count >= 2 && elements.allSatisfy { SwiftExpressions.isStringLiteral($0) }
    }

    /// Whether a declaration's `let` or `var` stands as a word of its own (not cut out of `valet`).
    static func bindingKeywordIsWholeWord(_ declaration: Node) -> Bool {
        guard let binding = declaration.namedChildren.first(where: { $0.type == "value_binding_pattern" }),
              let keyword = binding.children.first(where: { $0.type == "let" || $0.type == "var" }) else { return true }
        return SwiftWords.isWholeWord(keyword.byteRange, in: keyword.tree.source.bytes)
    }

    /// The case names declared in an enum's body (not their raw values), each a whole word of its own.
    static func enumCases(in body: Node) -> [String] {
        var names: [String] = []
        for entry in body.namedChildren where entry.type == "enum_entry" && !entry.hasError {
            guard entry.children.first(where: { $0.type == "case" }).map({ SwiftWords.isWholeWord($0.byteRange, in: $0.tree.source.bytes) }) ?? false else { continue }
            names += entry.children(byField: "name").filter { $0.type == "simple_identifier" && SwiftWords.isWholeWord($0.byteRange, in: $0.tree.source.bytes) && isPlainName($0.text) }.map(\.text)
        }
        return names
    }

    /// The named parameters of a closure (`context` in `{ context in ... }`; not `_`).
    static func closureParameters(_ closure: Node) -> [String] {
        guard let type = closure.child(byField: "type") else { return [] }
        var names: [String] = []
        for parameters in type.namedChildren where parameters.type == "lambda_function_type_parameters" {
            for parameter in parameters.namedChildren where parameter.type == "lambda_parameter" {
                if let name = parameter.child(byField: "name"), name.type == "simple_identifier", name.text != "_", let plain = word(name) { names.append(plain) }
            }
        }
        return names
    }
}
