import AuditRules
import SwiftGrammar

/// What the code a clock runs may do, seen without parsing: the names in it, and whether it may
/// assign (an enum case, in particular). Most files that call a clock (`asyncAfter`, `sleep`) only
/// call functions or toggle flags there; `RotationFollower` parses a clock file only when this shows
/// something a rotating message needs (see there).
///
/// "The code a clock runs" is taken wide, so that it always holds what `RotationFacts` calls a clock
/// body: for the rules' closure clocks, receivers and time-driven views (`scheduledTimer`, `asyncAfter`,
/// `onReceive`, `TimelineView`), the whole call (its arguments and trailing closures); for a wait
/// (`sleep`), the outermost block around it that is not a type's body (the function, or
/// the closure stored in a property), from the start of the line that opens it, or the whole file when
/// there is no such block; and, as `RotationFacts` follows a clock into the methods of its own type
/// (`RotationFacts.methodDepth` calls deep), the body of every function of the file whose name that
/// code holds, as deep (wider still: any type's function of that name). Nil when `CodeScanner` gives up or the brackets do not match: then
/// anything may run on a clock, and the file is parsed.
public struct ClockBodyNames: Sendable, Equatable {
    /// Hashes (`WordHash.ofName`) of the names in clock-driven code.
    public let names: Set<UInt64>
    /// The names on the right of its assignments (what a timed assignment may read), up to where the
    /// statement may end: a `;`, the bracket around it closing, or a line break after which nothing
    /// continues the expression (a line that starts with `.`, an operator, a bracket, `:`, `,`, `as` or
    /// `is`, or follows one that ends with an operator, `.`, `:` or `,`, continues it).
    public let assignedFrom: Set<UInt64>
    /// Whether an assignment (`=`, `+=`, any operator with `=` that does not compare) is there. A
    /// declaration's `=` (`let error = SyncError.timeout`, `var step = 0`) is no assignment, as it is
    /// none of `RotationFacts`' timed assignments: on the line of a `let` or `var` and at its bracket
    /// depth, with no `case` before it (`case let .a(x): phase = .b` assigns), the first `=` after the
    /// keyword declares; any later one assigns (`let done = phase = .b`).
    public let assigns: Bool
    /// The names its assignments assign to (`index` in `index += 1` and `self.index = 0`: the name right
    /// before the operator, as `RotationFacts` names a timed assignment's state); nil when one assigns
    /// to something else (`tips[0] = …`, `(a) = …`), which may be any name.
    public let assignedTargets: Set<UInt64>?
    /// The assignments there that may pick an enum case (`phase = .next`, `phase = Phase.done`, the
    /// shapes `RotationFacts.caseName` reads): the state and the case, each nil where it could be any.
    public let caseAssignments: [CaseAssignment]

    public struct CaseAssignment: Sendable, Hashable {
        /// The name just before the `=` (`phase` in `self.phase =`), nil when that is no name.
        public let state: UInt64?
        /// The case's name (`next`), nil when the value's shape left it open.
        public let caseName: UInt64?
    }

    public var assignsACase: Bool { !caseAssignments.isEmpty }

    static let asKeyword = WordHash.ofName("as")
    static let letKeyword = WordHash.ofName("let")
    static let varKeyword = WordHash.ofName("var")
    static let caseKeyword = WordHash.ofName("case")
    static let funcKeyword = WordHash.ofName("func")
    static let isKeyword = WordHash.ofName("is")
    static let typeKeywords: Set<UInt64> = Set(["class", "struct", "enum", "extension", "actor", "protocol"].map(WordHash.ofName))
    static let memberKeywords: Set<UInt64> = Set(
        ["func", "var", "let", "init", "subscript", "deinit", "get", "set", "willSet", "didSet", "case", "in"].map(WordHash.ofName))
    static let modifiers: Set<UInt64> = Set(
        ["public", "private", "fileprivate", "internal", "open", "package", "final", "indirect", "nonisolated", "distributed"]
            .map(WordHash.ofName))

    /// `clocks` says which calls' code runs on a clock (from the rules: `ClockWords`).
    public init?(bytes: [UInt8], clocks: ClockWords) {
        guard let reach = bytes.withUnsafeBufferPointer({ Builder.build($0, clocks: clocks) }) else { return nil }
        self = reach
    }

    init(names: Set<UInt64>, assignedFrom: Set<UInt64>, assigns: Bool, assignedTargets: Set<UInt64>?, caseAssignments: [CaseAssignment]) {
        self.names = names
        self.assignedFrom = assignedFrom
        self.assigns = assigns
        self.assignedTargets = assignedTargets
        self.caseAssignments = caseAssignments
    }

    /// A token of a block's header, kept to tell a type's body from the rest.
    private enum HeaderToken: Equatable {
        case name(UInt64)
        case punctuation(UInt8)
        case assigning
        case other
    }

    private struct Builder: CodeTokenVisitor {
        struct Open {
            let bracket: UInt8
            let headerStart: Int
            let isTypeBody: Bool
            /// Where the clock call this bracket belongs to starts, when it is one's argument list or closure.
            let clockStart: Int?
            /// The statement around the bracket, which goes on after it closes.
            let statement: Statement
            /// The function whose body this bracket opens (`func advance() {`).
            var function: UInt64? = nil
        }

        /// What the statement read so far at the current depth says about its `=`.
        struct Statement {
            /// A `let` or `var` began a declaration: its `=` gives a value, it assigns nothing.
            var declares = false
            /// A `case` came first (`case let .a(x): phase = .b`): a `let` then binds, and code may follow.
            var afterCase = false
        }

        /// After a clock call's name or one of its groups: what may still belong to the call.
        enum ClockState {
            case none
            /// The name was read: `(` or `{` opens the call.
            case named(start: Int)
            /// A group closed: a trailing closure (`{`, or `label: {`) may follow.
            case afterGroup(start: Int)
            case afterLabel(start: Int)
            case afterColon(start: Int)
        }

        let source: UnsafeBufferPointer<UInt8>
        /// The calls whose whole call runs on a clock, and those that wait (see `ClockWords`): a few
        /// hashes, compared one by one (a `Set` would hash the hash on every name).
        let wholeCalls: [UInt64]
        let waits: [UInt64]
        var stack: [Open] = []
        var statement = Statement()
        var header: [HeaderToken] = []
        var headerStart: Int?
        var names: [(hash: UInt64, at: Int)] = []
        /// Each assignment's operator, with the name right before it (nil: no name there).
        var assignments: [(at: Int, target: UInt64?)] = []
        var caseAssignments: [(at: Int, assignment: CaseAssignment)] = []
        /// Reading the value of the assignment at `at` for a case: `.name` or `Capitalized.name`.
        enum CaseValue {
            case start
            case afterDot
            case afterType
            case afterTypeDot
            /// The name of a case it may pick, unless a `(` right after it makes it a call.
            case afterName(UInt64, start: Int)
        }
        var caseValue: (at: Int, state: UInt64?, step: CaseValue)?
        /// The bracket depths of the assignments whose right side is still being read.
        var openRightSides: [Int] = []
        var namesOnRightSides: [(hash: UInt64, at: Int)] = []
        /// A line break at this depth may have ended the right sides there: the next token tells.
        var lineBreakAtDepth: Int?
        var previous: CodeScanner.Token?
        var regions: [Range<Int>] = []
        /// Open blocks whose whole text is clock-driven (`sleep` in them), by stack depth.
        var sleepBlocks = Set<Int>()
        var sleepOutsideBlocks = false
        var clock = ClockState.none
        var broken = false
        /// A `func NAME` read at this depth whose body has not opened yet.
        var pendingFunction: (name: UInt64, depth: Int)?
        /// Each function's body: its name and where it lies.
        var functionBodies: [(name: UInt64, span: Range<Int>)] = []

        static func build(_ bytes: UnsafeBufferPointer<UInt8>, clocks: ClockWords) -> ClockBodyNames? {
            var builder = Builder(source: bytes, wholeCalls: clocks.wholeCallHashes, waits: clocks.waitHashes)
            // About one name per eight bytes of Swift: grown step by step, the list was copied (and its
            // new pages touched) again and again.
            builder.names.reserveCapacity(bytes.count / 8)
            let finished = CodeScanner.scan(bytes, &builder)
            guard finished, !builder.broken, builder.stack.isEmpty else { return nil }
            builder.finishCase()
            return builder.reach(fileLength: bytes.count)
        }

        // Instance copies, compared one by one: a static costs a `swift_once` check on every token,
        // and a `Set` a hash of the hash.
        let letKeyword = ClockBodyNames.letKeyword, varKeyword = ClockBodyNames.varKeyword, caseKeyword = ClockBodyNames.caseKeyword

        func isClockCall(_ hash: UInt64) -> Bool { wholeCalls.contains(hash) }

        mutating func visit(_ token: CodeScanner.Token) {
            if case .commentName = token { return }  // Comments are not code: they neither end nor continue anything.
            if case .lineBreak = token {
                statement = Statement()
                header.removeAll(keepingCapacity: true)
                headerStart = nil
                if !openRightSides.isEmpty, let previous, !Self.continuesAfter(previous) { lineBreakAtDepth = stack.count }
                return
            }
            if let depth = lineBreakAtDepth {
                if !Self.continuesBefore(token) { openRightSides.removeAll { $0 >= depth } }
                lineBreakAtDepth = nil
            }
            let before = previous
            previous = token
            readCase(token)
            followClock(token)
            switch token {
            case .name(let hash, let start, _):
                names.append((hash, start))
                if case .name(let keyword, let keywordStart, _)? = before, keyword == funcKeyword,
                   keywordStart == 0 || source[keywordStart - 1] != UInt8(ascii: "`") {
                    pendingFunction = (hash, stack.count)
                }
                noteKeyword(hash, at: start)
                if !openRightSides.isEmpty { namesOnRightSides.append((hash, start)) }
                noteHeader(.name(hash), at: start)
                if waits.contains(hash) {
                    if let outermost = stack.indices.first(where: { stack[$0].bracket == UInt8(ascii: "{") && !stack[$0].isTypeBody }) {
                        sleepBlocks.insert(outermost)
                    } else {
                        sleepOutsideBlocks = true
                    }
                }
                if isClockCall(hash) { clock = .named(start: start) }
            case .operatorRun(let assigns, let at):
                noteHeader(assigns ? .assigning : .other, at: at)
                if assigns && statement.declares {
                    // The declaration's own `=`; a later one assigns (`let done = phase = .b`, valid Swift).
                    statement.declares = false
                } else if assigns {
                    var state: UInt64?
                    if case .name(let hash, _, _)? = before { state = hash }
                    assignments.append((at, state))
                    caseValue = (at, state, .start)
                    openRightSides.append(stack.count)
                }
            case .punctuation(let byte, let at):
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "("), UInt8(ascii: "["):
                    open(byte, at: at)
                case UInt8(ascii: "}"), UInt8(ascii: ")"), UInt8(ascii: "]"):
                    close(byte, at: at)
                case UInt8(ascii: ";"):
                    statement = Statement()
                    header.removeAll(keepingCapacity: true)
                    headerStart = nil
                    openRightSides.removeAll { $0 >= stack.count }
                default:
                    noteHeader(.punctuation(byte), at: at)
                }
            case .commentName, .lineBreak, .stringStart, .stringEnd:
                break
            }
        }

        /// `let`, `var` and `case` as keywords: a backticked name (`` self.`var` ``) is none.
        mutating func noteKeyword(_ hash: UInt64, at start: Int) {
            guard hash == caseKeyword || hash == letKeyword || hash == varKeyword,
                  start == 0 || source[start - 1] != UInt8(ascii: "`") else { return }
            if hash == caseKeyword {
                statement.afterCase = true
                statement.declares = false
            } else if !statement.afterCase {
                statement.declares = true
            }
        }

        mutating func noteHeader(_ token: HeaderToken, at position: Int) {
            if headerStart == nil { headerStart = position }
            header.append(token)
        }

        /// Follows an assignment's value for the case it may pick; anything off the two shapes is no case.
        mutating func readCase(_ token: CodeScanner.Token) {
            guard let (at, state, step) = caseValue else { return }
            caseValue = nil
            func found(_ name: UInt64?) { noteCase(at: at, state: state, name: name) }
            switch (step, token) {
            case (.start, .punctuation(let byte, _)) where byte == UInt8(ascii: "."):
                caseValue = (at, state, .afterDot)
            case (.start, .name(_, _, true)):
                caseValue = (at, state, .afterType)
            case (.afterType, .punctuation(let byte, _)) where byte == UInt8(ascii: "."):
                caseValue = (at, state, .afterTypeDot)
            case (.afterDot, .name(let hash, let start, _)), (.afterTypeDot, .name(let hash, let start, _)):
                caseValue = (at, state, .afterName(hash, start: start))
            case (.afterName(_, let start), .punctuation(let byte, let position))
                where byte == UInt8(ascii: "(") && source[start..<position].allSatisfy({ Lexer.isNameByte[Int($0)] }):
                // `.init(…)`, `.failed(error)`: a call, which `RotationFacts.caseName` never takes for a case.
                break
            case (.afterName(let hash, _), _):
                found(hash)
            case (.afterDot, _), (.afterTypeDot, _):
                found(nil)  // `= .`, then something the lexer cannot name: any case.
            default:
                break
            }
        }

        /// A case name read last in the file has nothing after it to make it a call.
        mutating func finishCase() {
            if let (at, state, step) = caseValue, case .afterName(let hash, _) = step { noteCase(at: at, state: state, name: hash) }
            caseValue = nil
        }

        mutating func noteCase(at: Int, state: UInt64?, name: UInt64?) {
            caseAssignments.append((at, CaseAssignment(state: state, caseName: name)))
        }

        /// Whether an expression goes on past a line break that follows `token` (`x =`, `a +`, `b.`).
        static func continuesAfter(_ token: CodeScanner.Token) -> Bool {
            switch token {
            case .operatorRun: return true
            case .punctuation(let byte, _): return [UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ":")].contains(byte)
            default: return false
            }
        }

        /// Whether a line that starts with `token` may continue the expression of the line before.
        static func continuesBefore(_ token: CodeScanner.Token) -> Bool {
            switch token {
            case .operatorRun, .punctuation: return true
            case .name(let hash, _, _): return hash == ClockBodyNames.asKeyword || hash == ClockBodyNames.isKeyword
            default: return false
            }
        }

        /// Keeps track of a clock call's extent: its name, `(…)`, then trailing closures.
        mutating func followClock(_ token: CodeScanner.Token) {
            switch (clock, token) {
            case (.named, .punctuation(let byte, _)) where byte == UInt8(ascii: "(") || byte == UInt8(ascii: "{"):
                break  // `open` marks the group as the call's.
            case (.afterGroup, .punctuation(let byte, _)) where byte == UInt8(ascii: "{"):
                break
            case (.afterColon, .punctuation(let byte, _)) where byte == UInt8(ascii: "{"):
                break
            case (.afterGroup(let start), .name):
                clock = .afterLabel(start: start)
            case (.afterLabel(let start), .punctuation(let byte, _)) where byte == UInt8(ascii: ":"):
                clock = .afterColon(start: start)
            default:
                if case .name(let hash, let start, _) = token, isClockCall(hash) {
                    clock = .named(start: start)
                } else {
                    clock = .none
                }
            }
        }

        mutating func open(_ bracket: UInt8, at position: Int) {
            var clockStart: Int?
            switch clock {
            case .named(let start) where bracket != UInt8(ascii: "["): clockStart = start
            case .afterGroup(let start) where bracket == UInt8(ascii: "{"): clockStart = start
            case .afterColon(let start) where bracket == UInt8(ascii: "{"): clockStart = start
            default: break
            }
            clock = .none
            let isTypeBody = bracket == UInt8(ascii: "{") && Self.isTypeHeader(header)
            var opened = Open(bracket: bracket, headerStart: headerStart ?? position, isTypeBody: isTypeBody, clockStart: clockStart,
                              statement: statement)
            // A function's body is the first `{` at its declaration's depth (its parameters are deeper);
            // a requirement with no body (`func a()` in a protocol) gives way to the next declaration.
            if let pending = pendingFunction, pending.depth == stack.count, bracket == UInt8(ascii: "{") {
                opened.function = isTypeBody ? nil : pending.name
                pendingFunction = nil
            }
            stack.append(opened)
            statement = Statement()
            header.removeAll(keepingCapacity: true)
            headerStart = nil
        }

        mutating func close(_ bracket: UInt8, at position: Int) {
            guard let last = stack.popLast() else {
                broken = true
                return
            }
            let expected: UInt8 = last.bracket == UInt8(ascii: "{") ? UInt8(ascii: "}") : last.bracket == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "]")
            if expected != bracket { broken = true }
            statement = last.statement
            openRightSides.removeAll { $0 > stack.count }
            if sleepBlocks.remove(stack.count) != nil { regions.append(last.headerStart..<(position + 1)) }
            if let function = last.function { functionBodies.append((function, last.headerStart..<(position + 1))) }
            if let start = last.clockStart {
                regions.append(start..<(position + 1))
                clock = .afterGroup(start: start)
            }
            header.removeAll(keepingCapacity: true)
            headerStart = nil
        }

        /// `public final class Model: Base {`, `extension Foo where T: P {`: a header that declares a
        /// type (after attributes and modifiers) and no member (`class func`, `class var`).
        static func isTypeHeader(_ header: [HeaderToken]) -> Bool {
            var index = 0
            while index < header.count {
                switch header[index] {
                case .punctuation(let byte) where byte == UInt8(ascii: "@"):
                    index += 2  // `@MainActor`; an attribute's arguments are a closed group, not in the header.
                case .name(let hash) where ClockBodyNames.modifiers.contains(hash):
                    index += 1
                default:
                    guard case .name(let keyword) = header[index], ClockBodyNames.typeKeywords.contains(keyword),
                          index + 1 < header.count, case .name = header[index + 1] else { return false }
                    return !header.contains { token in
                        switch token {
                        case .name(let hash): return ClockBodyNames.memberKeywords.contains(hash)
                        case .assigning: return true
                        default: return false
                        }
                    }
                }
            }
            return false
        }

        func reach(fileLength: Int) -> ClockBodyNames {
            var spans = sleepOutsideBlocks ? [0..<(fileLength + 1)] : regions
            func inside(_ position: Int) -> Bool { spans.contains { $0.contains(position) } }
            // The functions the clock code names, and those they name, as deep as RotationFacts follows.
            if !sleepOutsideBlocks, !functionBodies.isEmpty, !spans.isEmpty {
                var added = Set<Int>()
                for _ in 0..<RotationFacts.methodDepth {
                    let named = Set(names.lazy.filter { inside($0.at) }.map(\.hash))
                    let reached = functionBodies.indices.filter { !added.contains($0) && named.contains(functionBodies[$0].name) }
                    if reached.isEmpty { break }
                    for index in reached {
                        added.insert(index)
                        spans.append(functionBodies[index].span)
                    }
                }
            }
            var reached = Set<UInt64>()
            for name in names where inside(name.at) { reached.insert(name.hash) }
            var assignedFrom = Set<UInt64>()
            for name in namesOnRightSides where inside(name.at) { assignedFrom.insert(name.hash) }
            var assignedTargets: Set<UInt64>? = []
            for assignment in assignments where inside(assignment.at) {
                guard let target = assignment.target else {
                    assignedTargets = nil
                    break
                }
                assignedTargets?.insert(target)
            }
            return ClockBodyNames(names: reached, assignedFrom: assignedFrom, assigns: assignments.contains { inside($0.at) },
                              assignedTargets: assignedTargets, caseAssignments: caseAssignments.filter { inside($0.at) }.map(\.assignment))
        }
    }
}
