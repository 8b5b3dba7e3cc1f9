import AuditRules
import AuditSelect
import Foundation
import TreeSitter
import XCTest

/// The anchor cut's hollowing (docs/speed.md, "The anchor cut"): inside a kept member, a block that
/// holds no kept word and nothing of a clock's code is parsed as its two braces only. Each shape here
/// is an anchor whose change sits in a block without a clock's word (a nested `if`, a method, a loop
/// around a wait), next to blocks that the cut must hollow: the part must still say anchor, and be
/// smaller than the cut of whole members.
final class AnchorCutHollowTests: XCTestCase {
    let engine = RuleEngine(ruleSet: .builtIn())
    lazy var selector = FileSelector(engine.selectionNeeds)

    /// Filler a view holds around its clock: nothing the reader needs.
    static let filler = """
                    HStack {
                        Image(systemName: "leaf")
                        if showsDetails {
                            Text("Details")
                                .font(.caption)
                        }
                    }
                    ForEach(rows, id: \\.self) { row in
                        Text(row)
                            .padding(.horizontal)
                    }
    """

    static func view(body: String, members: String = "") -> String {
        """
        import SwiftUI

        struct TipsView: View {
            @State private var index = 0
            @State private var showsDetails = false
            let rows = ["One", "Two"]
            let tips = ["Warming up", "Almost there", "Nearly done"]
            let timer = Timer.publish(every: 2, on: .main, in: .common).autoconnect()

            var body: some View {
        \(body)
            }
        \(members)
        }

        """
    }

    /// The shapes, each an anchor whose change the hollowing must keep (`filler` must be hollowed).
    static let shapes: [(name: String, text: String)] = [
        ("a clock's closure after a hollowed chain", view(body: """
                VStack {
        \(filler)
                    Text(tips[index])
                }
                .padding()
                .onReceive(timer) { _ in index = (index + 1) % tips.count }
        """)),
        ("a change in a nested if of the clock's closure", view(body: """
                VStack {
        \(filler)
                    Text(tips[index])
                }
                .onReceive(timer) { _ in
                    if showsDetails == false {
                        if index < tips.count - 1 { index += 1 } else { index = 0 }
                    }
                }
        """)),
        ("a wait inside a task inside a VStack", view(body: """
                VStack {
        \(filler)
                    Text(tips[index])
                        .task {
                            while !Task.isCancelled {
                                try? await Task.sleep(for: .seconds(2))
                                if showsDetails { continue } else { index = (index + 1) % tips.count }
                            }
                        }
        \(filler)
                }
        """)),
        ("a kept method called from a hollowed button action", view(body: """
                VStack {
        \(filler)
                    Button("Next") { if showsDetails { advance() } }
                    Text(tips[index])
                }
                .onReceive(timer) { _ in advance() }
        """, members: """
            func advance() {
                if index + 1 < tips.count { index += 1 } else { index = 0 }
            }
        """)),
        ("a wait in an if, the change in another if of the same function", view(body: """
                VStack {
        \(filler)
                    Text(tips[index])
                }
                .task { await tick() }
        """, members: """
            func tick() async {
                if showsDetails == false { try? await Task.sleep(nanoseconds: 2_000_000_000) }
                if index < tips.count - 1 { index += 1 }
            }
        """)),
        ("a wait in a closure inside a loop, the change in the loop", view(body: """
                VStack {
        \(filler)
                    Text(tips[index])
                }
                .onAppear {
                    for _ in 0..<3 {
                        Task { try? await Task.sleep(nanoseconds: 1_000_000_000) }
                        if showsDetails == false { index = (index + 1) % tips.count }
                    }
                }
        """)),
        ("a labelled trailing closure of a receiver", view(body: """
                VStack {
        \(filler)
                    Text(tips[index])
                }
                .onAppear {
                    cancellable = timer.sink { _ in
                        print("done")
                    } receiveValue: { _ in
                        if showsDetails == false { index = (index + 1) % tips.count }
                    }
                }
        """, members: """
            @State private var cancellable: AnyCancellable?
        """)),
        ("a change two methods deep from the clock", view(body: """
                VStack {
        \(filler)
                    Text(tips[index])
                }
                .onReceive(timer) { _ in step() }
        """, members: """
            func step() {
                if showsDetails == false { advance() }
            }

            func advance() {
                if index + 1 < tips.count { index += 1 } else { index = 0 }
            }
        """)),
        ("a target clock's selected method and the method it calls", """
        import UIKit

        final class TipsController: UIViewController {
            let tipLabel = UILabel()
            var index = 0
            let tips = ["Warming up", "Almost there", "Nearly done"]

            override func viewDidLoad() {
                super.viewDidLoad()
                if view.window == nil {
                    view.addSubview(tipLabel)
                    tipLabel.textAlignment = .center
                }
                Timer.scheduledTimer(timeInterval: 2, target: self, selector: #selector(tick), userInfo: nil, repeats: true)
            }

            @objc func tick() {
                if view.window != nil { self.advance() }
            }

            func advance() {
                if index + 1 < tips.count { index += 1 } else { index = 0 }
                tipLabel.text = tips[index]
            }
        }

        """),
        ("a random pick shown next to hollowed blocks", view(body: """
                VStack {
        \(filler)
                    Text(tips.randomElement() ?? "Loading")
                }
        """)),
        ("a time-driven view's closure with a choice in a nested block", view(body: """
                VStack {
        \(filler)
                    TimelineView(.periodic(from: .now, by: 1)) { context in
                        if showsDetails == false {
                            Text(context.date.timeIntervalSince1970 > 10 ? "Still loading" : "Loading")
                        }
                    }
                }
        """)),
        ("a scheduled timer's closure setting a label in an if", """
        import UIKit

        final class StatusController: UIViewController {
            let statusLabel = UILabel()
            var step = 0
            let messages = ["Connecting", "Syncing", "Almost there"]

            override func viewDidLoad() {
                super.viewDidLoad()
                if view.window == nil {
                    view.addSubview(statusLabel)
                    statusLabel.textAlignment = .center
                }
                Timer.scheduledTimer(withTimeInterval: 2, repeats: true) { [weak self] _ in
                    guard let self else { return }
                    if self.step < 10 { self.step += 1 } else { self.statusLabel.text = self.messages[self.step % self.messages.count] }
                }
            }
        }

        """),
    ]

    func testEveryShapeIsStillAnAnchorAndIsHollowed() throws {
        let parser = try Parser()
        for (name, text) in Self.shapes {
            let bytes = Array(text.utf8)
            let isAnchor = engine.analyze(tree: try parser.parse(SourceText(bytes: bytes)), file: "View.swift").rotation?.isAnchor ?? false
            XCTAssertTrue(isAnchor, "\(name): the shape must be an anchor")
            let hollowed = try XCTUnwrap(selector.decideCutting(bytes, path: "View.swift", largestShare: 1).anchorCut, name)
            let whole = try XCTUnwrap(selector.decideCutting(bytes, path: "View.swift", largestShare: 1, hollows: false).anchorCut, name)
            XCTAssertTrue(engine.mayAnchor(tree: try parser.parse(SourceText(bytes: bytes), includedRanges: hollowed)), "\(name): the hollowed part says no anchor")
            let kept = hollowed.reduce(0) { $0 + $1.count }
            XCTAssertLessThanOrEqual(kept, whole.reduce(0) { $0 + $1.count }, name)
            if whole.contains(where: { String(decoding: bytes[$0], as: UTF8.self).contains("systemName") }) {
                XCTAssertLessThan(kept, whole.reduce(0) { $0 + $1.count }, "\(name): nothing was hollowed")
            }
            let part = hollowed.map { String(decoding: bytes[$0], as: UTF8.self) }.joined()
            XCTAssertFalse(part.contains("systemName"), "\(name): the filler was kept:\n\(part)")
        }
    }

    /// What is kept of a clock's chain: the receiver's closure whole, the view before it as braces.
    func testTheChainKeepsTheClocksCodeAndHollowsTheRest() throws {
        let bytes = Array(Self.shapes[1].text.utf8)
        let cut = try XCTUnwrap(selector.decideCutting(bytes, path: "View.swift", largestShare: 1).anchorCut)
        let part = cut.map { String(decoding: bytes[$0], as: UTF8.self) }.joined()
        XCTAssertTrue(part.contains("VStack {}"), part)
        XCTAssertTrue(part.contains("if index < tips.count - 1 { index += 1 } else { index = 0 }"), part)
        XCTAssertTrue(part.contains("let timer = Timer.publish(every: 2, on: .main, in: .common).autoconnect()"), part)
        let tree = try Parser().parse(SourceText(bytes: bytes), includedRanges: cut)
        XCTAssertFalse(tree.rootNode.hasError)
    }
}
