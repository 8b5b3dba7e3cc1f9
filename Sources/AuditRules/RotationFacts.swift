import AuditModel
import Foundation
import SwiftGrammar
import TreeSitter

/// What one file says about text that changes over time: string arrays, text properties of phase
/// enums, assignments made by timers, and the `Text(...)` calls that show something. Matched across
/// files afterwards, because apps spread these over a model, a view model and a view. Only code the
/// parser reads without error counts: a guess inside a broken region is not evidence.
public struct RotationFacts: Sendable, Codable, Equatable {
    public struct Place: Sendable, Codable, Equatable {
        public let name: String
        public let file: String
        public let line: Int
        public let column: Int
    }

    /// A state assigned inside something that runs on a clock.
    public struct TimedAssignment: Sendable, Codable, Equatable {
        public let state: String
        /// The timer, `asyncAfter`, `Task.sleep`, `Timer.publish` or time-driven view that drives it
        /// (its name: how messages call it, from the rules' `clocks`).
        public let clock: Place
        /// Names the assigned value reads (`tips`, `index`).
        public let readsNames: [String]
        /// The `randomElement()` call that picks the value, if it is picked at random.
        public var random: Place? = nil
        /// The enum case assigned (`phase = .loadingJournal` gives `loadingJournal`), if any.
        public var assignedCase: String? = nil
        /// For a value a time-driven view's content closure computes from the time (its parameter,
        /// `context`, and the locals computed from it): the closure, the only place it is seen.
        public var within: LocalScope? = nil
    }

    /// A closure of one file, by bytes: a name declared there means nothing elsewhere.
    public struct LocalScope: Sendable, Codable, Equatable {
        public let file: String
        public let startByte: Int
        public let endByte: Int

        func contains(_ display: Display, in file: String) -> Bool {
            file == self.file && startByte <= display.startByte && display.endByte <= endByte
        }
    }

    /// A text property of an enum, with the enum's cases (`var message` of `LoadingPhase`).
    public struct TextProperty: Sendable, Codable, Equatable {
        public let place: Place
        public let cases: [String]
    }

    public enum Shown: Sendable, Codable, Equatable {
        /// `Text(array[index])`
        case element(array: String, indexNames: [String])
        /// `Text(array.randomElement() ?? "")`
        case random(array: String, call: Place)
        /// `Text(phase.message)`
        case property(base: String, property: String)
        /// `Text(currentLine)`, `Text(model.currentLine)`
        case value(String)
    }

    public struct Display: Sendable, Codable, Equatable {
        public let place: Place
        public let endLine: Int
        public let endColumn: Int
        public let startByte: Int
        public let endByte: Int
        public let shown: Shown
        public let scope: String
        public let snippet: String
    }

    public var stringArrays: [Place] = []
    public var textProperties: [TextProperty] = []
    public var timedAssignments: [TimedAssignment] = []
    public var displays: [Display] = []

    public var isEmpty: Bool { stringArrays.isEmpty && textProperties.isEmpty && timedAssignments.isEmpty && displays.isEmpty }

    init() {}

    /// What the select step saw a file's words rule out: a walk need not look for the rest.
    public struct Hints: Sendable {
        public var stringArrays = true
        public var textEnums = true
        public var clocks = true
        public var displays = true

        public static let everything = Hints()

        public init() {}

        public init(stringArrays: Bool, textEnums: Bool, clocks: Bool, displays: Bool) {
            self.stringArrays = stringArrays
            self.textEnums = textEnums
            self.clocks = clocks
            self.displays = displays
        }

        var isEmpty: Bool { !(stringArrays || textEnums || clocks || displays) }
    }

    /// The words every node the walk acts on holds, of the kinds `hints` leave possible: a clock's
    /// name or `Timer.publish`, a display's name, a string literal's quote (string arrays, text
    /// properties). A file whose name index rules out string arrays and text enums need not be walked
    /// into its many string literals.
    static func walkWords(_ vocabulary: RotationVocabulary, hints: Hints = .everything) -> [[UInt8]] {
        var words: Set<String> = []
        if hints.clocks { words.formUnion(vocabulary.clockCalls.union(vocabulary.publishers.keys)) }
        if hints.displays { words.formUnion(vocabulary.displayCalls) }
        if hints.stringArrays || hints.textEnums { words.insert("\"") }
        return words.map { Array($0.utf8) }
    }

    /// `walkWords` (from `walkWords(_:hints:)`, given by the engine) lets the walk skip the subtrees
    /// that hold none of them; nil walks the whole tree.
    init(tree: Tree, file: String, vocabulary: RotationVocabulary, walkWords: [[UInt8]]?, hints: Hints = .everything) {
        guard !hints.isEmpty else { return }
        var clocks = ClockSites(vocabulary: vocabulary)
        let wordOffsets = walkWords.map { WordOffsets(tree.source, words: $0) } ?? .everywhere
        tree.rootNode.walk(withAncestors: { node, path in
            guard wordOffsets.anyStart(in: node.byteRange) else { return false }
            switch node.type {
            case "property_declaration":
                noteProperty(node, path: path, file: file, hints: hints, clocks: &clocks)
            case "call_expression":
                noteCall(node, path: path, file: file, clocks: &clocks)
            default:
                break
            }
            return true
        })
        let bodies = clocks.bodies(file: file)
        let picks = vocabulary.randomPicks
        noteTimedAssignments(in: bodies, file: file, randomPicks: picks)
        // In the methods a clock calls, only the type's own state counts (`index = …`, `self.current = …`):
        // `winLabel.text = …` there changes another object's property, which no `Text(text)` shows.
        noteTimedAssignments(in: Self.calledMethodBodies(from: bodies, root: tree.rootNode), file: file, randomPicks: picks, ownStateOnly: true)
        noteTimeDrivenValues(in: clocks.timeDrivenClosures, file: file, randomPicks: picks)
        keepOnlyPlainNames()
    }

    /// Where a file's clocks are, as its walk finds them; `bodies` tells the code each one runs.
    private struct ClockSites {
        let vocabulary: RotationVocabulary
        /// `vocabulary.clockCalls` and the publishers' names (sorted), taken once per file: asked at
        /// every call and property the walk reaches.
        let clockCalls: Set<String>
        private let publisherNames: [String]
        /// `let ticks = Timer.publish(...)`: the property's name, and where the publisher is made.
        var publishers: [String: Place] = [:]
        /// A closure a clock runs (`scheduledTimer`, `asyncAfter`), with the clock.
        var closures: [(body: Node, clock: Place)] = []
        var waits: [(node: Node, ancestors: [Node], clock: String)] = []
        var receives: [(argument: Node, closures: [Node], call: Node)] = []
        /// A time-driven view's content closure (`TimelineView(...) { context in ... }`), with the view.
        var timeDrivenClosures: [(body: Node, clock: Place)] = []

        init(vocabulary: RotationVocabulary) {
            self.vocabulary = vocabulary
            clockCalls = vocabulary.clockCalls
            publisherNames = vocabulary.publishers.keys.sorted()
        }

        /// The publisher named in `text` (`Timer.publish`), if any.
        func publisher(in text: String) -> String? {
            publisherNames.first { text.contains($0) }
        }

        /// The code each clock runs: the closures; a receiver's closures when it receives a publisher
        /// (in place, or a property holding one); the loop around a wait, or else the body it is in.
        func bodies(file: String) -> [(body: Node, clock: Place)] {
            var bodies = closures
            for receive in receives {
                let argument = receive.argument
                let held = SwiftExpressions.lastName(of: argument).flatMap { publishers[$0] }
                let inPlace = publisher(in: argument.text).map { RotationFacts.place(vocabulary.description(ofClock: $0), argument, file) }
                guard let clock = held ?? inPlace else { continue }
                for closure in receive.closures { bodies.append((closure, clock)) }
            }
            for wait in waits {
                let loop = wait.ancestors.first { ["while_statement", "for_statement", "repeat_while_statement"].contains($0.type) }
                let body = loop ?? wait.ancestors.first { $0.type == "lambda_literal" || $0.type == "function_body" }
                if let body { bodies.append((body, RotationFacts.place(vocabulary.description(ofClock: wait.clock), wait.node, file))) }
            }
            return bodies
        }
    }

    static func place(_ name: String, _ node: Node, _ file: String) -> Place {
        let position = node.startPosition
        return Place(name: name, file: file, line: position.line, column: position.column)
    }

    /// A property: a string array, a `Timer.publish` kept for `onReceive`, a text enum's property.
    private mutating func noteProperty(_ node: Node, path: [Node], file: String, hints: Hints, clocks: inout ClockSites) {
        // Error recovery can make a declaration of broken code (`valet tips = [...]`: an error
        // inside it, or an error `va` before it and a clean `let` cut out of the word,
        // fuzz/regressions/keyword-cut-out-of-a-word.swift): only well-formed code counts, which
        // is also what the prefilter's lexer can vouch for.
        guard !node.hasError, Self.bindingKeywordIsWholeWord(node), let name = Self.boundName(node) else { return }
        let enumBody = path.last(where: { $0.type == "enum_class_body" })
        if let value = node.child(byField: "value") ?? node.namedChildren.first(where: { $0.type == "array_literal" }) {
            if value.type == "array_literal", Self.isStringArray(value) { stringArrays.append(Self.place(name, node, file)) }
            if let publisher = clocks.publisher(in: value.text) {
                let callee = publisher.split(separator: ".").last.map(String.init) ?? publisher
                var publish: Node?
                value.walk { inner in
                    if publish == nil, inner.type == "call_expression", SwiftCall(inner)?.calleeName == callee { publish = inner }
                    return publish == nil
                }
                clocks.publishers[name] = Self.place(clocks.vocabulary.description(ofClock: publisher),
                                                     publish.flatMap { $0.namedChild(at: 0) } ?? value, file)
            }
        }
        if hints.textEnums, let enumBody, Self.isTextProperty(node),
           let bodyIndex = path.lastIndex(where: { $0 == enumBody }), bodyIndex > 0,
           path[bodyIndex - 1].child(byField: "declaration_kind").map(Self.isWholeWord) ?? false {
            // (An `enum` cut out of a longer word, `fooenum Phase {`, is broken code: no evidence.)
            textProperties.append(TextProperty(place: Self.place(name, node, file), cases: Self.enumCases(in: enumBody)))
        }
    }

    /// A call: a clock (kept for later: what it runs is known once the walk is done) or a display.
    private mutating func noteCall(_ node: Node, path: [Node], file: String, clocks: inout ClockSites) {
        // Most calls are neither a clock nor a display: their arguments need not be taken apart.
        let vocabulary = clocks.vocabulary
        let callee = SwiftCall.calleeName(of: node) ?? ""
        let isClock = clocks.clockCalls.contains(callee)
        guard isClock || vocabulary.displayCalls.contains(callee), let call = SwiftCall(node) else { return }
        let closures = call.trailingClosures + call.arguments.compactMap { $0.value.type == "lambda_literal" ? $0.value : nil }
        if isClock {
            let clock = Self.place(vocabulary.description(ofClock: callee), node, file)
            if vocabulary.closureClocks[callee] != nil { for closure in closures { clocks.closures.append((closure, clock)) } }
            if vocabulary.waitClocks[callee] != nil { clocks.waits.append((node, path.reversed(), callee)) }
            if vocabulary.receivers.contains(callee), let argument = call.arguments.first?.value { clocks.receives.append((argument, closures, node)) }
            if vocabulary.timeDrivenViews[callee] != nil { for closure in closures { clocks.timeDrivenClosures.append((closure, clock)) } }
        }
        if vocabulary.displayCalls.contains(callee) {
            guard !node.hasError, let argument = call.arguments.first, argument.label == nil,
                  let shown = Self.shown(argument.value, randomPicks: vocabulary.randomPicks, place: { Self.place($0, $1, file) }) else { return }
            let end = node.endPosition
            let snippet = node.tree.source.text(node.byteRange).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            displays.append(Display(place: Self.place(callee, node, file), endLine: end.line, endColumn: end.column,
                                    startByte: node.startByte, endByte: node.endByte, shown: shown,
                                    scope: SwiftDeclarations.scopePath(ancestors: path.reversed()), snippet: String(snippet.prefix(120))))
        }
    }

    /// The assignments in the code the clocks run, each once: what they assign, what they read.
    private mutating func noteTimedAssignments(in clockBodies: [(body: Node, clock: Place)], file: String, randomPicks: Set<String>,
                                               ownStateOnly: Bool = false) {
        var seen = Set<String>()
        for (body, clock) in clockBodies {
            body.walk { node in
                guard node.type == "assignment", !node.hasError, let target = node.child(byField: "target"),
                      let state = Self.assignedName(target), let result = node.child(byField: "result") else { return true }
                if ownStateOnly, !Self.isOwnState(target) { return true }
                let key = "\(state)@\(node.startByte)"
                if seen.insert(key).inserted {
                    var assignment = TimedAssignment(state: state, clock: clock, readsNames: Self.names(in: result))
                    assignment.random = Self.randomPick(in: result, picks: randomPicks).map { Self.place($0.name, $0.call, file) }
                    assignment.assignedCase = Self.caseName(result)
                    timedAssignments.append(assignment)
                }
                return true
            }
        }
    }

    /// What a time-driven view's content closure computes from the time: its parameter (`context`
    /// in `TimelineView(...) { context in ... }`) and, in order, each local declared from it or from
    /// an earlier one (`let index = Int(context.date.timeIntervalSince1970 / 3) % tips.count`). Each
    /// is a timed value seen only inside the closure (`within`), as if the view assigned it at every tick.
    private mutating func noteTimeDrivenValues(in closures: [(body: Node, clock: Place)], file: String, randomPicks: Set<String>) {
        for (closure, clock) in closures where !closure.hasError {
            let scope = LocalScope(file: file, startByte: closure.startByte, endByte: closure.endByte)
            var timed = Self.closureParameters(closure)
            for name in timed {
                var value = TimedAssignment(state: name, clock: clock, readsNames: [])
                value.within = scope
                timedAssignments.append(value)
            }
            guard !timed.isEmpty else { continue }
            closure.walk { node in
                guard node.type == "property_declaration", !node.hasError, let name = Self.boundName(node),
                      let value = node.child(byField: "value") else { return true }
                let reads = Self.names(in: value)
                guard reads.contains(where: timed.contains) else { return true }
                timed.append(name)
                var local = TimedAssignment(state: name, clock: clock, readsNames: reads)
                local.random = Self.randomPick(in: value, picks: randomPicks).map { Self.place($0.name, $0.call, file) }
                local.within = scope
                timedAssignments.append(local)
                return true
            }
        }
    }

    /// Every name an expression reads (`tips`, `index`, `count` in `tips[(index + 1) % tips.count]`), in order.
    static func names(in expression: Node) -> [String] {
        var names: [String] = []
        expression.walk { node in
            if node.type == "simple_identifier" { names.append(node.text) }
            return true
        }
        return names
    }

    /// The named parameters of a closure (`context` in `{ context in ... }`; not `_`).
    static func closureParameters(_ closure: Node) -> [String] {
        guard let type = closure.child(byField: "type") else { return [] }
        var names: [String] = []
        for parameters in type.namedChildren where parameters.type == "lambda_function_type_parameters" {
            for parameter in parameters.namedChildren where parameter.type == "lambda_parameter" {
                if let name = parameter.child(byField: "name"), name.type == "simple_identifier", name.text != "_" { names.append(name.text) }
            }
        }
        return names
    }

    /// How many calls deep a clock's code is followed into the methods of its own type.
    public static let methodDepth = 2

    /// The bodies of the methods of the same type (in this file: the type and its extensions) that
    /// the code a clock runs calls by name (`advance()`, `self.advance()`, `self?.advance()`), and of
    /// those they call, `methodDepth` calls deep: what they assign changes on the clock too. A call
    /// on anything else (`model.advance()`, `reload()` of another type) is not followed.
    static func calledMethodBodies(from bodies: [(body: Node, clock: Place)], root: Node) -> [(body: Node, clock: Place)] {
        guard !bodies.isEmpty else { return [] }
        // (Types from the walk's ancestors: tree-sitter finds a node's parent by descending from the root.)
        var methods: [String: [Node]] = [:]
        var typeOfBody: [Int: String] = [:]
        root.walk(withAncestors: { node, path in
            if node.type == "function_declaration", let name = node.child(byField: "name"), let body = node.child(byField: "body") {
                let type = path.last { $0.type == "class_declaration" || $0.type == "protocol_declaration" }?.child(byField: "name")?.text ?? ""
                methods[type + "." + name.text, default: []].append(body)
                typeOfBody[body.startByte] = type
            }
            return node.type != "function_body" && node.type != "lambda_literal" && node.type != "statements"
        })
        guard !methods.isEmpty else { return [] }
        var found: [(body: Node, clock: Place)] = []
        var seen = Set(bodies.map(\.body.startByte))
        var level = bodies
        for _ in 0..<methodDepth {
            var next: [(body: Node, clock: Place)] = []
            for (body, clock) in level {
                let owner = typeOfBody[body.startByte] ?? typeName(around: body) ?? ""
                body.walk { node in
                    guard node.type == "call_expression", let name = calledMethodName(node) else { return true }
                    for method in methods[owner + "." + name] ?? [] where seen.insert(method.startByte).inserted {
                        next.append((method, clock))
                    }
                    return true
                }
            }
            found += next
            level = next
        }
        return found
    }

    /// `index` or `self.index` (with `self?`): the state of the type whose method assigns it.
    static func isOwnState(_ target: Node) -> Bool {
        guard let expression = target.type == "directly_assignable_expression" ? target.namedChild(at: 0) : target else { return false }
        if expression.type == "simple_identifier" { return true }
        return expression.type == "navigation_expression" && expression.child(byField: "target")?.type == "self_expression"
    }

    /// `advance` in `advance()`, `self.advance()` and `self?.advance()`; nil for calls on anything else.
    static func calledMethodName(_ call: Node) -> String? {
        guard let callee = call.namedChild(at: 0) else { return nil }
        if callee.type == "simple_identifier" { return callee.text }
        guard callee.type == "navigation_expression", callee.child(byField: "target")?.type == "self_expression",
              let suffix = callee.child(byField: "suffix")?.child(byField: "suffix") else { return nil }
        return suffix.text
    }

    /// The name of the type (or extension) a node is in: `TipsModel` for `extension TipsModel`.
    static func typeName(around node: Node) -> String? {
        var current = node.parent
        while let candidate = current {
            if candidate.type == "class_declaration" || candidate.type == "protocol_declaration" {
                return candidate.child(byField: "name")?.text
            }
            current = candidate.parent
        }
        return nil
    }

    /// The pinned grammar lets some characters Swift does not into a name (`addingHot*els`): such
    /// code is broken, and its names are no evidence (nor can the prefilter's lexer vouch for them).
    mutating func keepOnlyPlainNames() {
        let plain = Self.isPlainName
        stringArrays.removeAll { !plain($0.name) }
        textProperties = textProperties.filter { plain($0.place.name) }
            .map { TextProperty(place: $0.place, cases: $0.cases.filter(plain)) }
        timedAssignments = timedAssignments.filter { plain($0.state) }.map { assignment in
            var kept = TimedAssignment(state: assignment.state, clock: assignment.clock, readsNames: assignment.readsNames.filter(plain))
            kept.random = assignment.random
            kept.within = assignment.within
            kept.assignedCase = assignment.assignedCase.flatMap { plain($0) ? $0 : nil }
            return kept
        }
        displays.removeAll { display in
            switch display.shown {
            case .element(let array, let names): return !plain(array) || !names.allSatisfy(plain)
            case .random(let array, _): return !plain(array)
            case .property(let base, let property): return !plain(base) || !plain(property)
            case .value(let name): return !plain(name)
            }
        }
    }

    /// Letters, digits, `_` and non-ASCII, with a leading `$` or surrounding backticks allowed.
    static func isPlainName(_ name: String) -> Bool {
        var bytes = Substring(name).utf8.drop { $0 == UInt8(ascii: "$") }
        if bytes.first == UInt8(ascii: "`"), bytes.last == UInt8(ascii: "`"), bytes.count >= 2 { bytes = bytes.dropFirst().dropLast() }
        return !bytes.isEmpty && bytes.allSatisfy { SwiftWords.isNameByte[Int($0)] }
    }

    static func boundName(_ property: Node) -> String? {
        let pattern = property.namedChildren.first { $0.type == "pattern" }
        if let name = pattern?.namedChildren.first(where: { $0.type == "simple_identifier" }) { return isWholeWord(name) ? name.text : nil }
        return pattern?.text
    }

    /// False for a name the grammar cut out of a longer word (`casecase` read as `case` and `case`):
    /// broken code, whatever the tree says.
    public static func isWholeWord(_ node: Node) -> Bool {
        SwiftWords.isWholeWord(node.byteRange, in: node.tree.source.bytes)
    }

    /// An array literal of two or more elements, all string literals.
    static func isStringArray(_ array: Node) -> Bool {
        let elements = array.namedChildren.filter { $0.type != "comment" && $0.type != "multiline_comment" }
        return elements.count >= 2 && elements.allSatisfy { SwiftExpressions.isStringLiteral($0) }
    }

    /// A computed property (of an enum: the caller checks) that switches to two or more string literals.
    static func isTextProperty(_ property: Node) -> Bool {
        guard let computed = property.namedChildren.first(where: { $0.type == "computed_property" }) else { return false }
        var hasSwitch = false
        var literals = Set<String>()
        computed.walk { node in
            if node.type == "switch_statement" { hasSwitch = true }
            if SwiftExpressions.isStringLiteral(node) {
                literals.insert(node.text)
                return false
            }
            return true
        }
        return hasSwitch && literals.count >= 2
    }

    /// Whether a declaration's `let` or `var` stands as a word of its own (not cut out of `valet`).
    static func bindingKeywordIsWholeWord(_ declaration: Node) -> Bool {
        guard let binding = declaration.namedChildren.first(where: { $0.type == "value_binding_pattern" }),
              let keyword = binding.children.first(where: { $0.type == "let" || $0.type == "var" }) else { return true }
        return isWholeWord(keyword)
    }

    /// The case names declared in an enum's body.
    static func enumCases(in body: Node) -> [String] {
        var names: [String] = []
        for entry in body.namedChildren where entry.type == "enum_entry" && !entry.hasError {
            // Error recovery can start the keyword inside a longer word (`foocase a` reads as `foo`, an
            // error, then `case a`): broken code, whose cases are no evidence (fuzz/regressions/
            // word-glued-before-case.swift), and which the prefilter's lexer does not take for a case.
            guard entry.children.first(where: { $0.type == "case" }).map(isWholeWord) ?? false else { continue }
            // The cases' names, not their raw values (`case idle = "idle"`).
            names += entry.children(byField: "name").filter { $0.type == "simple_identifier" && isWholeWord($0) }.map(\.text)
        }
        return names
    }

    /// `.loadingJournal` or `LoadingPhase.loadingJournal`: the case an assignment picks.
    static func caseName(_ value: Node) -> String? {
        if value.type == "prefix_expression", value.child(byField: "operation")?.text == ".", let target = value.child(byField: "target"),
           target.type == "simple_identifier" {
            return target.text
        }
        if value.type == "navigation_expression", let target = value.child(byField: "target"), target.type == "simple_identifier",
           target.text.first?.isUppercase == true {
            return SwiftExpressions.lastName(of: value)
        }
        return nil
    }

    /// `index`, `self.index`, `model.index`: the last name assigned to.
    static func assignedName(_ target: Node) -> String? {
        let expression = target.namedChildren.last ?? target
        if expression.type == "simple_identifier" { return expression.text }
        return SwiftExpressions.lastName(of: expression)
    }

    /// The first call of one of `picks` (`randomElement`) in `node`, with its name.
    static func randomPick(in node: Node, picks: Set<String>) -> (name: String, call: Node)? {
        guard !picks.isEmpty else { return nil }
        var found: (name: String, call: Node)?
        node.walk { inner in
            if found == nil, inner.type == "call_expression", let name = SwiftCall(inner)?.calleeName, picks.contains(name) { found = (name, inner) }
            return found == nil
        }
        return found
    }

    /// What a `Text(...)` argument shows, when it is something that could change over time.
    static func shown(_ value: Node, randomPicks: Set<String>, place: (String, Node) -> Place) -> Shown? {
        if let (name, random) = randomPick(in: value, picks: randomPicks), let call = SwiftCall(random),
           let target = call.callee.child(byField: "target"), let array = SwiftExpressions.lastName(of: target) {
            return .random(array: array, call: place(name, random))
        }
        switch value.type {
        case "call_expression":
            guard let call = SwiftCall(value), let arguments = value.namedChildren.first(where: { $0.type == "call_suffix" })?
                    .namedChildren.first(where: { $0.type == "value_arguments" }),
                  arguments.child(at: 0)?.type == "[", let array = SwiftExpressions.lastName(of: call.callee) else { return nil }
            return .element(array: array, indexNames: names(in: arguments))
        case "navigation_expression":
            guard let property = SwiftExpressions.lastName(of: value), let target = value.child(byField: "target") else { return nil }
            if let base = SwiftExpressions.lastName(of: target) { return .property(base: base, property: property) }
            return .value(property)
        case "simple_identifier":
            return .value(value.text)
        default:
            return nil
        }
    }
}

/// The rotation facts of the whole project, by name.
public struct RotationIndex: Sendable {
    var arrays: [String: [RotationFacts.Place]] = [:]
    var textProperties: [String: [RotationFacts.TextProperty]] = [:]
    var timed: [String: [RotationFacts.TimedAssignment]] = [:]

    init(_ facts: [RotationFacts]) {
        for fact in facts {
            for array in fact.stringArrays { arrays[array.name, default: []].append(array) }
            for property in fact.textProperties { textProperties[property.place.name, default: []].append(property) }
            for assignment in fact.timedAssignments { timed[assignment.state, default: []].append(assignment) }
        }
    }

    /// The findings of one file's displays: text that a clock or chance changes.
    func findings(for facts: RotationFacts, rule: Rule, file: String) -> [Finding] {
        facts.displays.compactMap { display -> Finding? in
            guard let (what, sources) = explain(display, file: file) else { return nil }
            var finding = Finding(
                ruleId: rule.id, severity: rule.severity, file: file,
                start: SourcePoint(line: display.place.line, column: display.place.column, byteOffset: display.startByte),
                end: SourcePoint(line: display.endLine, column: display.endColumn, byteOffset: display.endByte),
                symbol: display.place.name, message: "\(rule.message) (\(what))", replacement: nil, fix: .manual
            )
            finding.related = sources.map { RelatedLocation(file: $0.place.file, line: $0.place.line, column: $0.place.column, message: $0.role) }
            finding.scope = display.scope
            finding.snippet = display.snippet
            return finding
        }
    }

    private typealias Source = (place: RotationFacts.Place, role: String)

    private func first(_ places: [RotationFacts.Place]?) -> RotationFacts.Place? {
        places?.min { ($0.file, $0.line, $0.column) < ($1.file, $1.line, $1.column) }
    }

    /// The timed assignments of `name` that `display` can see: all but a time-driven view's values,
    /// which only the displays inside its closure see. Nil when there are none.
    private func timed(_ name: String, seenFrom display: RotationFacts.Display, in file: String) -> [RotationFacts.TimedAssignment]? {
        let seen = (timed[name] ?? []).filter { $0.within?.contains(display, in: file) ?? true }
        return seen.isEmpty ? nil : seen
    }

    private func explain(_ display: RotationFacts.Display, file: String) -> (String, [Source])? {
        switch display.shown {
        case .element(let array, let indexNames):
            guard let strings = first(arrays[array]), let state = indexNames.first(where: { self.timed($0, seenFrom: display, in: file) != nil }),
                  let assignments = timed(state, seenFrom: display, in: file) else { return nil }
            return ("\(array)[\(state)] changes with \(clockName(assignments[0].clock))",
                    [(strings, "the strings that rotate")] + clocks(assignments, "what advances \(state)"))
        case .random(let array, let call):
            guard let strings = first(arrays[array]) else { return nil }
            return ("a random element of \(array)", [(strings, "the strings it picks from"), (call, "the random pick")])
        case .property(let base, let property):
            // A clock must switch `base` between cases of the enum that owns the text property.
            for text in textProperties[property] ?? [] {
                let assignments = (timed(base, seenFrom: display, in: file) ?? []).filter { $0.assignedCase.map(text.cases.contains) ?? false }
                guard !assignments.isEmpty else { continue }
                return ("\(base).\(property) changes with \(clockName(assignments[0].clock))",
                        [(text.place, "the messages of each phase")] + clocks(assignments, "what advances \(base)"))
            }
            return valueExplanation(property, display, file)
        case .value(let name):
            return valueExplanation(name, display, file)
        }
    }

    /// `Text(currentLine)` where a clock assigns `currentLine` an element of a string array.
    private func valueExplanation(_ name: String, _ display: RotationFacts.Display, _ file: String) -> (String, [Source])? {
        for assignment in timed(name, seenFrom: display, in: file) ?? [] {
            guard let array = assignment.readsNames.first(where: { arrays[$0] != nil }), let strings = first(arrays[array]) else { continue }
            var sources: [Source] = [(strings, "the strings that rotate"), (assignment.clock, "what changes \(name)")]
            if let random = assignment.random { sources.append((random, "the random pick")) }
            let how = assignment.random == nil ? "" : " picked at random"
            return ("\(name) takes strings of \(array)\(how) with \(clockName(assignment.clock))", sources)
        }
        return nil
    }

    /// Each distinct clock behind a state, in source order.
    private func clocks(_ assignments: [RotationFacts.TimedAssignment], _ role: String) -> [Source] {
        var seen = Set<String>()
        return assignments.map(\.clock)
            .sorted { ($0.file, $0.line, $0.column) < ($1.file, $1.line, $1.column) }
            .filter { seen.insert("\($0.file):\($0.line):\($0.column)").inserted }
            .map { ($0, role) }
    }

    /// A clock as messages name it (its place's name is the rules' description: "a repeating Timer").
    private func clockName(_ clock: RotationFacts.Place) -> String {
        "\(clock.name) (\(clock.file):\(clock.line))"
    }
}
