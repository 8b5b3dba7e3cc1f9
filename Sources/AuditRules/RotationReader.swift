import AuditModel
import SwiftGrammar
import TreeSitter

/// Reads one file's tree into its `RotationFacts`: the types it declares or extends (their stored
/// properties with stated types, string collections, computed text), the text it shows, and what
/// the code each clock runs changes. The names of clocks, displays and random picks are the rules
/// file's (`RotationVocabulary`); the Swift shapes are known here. One walk of the tree, then one of
/// each clock's code.
struct RotationReader {
    let vocabulary: RotationVocabulary
    let file: String

    /// A closure or method a clock runs, with the clock.
    private struct ClockCode {
        let body: Node
        let clock: RotationFacts.Place
        /// The code of a wait clock's loop: its waits split it into ticks.
        let waits: Bool
    }

    private var facts = RotationFacts()
    private var clockCode: [ClockCode] = []
    /// `let ticks = Timer.publish(...)`: the property's name and the publisher's place.
    private var publishers: [String: RotationFacts.Place] = [:]
    /// A receiver's closures, waiting for the walk to know the publishers.
    private var receives: [(argument: Node, closures: [Node])] = []
    private var timeDrivenClosures: [(body: Node, clock: RotationFacts.Place)] = []
    /// Methods by their type and name (`SyncModel.advance`): what clock code may call.
    private var methods: [String: [Node]] = [:]
    /// Display properties set anywhere (`label.text = ...`), with where, to mark those a clock sets.
    private var displaySets: [(node: Node, index: Int)] = []
    private var observableMarks = false
    private var typeIndex: [Int: Int] = [:]
    /// The locals of stated type each block and function declares, by where it starts (asked of every
    /// display and change under it: read once).
    private var localsOf: [Int: [(name: String, type: String)]] = [:]
    /// Where the publishers' names are: a property's value is looked into only when it holds one.
    private var publisherOffsets: WordOffsets?

    init(vocabulary: RotationVocabulary, file: String) {
        self.vocabulary = vocabulary
        self.file = file
    }

    static func read(_ tree: Tree, file: String, vocabulary: RotationVocabulary, walkWords: [[UInt8]]?) -> RotationFacts {
        var reader = RotationReader(vocabulary: vocabulary, file: file)
        reader.walk(tree, walkWords: walkWords)
        return reader.facts
    }

    /// The words of the code the walk goes into: clocks and displays (declarations, with their stated
    /// types, strings and computed text, it reads wherever they are).
    static func walkWords(_ vocabulary: RotationVocabulary) -> [[UInt8]] {
        vocabulary.clockCalls.union(vocabulary.displayNames).map { Array($0.utf8) }
    }

    /// Whether every node of `path` holds declarations (a container or a type).
    private static func declaresOnly(_ path: [Node], _ kinds: [Kind]) -> Bool {
        path.allSatisfy { node in
            let symbol = node.symbol
            return symbol < kinds.count && (kinds[symbol] == .container || kinds[symbol] == .type)
        }
    }

    /// What the walk does at a node, by its kind.
    private enum Kind {
        case type, property, function, call, assignment
        /// A node that holds declarations: the walk reads each of its children (a type's members, with
        /// their stated types, whatever their words), and goes further only where a word of `walkWords` is.
        case container
        case other
    }

    /// Each node kind's part in the walk, by the grammar's number for it (`Node.symbol`): asked at
    /// every node, where comparing names would cost a string each time.
    private static func kinds(_ tree: Tree) -> [Kind] {
        var kinds = [Kind](repeating: .other, count: tree.symbolCount)
        let named: [(String, Kind)] = [
            ("class_declaration", .type), ("protocol_declaration", .type), ("property_declaration", .property),
            ("function_declaration", .function), ("call_expression", .call), ("assignment", .assignment),
            ("source_file", .container), ("class_body", .container), ("enum_class_body", .container),
        ]
        for (name, kind) in named { for symbol in tree.symbols(named: name) { kinds[symbol] = kind } }
        return kinds
    }

    private mutating func walk(_ tree: Tree, walkWords: [[UInt8]]?) {
        let offsets = walkWords.map { WordOffsets(tree.source, words: $0) } ?? .everywhere
        let publisherWords = vocabulary.publishers.keys.flatMap { $0.split(separator: ".").last.map { [Array($0.utf8)] } ?? [] }
        publisherOffsets = publisherWords.isEmpty ? nil : WordOffsets(tree.source, words: publisherWords)
        let kinds = Self.kinds(tree)
        tree.rootNode.walk(withAncestors: { node, path in
            let symbol = node.symbol
            // Broken code is no evidence (an ERROR node's number is above the grammar's).
            guard symbol < kinds.count else { return false }
            let kind = kinds[symbol]
            switch kind {
            // Declarations count where only declarations lead to them (the file, types and their
            // bodies): a type or a property inside code, or inside what broken code made of it, is no
            // member of the project's types, and the walk, which goes into code only where a clock or
            // a display is, would see it or not by chance.
            case .type:
                if Self.declaresOnly(path, kinds) { noteType(node) }
            case .property:
                if Self.declaresOnly(path, kinds) { noteProperty(node, path: path) }
            case .function:
                // A method: declared in a type's body.
                if Self.declaresOnly(path, kinds), let parent = path.last, parent.type == "class_body" || parent.type == "enum_class_body",
                   let name = node.child(byField: "name"), let body = node.child(byField: "body"), let owner = Self.owner(path) {
                    methods[owner + "." + name.text, default: []].append(body)
                }
            case .call:
                noteCall(node, path: path)
            case .assignment:
                noteDisplaySet(node, path: path)
            case .container, .other:
                break
            }
            // Further only into declarations' holders, and where a clock or a display is.
            return kind == .container || kind == .type || offsets.anyStart(in: node.byteRange)
        })
        for receive in receives {
            let held = SwiftExpressions.lastName(of: receive.argument).flatMap { publishers[$0] }
            let inPlace = vocabulary.publishers.keys.sorted().first { receive.argument.text.contains($0) }
                .map { place(vocabulary.description(ofClock: $0), receive.argument) }
            guard let clock = held ?? inPlace else { continue }
            for closure in receive.closures { clockCode.append(ClockCode(body: closure, clock: clock, waits: false)) }
        }
        for (closure, clock) in timeDrivenClosures { noteTimeDriven(closure, clock: clock) }
        // A clock changes what a view shows only through state a view observes, or by setting text
        // itself: a file with neither holds no clock that counts.
        let showsOrObserves = !facts.displays.isEmpty || observableMarks || facts.types.contains(where: \.isObservable)
        guard showsOrObserves else { return }
        noteChanges()
    }

    // MARK: - Declarations

    private mutating func noteType(_ node: Node) {
        guard let name = SwiftDeclarations.declaredName(of: node), SwiftWords.isWholeWord(name.byteRange, in: node.tree.source.bytes),
              Self.isPlainName(name.text) else { return }
        var type = RotationFacts.TypeFacts(name: name.text, isExtension: SwiftDeclarations.isExtension(node))
        type.isEnum = node.child(byField: "declaration_kind")?.text == "enum"
        let marks = Self.attributeNames(node).union(node.namedChildren.filter { $0.type == "inheritance_specifier" }.compactMap { SwiftExpressions.lastName(of: $0.namedChildren.first ?? $0) })
        type.isObservable = !marks.isDisjoint(with: vocabulary.observableState)
        if type.isEnum, let body = node.child(byField: "body") { type.cases = RotationReader.enumCases(in: body) }
        typeIndex[node.startByte] = facts.types.count
        facts.types.append(type)
    }

    /// A stored or computed property of a type, or a global: its stated type, its strings, its computed value.
    private mutating func noteProperty(_ node: Node, path: [Node]) {
        guard !node.hasError, Self.bindingKeywordIsWholeWord(node), let name = Self.boundName(node), Self.isPlainName(name) else { return }
        let attributes = Self.attributeNames(node)
        if !attributes.isDisjoint(with: vocabulary.observableState) { observableMarks = true }
        let value = node.child(byField: "value")
        // A property holding a publisher, for the receivers.
        if let value, publisherOffsets?.anyStart(in: value.byteRange) == true, let publisher = vocabulary.publishers.keys.sorted().first(where: { value.text.contains($0) }) {
            let callee = publisher.split(separator: ".").last.map(String.init) ?? publisher
            var made: Node?
            value.walk { inner in
                if made == nil, inner.type == "call_expression", SwiftCall(inner)?.calleeName == callee { made = inner }
                return made == nil
            }
            publishers[name] = place(vocabulary.description(ofClock: publisher), made?.namedChild(at: 0) ?? value)
        }
        guard let parent = path.last else { return }
        let isGlobal = parent.type == "source_file"
        let typeBody = parent.type == "class_body" || parent.type == "enum_class_body"
        guard isGlobal || typeBody else { return }
        var member = RotationFacts.Member(place: place(name, node))
        member.type = Self.statedType(of: node)
        if let value, value.type == "array_literal", Self.isStringArray(value) { member.messages = value.namedChildren.filter { !Self.isComment($0) }.count }
        // Computed text: a value of a text type (`var body: some View` is none).
        if let computed = node.namedChildren.first(where: { $0.type == "computed_property" }), Self.isTextType(member.type) {
            let (shape, onSelf) = computedShape(computed)
            member.computed = shape
            member.switchesOnSelf = onSelf
        }
        guard member.type != nil || member.messages > 0 || member.computed != nil || typeBody else { return }
        if isGlobal {
            facts.globals[name] = member
        } else if let declaration = path.dropLast().last, let index = typeIndex[declaration.startByte] {
            facts.types[index].members[name] = member
            if !attributes.isDisjoint(with: vocabulary.observableState) { facts.types[index].isObservable = true }
        }
    }

    /// What a computed property gives: a choice among fixed strings (and whether it switches over
    /// `self`), an element of a collection, or a path.
    private func computedShape(_ computed: Node) -> (RotationFacts.ValueShape?, Bool) {
        var literals = Set<String>()
        var reads: [RotationFacts.ValuePath] = []
        var switchesOnSelf = false
        var single: Node?
        if let statements = computed.namedChildren.first(where: { $0.type == "statements" }) {
            let parts = statements.namedChildren.filter { !Self.isComment($0) }
            if parts.count == 1 { single = parts[0].type == "control_transfer_statement" ? parts[0].namedChildren.last : parts[0] }
        }
        if let single, single.type != "switch_statement", single.type != "if_statement" {
            let shape = self.shape(of: single)
            switch shape {
            case .other, .step, .advance, .time, .enumCase: break
            default: return (shape, false)
            }
        }
        computed.walk { node in
            switch node.type {
            case "switch_statement":
                if let subject = node.child(byField: "expr") ?? node.namedChildren.first {
                    if subject.type == "self_expression" { switchesOnSelf = true } else { reads += Self.paths(in: subject) }
                }
            case "if_statement", "guard_statement":
                for condition in node.children(byField: "condition") { reads += Self.paths(in: condition) }
            case "ternary_expression":
                if let condition = node.child(byField: "condition") { reads += Self.paths(in: condition) }
            default:
                if SwiftExpressions.isPlainStringLiteral(node) {
                    literals.insert(node.text)
                    return false
                }
            }
            return !node.isError
        }
        guard literals.count >= 2, switchesOnSelf || !reads.isEmpty else { return (nil, false) }
        return (.choice(reads: Self.unique(reads), messages: literals.count), switchesOnSelf)
    }

    // MARK: - Calls: clocks and displays

    private mutating func noteCall(_ node: Node, path: [Node]) {
        let callee = SwiftCall.calleeName(of: node) ?? ""
        let isClock = vocabulary.clockCalls.contains(callee)
        let isDisplay = vocabulary.displayCalls.contains(callee) || vocabulary.displaySetters.contains(callee)
        guard isClock || isDisplay, !node.hasError, let call = SwiftCall(node) else { return }
        let closures = call.trailingClosures + call.arguments.compactMap { $0.value.type == "lambda_literal" ? $0.value : nil }
        if isClock {
            let clock = place(vocabulary.description(ofClock: callee), node)
            if vocabulary.closureClocks[callee] != nil { for closure in closures { clockCode.append(ClockCode(body: closure, clock: clock, waits: false)) } }
            if vocabulary.targetClocks[callee] != nil, let selector = call.argument(labelled: "selector")?.value, selector.type == "selector_expression",
               let method = selector.namedChildren.last.flatMap(SwiftExpressions.lastName(of:)), let owner = Self.owner(path) {
                // The method may come after the call: looked up once the walk is done.
                pendingTargets.append((owner + "." + method, clock))
            }
            if vocabulary.waitClocks[callee] != nil {
                let ancestors = path.reversed()
                let loop = ancestors.first { ["while_statement", "for_statement", "repeat_while_statement"].contains($0.type) }
                if let body = loop ?? ancestors.first(where: { $0.type == "lambda_literal" || $0.type == "function_body" }) {
                    clockCode.append(ClockCode(body: body, clock: clock, waits: true))
                }
            }
            if vocabulary.receivers.contains(callee), let argument = call.arguments.first?.value { receives.append((argument, closures)) }
            if vocabulary.timeDrivenViews[callee] != nil { for closure in closures { timeDrivenClosures.append((closure, clock)) } }
        }
        if isDisplay {
            // The first unlabelled argument (or `verbatim:`); a date or a number shown with a style or a
            // format is the time or a count, not a message.
            guard let argument = call.arguments.first(where: { $0.label == nil || $0.label == "verbatim" }),
                  !call.arguments.contains(where: { ["style", "format", "formatter"].contains($0.label ?? "") }) else { return }
            let shown = shape(of: argument.value)
            guard shown != .other else { return }
            addDisplay(node, shown: shown, path: path, name: callee)
        }
    }

    private var pendingTargets: [(method: String, clock: RotationFacts.Place)] = []

    /// `statusLabel.text = ...`: a display property set on a view (not a plain variable named `text`).
    private mutating func noteDisplaySet(_ node: Node, path: [Node]) {
        guard !node.hasError, let target = node.child(byField: "target"), let result = node.child(byField: "result"),
              let expression = target.namedChildren.last, expression.type == "navigation_expression",
              let property = SwiftExpressions.lastName(of: expression), vocabulary.displayProperties.contains(property) else { return }
        let shown = shape(of: result)
        guard shown != .other else { return }
        displaySets.append((node, facts.displays.count))
        addDisplay(node, shown: shown, path: path, name: property)
    }

    private mutating func addDisplay(_ node: Node, shown: RotationFacts.ValueShape, path: [Node], name: String) {
        let end = node.endPosition
        let snippet = node.tree.source.text(node.byteRange).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        facts.displays.append(RotationFacts.Display(
            place: place(name, node), endLine: end.line, endColumn: end.column, startByte: node.startByte, endByte: node.endByte,
            shown: shown, context: context(path), scope: SwiftDeclarations.scopePath(ancestors: path.reversed()), snippet: String(snippet.prefix(120))))
    }

    // MARK: - What clocks change

    /// The changes in the code each clock runs, and in the methods of its type that code calls
    /// (`RotationReader.methodDepth` calls deep, in this file).
    private mutating func noteChanges() {
        for (method, clock) in pendingTargets {
            for body in methods[method] ?? [] { clockCode.append(ClockCode(body: body, clock: clock, waits: false)) }
        }
        var seen = Set<String>()
        var level = clockCode
        for depth in 0...Self.methodDepth {
            var next: [ClockCode] = []
            for code in level where seen.insert("\(code.body.startByte):\(code.clock.line):\(code.clock.column)").inserted {
                let owner = Self.owner(code.body.ancestors)
                noteChanges(in: code)
                guard depth < Self.methodDepth, let owner else { continue }
                code.body.walk { node in
                    if node.type == "call_expression", let name = Self.calledMethodName(node) {
                        for body in self.methods[owner + "." + name] ?? [] { next.append(ClockCode(body: body, clock: code.clock, waits: false)) }
                    }
                    return true
                }
            }
            level = next
        }
    }

    /// How many calls deep a clock's code is followed into the methods of its own type.
    static let methodDepth = 2

    /// The assignments of one piece of clock code, in source order. Waits split a wait clock's loop
    /// into ticks; a member set twice in one tick is stepped by the work, not by the clock; a value
    /// set after an `await` (other than a wait) or taken from one follows the work.
    private mutating func noteChanges(in code: ClockCode) {
        var tick = 0
        var afterWork = false
        var casesInTick: [String: Int] = [:]
        /// Members set once the work's result is in: their other values in the same code follow the work too.
        var setAfterWork = Set<String>()
        var found: [(node: Node, target: RotationFacts.ValuePath, shape: RotationFacts.ValueShape, tick: Int)] = []
        code.body.walk { node in
            if node.isError { return false }
            // Code that runs later, elsewhere: a nested clock's closure is that clock's.
            if node != code.body, node.type == "lambda_literal", let call = node.parent?.parent, call.type == "call_expression",
               let name = SwiftCall.calleeName(of: call), self.vocabulary.clockCalls.contains(name) { return false }
            if node.type == "call_expression", let name = SwiftCall.calleeName(of: node), self.vocabulary.waitClocks[name] != nil, code.waits {
                tick += 1
                return false
            }
            if node.type == "await_expression" {
                let waits = node.namedChildren.contains { inner in
                    var isWait = false
                    inner.walk { call in
                        if call.type == "call_expression", let name = SwiftCall.calleeName(of: call), self.vocabulary.waitClocks[name] != nil { isWait = true }
                        return !isWait
                    }
                    return isWait
                }
                if !waits { afterWork = true }
            }
            guard node.type == "assignment", !node.hasError, let target = node.child(byField: "target"),
                  let result = node.child(byField: "result"), let path = Self.path(of: target.namedChildren.last ?? target) else { return true }
            let operation = node.child(byField: "operator")?.text ?? "="
            var shape: RotationFacts.ValueShape
            if afterWork || Self.contains(result, type: "await_expression") || Self.contains(result, type: "try_expression") {
                shape = .other
                setAfterWork.insert(path.description)
            } else if operation == "+=" || operation == "-=" {
                shape = .advance
            } else if operation == "=", Self.movesOn(result, from: path.names.last ?? "") {
                shape = .advance
            } else {
                shape = self.shape(of: result)
            }
            // A value read by name changes nothing by itself, except an enum's case written with its
            // type (`phase = LoadPhase.slow`).
            if case .path(let value) = shape {
                shape = value.names.count == 2 && value.names[0].first?.isUppercase == true ? .enumCase(value.names[1]) : .other
            }
            if shape != .other {
                if case .enumCase = shape { casesInTick[path.description + "#\(tick)", default: 0] += 1 }
                found.append((node, path, shape, tick))
            }
            return true
        }
        for (node, target, shape, tick) in found {
            // Two cases set in one tick, or a case set before work that sets the state again when it is
            // done: the work steps the state (`.checking`, then `.upToDate`), not the clock.
            if case .enumCase = shape, casesInTick[target.description + "#\(tick)", default: 0] > 1 || setAfterWork.contains(target.description) { continue }
            // A display property set on the clock: the display itself changes with it.
            if vocabulary.displayProperties.contains(target.names.last ?? ""), target.names.count > 1,
               let set = displaySets.first(where: { $0.node == node }) {
                facts.displays[set.index].setBy = code.clock
                continue
            }
            var change = RotationFacts.TimedChange(target: target, context: context(node.ancestors), shape: shape, clock: code.clock,
                                                   place: place(target.names.last ?? "", node))
            if let result = node.child(byField: "result") { change.reads = Self.paths(in: result) }
            facts.changes.append(change)
        }
    }

    /// Whether `value` moves `name` on: `(index + 1) % tips.count`, `index == last ? 0 : index + 1`.
    static func movesOn(_ value: Node, from name: String) -> Bool {
        guard ["additive_expression", "multiplicative_expression", "ternary_expression", "tuple_expression"].contains(value.type) else { return false }
        var reads = false
        value.walk { node in
            if node.type == "simple_identifier", node.text == name { reads = true }
            return !reads
        }
        return reads
    }

    /// A time-driven view's content closure: its parameter (`context`) is the time, and each local
    /// declared from it (or from an earlier one) is computed from the time; displays inside see them.
    private mutating func noteTimeDriven(_ closure: Node, clock: RotationFacts.Place) {
        guard !closure.hasError else { return }
        var timed: [String: RotationFacts.TimeDrivenValue] = [:]
        for name in Self.closureParameters(closure) { timed[name] = RotationFacts.TimeDrivenValue(clock: clock, value: .time) }
        guard !timed.isEmpty else { return }
        closure.walk { node in
            guard node.type == "property_declaration", !node.hasError, let name = Self.boundName(node), let value = node.child(byField: "value") else { return true }
            let reads = Self.paths(in: value).compactMap(\.names.first)
            guard reads.contains(where: { timed[$0] != nil }) else { return true }
            var shape = self.shape(of: value)
            if case .other = shape { shape = .time }
            timed[name] = RotationFacts.TimeDrivenValue(clock: clock, value: shape)
            return true
        }
        for index in facts.displays.indices where closure.startByte <= facts.displays[index].startByte && facts.displays[index].endByte <= closure.endByte {
            facts.displays[index].context.timeDriven.merge(timed) { first, _ in first }
        }
    }

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
    private mutating func context(_ path: [Node]) -> RotationFacts.Context {
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
