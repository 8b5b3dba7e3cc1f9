import AuditModel
import SwiftGrammar

/// What one file says about text that may change over time, as typed facts: the types it declares
/// or extends with their members (stored properties and their types, string collections, computed
/// text), the changes its clocks make, and the text it shows. One record per parsed file, cached
/// with the rest of its analysis; `RotationResolver` joins the records of a project by
/// (module, type, member), never by a bare name across modules (docs/rotating-text.md).
/// Only code the parser reads without error counts: a guess inside a broken region is no evidence.
public struct RotationFacts: Sendable, Codable, Equatable {
    /// A place in a file, with how messages name what is there.
    public struct Place: Sendable, Codable, Equatable, Hashable {
        public let name: String
        public let file: String
        public let line: Int
        public let column: Int
    }

    /// A value as code names it: `index`, `self.index`, `viewModel.currentTip`, `SyncCopy.lines`.
    /// `fromSelf`: written after `self.` (a member of the enclosing type, never a local).
    public struct ValuePath: Sendable, Codable, Equatable, Hashable {
        public let names: [String]
        public let fromSelf: Bool

        public var description: String { (fromSelf ? ["self"] : []).joined() + (fromSelf ? "." : "") + names.joined(separator: ".") }
    }

    /// Where a path is read: the type whose code it is in, the locals of stated type around it, and
    /// the time-driven locals it can see (a `TimelineView`'s content closure).
    public struct Context: Sendable, Codable, Equatable {
        /// The type (or extension) around the code, nil at the top level.
        public let owner: String?
        /// Locals and parameters around the code whose type the code states (`let model = Store()`).
        public var localTypes: [String: String] = [:]
        /// Locals computed from a time-driven view's time, by name: what each is computed as.
        public var timeDriven: [String: TimeDrivenValue] = [:]
    }

    /// A value a time-driven view's content closure computes from its time (`context`, and the locals
    /// computed from it), with the clock that drives it.
    public struct TimeDrivenValue: Sendable, Codable, Equatable {
        public let clock: Place
        /// What it is: the time itself (`context`), or a selection made with it.
        public let value: ValueShape
    }

    /// What an expression is, for the question "is it chosen among fixed messages by time?".
    public indirect enum ValueShape: Sendable, Codable, Equatable {
        /// A value read by name.
        case path(ValuePath)
        /// `collection[index]` (with the paths the index reads).
        case element(collection: ValuePath, index: [ValuePath])
        /// `collection.randomElement()` (a random pick, of the rules' `random-picks`).
        case random(collection: ValuePath, pick: Place)
        /// A choice between two or more distinct fixed strings that reads these paths (`cond ? "a" : "b"`,
        /// a `switch` or `if` returning string literals).
        case choice(reads: [ValuePath], messages: Int)
        /// A counter moved on (`index += 1`, `(index + 1) % n`), or an elapsed time added to.
        case advance
        /// An integer literal (a step of an index: `currentIndex = 2`).
        case step
        /// An enum case (`.loading`, `Phase.loading`) or the next one (`phase.next`, `Phase.allCases[i]`).
        case enumCase(String?)
        /// The time, or a time interval since a date (`context.date`, `Date().timeIntervalSince(start)`).
        case time
        /// A value of a project type made from arguments, and the member of it shown, if any
        /// (`Phase(elapsed: context.date.timeIntervalSince(start)).message`): the type's initializer
        /// chooses among its states from what the arguments read.
        case made(type: String, member: String?, reads: [ValuePath])
        /// Anything else (a literal, a call's result, a value that follows work).
        case other
    }

    /// A type this file declares or extends, and what it tells of its members.
    public struct TypeFacts: Sendable, Codable, Equatable {
        public let name: String
        public let isExtension: Bool
        public var isEnum = false
        /// Declared with or conforming to one of the rules' `observable-state` names, or holding such a property.
        public var isObservable = false
        /// The cases of an enum.
        public var cases: [String] = []
        /// Whether an initializer chooses the value's state by a condition on what it is given
        /// (`init(elapsed:)` setting `self = .slow` past a threshold, or a struct's stored stage).
        public var initChooses = false
        /// Stored and computed properties, by name.
        public var members: [String: Member] = [:]
    }

    /// A property of a type, or a global.
    public struct Member: Sendable, Codable, Equatable {
        public let place: Place
        /// Its type as written (`JournalLoader`, the called type of `= Store()`, the type of `= Phase.idle`).
        public var type: String?
        /// A list of two or more fixed strings: how many.
        public var messages = 0
        /// A computed value: what it is (a choice among fixed strings, a collection's element, a path).
        public var computed: ValueShape?
        /// For an enum's computed text: whether it switches over `self`.
        public var switchesOnSelf = false
        /// A stored value that starts as a random pick (`var quip = Quips.all.randomElement() ?? ""`).
        public var initialPick: ValueShape?
        /// Made by the compiler, not written in the file (a `String, CaseIterable` enum's `allCases`):
        /// never among the names the file states (`statedNames`), which its bytes must mention.
        public var isSynthesized: Bool?
    }

    /// A change a clock makes: the value at `target` (in `context`) set to something of `shape`.
    public struct TimedChange: Sendable, Codable, Equatable {
        public let target: ValuePath
        public let context: Context
        public let shape: ValueShape
        /// What the new value reads (`tips` of `(index + 1) % tips.count`): a display of it may read them too.
        public var reads: [ValuePath] = []
        /// The clock, as messages name it, and where it is.
        public let clock: Place
        public let place: Place
    }

    /// Text shown to the user: a display call's first argument (`Text(...)`, `Label(...)`) or a display
    /// property set (`statusLabel.text = ...`).
    public struct Display: Sendable, Codable, Equatable {
        public let place: Place
        public let endLine: Int
        public let endColumn: Int
        public let startByte: Int
        public let endByte: Int
        public let shown: ValueShape
        public var context: Context
        /// The clock whose code sets it, for a display property set on a clock (a selector's method).
        public var setBy: Place?
        public let scope: String
        public let snippet: String
    }

    public var types: [TypeFacts] = []
    /// Top-level variables of the file (string collections, mostly).
    public var globals: [String: Member] = [:]
    public var changes: [TimedChange] = []
    public var displays: [Display] = []

    public var isEmpty: Bool { types.isEmpty && globals.isEmpty && changes.isEmpty && displays.isEmpty }

    public init() {}

    /// The names that link this file's clocks to other files (see `RotationResolver`): the types and
    /// globals its changes and displays name. A file of the workspace that states none of them cannot
    /// take part in a finding with these clocks. Named: the types around the clocks' code and the
    /// displays, the stated types of the values a chain goes through (`model` of `model.tips`), the
    /// globals and types read (`loadingTips`, `SyncCopy` of `SyncCopy.lines`), the collections picked
    /// from. Not: a member of a type declared elsewhere (its type links it), a platform type
    /// (`String`, `UILabel`: no file of the project declares it). Empty for a file that is no anchor.
    public var linkingNames: Set<String> {
        guard isAnchor else { return [] }
        var names = Set<String>()
        let declared = Set(types.flatMap { $0.members.keys }).union(globals.keys)
        let declaredTypes = Set(types.filter { !$0.isExtension }.map(\.name))
        let statedTypes = types.reduce(into: [String: String]()) { table, type in
            for (name, member) in type.members { if let stated = member.type { table[name] = stated } }
        }
        func link(_ name: String) {
            if !Self.platformTypes.contains(name), Self.isLinkable(name) { names.insert(name) }
        }
        func add(_ path: ValuePath, _ context: Context, collection: Bool) {
            guard let first = path.names.first, context.timeDriven[first] == nil else { return }
            // `Self.lines`: a member of the type around, which that type's name links.
            if first == "Self", !path.fromSelf { if let owner = context.owner { link(owner) }; return }
            if let type = context.localTypes[first] {
                if path.names.count > 1 { link(type) }
            } else if path.names.count > 1, let type = statedTypes[first] {
                // A chain through a member (`model.tips`, `phase.message`): its type's code says the rest.
                link(type)
            } else if collection, !path.fromSelf, !declared.contains(first) {
                // Strings read without `self`, declared nowhere here: of a type (`SyncCopy.lines`), or a
                // global (`loadingTips`), unless the type around is declared elsewhere (then the name is
                // more likely its member, and its type links it). (Other values named so, `title` in a
                // view controller, are mostly inherited members: no link.)
                let aroundDeclaredHere = context.owner.map(declaredTypes.contains) ?? true
                if first.first?.isUppercase == true || aroundDeclaredHere { link(first) }
            }
        }
        func add(_ shape: ValueShape, _ context: Context) {
            switch shape {
            case .element(let collection, let index):
                add(collection, context, collection: true)
                for path in index { add(path, context, collection: false) }
            case .random(let collection, _):
                add(collection, context, collection: true)
            case .made(let type, _, let reads):
                // The made type's file says how it chooses and what it shows.
                if type != "Self" { link(type) }
                for path in reads { add(path, context, collection: false) }
            default:
                for path in shape.paths { add(path, context, collection: false) }
            }
        }
        for type in types {
            for member in type.members.values {
                if let pick = member.initialPick { link(type.name); add(pick, Context(owner: type.name)) }
                // A computed value made by another type (`Stage(seconds: elapsed).message`): that type's
                // file says how its initializer chooses and what it shows.
                if case .made(let made, _, _)? = member.computed, made != "Self" { link(made) }
            }
        }
        for change in changes {
            if let owner = change.context.owner { link(owner) }
            // (A literal set on another object, `label.numberOfLines = 0`, links by nothing but its owner.)
            if change.shape != .step || change.target.names.count == 1 || change.target.fromSelf { add(change.target, change.context, collection: false) }
            add(change.shape, change.context)
            // A state moved between cases (`phase = .downloading`): its enum's file computes the text
            // shown for each case (`phase.message`).
            if case .enumCase = change.shape, change.target.names.count == 1, let type = statedTypes[change.target.names[0]] { link(type) }
            if case .path(let value) = change.shape, value.names.count == 2, value.names[0].first?.isUppercase == true { link(value.names[0]) }
            // What a counter's step reads (`tips` of `(index + 1) % tips.count`): the strings a display
            // of the counter picks from.
            // (And a wrap's condition: `if index == tips.count { index = 0 }`.)
            if change.shape == .advance || change.shape == .step { for path in change.reads { add(path, change.context, collection: true) } }
        }
        for display in displays where showsWhatTheseClocksChange(display) {
            if let owner = display.context.owner { link(owner) }
            // A value a time-driven view makes from its time (`let stage = Stage(seconds: ...)`).
            for value in display.context.timeDriven.values { if case .made(let made, _, _) = value.value, made != "Self" { link(made) } }
            add(display.shown, display.context)
            // What the file's computed values it shows read (`SyncCopy.lines[step]` of `message`).
            for shape in computedValues(reachedFrom: display) { add(shape, display.context) }
        }
        return names
    }

    /// The computed values this file declares that a display's value reads, a few levels deep
    /// (`message` reads `phase`, which is computed too).
    private func computedValues(reachedFrom display: Display) -> [ValueShape] {
        var computed: [String: [ValueShape]] = [:]
        for type in types { for (name, member) in type.members { if let shape = member.computed { computed[name, default: []].append(shape) } } }
        for (name, member) in globals { if let shape = member.computed { computed[name, default: []].append(shape) } }
        guard !computed.isEmpty else { return [] }
        var found: [ValueShape] = []
        var seen = Set<String>()
        var next = Set(display.shown.paths.flatMap(\.names))
        for _ in 0..<4 where !next.isEmpty {
            seen.formUnion(next)
            let shapes = next.flatMap { computed[$0] ?? [] }
            found += shapes
            next = Set(shapes.flatMap(\.paths).flatMap(\.names)).subtracting(seen)
        }
        return found
    }

    /// Whether a display may show what this file's clocks change: a display they set, a random pick,
    /// a time-driven value, or a value whose names (through the computed values this file declares)
    /// meet the names the clocks set. Only such a display's names link: another display of the file,
    /// `Text(context.viewState.subtitle)` beside a clock that shakes a field, shows nothing of these
    /// clocks (a clock elsewhere that changes it links this file by its own names).
    func showsWhatTheseClocksChange(_ display: Display) -> Bool {
        if display.setBy != nil || !display.context.timeDriven.isEmpty { return true }
        if case .random = display.shown { return true }
        let changed = Set(changes.flatMap(\.target.names))
        let read = display.shown.paths.flatMap(\.names) + computedValues(reachedFrom: display).flatMap(\.paths).flatMap(\.names)
        return read.contains(where: changed.contains)
    }

    /// Whether a name can link files: it has a name byte that is no digit (`$0` and `0` have none,
    /// and the select step's whole-word search splits them so).
    static func isLinkable(_ name: String) -> Bool {
        name.utf8.contains { ByteClass.of($0).contains(.nameStart) }
    }

    /// Types the platform declares (the standard library, Foundation, SwiftUI, UIKit): never a project
    /// file's, so never a link (a chain through one, `title.capitalized`, needs nothing of the project).
    static let platformTypes: Set<String> = [
        "String", "Substring", "Character", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
        "Double", "Float", "CGFloat", "Bool", "Decimal", "Date", "TimeInterval", "URL", "URLRequest", "Data", "UUID", "Array",
        "Dictionary", "Set", "Optional", "Result", "Error", "Progress", "Timer", "DispatchQueue", "Task", "NSObject",
        "Color", "Font", "Image", "Text", "Label", "View", "AnyView", "Binding", "LocalizedStringKey", "AttributedString",
        "UIView", "UILabel", "UIButton", "UIColor", "UIFont", "UIImage", "UIImageView", "UIViewController", "UITableView",
        "UICollectionView", "UIScrollView", "UINavigationBar", "UINavigationItem", "UIBarButtonItem", "UIScreen", "UIWindow",
        "NSAttributedString", "NSMutableAttributedString", "CGRect", "CGSize", "CGPoint", "CALayer", "NSLayoutConstraint",
    ]

    /// Whether the file can start a finding: a clock changes something here, a display picks at random, or a
    /// stored value starts as a random pick.
    public var isAnchor: Bool {
        !changes.isEmpty || hasInitialPicks || displays.contains { display in
            if display.setBy != nil { return true }
            if case .random = display.shown { return true }
            return !display.context.timeDriven.isEmpty
        }
    }

    /// Whether a stored value of a type here starts as a random pick (a display of it shows one).
    var hasInitialPicks: Bool { types.contains { $0.members.values.contains { $0.initialPick != nil } } }

    /// Every name the file's facts state: the types and globals it declares or extends, their
    /// members, and the names its displays and changes read. A file links to a clock's file when
    /// one of these is among that file's linking names.
    public var statedNames: Set<String> {
        var names = Set(globals.keys)
        for type in types {
            names.insert(type.name)
            names.formUnion(type.members.compactMap { $0.value.isSynthesized == true ? nil : $0.key })
            for member in type.members.values { if let stated = member.type { names.insert(stated) } }
        }
        func add(_ shape: ValueShape, _ context: Context) {
            for path in shape.paths { names.formUnion(path.names) }
            names.formUnion(context.localTypes.values)
            if let owner = context.owner { names.insert(owner) }
        }
        for display in displays { add(display.shown, display.context) }
        for change in changes {
            names.formUnion(change.target.names)
            add(change.shape, change.context)
        }
        return names.filter(Self.isLinkable)
    }
}

extension RotationFacts.ValueShape {
    /// The paths the value reads.
    public var paths: [RotationFacts.ValuePath] {
        switch self {
        case .path(let path): return [path]
        case .element(let collection, let index): return [collection] + index
        case .random(let collection, _): return [collection]
        case .choice(let reads, _): return reads
        case .made(_, _, let reads): return reads
        default: return []
        }
    }
}
