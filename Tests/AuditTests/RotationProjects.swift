import Foundation

/// Small Swift projects built from independent choices, each labelled by construction with the
/// rotating-text findings it must give: the clock (every way Swift code measures time), where the
/// messages live, how the index moves, what shows the text and where the state is kept, and the
/// twins that change text on a clock without rotating it. The generator writes the code and, as it
/// writes a display of rotating text, marks it; the marks are the labels, so no label is written by
/// hand and none depends on what loadaudit answers.
struct RotationProject: LabelledProject {
    let choices: [(axis: String, option: String)]
    let files: [String: String]
    /// Where the rule must report: "path:line".
    let expected: Set<String>

}

/// The axes and their options. Each option is a name; `RotationProjectWriter` turns a choice per
/// axis into code. Options that cannot go together (a `TimelineView` needs a view to hold it) are
/// dropped by `isCoherent`, not written wrong.
enum RotationAxes: LabelledAxes {
    static let clock = ["scheduledTimer", "timerSelector", "timerOnRunLoop", "timerInProperty", "publishStored", "publishInline",
                        "publishSink", "sleepLoop", "timerSequence", "publisherValues", "asyncAfterChain", "dispatchSource",
                        "displayLink", "timelineView"]
    static let messages = ["property", "staticSelf", "staticTypeName", "extensionElsewhere", "global", "enumAllCases"]
    static let step = ["modulo", "wrapAround", "helper", "randomPick", "thresholds"]
    static let display = ["Text", "Label", "navigationTitle", "accessibilityLabel", "uiLabel"]
    static let placement = ["sameView", "observedObject", "stateObject", "observableState", "environment", "otherModule"]
    /// Twins: text a clock changes that is not rotation, or rotation that shows nothing; "none" is rotation.
    static let twin = ["none", "countdown", "elapsed", "percent", "polledStatus", "userPaged", "imageCarousel", "startsWork",
                       "sameNameOtherType"]

    static let all: [(String, [String])] = [("clock", clock), ("messages", messages), ("step", step), ("display", display),
                                             ("placement", placement), ("twin", twin)]

    /// Whether the choices make a project a Swift programmer could write.
    static func isCoherent(_ choice: [String: String]) -> Bool {
        let clock = choice["clock"]!, placement = choice["placement"]!, display = choice["display"]!, twin = choice["twin"]!
        let inView = placement == "sameView"
        // Clocks that only a view can hold, and those only a class can (a selector needs an NSObject).
        if ["publishStored", "publishInline", "timelineView"].contains(clock) && !inView { return false }
        if ["timerSelector", "displayLink", "publishSink", "dispatchSource", "timerInProperty"].contains(clock) && inView { return false }
        // A TimelineView gives the time itself: no step moves an index.
        if clock == "timelineView" && choice["step"] != "modulo" { return false }
        // Thresholds choose between two written strings: where messages live does not apply.
        if choice["step"] == "thresholds" && choice["messages"] != "property" { return false }
        // A UILabel is UIKit: a view controller holds the clock and sets the text itself.
        if display == "uiLabel" && placement != "observedObject" { return false }
        if display == "uiLabel" && !["scheduledTimer", "timerSelector", "sleepLoop", "asyncAfterChain", "dispatchSource", "displayLink",
                                      "timerOnRunLoop", "timerInProperty", "publishSink"].contains(clock) { return false }
        // Twins are written for the common clocks and displays; the messages axis does not apply to them.
        if twin != "none" {
            if display == "uiLabel" || choice["messages"] != "property" || choice["step"] != "modulo" { return false }
            if !["scheduledTimer", "sleepLoop", "publishStored", "timerSelector", "asyncAfterChain"].contains(clock) { return false }
        }
        return true
    }

    /// The options the rule does not reach yet. The generator's first run over every combination
    /// missed 3,483 of 5,544 projects (no false alarm), every one through a pattern listed here then:
    /// the clocks `Timer(...)` on a run loop (a local or a property), `sink`, `setEventHandler`,
    /// `AsyncTimerSequence` and a publisher's `.values`, a helper step, `allCases[i].rawValue` and, in
    /// a model, a wrap against a global's count. The rule has been taught each (docs/rotating-text.md):
    /// the list is empty. `GeneratedRotationProjectsTests` keeps it honest: a pattern added here must
    /// still fail alone.
    static let unreached: [[String: String]] = []

    static func project(_ choice: [String: String]) -> RotationProject { RotationProjectWriter(choice: choice).project() }
}
