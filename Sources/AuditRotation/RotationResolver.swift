import AuditModel
import AuditProject

/// Joins the rotation facts of a project's files by (module, type, member) and tells which displays
/// show text chosen among fixed messages by the passage of time (docs/rotating-text.md):
///
///     display  <-  the value it shows  <-  a selection (an index, a pick, a case, a comparison)  <-  a clock
///
/// A name is read as code reads it: a member of the type around the code, a local of stated type, a
/// time-driven local, a type's static member, a global; a member's type comes from its declaration.
/// Types are looked up in the modules the file sees (its own first). Where the code does not state
/// a receiver's type, the join goes by the member's name within the file's module, and the finding
/// says so. Only the files linked to a clock's file take part: that file, and those that state one of
/// its linking names (`RotationFacts.linkingNames`) in its workspace. The select step parses every
/// file whose words could make it linked, so the answer is the same with and without it.
public struct RotationResolver: Sendable {
    /// A type, as the module that declares it and its name.
    struct TypeRef: Hashable, Sendable {
        let module: Int
        let name: String
    }

    /// A member of a type (or, with an empty type name, a global of a module).
    struct MemberKey: Hashable, Sendable {
        let type: TypeRef
        let name: String
    }

    struct FileFacts: Sendable {
        let file: String
        let module: Int
        let facts: RotationFacts
        /// The modules the file sees.
        let visibility: ProjectModel.Visibility
    }

    private let model: ProjectModel
    private let filesByName: [String: FileFacts]
    /// Members of each type, from every linked file that declares or extends it.
    private let members: [TypeRef: [String: (member: RotationFacts.Member, file: String)]]
    private let enumCases: [TypeRef: Set<String>]
    /// Types with an initializer that chooses their state by a condition on what it is given.
    private let choosingTypes: Set<TypeRef>
    private let changes: [MemberKey: [(change: RotationFacts.TimedChange, guessed: Bool)]]
    /// Changes by member name per module, for the joins where a type is not stated.
    private let changesByName: [String: [(change: RotationFacts.TimedChange, key: MemberKey)]]
    /// The files whose displays are judged: those linked to a clock's file.
    private let linked: Set<String>

    /// The resolver of these files' facts (each with its imports) in `model`.
    public init(_ files: [(file: String, facts: RotationFacts, imports: Set<String>)], model: ProjectModel) {
        self.model = model
        let all = files.map { file -> FileFacts in
            let module = model.module(of: file.file) ?? 0
            return FileFacts(file: file.file, module: module, facts: file.facts, visibility: model.visibility(of: module, imports: file.imports))
        }
        let links = RotationLinks(all.map { ($0.module, $0.facts) }, model: model)
        var linked = Set<String>()
        for file in all where file.facts.isAnchor || !file.facts.statedNames.isDisjoint(with: links.byWorkspace[model.modules[file.module].workspace] ?? []) {
            linked.insert(file.file)
        }
        self.linked = linked
        let used = all.filter { linked.contains($0.file) }
        filesByName = Dictionary(used.map { ($0.file, $0) }, uniquingKeysWith: { first, _ in first })
        var members: [TypeRef: [String: (member: RotationFacts.Member, file: String)]] = [:]
        var cases: [TypeRef: Set<String>] = [:]
        var choosing = Set<TypeRef>()
        for file in used {
            for type in file.facts.types {
                let key = TypeRef(module: file.module, name: type.name)
                if type.initChooses { choosing.insert(key) }
                for (name, member) in type.members where members[key]?[name] == nil { members[key, default: [:]][name] = (member, file.file) }
                if type.isEnum { cases[key, default: []].formUnion(type.cases) }
            }
            for (name, member) in file.facts.globals {
                let key = TypeRef(module: file.module, name: "")
                if members[key]?[name] == nil { members[key, default: [:]][name] = (member, file.file) }
            }
        }
        self.members = members
        enumCases = cases
        choosingTypes = choosing
        var changes: [MemberKey: [(change: RotationFacts.TimedChange, guessed: Bool)]] = [:]
        var byName: [String: [(change: RotationFacts.TimedChange, key: MemberKey)]] = [:]
        // (Resolving the changes' targets needs the members: a second pass, with a resolver of the types only.)
        let partial = RotationResolver(model: model, filesByName: filesByName, members: members, enumCases: cases, choosingTypes: choosing)
        for file in used {
            for change in file.facts.changes {
                switch partial.resolve(change.target, change.context, file: file.file) {
                case .member(let key, _)?:
                    changes[key, default: []].append((change, false))
                    byName[change.target.names.last ?? "", default: []].append((change, key))
                case .guessed(let module, let name)?:
                    let key = MemberKey(type: TypeRef(module: module, name: "?"), name: name)
                    changes[key, default: []].append((change, true))
                    byName[name, default: []].append((change, key))
                default:
                    break
                }
            }
        }
        self.changes = changes
        changesByName = byName
    }

    private init(model: ProjectModel, filesByName: [String: FileFacts], members: [TypeRef: [String: (member: RotationFacts.Member, file: String)]],
                 enumCases: [TypeRef: Set<String>], choosingTypes: Set<TypeRef>) {
        self.model = model
        self.filesByName = filesByName
        self.members = members
        self.enumCases = enumCases
        self.choosingTypes = choosingTypes
        changes = [:]
        changesByName = [:]
        linked = []
    }

    // MARK: - Names

    /// What a path names, read where it is.
    enum Resolved {
        case member(MemberKey, RotationFacts.Member?)
        case timeDriven(RotationFacts.TimeDrivenValue)
        /// A member of a value whose type the code does not state: known by name in the module only.
        case guessed(module: Int, name: String)
    }

    /// The module of a file.
    private func module(of file: String) -> Int { filesByName[file]?.module ?? model.module(of: file) ?? 0 }

    /// A type named in `file`: in the first module it sees that declares it (its own first), else its own.
    func type(_ name: String, in file: String) -> TypeRef {
        let own = module(of: file)
        if members[TypeRef(module: own, name: name)] != nil || enumCases[TypeRef(module: own, name: name)] != nil { return TypeRef(module: own, name: name) }
        let visible = filesByName[file]?.visibility.modules ?? [own]
        let declaring = (model.declarations[name] ?? []).filter { $0.isType && visible.contains($0.module) }.map(\.module)
        if declaring.contains(own) { return TypeRef(module: own, name: name) }
        if let first = declaring.min() { return TypeRef(module: first, name: name) }
        return TypeRef(module: own, name: name)
    }

    private func member(_ name: String, of type: TypeRef) -> RotationFacts.Member? {
        members[type]?[name]?.member
    }

    func resolve(_ path: RotationFacts.ValuePath, _ context: RotationFacts.Context, file: String) -> Resolved? {
        let names = path.names
        guard let first = names.first else { return nil }
        // A time-driven local, or something read from it (`context.date.timeIntervalSince1970`).
        if !path.fromSelf, let value = context.timeDriven[first] {
            // A member of a value made from the time (`phase.message` of `let phase = Phase(elapsed: ...)`).
            if names.count == 2, case .made(let type, nil, let reads) = value.value {
                return .timeDriven(RotationFacts.TimeDrivenValue(clock: value.clock, value: .made(type: type, member: names[1], reads: reads)))
            }
            return .timeDriven(names.count == 1 ? value : RotationFacts.TimeDrivenValue(clock: value.clock, value: .time))
        }
        let own = module(of: file)
        var owner: TypeRef?
        var index = 0
        let ownerType = context.owner.map { type($0, in: file) }
        if path.fromSelf {
            owner = ownerType
        } else if first == "Self", names.count > 1, let ownerType {
            // `Self.lines`: a static member of the type around.
            owner = ownerType
            index = 1
        } else if let local = context.localTypes[first] {
            owner = type(local, in: file)
            index = 1
        } else if let ownerType, member(first, of: ownerType) != nil {
            owner = ownerType
        } else if first.first?.isUppercase == true {
            owner = type(first, in: file)
            index = 1
        } else if let global = global(first, from: file) {
            if names.count == 1 { return .member(global.key, global.member) }
            owner = global.member.type.map { type($0, in: file) }
            index = 1
        } else if let ownerType, names.count == 1 {
            // A member of the type declared in a file that states nothing more of it.
            owner = ownerType
        } else {
            return .guessed(module: own, name: names[names.count - 1])
        }
        guard index < names.count else { return nil }
        for position in index..<names.count {
            guard let current = owner else { return .guessed(module: own, name: names[names.count - 1]) }
            let found = member(names[position], of: current)
            if position == names.count - 1 { return .member(MemberKey(type: current, name: names[position]), found) }
            owner = found?.type.map { type($0, in: file) }
        }
        return nil
    }

    /// A global of that name in a module the file sees (its own first).
    private func global(_ name: String, from file: String) -> (key: MemberKey, member: RotationFacts.Member)? {
        let own = module(of: file)
        let visible = (filesByName[file]?.visibility.modules ?? []).subtracting([own]).sorted()
        for module in [own] + visible {
            let key = TypeRef(module: module, name: "")
            if let member = members[key]?[name]?.member { return (MemberKey(type: key, name: name), member) }
        }
        return nil
    }

    // MARK: - Findings

    private typealias Source = (place: RotationFacts.Place, role: String)

    /// Why a value changes over time: what it is and the places that show it.
    private struct Reason {
        var what: String
        var sources: [Source]
        var guessedBy: String?
    }

    /// The findings of one file's displays: text chosen among fixed messages by time (or by chance).
    public func findings(for facts: RotationFacts, rule: some RotatingTextRule, file: String) -> [Finding] {
        guard linked.contains(file) else { return [] }
        return facts.displays.compactMap { display -> Finding? in
            guard let reason = explain(display, file: file) else { return nil }
            let guess = reason.guessedBy.map { "; joined by the name \($0): the code does not state whose it is" } ?? ""
            var finding = Finding(
                ruleId: rule.id, severity: rule.severity, file: file,
                start: SourcePoint(line: display.place.line, column: display.place.column, byteOffset: display.startByte),
                end: SourcePoint(line: display.endLine, column: display.endColumn, byteOffset: display.endByte),
                symbol: display.place.name, message: "\(rule.message) (\(reason.what)\(guess))", replacement: nil, fix: .manual
            )
            var seen = Set<String>()
            finding.related = reason.sources.filter { seen.insert("\($0.place.file):\($0.place.line):\($0.place.column)").inserted }
                .map { RelatedLocation(file: $0.place.file, line: $0.place.line, column: $0.place.column, message: $0.role) }
            finding.scope = display.scope
            finding.snippet = display.snippet
            return finding
        }
    }

    private func explain(_ display: RotationFacts.Display, file: String) -> Reason? {
        if let clock = display.setBy, let strings = pickedStrings(display.shown, display.context, file: file) {
            return Reason(what: "set to \(strings.what) by \(clockName(clock))", sources: [(strings.place, "the strings that rotate"), (clock, "what sets it")])
        }
        return explain(display.shown, display.context, file: file, depth: 0)
    }

    /// Why a value (`shape`, read in `context`) is chosen among fixed messages by time.
    private func explain(_ shape: RotationFacts.ValueShape, _ context: RotationFacts.Context, file: String, depth: Int) -> Reason? {
        guard depth < 4 else { return nil }
        switch shape {
        case .element(let collection, let index):
            guard let strings = fixedStrings(collection, context, file: file) else { return nil }
            for path in index {
                guard let timed = timedValue(path, context, file: file) else { continue }
                return Reason(what: "\(collection.description)[\(path.description)] changes with \(timed.clockText)",
                              sources: [(strings.place, "the strings that rotate")] + timed.sources(role: "what advances \(path.description)"),
                              guessedBy: timed.guessedBy)
            }
            return nil
        case .random(let collection, let pick):
            guard let strings = fixedStrings(collection, context, file: file) else { return nil }
            return Reason(what: "a random element of \(collection.description)", sources: [(strings.place, "the strings it picks from"), (pick, "the random pick")])
        case .choice(let reads, let messages):
            for path in reads {
                guard let timed = timedValue(path, context, file: file) else { continue }
                return Reason(what: "one of \(messages) messages, chosen by \(path.description), which changes with \(timed.clockText)",
                              sources: timed.sources(role: "what changes \(path.description)"), guessedBy: timed.guessedBy)
            }
            return nil
        case .path(let path):
            return explainPath(path, context, file: file, depth: depth)
        case .made(let typeName, let memberName?, let reads):
            // `Phase(elapsed: ...).message`: a type whose initializer chooses its state, and a member that
            // shows that state as one of fixed messages, made from a value that changes with time.
            let madeType = typeName == "Self" ? context.owner.map { type($0, in: file) } : type(typeName, in: file)
            guard let madeType, choosingTypes.contains(madeType), let text = member(memberName, of: madeType),
                  case .choice(_, let messages)? = text.computed else { return nil }
            for path in reads {
                guard let timed = timedValue(path, context, file: file) else { continue }
                return Reason(what: "one of \(messages) messages of \(typeName).\(memberName), chosen by its initializer from \(path.description), which changes with \(timed.clockText)",
                              sources: [(text.place, "the messages of each case")] + timed.sources(role: "what changes \(path.description)"), guessedBy: timed.guessedBy)
            }
            return nil
        default:
            return nil
        }
    }

    private func explainPath(_ path: RotationFacts.ValuePath, _ context: RotationFacts.Context, file: String, depth: Int) -> Reason? {
        switch resolve(path, context, file: file) {
        case .timeDriven(let value)?:
            guard value.value != .time else { return nil }
            return explain(value.value, context, file: file, depth: depth + 1).map { reason in
                var reason = reason
                reason.sources.append((value.clock, "the time it is computed from"))
                return reason
            }
        case .member(let key, let found)?:
            // A computed value of its type, read in that type's code.
            if let computed = found?.computed, let owner = memberFile(key) {
                let ownerContext = RotationFacts.Context(owner: key.type.name.isEmpty ? nil : key.type.name)
                if var reason = explain(computed, ownerContext, file: owner.file, depth: depth + 1) {
                    reason.sources.insert((owner.member.place, "the text it computes"), at: 0)
                    return reason
                }
            }
            // A stored value that starts as a random pick of fixed strings (`var quip = Quips.all.randomElement() ?? ""`).
            if let pick = found?.initialPick, let owner = memberFile(key) {
                let ownerContext = RotationFacts.Context(owner: key.type.name.isEmpty ? nil : key.type.name)
                if let reason = explain(pick, ownerContext, file: owner.file, depth: depth + 1) { return reason }
            }
            // A value a clock sets to one of fixed strings.
            for (change, guessed) in changes(of: key) {
                guard let changeFile = filesFor(change), let strings = pickedStrings(change.shape, change.context, file: changeFile) else { continue }
                return Reason(what: "\(path.names.last ?? "") takes \(strings.what) with \(clockName(change.clock))",
                              sources: [(strings.place, "the strings that rotate"), (change.clock, "what changes \(path.names.last ?? "")")] + strings.pick,
                              guessedBy: guessed ? path.names.last : nil)
            }
            // An enum's text for a state a clock moves between cases: `phase.message`.
            if path.names.count >= 2 {
                let prefix = RotationFacts.ValuePath(names: Array(path.names.dropLast()), fromSelf: path.fromSelf)
                if case .member(let stateKey, let state)? = resolve(prefix, context, file: file), let enumName = state?.type {
                    let enumType = type(enumName, in: file)
                    if let text = member(path.names[path.names.count - 1], of: enumType), text.switchesOnSelf, let cases = enumCases[enumType] {
                        let moves = changes(of: stateKey).filter { change, _ in
                            switch change.shape {
                            case .enumCase(let name): return name.map(cases.contains) ?? true
                            case .advance: return true
                            case .path(let value): return value.names.count <= 2 && value.names.last.map(cases.contains) ?? false
                            default: return false
                            }
                        }
                        if let first = moves.first {
                            return Reason(what: "\(path.description) changes with \(clockName(first.change.clock))",
                                          sources: [(text.place, "the messages of each case")] + clockSources(moves.map(\.change), role: "what moves \(prefix.description)"),
                                          guessedBy: first.guessed ? prefix.names.last : nil)
                        }
                    }
                }
            }
            return nil
        case .guessed(let module, let name)?:
            for entry in changesByName[name] ?? [] where entry.key.type.module == module {
                guard let changeFile = filesFor(entry.change), let strings = pickedStrings(entry.change.shape, entry.change.context, file: changeFile) else { continue }
                return Reason(what: "\(name) takes \(strings.what) with \(clockName(entry.change.clock))",
                              sources: [(strings.place, "the strings that rotate"), (entry.change.clock, "what changes \(name)")] + strings.pick, guessedBy: name)
            }
            return nil
        case nil:
            return nil
        }
    }

    /// A value a clock moves (a counter, an index, a case, an elapsed time), or the time itself.
    private struct Timed {
        let clocks: [RotationFacts.Place]
        let guessedBy: String?
        var clockText: String { clocks.first.map { RotationResolver.clockName($0) } ?? "time" }
        func sources(role: String) -> [Source] { clocks.map { ($0, role) } }
    }

    private func timedValue(_ path: RotationFacts.ValuePath, _ context: RotationFacts.Context, file: String) -> Timed? {
        switch resolve(path, context, file: file) {
        case .timeDriven(let value)?:
            return Timed(clocks: [value.clock], guessedBy: nil)
        case .member(let key, _)?:
            let moving = changes(of: key).filter { Self.moves($0.change.shape) }
            guard !moving.isEmpty else { return nil }
            return Timed(clocks: clockSources(moving.map(\.change), role: "").map(\.place), guessedBy: moving.contains(where: \.guessed) ? path.names.last : nil)
        case .guessed(let module, let name)?:
            let moving = (changesByName[name] ?? []).filter { $0.key.type.module == module && Self.moves($0.change.shape) }
            guard !moving.isEmpty else { return nil }
            return Timed(clocks: clockSources(moving.map(\.change), role: "").map(\.place), guessedBy: name)
        case nil:
            return nil
        }
    }

    /// A change that moves a value through time: a step, a count, a case, an elapsed time.
    private static func moves(_ shape: RotationFacts.ValueShape) -> Bool {
        switch shape {
        case .advance, .step, .enumCase, .time: return true
        default: return false
        }
    }

    /// The changes of a member, and those of the same name on values of unstated type in its module.
    private func changes(of key: MemberKey) -> [(change: RotationFacts.TimedChange, guessed: Bool)] {
        var found = changes[key] ?? []
        if key.type.name != "?" { found += (changes[MemberKey(type: TypeRef(module: key.type.module, name: "?"), name: key.name)] ?? []).map { ($0.change, true) } }
        return found
    }

    /// The collection of two or more fixed strings a path names, if it does.
    private func fixedStrings(_ path: RotationFacts.ValuePath, _ context: RotationFacts.Context, file: String) -> (place: RotationFacts.Place, count: Int)? {
        guard case .member(_, let member?)? = resolve(path, context, file: file), member.messages >= 2 else { return nil }
        return (member.place, member.messages)
    }

    /// A value picked from fixed strings: an element or a random pick of a collection.
    private func pickedStrings(_ shape: RotationFacts.ValueShape, _ context: RotationFacts.Context, file: String)
        -> (what: String, place: RotationFacts.Place, pick: [Source])? {
        switch shape {
        case .element(let collection, _):
            return fixedStrings(collection, context, file: file).map { ("strings of \(collection.description)", $0.place, []) }
        case .random(let collection, let pick):
            return fixedStrings(collection, context, file: file).map { ("strings of \(collection.description) picked at random", $0.place, [(pick, "the random pick")]) }
        default:
            return nil
        }
    }

    private func memberFile(_ key: MemberKey) -> (member: RotationFacts.Member, file: String)? { members[key.type]?[key.name] }

    /// The file of a change (its clock's file).
    private func filesFor(_ change: RotationFacts.TimedChange) -> String? { change.clock.file }

    /// Each distinct clock behind changes, in source order.
    private func clockSources(_ changes: [RotationFacts.TimedChange], role: String) -> [Source] {
        var seen = Set<String>()
        return changes.map(\.clock)
            .sorted { ($0.file, $0.line, $0.column) < ($1.file, $1.line, $1.column) }
            .filter { seen.insert("\($0.file):\($0.line):\($0.column)").inserted }
            .map { ($0, role) }
    }

    /// A clock as messages name it (its place's name is the rules' description: "a repeating Timer").
    static func clockName(_ clock: RotationFacts.Place) -> String { "\(clock.name) (\(clock.file):\(clock.line))" }

    private func clockName(_ clock: RotationFacts.Place) -> String { Self.clockName(clock) }
}

/// The names the clocks' files of a project link by (`RotationFacts.linkingNames`), per workspace:
/// a file that takes part must state one. The select step parses the files left for later that
/// mention one (`FileSelector.wants`); the resolver uses only the files that state one.
public struct RotationLinks: Sendable {
    public private(set) var byWorkspace: [String: Set<String>] = [:]

    public var isEmpty: Bool { byWorkspace.isEmpty }

    /// The links of these files' facts, each with its module in `model`.
    public init(_ files: [(module: Int, facts: RotationFacts)], model: ProjectModel) {
        for (module, facts) in files where facts.isAnchor {
            let names = facts.linkingNames
            if !names.isEmpty { byWorkspace[model.modules[module].workspace, default: []].formUnion(names) }
        }
    }
}
