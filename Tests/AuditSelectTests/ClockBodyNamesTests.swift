@testable import AuditSelect
import AuditRules
import Foundation
import XCTest

/// `ClockBodyNames` lets the prefilter skip a clock file: it must hold every name of every assignment a
/// clock runs (the parser's view is checked against it by `FileNameIndex.factsMissed` everywhere); these
/// tests pin down how wide it reaches.
final class ClockBodyNamesTests: XCTestCase {
    private func reach(_ text: String) throws -> ClockBodyNames { try XCTUnwrap(ClockBodyNames(bytes: Array(text.utf8), clocks: .builtIn), text) }
    private func has(_ reach: ClockBodyNames, _ name: String) -> Bool { reach.names.contains(WordHash.ofName(name)) }

    /// The scanner takes a clock file's look with the bytes it read, so that the round that asks need
    /// not read the file again; a look taken from other bytes (the file changed size) is not taken.
    func testTheClockLookCanBeTakenFromTheBytesAsRead() throws {
        let text = Array("func tick() { DispatchQueue.main.asyncAfter(deadline: .now() + 2) { self.index += 1 } }\n".utf8)
        let expected = try XCTUnwrap(ClockBodyNames(bytes: text, clocks: .builtIn))
        let unreadable = FileNameIndex(bytes: text, clocks: .builtIn, reread: { nil })
        XCTAssertNil(unreadable.clockBodyNames, "a look that cannot read the file again says: anything")
        let taken = FileNameIndex(bytes: text, clocks: .builtIn, reread: { nil })
        taken.takeClockBodyNames(from: text)
        XCTAssertEqual(taken.clockBodyNames, expected)
        let other = FileNameIndex(bytes: text, clocks: .builtIn, reread: { nil })
        other.takeClockBodyNames(from: text + Array(" ".utf8))
        XCTAssertNil(other.clockBodyNames)
        let noClock = FileNameIndex(bytes: Array("let a = 1\n".utf8), clocks: .builtIn, reread: { nil })
        noClock.takeClockBodyNames(from: Array("let a = 1\n".utf8))
        XCTAssertNil(noClock.clockBodyNames)
    }

    /// As `RotationFacts` follows a clock into the methods it calls (two deep), so does the reach: the
    /// bodies of the functions its code names, and of those they name; not a third level, nor a
    /// function nothing on the clock names.
    func testTheReachFollowsTheFunctionsTheClockCallsTwoDeep() throws {
        let reach = try reach("""
        final class Model {
            func start() {
                timer = Timer.scheduledTimer(withTimeInterval: 2, repeats: true) { [weak self] _ in self?.advance() }
            }
            private func advance(
                by step: Int = 1
            ) {
                index = (index + step) % tips.count
                show()
            }
            private func show() { current = tips[index]; deeper() }
            private func deeper() { thirdLevel = 1 }
            func nextByHand() { pagedByUser = cards[0] }
        }
        protocol Paging { func advance() }
        """)
        XCTAssertTrue(has(reach, "step") && has(reach, "current"))
        XCTAssertEqual(reach.assignedTargets, Set(["index", "current"].map(WordHash.ofName)), "the timer's own assignment lies outside its call")
        XCTAssertTrue(has(reach, "deeper"), "named by the second level")
        XCTAssertFalse(has(reach, "thirdLevel"), "the third level is not followed")
        XCTAssertFalse(has(reach, "pagedByUser"))
    }

    func testAsyncAfterReachesItsArgumentsAndTrailingClosuresOnly() throws {
        let text = """
            final class TipsModel: ObservableObject {
                @Published var index = 0
                let title = Strings.header
                func start() {
                    DispatchQueue.main.asyncAfter(deadline: .now() + delay) {
                        self.index = (self.index + 1) % tips.count
                    }
                    label = other
                }
            }
            """
        let found = try reach(text)
        for name in ["asyncAfter", "deadline", "delay", "index", "tips", "count"] { XCTAssertTrue(has(found, name), name) }
        for name in ["title", "Strings", "header", "label", "other", "start"] { XCTAssertFalse(has(found, name), name) }
        XCTAssertTrue(found.assigns)
        XCTAssertFalse(found.assignsACase)
    }

    func testLabelledTrailingClosuresAndTimersArePartOfTheCall() throws {
        let text = """
            let timer = Timer.scheduledTimer(withTimeInterval: 2, repeats: true) { _ in
                tick()
            } onCancel: {
                phase = .idle
            }
            var untouched = Phase.done
            """
        let found = try reach(text)
        XCTAssertTrue(has(found, "phase"))
        XCTAssertTrue(has(found, "idle"))
        XCTAssertTrue(found.assignsACase)
        XCTAssertFalse(has(found, "untouched"))
    }

    func testSleepReachesTheWholeMemberAroundIt() throws {
        let text = """
            @MainActor
            public final class Rotator {
                var line = ""
                func run() async {
                    var step = 0
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .seconds(2))
                        line = messages[step % messages.count]
                        step += 1
                    }
                }
                func unrelated() { other = Phase.done }
            }
            """
        let found = try reach(text)
        for name in ["step", "line", "messages", "count", "Task", "isCancelled"] { XCTAssertTrue(has(found, name), name) }
        XCTAssertFalse(has(found, "other"))
        XCTAssertFalse(found.assignsACase, "the case assignment is in another member")
    }

    func testSleepInAnInnerBlockReachesTheLoopAroundIt() throws {
        // `RotationFacts` takes the loop around the sleep, not the `if` it sits in.
        let text = """
            struct Poller {
                func run() async {
                    while true {
                        if ready { try? await Task.sleep(for: .seconds(1)) }
                        line = messages[step]
                    }
                }
            }
            """
        let found = try reach(text)
        for name in ["line", "messages", "step"] { XCTAssertTrue(has(found, name), name) }
    }

    func testSleepInAClosureStoredInAPropertyReachesThatClosure() throws {
        let text = """
            struct Ticker {
                let task = Task {
                    while true { try await Task.sleep(nanoseconds: 1); current = .next }
                }
                func other() { elsewhere = 1 }
            }
            """
        let found = try reach(text)
        XCTAssertTrue(has(found, "current"))
        XCTAssertTrue(found.assignsACase)
        XCTAssertFalse(has(found, "elsewhere"))
    }

    func testSleepOutsideAnyMemberReachesTheWholeFile() throws {
        // Top-level code (a script's main.swift), and a `sleep` method declared in a type's body.
        for text in ["sleep(1)\nlast = .one", "class Clock {\n  func sleep() {}\n}\nlast = .one"] {
            let found = try reach(text)
            XCTAssertTrue(has(found, "last"), text)
            XCTAssertTrue(found.assignsACase, text)
        }
    }

    func testClassMembersAreNotTypeBodies() throws {
        // `class func` declares a member: the sleep's block is that function, not the type around it.
        let text = "enum Runner {\n  class func go() { sleep(1); inside = 1 }\n}\nfunc after() { outside = 2 }"
        let found = try reach(text)
        XCTAssertTrue(has(found, "inside"))
        XCTAssertFalse(has(found, "outside"))
    }

    func testTheRightSideOfAnAssignmentEndsWithItsStatement() throws {
        let text = """
            DispatchQueue.main.asyncAfter(deadline: .now() + 1) {
                self.line = tips[index]
                    .uppercased() ?? fallback
                self.count = first +
                    second; unrelated(third)
                self.other = candidates
                    // a comment line between does not end the statement
                    .first { $0.isEmpty }
                    as String
                self.done = true
                finish(fourth)
            }
            """
        let found = try reach(text)
        for name in ["tips", "index", "uppercased", "fallback", "first", "second", "candidates", "isEmpty", "String", "true"] {
            XCTAssertTrue(found.assignedFrom.contains(WordHash.ofName(name)), name)
        }
        for name in ["line", "count", "unrelated", "third", "done", "finish", "fourth", "deadline"] {
            XCTAssertFalse(found.assignedFrom.contains(WordHash.ofName(name)), name)
        }
    }

    func testCaseAssignmentsKeepTheirStateAndCase() throws {
        let text = """
            DispatchQueue.main.asyncAfter(deadline: .now() + 1) {
                self.phase = .fetching
                model.mode = Mode
                    .compact
                items[0] = .other
                count = Limits.maximum(3)
                label = .
                    // the case on the next line
                    done
            }
            """
        let found = try reach(text)
        let expected: [ClockBodyNames.CaseAssignment] = [
            .init(state: WordHash.ofName("phase"), caseName: WordHash.ofName("fetching")),
            .init(state: WordHash.ofName("mode"), caseName: WordHash.ofName("compact")),
            .init(state: nil, caseName: WordHash.ofName("other")),
            .init(state: WordHash.ofName("label"), caseName: WordHash.ofName("done")),
        ]
        XCTAssertEqual(found.caseAssignments, expected, "`Limits.maximum(3)` is a call, no case")
    }

    /// The names a clock assigns to are the names right before its assignments' operators, as the
    /// parser names a timed assignment's state; an assignment to anything else (a subscript, a
    /// parenthesized name) may assign any name. Declarations and assignments outside the clock do not count.
    func testAssignedTargetsAreTheNamesBeforeTheOperators() throws {
        let text = """
            var shown = 0
            func start() {
                Timer.scheduledTimer(withTimeInterval: 2, repeats: true) { _ in
                    let next = index + 1
                    self.index = next % tips.count
                    step += 1
                    label /* the banner */ = tips[index]
                }
                counter = 0
            }
            """
        XCTAssertEqual(try reach(text).assignedTargets, Set(["index", "step", "label"].map(WordHash.ofName)))
        let subscripted = try reach("DispatchQueue.main.asyncAfter(deadline: .now() + 1) {\n    items[0] = tip\n    index = 1\n}\n")
        XCTAssertNil(subscripted.assignedTargets, "`items[0] =` may assign anything")
        XCTAssertNil(try reach("Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in (index) += 1 }").assignedTargets)
    }

    /// `RotationFacts.caseName` reads `.name` and `Type.name`, never a call: `.init(…)` and
    /// `.failed(error)` pick no case. A `(` after a blank or a line break may be no call: kept.
    func testACallPicksNoCase() throws {
        let text = """
            Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in
                tabs = .init(selection: 0)
                status = .failed(error)
                mode = Mode.init(rawValue: 2)
                step = .next (1)
                phase = .done
                (count) += 1
                banner = .shown
            }
            state = .last
            """
        let found = try reach(text)
        XCTAssertEqual(found.caseAssignments, [
            .init(state: WordHash.ofName("step"), caseName: WordHash.ofName("next")),
            .init(state: WordHash.ofName("phase"), caseName: WordHash.ofName("done")),
            .init(state: WordHash.ofName("banner"), caseName: WordHash.ofName("shown")),
        ])
        let last = try reach("try? await Task.sleep(for: .seconds(1))\nphase = .done")
        XCTAssertEqual(last.caseAssignments, [.init(state: WordHash.ofName("phase"), caseName: WordHash.ofName("done"))], "a case as the file's last word")
    }

    func testTextPropertyNamesAreTheComputedPropertiesThatSwitchToStrings() throws {
        let text = #"""
            enum Phase {
                case warming, fetching
                var message: String {
                    switch self {
                    case .warming: return "Warming up…"
                    case .fetching: return "Almost \(there)"
                    }
                }
                var caption:
                    String { switch self { case .warming: "One"; case .fetching: "Two" } }
                var code: Int { switch self { case .warming: 1; case .fetching: 2 } }
                var single: String { "Only one" }
            }
            """#
        let names = try XCTUnwrap(TextPropertyNames(bytes: Array(text.utf8)))
        XCTAssertEqual(names.names, [WordHash.ofName("message"), WordHash.ofName("caption")])
        XCTAssertNil(TextPropertyNames(bytes: Array("enum E { var message: String { switch self {".utf8)))
    }

    func testTextPropertyNamesWaitUntilAskedAndNeverTrustAChangedFile() {
        let text = "enum Phase { case a, b\n var message: String { switch self { case .a: \"A\"; case .b: \"B\" } } }"
        final class Reads: @unchecked Sendable {
            private let lock = NSLock()
            private var count = 0
            var value: Int { lock.withLock { count } }
            func note() { lock.withLock { count += 1 } }
        }
        let reads = Reads()
        let nameIndex = FileNameIndex(bytes: Array(text.utf8), clocks: .builtIn) {
            reads.note()
            return Array(text.utf8)
        }
        XCTAssertEqual(reads.value, 0, "read again before a round asked")
        XCTAssertEqual(nameIndex.textPropertyNames?.names, [WordHash.ofName("message")])
        XCTAssertEqual(nameIndex.textPropertyNames?.names, [WordHash.ofName("message")])
        XCTAssertEqual(reads.value, 1, "read again once")
        XCTAssertNil(FileNameIndex(bytes: Array(text.utf8), clocks: .builtIn) { Array((text + "\n").utf8) }.textPropertyNames, "a changed file may declare any")
        XCTAssertNil(FileNameIndex(bytes: Array(text.utf8), clocks: .builtIn) { nil }.textPropertyNames, "an unreadable file may declare any")
        XCTAssertEqual(FileNameIndex(bytes: Array(text.utf8), clocks: .builtIn).textPropertyNames?.names, [WordHash.ofName("message")])
    }

    func testComparisonsAreNotAssignments() throws {
        let found = try reach("DispatchQueue.main.asyncAfter(deadline: t) { if a == .b, c != d, e <= f, g >= h { run() } }")
        XCTAssertFalse(found.assigns)
        XCTAssertTrue(try reach("DispatchQueue.main.asyncAfter(deadline: t) { count += 1 }").assigns)
    }

    func testADeclarationsValueIsNoAssignment() throws {
        let text = """
            DispatchQueue.main.asyncAfter(deadline: .now() + 2) {
                let configuration = NSWorkspace.OpenConfiguration()
                var attempts: [Int: Int] = [:], error = SyncError.timeout
                guard let url = Links.help else { return }
                if let first = items.first { phase = .loading(first) }
                switch event {
                case let .failed(reason): phase = .failed
                case .retry(let count): mode = Mode.retrying
                default: let note = Note.none; step = .next
                }
                let pending: Phase
                    = .waiting
                self.`var` = .later
                let value = (label = .shown)
                let done = stage = .finished
            }
            """
        let found = try reach(text)
        let expected: [ClockBodyNames.CaseAssignment] = [
            // `phase = .loading(first)` is a call: no case.
            .init(state: WordHash.ofName("phase"), caseName: WordHash.ofName("failed")),
            .init(state: WordHash.ofName("mode"), caseName: WordHash.ofName("retrying")),
            .init(state: WordHash.ofName("step"), caseName: WordHash.ofName("next")),
            .init(state: WordHash.ofName("Phase"), caseName: WordHash.ofName("waiting")),  // The line break ends the declaration: counted.
            .init(state: WordHash.ofName("var"), caseName: WordHash.ofName("later")),
            .init(state: WordHash.ofName("label"), caseName: WordHash.ofName("shown")),
            .init(state: WordHash.ofName("stage"), caseName: WordHash.ofName("finished")),
        ]
        XCTAssertEqual(found.caseAssignments.filter { $0.state != WordHash.ofName("error") }, expected)
        // After a declaration's `=`, the next declarator's `=` counts: more to parse, never less.
        XCTAssertTrue(found.caseAssignments.contains(.init(state: WordHash.ofName("error"), caseName: WordHash.ofName("timeout"))))
        for name in ["NSWorkspace", "Links", "Note"] { XCTAssertFalse(found.assignedFrom.contains(WordHash.ofName(name)), name) }
        XCTAssertTrue(found.assignedFrom.contains(WordHash.ofName("finished")), "the assignment inside a declaration's value")
        XCTAssertFalse(try reach("DispatchQueue.main.asyncAfter(deadline: t) { let step = Step.next; var count = 0 }").assigns)
    }

    func testItGivesUpOnBracketsThatDoNotMatch() {
        XCTAssertNil(ClockBodyNames(bytes: Array("func f() { asyncAfter(x) { a = 1 }".utf8), clocks: .builtIn))
        XCTAssertNil(ClockBodyNames(bytes: Array("func f() { asyncAfter(x] }".utf8), clocks: .builtIn))
        XCTAssertNil(ClockBodyNames(bytes: Array("let r = /a/ ; asyncAfter(x) { a = /b/ }".utf8), clocks: .builtIn))
    }
}
