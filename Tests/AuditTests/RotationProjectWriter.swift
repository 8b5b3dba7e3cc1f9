import Foundation

/// Writes the code of one combination of `RotationAxes`. A line holding `⟦R⟧` is a display of
/// rotating text: the mark is taken out and its line becomes a label. Only the writer of the
/// display puts the mark, and only when the twin is "none".
struct RotationProjectWriter {
    let choice: [String: String]
    private var clock: String { choice["clock"]! }
    private var messages: String { choice["messages"]! }
    private var step: String { choice["step"]! }
    private var display: String { choice["display"]! }
    private var placement: String { choice["placement"]! }
    private var twin: String { choice["twin"]! }

    private var inView: Bool { placement == "sameView" }
    private var isUIKit: Bool { display == "uiLabel" }
    private var otherModule: Bool { placement == "otherModule" }
    /// `public ` where the holder lives in another module than the view.
    private var pub: String { otherModule ? "public " : "" }
    private var holder: String { isUIKit ? "UploadStatusViewController" : inView ? "TipsBanner" : "LoadingTips" }
    /// How the holder's own code names its members inside a clock's closure.
    private var own: String { inView ? "" : "self." }
    private var holderFolder: String { otherModule ? "Sources/TipsKit" : "Sources/App" }
    private var observable: Bool { ["observableState", "environment"].contains(placement) }
    private var needsObjC: Bool { ["timerSelector", "displayLink"].contains(clock) }

    static let quips = ["Warming up the engines...", "Counting the pixels...", "Teaching hamsters to run..."]
    static let photos = ["beach", "mountain", "city"]

    func project() -> RotationProject {
        var files: [String: String] = [:]
        files["Package.swift"] = manifest()
        if let (path, text) = messagesFile() { files[path] = text }
        for (path, text) in twinFiles() { files[path] = text }
        if isUIKit {
            files["Sources/App/\(holder).swift"] = viewController()
        } else if inView {
            files["Sources/App/TipsBanner.swift"] = view(holderBody: holderMembers())
        } else {
            files["\(holderFolder)/LoadingTips.swift"] = model()
            files["Sources/App/TipsBanner.swift"] = view(holderBody: [])
        }
        var expected = Set<String>()
        var clean: [String: String] = [:]
        for (path, text) in files {
            var lines = text.components(separatedBy: "\n")
            for index in lines.indices where lines[index].contains("⟦R⟧") {
                expected.insert("\(path):\(index + 1)")
                lines[index] = lines[index].replacingOccurrences(of: "⟦R⟧", with: "")
            }
            clean[path] = lines.joined(separator: "\n")
        }
        let choices = RotationAxes.all.map { (axis: $0.0, option: choice[$0.0]!) }
        return RotationProject(choices: choices, files: clean, expected: expected)
    }

    // MARK: - Files

    private func manifest() -> String {
        var targets = ["        .executableTarget(name: \"App\"\(otherModule ? ", dependencies: [\"TipsKit\"]" : "")),"]
        if otherModule { targets.append("        .target(name: \"TipsKit\"),") }
        return """
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "Trips",
            platforms: [.iOS(.v17)],
            targets: [
        \(targets.joined(separator: "\n"))
            ]
        )

        """
    }

    private var quipLiteral: String {
        let list = twin == "imageCarousel" ? Self.photos : Self.quips
        return "[" + list.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
    }

    /// A file of its own for messages that live outside the holder.
    private func messagesFile() -> (String, String)? {
        switch messages {
        case "extensionElsewhere":
            return ("\(holderFolder)/\(holder)+Messages.swift", """
            import Foundation

            extension \(holder) {
                \(pub)static let messages = \(quipLiteral)
            }

            """)
        case "global":
            return ("\(holderFolder)/LoadingQuips.swift", """
            import Foundation

            /// Shown while a long request runs.
            \(pub)let loadingQuips = \(quipLiteral)

            """)
        case "enumAllCases":
            let cases = zip(["engines", "pixels", "hamsters"], Self.quips).map { "    case \($0) = \"\($1)\"" }
            return ("\(holderFolder)/LoadingTip.swift", "\(pub)enum LoadingTip: String, CaseIterable {\n\(cases.joined(separator: "\n"))\n}\n")
        default:
            return nil
        }
    }

    /// The collection of messages as code at `site` ("inside" the holder, or "outside" through `model`).
    private func collection(outside: Bool) -> String {
        switch messages {
        case "property": return outside ? "model.messages" : "\(own)messages"
        case "staticSelf", "extensionElsewhere": return outside ? "\(holder).messages" : "Self.messages"
        case "staticTypeName": return "\(holder).messages"
        case "global": return "loadingQuips"
        default: return "LoadingTip.allCases"
        }
    }

    private func element(_ index: String, outside: Bool) -> String {
        messages == "enumAllCases" ? "LoadingTip.allCases[\(index)].rawValue" : "\(collection(outside: outside))[\(index)]"
    }

    private func count(outside: Bool) -> String { "\(collection(outside: outside)).count" }

    private func randomPick() -> String {
        messages == "enumAllCases" ? "LoadingTip.allCases.randomElement()?.rawValue ?? \"\"" : "\(collection(outside: false)).randomElement() ?? \"\""
    }

    // MARK: - The holder's members

    private struct StateVar { let name: String; let initial: String }

    private var stateVars: [StateVar] {
        switch twin {
        case "countdown": return [StateVar(name: "seconds", initial: "30")]
        case "elapsed": return [StateVar(name: "elapsed", initial: "0")]
        case "percent": return [StateVar(name: "progress", initial: "0.0")]
        case "polledStatus": return [StateVar(name: "status", initial: "\"Waiting for the server\"")]
        case "userPaged": return [StateVar(name: "index", initial: "0"), StateVar(name: "ticks", initial: "0")]
        case "startsWork": return [StateVar(name: "isLoading", initial: "false")]
        case "sameNameOtherType": return [StateVar(name: "index", initial: "0")]
        case "imageCarousel": return [StateVar(name: "index", initial: "0")]
        default: break
        }
        switch step {
        case "randomPick": return [StateVar(name: "current", initial: "\"\"")]
        case "thresholds": return [StateVar(name: "elapsed", initial: "0")]
        default: return [StateVar(name: "index", initial: "0")]
        }
    }

    /// The statements the clock runs each tick (members named as the clock's closure names them).
    private func stepLines() -> [String] {
        switch twin {
        case "countdown": return ["if \(own)seconds > 0 { \(own)seconds -= 1 }"]
        case "elapsed": return ["\(own)elapsed += 1"]
        case "percent": return ["\(own)progress = min(1, \(own)progress + 0.05)"]
        case "polledStatus":
            return clock == "sleepLoop" ? ["\(own)status = await StatusService.shared.currentStatus()"]
                : ["Task { \(own)status = await StatusService.shared.currentStatus() }"]
        case "userPaged": return ["\(own)ticks += 1"]
        case "startsWork": return ["\(own)reload()"]
        case "imageCarousel", "sameNameOtherType": return ["\(own)index = (\(own)index + 1) % \(count(outside: false))"]
        default: break
        }
        var lines: [String]
        switch step {
        case "wrapAround": lines = ["\(own)index += 1", "if \(own)index == \(count(outside: false)) { \(own)index = 0 }"]
        case "helper": lines = ["\(own)index = \(own)nextIndex(after: \(own)index)"]
        case "randomPick": lines = ["\(own)current = \(randomPick())"]
        case "thresholds": lines = ["\(own)elapsed += 1"]
        default: lines = ["\(own)index = (\(own)index + 1) % \(count(outside: false))"]
        }
        if isUIKit { lines.append("⟦R⟧\(own)statusLabel.text = \(shownInside())") }
        return lines
    }

    /// What the display shows, written inside the holder.
    private func shownInside() -> String {
        switch step {
        case "randomPick": return "\(own)current"
        case "thresholds": return "\(own)phaseText"
        default: return element("\(own)index", outside: false)
        }
    }

    /// Members the step needs beside the state (a helper, the thresholds' text, the twins' work).
    private func helperMembers() -> [String] {
        var members: [String] = []
        if twin == "none" && step == "helper" {
            members += ["private func nextIndex(after current: Int) -> Int {", "    (current + 1) % \(count(outside: false))", "}"]
        }
        if twin == "none" && step == "thresholds" {
            members += ["\(pub)var phaseText: String {", "    if elapsed < 5 {", "        return \"Connecting to the server...\"",
                        "    } else if elapsed < 15 {", "        return \"Still working on it...\"", "    }",
                        "    return \"This is taking longer than usual...\"", "}"]
        }
        if twin == "userPaged" && !inView {
            members += ["\(pub)func showNext() {", "    index = (index + 1) % messages.count", "}"]
        }
        if twin == "startsWork" {
            members += ["\(inView ? "private " : pub)func reload() {", "    isLoading = true", "    Task {",
                        "        _ = await TripService.shared.upcomingTrips()", "        \(own)isLoading = false", "    }", "}"]
        }
        return members
    }

    /// Properties, methods and the start of the clock, for a holder that is a class (`start()`), or the
    /// properties and methods of a view (its clock starts in the body's modifiers).
    private func clockMembers() -> (properties: [String], start: [String], methods: [String]) {
        let tick = stepLines()
        let async = tick.contains { $0.contains("await") }
        switch clock {
        case "scheduledTimer":
            return ([], ["Timer.scheduledTimer(withTimeInterval: 2.5, repeats: true) { _ in"] + indent(tick) + ["}"], [])
        case "timerSelector":
            return ([], ["Timer.scheduledTimer(timeInterval: 2.5, target: self, selector: #selector(advance), userInfo: nil, repeats: true)"],
                    ["@objc private func advance() {"] + indent(tick) + ["}"])
        case "timerOnRunLoop":
            return ([], ["let timer = Timer(timeInterval: 2.5, repeats: true) { _ in"] + indent(tick) + ["}", "RunLoop.main.add(timer, forMode: .common)"], [])
        case "timerInProperty":
            return (["private var timer: Timer?"],
                    ["timer = Timer(timeInterval: 2.5, repeats: true) { [unowned self] _ in"] + indent(tick) + ["}",
                     "if let timer { RunLoop.main.add(timer, forMode: .common) }"], [])
        case "publishSink":
            return (["private var ticking: AnyCancellable?"],
                    ["ticking = Timer.publish(every: 3, on: .main, in: .common).autoconnect().sink { _ in"] + indent(tick) + ["}"], [])
        case "sleepLoop":
            let loop = ["while !Task.isCancelled {", "    try? await Task.sleep(for: .seconds(3))"] + indent(tick) + ["}"]
            return ([], inView ? loop : ["Task { @MainActor in"] + indent(loop) + ["}"], [])
        case "timerSequence":
            let loop = ["for await _ in AsyncTimerSequence(interval: .seconds(3), clock: .continuous) {"] + indent(tick) + ["}"]
            return ([], inView ? loop : ["Task { @MainActor in"] + indent(loop) + ["}"], [])
        case "publisherValues":
            let loop = ["for await _ in Timer.publish(every: 3, on: .main, in: .common).autoconnect().values {"] + indent(tick) + ["}"]
            return ([], inView ? loop : ["Task { @MainActor in"] + indent(loop) + ["}"], [])
        case "asyncAfterChain":
            let wrapped = async ? ["Task {"] + indent(tick) + ["}"] : tick
            return ([], ["scheduleNext()"],
                    ["private func scheduleNext() {", "    DispatchQueue.main.asyncAfter(deadline: .now() + 3) {"] + indent(indent(wrapped))
                        + ["        \(own)scheduleNext()", "    }", "}"])
        case "dispatchSource":
            return (["private var source: DispatchSourceTimer?"],
                    ["let timer = DispatchSource.makeTimerSource(queue: .main)", "timer.schedule(deadline: .now(), repeating: 3)",
                     "timer.setEventHandler {"] + indent(tick) + ["}", "timer.resume()", "source = timer"], [])
        case "displayLink":
            return (["private var link: CADisplayLink?"],
                    ["link = CADisplayLink(target: self, selector: #selector(advance))", "link?.add(to: .main, forMode: .common)"],
                    ["@objc private func advance() {"] + indent(tick) + ["}"])
        default:
            return ([], [], [])
        }
    }

    private func holderMembers() -> [String] {
        var members: [String] = []
        if messages == "property" || twin == "imageCarousel" || twin == "userPaged" || twin == "sameNameOtherType" {
            members.append("\(pub)let messages = \(quipLiteral)")
        } else if messages == "staticSelf" || messages == "staticTypeName" {
            members.append("\(pub)static let messages = \(quipLiteral)")
        }
        for state in stateVars {
            if inView {
                members.append("@State private var \(state.name) = \(state.initial)")
            } else if isUIKit {
                members.append("private var \(state.name) = \(state.initial)")
            } else if observable {
                members.append("\(pub)var \(state.name) = \(state.initial)")
            } else {
                members.append("@Published \(pub)var \(state.name) = \(state.initial)")
            }
        }
        let clockParts = clockMembers()
        members += clockParts.properties
        if clock == "publishStored" { members.append("private let ticker = Timer.publish(every: 3, on: .main, in: .common).autoconnect()") }
        if isUIKit { members.append("private let statusLabel = UILabel()") }
        members += helperMembers()
        members += clockParts.methods
        return members
    }

    // MARK: - Holders

    private var imports: [String] {
        var list = ["Foundation", "SwiftUI"]
        if ["publishSink", "publishStored", "publishInline", "publisherValues"].contains(clock) || (!inView && !observable) { list.append("Combine") }
        if clock == "timerSequence" { list.append("AsyncAlgorithms") }
        if clock == "displayLink" { list.append("QuartzCore") }
        if clock == "dispatchSource" { list.append("Dispatch") }
        return list
    }

    private func model() -> String {
        var declaration: String
        let base = needsObjC ? ": NSObject" : ""
        if observable {
            declaration = "@Observable\n\(pub)final class LoadingTips\(base) {"
        } else {
            declaration = "\(pub)final class LoadingTips\(needsObjC ? ": NSObject, ObservableObject" : ": ObservableObject") {"
        }
        let parts = clockMembers()
        var body = holderMembers()
        body += otherModule || needsObjC ? ["", "\(pub)\(needsObjC ? "override " : "")init() {\(needsObjC ? " super.init() " : "")}"] : []
        body += ["", "\(pub)func start() {"] + indent(parts.start) + ["}"]
        return imports.map { "import \($0)" }.joined(separator: "\n") + "\n\n" + declaration + "\n" + indent(body).joined(separator: "\n") + "\n}\n"
    }

    private func viewController() -> String {
        var body = holderMembers()
        body += ["", "override func viewDidLoad() {", "    super.viewDidLoad()", "    view.addSubview(statusLabel)"] + indent(clockMembers().start) + ["}"]
        return "import UIKit\nimport Combine\n\nfinal class UploadStatusViewController: UIViewController {\n" + indent(body).joined(separator: "\n") + "\n}\n"
    }

    /// The view: its own state and clock (sameView), or a model it holds.
    private func view(holderBody: [String]) -> String {
        var members: [String] = []
        switch placement {
        case "sameView": members = holderBody
        case "observedObject": members = ["@ObservedObject var model: LoadingTips"]
        case "stateObject", "otherModule": members = ["@StateObject private var model = LoadingTips()"]
        case "observableState": members = ["@State private var model = LoadingTips()"]
        default: members = ["@Environment(LoadingTips.self) private var model"]
        }
        if twin == "sameNameOtherType" { members.append("@State private var pager = OnboardingPager()") }
        let prefix = inView ? "" : "model."
        let shown: String
        switch twin {
        case "countdown": shown = "\"Resend the code in \\(\(prefix)seconds)s\""
        case "elapsed": shown = "\"Waiting for \\(\(prefix)elapsed) s\""
        case "percent": shown = "\"\\(Int(\(prefix)progress * 100))% uploaded\""
        case "polledStatus": shown = "\(prefix)status"
        case "startsWork": shown = "\(prefix)isLoading ? \"Loading trips...\" : \"Upcoming trips\""
        case "sameNameOtherType": shown = "pager.pages[pager.index]"
        case "userPaged", "imageCarousel": shown = inView ? "messages[index]" : "model.messages[model.index]"
        default:
            switch step {
            case "randomPick": shown = "\(prefix)current"
            case "thresholds": shown = "\(prefix)phaseText"
            default: shown = clock == "timelineView" ? element("Int(context.date.timeIntervalSince1970 / 3) % \(count(outside: false))", outside: false)
                : element("\(prefix)index", outside: !inView)
            }
        }
        let mark = twin == "none" ? "⟦R⟧" : ""
        var content: [String]
        if twin == "imageCarousel" {
            content = ["Image(\(shown))", "    .resizable()", "    .scaledToFill()"]
        } else {
            switch display {
            case "Label": content = ["\(mark)Label(\(shown), systemImage: \"hourglass\")"]
            case "navigationTitle": content = ["\(mark)List {", "    Text(\"Your trips\")", "}", ".navigationTitle(\(shown))"]
            case "accessibilityLabel": content = ["\(mark)Image(systemName: \"hourglass\")", "    .symbolEffect(.pulse)", "    .accessibilityLabel(\(shown))"]
            default: content = ["\(mark)Text(\(shown))"]
            }
        }
        if twin == "userPaged" { content.append(inView ? ".onTapGesture { index = (index + 1) % messages.count }" : ".onTapGesture { model.showNext() }") }
        if twin == "sameNameOtherType" { content.append(".onTapGesture { pager.next() }") }
        if clock == "timelineView" {
            content = ["TimelineView(.periodic(from: .now, by: 3)) { context in"] + indent(content) + ["}"]
        }
        var modifiers: [String] = []
        if inView {
            let start = clockMembers().start
            switch clock {
            case "publishStored": modifiers = [".onReceive(ticker) { _ in"] + indent(stepLines()) + ["}"]
            case "publishInline": modifiers = [".onReceive(Timer.publish(every: 3, on: .main, in: .common).autoconnect()) { _ in"] + indent(stepLines()) + ["}"]
            case "sleepLoop", "timerSequence", "publisherValues": modifiers = [".task {"] + indent(start) + ["}"]
            case "timelineView": modifiers = []
            default: modifiers = [".onAppear {"] + indent(start) + ["}"]
            }
        } else {
            modifiers = [".onAppear { model.start() }"]
        }
        var body = ["var body: some View {", "    VStack(spacing: 12) {"] + indent(indent(content)) + ["    }"] + indent(modifiers) + ["}"]
        body = members + [""] + body + (inView ? [] : [])
        var header = inView ? imports : ["SwiftUI"]
        if otherModule { header.append("TipsKit") }
        return header.map { "import \($0)" }.joined(separator: "\n") + "\n\nstruct TipsBanner: View {\n" + indent(body).joined(separator: "\n") + "\n}\n"
    }

    /// Files the twins lean on: a service that answers, a pager moved by taps.
    private func twinFiles() -> [(String, String)] {
        switch twin {
        case "polledStatus":
            return [("\(holderFolder)/StatusService.swift", "\(pub)actor StatusService {\n    \(pub)static let shared = StatusService()\n    \(pub)func currentStatus() async -> String {\n        \"Ready\"\n    }\n}\n")]
        case "startsWork":
            return [("\(holderFolder)/TripService.swift", "\(pub)actor TripService {\n    \(pub)static let shared = TripService()\n    \(pub)func upcomingTrips() async -> [String] {\n        []\n    }\n}\n")]
        case "sameNameOtherType":
            return [("Sources/App/OnboardingPager.swift", "struct OnboardingPager {\n    let pages = [\"Plan a trip\", \"Invite friends\", \"Pack smart\"]\n    var index = 0\n\n    mutating func next() {\n        index = (index + 1) % pages.count\n    }\n}\n")]
        default:
            return []
        }
    }

    private func indent(_ lines: [String]) -> [String] { lines.map { $0.isEmpty ? $0 : "    " + $0 } }
}
