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
        case SwiftNodeType.tupleExpression:
            let parts = value.namedChildren.filter { !SwiftExpressions.isComment($0) }
            return parts.count == 1 ? shape(of: parts[0]) : .other
        case SwiftNodeType.integerLiteral:
            return .step
        case SwiftNodeType.prefixExpression:
            if value.child(byField: SwiftField.operation)?.text == ".", let target = value.child(byField: SwiftField.target), target.type == SwiftNodeType.simpleIdentifier {
                return .enumCase(target.text)
            }
            return .other
        case SwiftNodeType.ternaryExpression:
            guard let condition = value.child(byField: SwiftField.condition), let then = value.child(byField: SwiftField.ifTrue), let otherwise = value.child(byField: SwiftField.ifFalse) else { return .other }
            let literals = [then, otherwise].flatMap(Self.messages(in:))
            guard Set(literals).count >= 2, literals.count == Self.branchCount(then) + Self.branchCount(otherwise) else { return .other }
            return .choice(reads: Self.paths(in: condition), messages: Set(literals).count)
        case SwiftNodeType.nilCoalescingExpression:
            return value.namedChildren.first.map(shape(of:)) ?? .other
        case SwiftNodeType.postfixExpression:
            // `tips.randomElement()!`
            return value.namedChildren.first.map(shape(of:)) ?? .other
        case SwiftNodeType.callExpression:
            guard let call = SwiftCall(value) else { return .other }
            if let arguments = Self.subscriptArguments(value) {
                guard let collection = Self.path(of: call.callee) else { return .other }
                if collection.names.last == "allCases" { return .enumCase(nil) }
                return .element(collection: collection, index: Self.paths(in: arguments))
            }
            let name = call.calleeName ?? ""
            if vocabulary.randomPicks.contains(name), let target = call.callee.child(byField: SwiftField.target), let collection = Self.path(of: target) {
                return .random(collection: collection, pick: place(name, value))
            }
            if Self.textWrappers.contains(name) || (name == "String" && call.argument(labelled: "localized") != nil),
               let first = call.arguments.first {
                return shape(of: first.value)
            }
            if name == "next" || name.hasPrefix("timeIntervalSince") { return name == "next" ? .enumCase(nil) : .time }
            if name == "Date" { return .time }
            return made(call, member: nil)
        case SwiftNodeType.simpleIdentifier, SwiftNodeType.navigationExpression, SwiftNodeType.selfExpression:
            // `Phase(elapsed: ...).message`: a member of a value made in place.
            if value.type == SwiftNodeType.navigationExpression, let target = value.child(byField: SwiftField.target), target.type == SwiftNodeType.callExpression,
               let suffix = value.child(byField: SwiftField.suffix)?.child(byField: SwiftField.suffix), suffix.type == SwiftNodeType.simpleIdentifier,
               let member = Self.word(suffix), let call = SwiftCall(target) {
                // `Tip.allCases[index].rawValue`: an element of an enum's cases, shown as its raw value.
                if member == "rawValue", Self.isSubscript(target), let collection = Self.path(of: call.callee), collection.names.last == "allCases",
                   let arguments = Self.subscriptArguments(target) {
                    return .element(collection: collection, index: Self.paths(in: arguments))
                }
                // `Tip.allCases.randomElement()?.rawValue`: a random pick of them.
                if member == "rawValue", case .random(let collection, _) = shape(of: target), collection.names.last == "allCases" { return shape(of: target) }
                return made(call, member: member)
            }
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

    /// The arguments of a subscript (`tips[index]`, read by the grammar as a call with `[`), or nil.
    static func subscriptArguments(_ call: Node) -> Node? {
        guard let arguments = call.namedChildren.first(where: { $0.type == SwiftNodeType.callSuffix })?.namedChildren.first(where: { $0.type == SwiftNodeType.valueArguments }),
              arguments.child(at: 0)?.type == "[" else { return nil }
        return arguments
    }

    static func isSubscript(_ call: Node) -> Bool { subscriptArguments(call) != nil }

    /// A value of a type made in place from arguments (`Phase(elapsed: e)`): the type is named by an
    /// upper-case word (or `Self`) and given at least one argument; `.other` for any other call.
    func made(_ call: SwiftCall, member: String?) -> RotationFacts.ValueShape {
        guard call.callee.type == SwiftNodeType.simpleIdentifier, let type = Self.word(call.callee), type.first?.isUppercase == true,
              !call.arguments.isEmpty, call.trailingClosures.isEmpty else { return .other }
        return .made(type: type, member: member, reads: Self.unique(call.arguments.flatMap { Self.paths(in: $0.value) }))
    }

    /// Whether an initializer chooses the state it makes by a condition (an `if`, `guard`, `switch` or
    /// ternary) and sets it (to `self` or a stored member) in two or more places, or once to a choice.
    /// Every type's initializers are asked: the walk compares grammar symbol numbers, not names.
    static func choosesState(_ initializer: Node) -> Bool {
        guard let body = initializer.child(byField: SwiftField.body) ?? initializer.namedChildren.last(where: { $0.type == SwiftNodeType.functionBody }) else { return false }
        let parts = Self.choiceParts
        var branches = false
        var sets = 0
        body.walk { node in
            let symbol = node.symbol
            // Above the grammar's numbers: an ERROR node, not read further.
            guard symbol < parts.count else { return !node.isError }
            switch parts[symbol] {
            case .branch:
                branches = true
            case .assignment:
                if let result = node.child(byField: SwiftField.result), [SwiftNodeType.ternaryExpression, SwiftNodeType.switchStatement, SwiftNodeType.ifStatement].contains(result.type) {
                    sets += 2
                } else {
                    sets += 1
                }
            case .closure:
                return false
            case .other:
                break
            }
            return true
        }
        return branches && sets >= 2
    }

    /// What each node kind is to `choosesState`, by the grammar's number for it.
    private enum ChoicePart { case branch, assignment, closure, other }

    private static let choiceParts: [ChoicePart] = {
        var parts = [ChoicePart](repeating: .other, count: Language.swift.symbolCount)
        let named: [(String, ChoicePart)] = [
            (SwiftNodeType.ifStatement, .branch), (SwiftNodeType.guardStatement, .branch), (SwiftNodeType.switchStatement, .branch),
            (SwiftNodeType.ternaryExpression, .branch), (SwiftNodeType.assignment, .assignment), (SwiftNodeType.lambdaLiteral, .closure),
        ]
        for (name, part) in named { for symbol in Language.swift.symbols(named: name) { parts[symbol] = part } }
        return parts
    }()

    /// Whether a type's body declares an initializer that `choosesState` (its members read in place,
    /// without a list of them).
    static func hasChoosingInit(_ body: Node) -> Bool {
        var chooses = false
        var isBody = true
        body.walk { node in
            if isBody {
                isBody = false
                return true
            }
            if !chooses, node.isNamed, SwiftKinds.initDeclaration.contains(node), choosesState(node) { chooses = true }
            return false
        }
        return chooses
    }

    /// Calls that show their first argument as text: localization wrappers.
    static let textWrappers: Set<String> = ["LocalizedStringKey", "NSLocalizedString", "LocalizedStringResource"]

    /// The plain string literals a branch of a choice ends in (`"a"`, or both of a nested `c ? "b" : "c"`).
    static func messages(in node: Node) -> [String] {
        if SwiftExpressions.isPlainStringLiteral(node) { return [node.text] }
        if node.type == SwiftNodeType.ternaryExpression, let then = node.child(byField: SwiftField.ifTrue), let otherwise = node.child(byField: SwiftField.ifFalse) {
            return messages(in: then) + messages(in: otherwise)
        }
        if node.type == SwiftNodeType.tupleExpression, let only = node.namedChildren.first, node.namedChildren.count == 1 { return messages(in: only) }
        return []
    }

    static func branchCount(_ node: Node) -> Int {
        if node.type == SwiftNodeType.ternaryExpression, let then = node.child(byField: SwiftField.ifTrue), let otherwise = node.child(byField: SwiftField.ifFalse) {
            return branchCount(then) + branchCount(otherwise)
        }
        if node.type == SwiftNodeType.tupleExpression, let only = node.namedChildren.first, node.namedChildren.count == 1 { return branchCount(only) }
        return 1
    }

    /// `index`, `self.index`, `model.tips`, `SyncCopy.lines`, `self?.index`: names joined by dots from a
    /// name or `self`; nil for anything else (a call, a subscript, a literal).
    static func path(of node: Node) -> RotationFacts.ValuePath? {
        var names: [String] = []
        var current = node
        while true {
            switch current.type {
            case SwiftNodeType.simpleIdentifier:
                guard isPlainName(current.text), SwiftWords.isWholeWord(current.byteRange, in: current.tree.source.bytes) else { return nil }
                names.insert(current.text, at: 0)
                return RotationFacts.ValuePath(names: names, fromSelf: false)
            case SwiftNodeType.selfExpression:
                return names.isEmpty ? nil : RotationFacts.ValuePath(names: names, fromSelf: true)
            case SwiftNodeType.navigationExpression:
                guard let suffix = current.child(byField: SwiftField.suffix)?.child(byField: SwiftField.suffix), suffix.type == SwiftNodeType.simpleIdentifier,
                      word(suffix) != nil, let target = current.child(byField: SwiftField.target) else { return nil }
                names.insert(suffix.text, at: 0)
                current = target
            case SwiftNodeType.postfixExpression:
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
            if SwiftExpressions.isImplicitMember(inner) { return false }
            if inner.type == SwiftNodeType.navigationExpression || inner.type == SwiftNodeType.simpleIdentifier || inner.type == SwiftNodeType.selfExpression,
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
            if inner.type == SwiftNodeType.simpleIdentifier, inner.text == name { found = true }
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
            guard !SwiftKinds.typeDeclaration.contains(ancestor) else { return context }
            guard SwiftKinds.functionDeclaration.contains(ancestor) || SwiftKinds.initDeclaration.contains(ancestor) || SwiftKinds.statements.contains(ancestor) else { continue }
            for (name, type) in locals(of: ancestor) where context.localTypes[name] == nil { context.localTypes[name] = type }
        }
        return context
    }

    /// The parameters of a function, or the locals of a block, of stated type (read once per node).
    private mutating func locals(of node: Node) -> [(name: String, type: String)] {
        if let known = localsOf[node.startByte &* 31 &+ node.endByte] { return known }
        var found: [(name: String, type: String)] = []
        if node.type == SwiftNodeType.statements {
            for statement in node.namedChildren where statement.type == SwiftNodeType.propertyDeclaration {
                if let name = Self.boundName(statement), let type = Self.statedType(of: statement) { found.append((name, type)) }
            }
        } else {
            for parameter in node.namedChildren where parameter.type == SwiftNodeType.parameter {
                if let name = parameter.namedChildren.first(where: { $0.type == SwiftNodeType.simpleIdentifier }).flatMap(Self.word),
                   let type = parameter.namedChildren.last(where: { $0.type == SwiftNodeType.userType })?.namedChildren.last(where: { $0.type == SwiftNodeType.typeIdentifier }).flatMap(Self.word) {
                    found.append((name, type))
                }
            }
        }
        localsOf[node.startByte &* 31 &+ node.endByte] = found
        return found
    }

    /// The name of the type (or extension) around code, from its ancestors (outermost first).
    static func owner(_ path: [Node]) -> String? {
        path.last { SwiftKinds.typeDeclaration.contains($0) }.flatMap(SwiftDeclarations.declaredName(of:)).flatMap(word)
    }

    /// `advance` of `advance()`, `self.advance()`, `self?.advance()`; nil for calls on anything else.
    static func calledMethodName(_ call: Node) -> String? {
        guard let callee = call.namedChild(at: 0) else { return nil }
        if callee.type == SwiftNodeType.simpleIdentifier { return callee.text }
        guard let path = path(of: callee), path.fromSelf, path.names.count == 1 else { return nil }
        return path.names[0]
    }

    /// The type a declaration states: its annotation (`: JournalLoader`, `: [String]` gives nil), the
    /// type it calls (`= Store()`, `= Store.shared`, `= Phase.idle`), or the type named in a wrapper's
    /// argument (`@Environment(Store.self)`).
    static func statedType(of declaration: Node) -> String? {
        statedType(of: declaration, parts: declaration.namedChildren)
    }

    /// The same, given the declaration's named children (`parts`) read once by the caller.
    static func statedType(of declaration: Node, parts: [Node]) -> String? {
        statedTypeAsWritten(of: declaration, parts: parts).flatMap { isPlainName($0) ? $0 : nil }
    }

    private static func statedTypeAsWritten(of declaration: Node, parts: [Node]) -> String? {
        if let annotation = parts.first(where: { SwiftKinds.typeAnnotation.contains($0) }),
           let type = annotation.child(byField: SwiftField.name) ?? annotation.namedChildren.last {
            if SwiftKinds.userType.contains(type) { return SwiftKinds.typeIdentifier.lastNamedChild(of: type).flatMap(word) }
            if SwiftKinds.optionalType.contains(type), let wrapped = type.namedChildren.first, SwiftKinds.userType.contains(wrapped) {
                return SwiftKinds.typeIdentifier.lastNamedChild(of: wrapped).flatMap(word)
            }
            return nil
        }
        if let value = declaration.child(byField: SwiftField.value) {
            var node = value
            while node.type == SwiftNodeType.callExpression || node.type == SwiftNodeType.navigationExpression || node.type == SwiftNodeType.postfixExpression {
                if node.type == SwiftNodeType.callExpression {
                    if let arguments = node.namedChildren.first(where: { $0.type == SwiftNodeType.callSuffix })?.namedChildren.first(where: { $0.type == SwiftNodeType.valueArguments }),
                       arguments.child(at: 0)?.type == "[" { return nil }
                    guard let callee = node.namedChild(at: 0) else { return nil }
                    node = callee
                } else if node.type == SwiftNodeType.navigationExpression {
                    guard let target = node.child(byField: SwiftField.target) else { return nil }
                    node = target
                } else {
                    guard let inner = node.namedChildren.first else { return nil }
                    node = inner
                }
            }
            if node.type == SwiftNodeType.simpleIdentifier, node.text.first?.isUppercase == true { return word(node) }
        }
        // `@Environment(Store.self) var store`
        for modifiers in parts where modifiers.type == SwiftNodeType.modifiers {
            for attribute in modifiers.namedChildren where attribute.type == SwiftNodeType.attribute {
                for argument in attribute.namedChildren where argument.type == SwiftNodeType.navigationExpression {
                    if argument.child(byField: SwiftField.suffix)?.child(byField: SwiftField.suffix)?.text == "self", let target = argument.child(byField: SwiftField.target),
                       target.type == SwiftNodeType.simpleIdentifier, target.text.first?.isUppercase == true {
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
        attributeNames(parts: declaration.namedChildren)
    }

    /// The same, given the declaration's named children.
    static func attributeNames(parts: [Node]) -> Set<String> {
        var names = Set<String>()
        for modifiers in parts where SwiftKinds.modifiers.contains(modifiers) {
            for attribute in modifiers.namedChildren where SwiftKinds.attribute.contains(attribute) {
                if let type = SwiftKinds.userType.firstNamedChild(of: attribute), let name = SwiftExpressions.lastName(of: type) { names.insert(name) }
            }
        }
        return names
    }

    func place(_ name: String, _ node: Node) -> RotationFacts.Place {
        let position = node.startPosition
        return RotationFacts.Place(name: name, file: file, line: position.line, column: position.column)
    }

    // MARK: - Small readings

    /// A name node's text when it is a plain name standing as a word of its own: the grammar's error
    /// recovery can cut a name out of a longer word (`structatPill` read as `struct atPill`), and such
    /// a name is no evidence, nor can the select step's whole-word search see it.
    static func word(_ node: Node) -> String? {
        guard isPlainName(node.text), SwiftWords.isWholeWord(node.byteRange, in: node.tree.source.bytes) else { return nil }
        return node.text
    }

    /// Letters, digits, `_` and non-ASCII, with a leading `$` or surrounding backticks allowed.
    /// Read on the name's bytes in place (the plain way, `plainIsPlainName`, took a generic walk of a
    /// `Substring`'s view, thousands of instructions a name; `ShortcutEquivalenceTests` compares them).
    static func isPlainName(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            var start = 0, end = bytes.count
            while start < end, bytes[start] == UInt8(ascii: "$") { start += 1 }
            if end - start >= 2, bytes[start] == UInt8(ascii: "`"), bytes[end - 1] == UInt8(ascii: "`") {
                start += 1
                end -= 1
            }
            guard start < end else { return false }
            let table = ByteClass.table
            for index in start..<end where !table[Int(bytes[index])].contains(.name) { return false }
            return true
        }
    }

    /// `isPlainName` the plain way, for the test that compares both.
    static func plainIsPlainName(_ name: String) -> Bool {
        var bytes = Substring(name).utf8.drop { $0 == UInt8(ascii: "$") }
        if bytes.first == UInt8(ascii: "`"), bytes.last == UInt8(ascii: "`"), bytes.count >= 2 { bytes = bytes.dropFirst().dropLast() }
        return SwiftWords.isAllNameBytes(bytes)
    }

    static func boundName(_ property: Node) -> String? {
        boundName(parts: property.namedChildren)
    }

    /// The same, given the declaration's named children.
    static func boundName(parts: [Node]) -> String? {
        let pattern = parts.first { SwiftKinds.pattern.contains($0) }
        guard let name = pattern.flatMap(SwiftKinds.simpleIdentifier.firstNamedChild(of:)) else { return nil }
        return SwiftWords.isWholeWord(name.byteRange, in: name.tree.source.bytes) ? name.text : nil
    }

    /// An array literal of two or more elements, all string literals.
    static func isStringArray(_ array: Node) -> Bool {
        let elements = array.namedChildren.filter { !SwiftExpressions.isComment($0) }
        return elements.count >= 2 && elements.allSatisfy { SwiftExpressions.isStringLiteral($0) }
    }

    /// Whether a declaration's `let` or `var` stands as a word of its own (not cut out of `valet`).
    static func bindingKeywordIsWholeWord(_ declaration: Node) -> Bool {
        bindingKeywordIsWholeWord(parts: declaration.namedChildren)
    }

    /// The same, given the declaration's named children.
    static func bindingKeywordIsWholeWord(parts: [Node]) -> Bool {
        guard let binding = parts.first(where: { SwiftKinds.valueBindingPattern.contains($0) }),
              let keyword = SwiftKinds.bindingKeyword.firstChild(of: binding) else { return true }
        return SwiftWords.isWholeWord(keyword.byteRange, in: keyword.tree.source.bytes)
    }

    /// The case names declared in an enum's body (not their raw values), each a whole word of its own.
    static func enumCases(in body: Node) -> [String] {
        var names: [String] = []
        for entry in body.namedChildren where entry.type == SwiftNodeType.enumEntry && !entry.hasError {
            guard entry.children.first(where: { $0.type == SwiftNodeType.caseKeyword }).map({ SwiftWords.isWholeWord($0.byteRange, in: $0.tree.source.bytes) }) ?? false else { continue }
            names += entry.children(byField: SwiftField.name).filter { $0.type == SwiftNodeType.simpleIdentifier && SwiftWords.isWholeWord($0.byteRange, in: $0.tree.source.bytes) && isPlainName($0.text) }.map(\.text)
        }
        return names
    }

    /// The named parameters of a closure (`context` in `{ context in ... }`; not `_`).
    static func closureParameters(_ closure: Node) -> [String] {
        guard let type = closure.child(byField: SwiftField.type) else { return [] }
        var names: [String] = []
        for parameters in type.namedChildren where parameters.type == SwiftNodeType.lambdaFunctionTypeParameters {
            for parameter in parameters.namedChildren where parameter.type == SwiftNodeType.lambdaParameter {
                if let name = parameter.child(byField: SwiftField.name), name.type == SwiftNodeType.simpleIdentifier, name.text != "_", let plain = word(name) { names.append(plain) }
            }
        }
        return names
    }
}
