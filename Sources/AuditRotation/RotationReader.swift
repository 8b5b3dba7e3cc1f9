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
    /// The vocabulary's names as the reader asks them, made once for every file.
    let names: Names
    let file: String

    /// What the reader asks of the vocabulary at every call and property, made once by
    /// `RotationAnalysis` (the vocabulary's `clockCalls` and `displayNames` are unions made anew on
    /// each ask, and the publishers were sorted at each property that holds one).
    struct Names: Sendable {
        /// `RotationVocabulary.clockCalls`.
        let clockCalls: Set<String>
        /// Calls that show text: display calls and setters.
        let displayCalls: Set<String>
        /// The publishers' names, sorted.
        let publishers: [String]
        /// The words of the code the walk goes into when it skips unmarked subtrees: clocks and displays.
        let walkWords: WordSet
        /// The last names of the publishers (`publish` of `Timer.publish`), nil without publishers.
        let publisherWords: WordSet?

        init(_ vocabulary: RotationVocabulary) {
            clockCalls = vocabulary.clockCalls
            displayCalls = vocabulary.displayCalls.union(vocabulary.displaySetters)
            publishers = vocabulary.publishers.keys.sorted()
            walkWords = WordSet(RotationReader.walkWords(vocabulary))
            let words = vocabulary.publishers.keys.flatMap { $0.split(separator: ".").last.map { [Array($0.utf8)] } ?? [] }
            publisherWords = words.isEmpty ? nil : WordSet(words)
        }
    }

    /// A closure or method a clock runs, with the clock.
    struct ClockCode {
        let body: Node
        let clock: RotationFacts.Place
        /// The code of a wait clock's loop: its waits split it into ticks.
        let waits: Bool
    }

    var facts = RotationFacts()
    var clockCode: [ClockCode] = []
    /// `let ticks = Timer.publish(...)`: the property's name and the publisher's place.
    private var publishers: [String: RotationFacts.Place] = [:]
    /// A receiver's closures, waiting for the walk to know the publishers.
    private var receives: [(argument: Node, closures: [Node])] = []
    private var timeDrivenClosures: [(body: Node, clock: RotationFacts.Place)] = []
    /// Methods by their type and name (`SyncModel.advance`): what clock code may call.
    var methods: [String: [Node]] = [:]
    /// Display properties set anywhere (`label.text = ...`), with where, to mark those a clock sets.
    var displaySets: [(node: Node, index: Int)] = []
    private var observableMarks = false
    private var typeIndex: [Int: Int] = [:]
    /// The locals of stated type each block and function declares, by where it starts (asked of every
    /// display and change under it: read once).
    var localsOf: [Int: [(name: String, type: String)]] = [:]
    /// Where the publishers' names are: a property's value is looked into only when it holds one.
    private var publisherOffsets: WordOffsets?

    init(vocabulary: RotationVocabulary, names: Names, file: String) {
        self.vocabulary = vocabulary
        self.names = names
        self.file = file
    }

    static func read(_ tree: Tree, file: String, vocabulary: RotationVocabulary, names: Names, skipsUnmarkedSubtrees: Bool) -> RotationFacts {
        var reader = RotationReader(vocabulary: vocabulary, names: names, file: file)
        reader.walk(tree, skipsUnmarkedSubtrees: skipsUnmarkedSubtrees)
        return reader.facts
    }

    /// Whether a part of a file (a tree of tree-sitter's included ranges: `AnchorCut`) may make the
    /// whole file an anchor: read as `read` reads, except that the clocks' changes are noted whether or
    /// not the part shows text or holds observable state (the rest of the file may), and broken code
    /// (which the whole file's parse may read otherwise) counts as may.
    static func mayAnchor(_ tree: Tree, vocabulary: RotationVocabulary, names: Names, skipsUnmarkedSubtrees: Bool) -> Bool {
        if tree.rootNode.hasError { return true }
        var reader = RotationReader(vocabulary: vocabulary, names: names, file: "")
        reader.assumesShowsOrObserves = true
        reader.walk(tree, skipsUnmarkedSubtrees: skipsUnmarkedSubtrees)
        return reader.facts.isAnchor
    }

    /// Whether the clocks' changes are noted even where nothing of the tree shows text or holds
    /// observable state (`mayAnchor`).
    private var assumesShowsOrObserves = false

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
        /// A `for` loop: `for await` over a sequence that ticks runs its body on a clock.
        case loop
        /// A node that holds declarations: the walk reads each of its children (a type's members, with
        /// their stated types, whatever their words), and goes further only where a word of `walkWords` is.
        case container
        case other
    }

    /// Each node kind's part in the walk, by the grammar's number for it (`Node.symbol`): asked at
    /// every node, where comparing names would cost a string each time.
    /// Made once for the Swift grammar, the only one (naming the symbols takes a string comparison each).
    private static let kinds: [Kind] = {
        var kinds = [Kind](repeating: .other, count: Language.swift.symbolCount)
        let named: [(String, Kind)] = [
            (SwiftNodeType.classDeclaration, .type), (SwiftNodeType.protocolDeclaration, .type), (SwiftNodeType.propertyDeclaration, .property),
            (SwiftNodeType.functionDeclaration, .function), (SwiftNodeType.callExpression, .call), (SwiftNodeType.assignment, .assignment),
            (SwiftNodeType.forStatement, .loop),
            (SwiftNodeType.sourceFile, .container), (SwiftNodeType.classBody, .container), (SwiftNodeType.enumClassBody, .container),
        ]
        for (name, kind) in named { for symbol in Language.swift.symbols(named: name) { kinds[symbol] = kind } }
        return kinds
    }()

    private mutating func walk(_ tree: Tree, skipsUnmarkedSubtrees: Bool) {
        let offsets = skipsUnmarkedSubtrees ? WordOffsets(tree.source, words: names.walkWords) : .everywhere
        publisherOffsets = names.publisherWords.map { WordOffsets(tree.source, words: $0) }
        let kinds = Self.kinds
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
                if Self.declaresOnly(path, kinds), let parent = path.last, SwiftKinds.typeBody.contains(parent),
                   let name = node.child(byField: SwiftField.name), let body = node.child(byField: SwiftField.body), let owner = Self.owner(path) {
                    methods[owner + "." + name.text, default: []].append(body)
                }
            case .call:
                noteCall(node, path: path)
            case .assignment:
                noteDisplaySet(node, path: path)
            case .loop:
                noteLoop(node)
            case .container, .other:
                break
            }
            // Further only into declarations' holders, and where a clock or a display is.
            return kind == .container || kind == .type || offsets.anyStart(in: node.byteRange)
        })
        for receive in receives {
            let held = SwiftExpressions.lastName(of: receive.argument).flatMap { publishers[$0] }
            let inPlace = names.publishers.first { receive.argument.text.contains($0) }
                .map { place(vocabulary.description(ofClock: $0), receive.argument) }
            guard let clock = held ?? inPlace else { continue }
            for closure in receive.closures { clockCode.append(ClockCode(body: closure, clock: clock, waits: false)) }
        }
        for (closure, clock) in timeDrivenClosures { noteTimeDriven(closure, clock: clock) }
        // A clock changes what a view shows only through state a view observes, or by setting text
        // itself: a file with neither holds no clock that counts.
        let showsOrObserves = assumesShowsOrObserves || !facts.displays.isEmpty || observableMarks || facts.types.contains(where: \.isObservable)
        guard showsOrObserves else { return }
        noteChanges()
    }

    // MARK: - Declarations

    private mutating func noteType(_ node: Node) {
        guard let name = SwiftDeclarations.declaredName(of: node), SwiftWords.isWholeWord(name.byteRange, in: node.tree.source.bytes),
              Self.isPlainName(name.text) else { return }
        var type = RotationFacts.TypeFacts(name: name.text, isExtension: SwiftDeclarations.isExtension(node))
        type.isEnum = node.child(byField: SwiftField.declarationKind)?.text == "enum"
        let parts = node.namedChildren
        let marks = Self.attributeNames(parts: parts).union(parts.filter { $0.type == SwiftNodeType.inheritanceSpecifier }.compactMap { SwiftExpressions.lastName(of: $0.namedChildren.first ?? $0) })
        type.isObservable = !marks.isDisjoint(with: vocabulary.observableState)
        if let body = node.child(byField: SwiftField.body) {
            if type.isEnum { type.cases = RotationReader.enumCases(in: body) }
            // `enum Tip: String, CaseIterable`: its `allCases` are fixed strings, each shown by `rawValue`.
            if type.isEnum, marks.contains("String"), marks.contains("CaseIterable"), type.cases.count >= 2 {
                var all = RotationFacts.Member(place: place("allCases", name))
                all.messages = type.cases.count
                all.isSynthesized = true
                type.members["allCases"] = all
            }
            type.initChooses = Self.hasChoosingInit(body)
        }
        typeIndex[node.startByte] = facts.types.count
        facts.types.append(type)
    }

    /// A stored or computed property of a type, or a global: its stated type, its strings, its computed value.
    private mutating func noteProperty(_ node: Node, path: [Node]) {
        // The declaration's parts, read once for every question below (each read walks the children).
        let parts = node.namedChildren
        guard !node.hasError, Self.bindingKeywordIsWholeWord(parts: parts), let name = Self.boundName(parts: parts), Self.isPlainName(name) else { return }
        let attributes = Self.attributeNames(parts: parts)
        if !attributes.isDisjoint(with: vocabulary.observableState) { observableMarks = true }
        let value = node.child(byField: SwiftField.value)
        // A property holding a publisher, for the receivers.
        if let value, publisherOffsets?.anyStart(in: value.byteRange) == true, let publisher = names.publishers.first(where: { value.text.contains($0) }) {
            let callee = publisher.split(separator: ".").last.map(String.init) ?? publisher
            var made: Node?
            value.walk { inner in
                if made == nil, inner.type == SwiftNodeType.callExpression, SwiftCall(inner)?.calleeName == callee { made = inner }
                return made == nil
            }
            publishers[name] = place(vocabulary.description(ofClock: publisher), made?.namedChild(at: 0) ?? value)
        }
        guard let parent = path.last else { return }
        let isGlobal = parent.type == SwiftNodeType.sourceFile
        let typeBody = parent.type == SwiftNodeType.classBody || parent.type == SwiftNodeType.enumClassBody
        guard isGlobal || typeBody else { return }
        var member = RotationFacts.Member(place: place(name, node))
        member.type = Self.statedType(of: node, parts: parts)
        if let value, value.type == SwiftNodeType.arrayLiteral, Self.isStringArray(value) { member.messages = value.namedChildren.filter { !SwiftExpressions.isComment($0) }.count }
        // A stored value that starts as a random pick of a collection (`= Quips.all.randomElement() ?? "..."`).
        if typeBody, let value, [SwiftNodeType.callExpression, SwiftNodeType.nilCoalescingExpression, SwiftNodeType.postfixExpression].contains(value.type),
           case .random = shape(of: value) {
            member.initialPick = shape(of: value)
        }
        // Computed text: a value of a text type (`var body: some View` is none).
        if let computed = parts.first(where: { $0.type == SwiftNodeType.computedProperty }), Self.isTextType(member.type) {
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
        if let statements = computed.namedChildren.first(where: { $0.type == SwiftNodeType.statements }) {
            let parts = statements.namedChildren.filter { !SwiftExpressions.isComment($0) }
            if parts.count == 1 { single = parts[0].type == SwiftNodeType.controlTransferStatement ? parts[0].namedChildren.last : parts[0] }
        }
        if let single, single.type != SwiftNodeType.switchStatement, single.type != SwiftNodeType.ifStatement {
            let shape = self.shape(of: single)
            switch shape {
            case .other, .step, .advance, .time, .enumCase: break
            default: return (shape, false)
            }
        }
        computed.walk { node in
            switch node.type {
            case SwiftNodeType.switchStatement:
                if let subject = node.child(byField: SwiftField.expr) ?? node.namedChildren.first {
                    if subject.type == SwiftNodeType.selfExpression { switchesOnSelf = true } else { reads += Self.paths(in: subject) }
                }
            case SwiftNodeType.ifStatement, SwiftNodeType.guardStatement:
                for condition in node.children(byField: SwiftField.condition) { reads += Self.paths(in: condition) }
            case SwiftNodeType.ternaryExpression:
                if let condition = node.child(byField: SwiftField.condition) { reads += Self.paths(in: condition) }
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
        let isClock = names.clockCalls.contains(callee)
        let isDisplay = names.displayCalls.contains(callee)
        guard isClock || isDisplay, !node.hasError, let call = SwiftCall(node) else { return }
        var closures = call.trailingClosures + call.arguments.compactMap { $0.value.type == SwiftNodeType.lambdaLiteral ? $0.value : nil }
        // `let timer = Timer(timeInterval: 3, repeats: true) { ... }`: in a declaration's value the
        // grammar reads the trailing closure as a call of the call.
        // (The walk's path ends with the node's parent: `Node.parent` would walk down from the root.)
        if let parent = path.last, parent.type == SwiftNodeType.callExpression, parent.namedChild(at: 0) == node, let outer = SwiftCall(parent), outer.arguments.isEmpty {
            closures += outer.trailingClosures
        }
        if isClock {
            let clock = place(vocabulary.description(ofClock: callee), node)
            if vocabulary.closureClocks[callee] != nil { for closure in closures { clockCode.append(ClockCode(body: closure, clock: clock, waits: false)) } }
            if vocabulary.targetClocks[callee] != nil, let selector = call.argument(labelled: "selector")?.value, selector.type == SwiftNodeType.selectorExpression,
               let method = selector.namedChildren.last.flatMap(SwiftExpressions.lastName(of:)), let owner = Self.owner(path) {
                // The method may come after the call: looked up once the walk is done.
                pendingTargets.append((owner + "." + method, clock))
            }
            if vocabulary.waitClocks[callee] != nil {
                let ancestors = path.reversed()
                let loop = ancestors.first { [SwiftNodeType.whileStatement, SwiftNodeType.forStatement, SwiftNodeType.repeatWhileStatement].contains($0.type) }
                if let body = loop ?? ancestors.first(where: { $0.type == SwiftNodeType.lambdaLiteral || $0.type == SwiftNodeType.functionBody }) {
                    clockCode.append(ClockCode(body: body, clock: clock, waits: true))
                }
            }
            // The publisher: the first argument (`.onReceive(ticks) { ... }`), or what the call is made
            // on (`ticks.sink { ... }`, `.sink(receiveValue: { ... })`).
            if vocabulary.receivers.contains(callee),
               let publisher = call.arguments.first.flatMap({ $0.value.type == SwiftNodeType.lambdaLiteral ? nil : $0.value }) ?? call.callee.child(byField: SwiftField.target) {
                receives.append((publisher, closures))
            }
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

    var pendingTargets: [(method: String, clock: RotationFacts.Place)] = []

    /// `for await _ in AsyncTimerSequence(...) { ... }` (a sequence call of the vocabulary), or
    /// `for await _ in ticks.values { ... }` (a receiver's name read on a publisher, in place or held
    /// in a property): the loop's body runs at each tick.
    private mutating func noteLoop(_ node: Node) {
        guard !node.hasError, node.children.contains(where: { $0.type == SwiftNodeType.awaitKeyword }), let collection = node.child(byField: SwiftField.collection),
              let body = node.namedChildren.last(where: { $0.type == SwiftNodeType.statements }) else { return }
        if collection.type == SwiftNodeType.callExpression, let callee = SwiftCall.calleeName(of: collection), let description = vocabulary.sequences[callee] {
            clockCode.append(ClockCode(body: body, clock: place(description, collection), waits: false))
        } else if collection.type == SwiftNodeType.navigationExpression, let name = SwiftExpressions.lastName(of: collection), vocabulary.receivers.contains(name),
                  let publisher = collection.child(byField: SwiftField.target) {
            receives.append((publisher, [body]))
        }
    }

    /// `statusLabel.text = ...`: a display property set on a view (not a plain variable named `text`).
    private mutating func noteDisplaySet(_ node: Node, path: [Node]) {
        guard !node.hasError, let target = node.child(byField: SwiftField.target), let result = node.child(byField: SwiftField.result),
              let expression = target.namedChildren.last, expression.type == SwiftNodeType.navigationExpression,
              let property = SwiftExpressions.lastName(of: expression), vocabulary.displayProperties.contains(property) else { return }
        let shown = shape(of: result)
        guard shown != .other else { return }
        displaySets.append((node, facts.displays.count))
        addDisplay(node, shown: shown, path: path, name: property)
    }

    private mutating func addDisplay(_ node: Node, shown: RotationFacts.ValueShape, path: [Node], name: String) {
        let end = node.endPosition
        facts.displays.append(RotationFacts.Display(
            place: place(name, node), endLine: end.line, endColumn: end.column, startByte: node.startByte, endByte: node.endByte,
            shown: shown, context: context(path), scope: SwiftDeclarations.scopePath(ancestors: path.reversed()), snippet: Self.snippet(node.tree.source.bytes[node.byteRange.clamped(to: 0..<node.tree.source.bytes.count)])))
    }

    /// The first 120 characters of a display's code with every run of blanks made one space. Plain
    /// ASCII is squeezed byte by byte and only as far as the 120 characters go (a byte is a
    /// character there, `\r\n` aside, a blank either way); code with other bytes before that point
    /// is squeezed as text, whole.
    static func snippet(_ bytes: ArraySlice<UInt8>) -> String {
        var squeezed: [UInt8] = []
        squeezed.reserveCapacity(122)
        var blank = false
        for byte in bytes {
            if byte >= 0x80 { return textSnippet(String(decoding: bytes, as: UTF8.self)) }
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                blank = !squeezed.isEmpty
                continue
            }
            if blank { squeezed.append(0x20) }
            blank = false
            squeezed.append(byte)
            // Two characters more than shown: the 120th is whole.
            if squeezed.count > 121 { break }
        }
        return String(decoding: squeezed.prefix(120), as: UTF8.self)
    }

    static func textSnippet(_ text: String) -> String {
        String(text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ").prefix(120))
    }
}
