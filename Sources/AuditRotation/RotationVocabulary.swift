/// The names a `rotating-text` rule gives the engine (its `display-calls`, `clocks` and
/// `random-picks`): which calls show text, which make code run over time, which pick at random.
/// The engine keeps only the Swift shapes (a call's closures, the loop around a call, a property
/// holding a value, a view's content closure and its parameter); which names play each part is the
/// rules file's knowledge, so a team whose app ticks with its own scheduler names it there.
public struct RotationVocabulary: Sendable, Equatable {
    /// Calls whose first unlabelled argument is shown text (`Text`, `Label`, `navigationTitle`).
    public var displayCalls: Set<String> = []
    /// Properties whose value a view shows, set on it (`statusLabel.text = ...`, `navigationItem.title = ...`).
    public var displayProperties: Set<String> = []
    /// Calls that set shown text from their first argument (`button.setTitle(..., for: .normal)`).
    public var displaySetters: Set<String> = []
    /// What makes a change show on screen in SwiftUI: property wrappers and macros (`State`,
    /// `Published`, `Observable`) and conformances (`ObservableObject`). A file whose clocks change
    /// something must show text or hold such state for its clocks to count.
    public var observableState: Set<String> = []
    /// Calls whose closures run later, once or repeatedly (`scheduledTimer`, `asyncAfter`), each with
    /// how a message names it ("a repeating Timer").
    public var closureClocks: [String: String] = [:]
    /// Calls given a target and a `#selector` (`Timer.scheduledTimer(timeInterval:target:selector:...)`,
    /// `CADisplayLink(target:selector:)`): the selected method of the target's type runs on the clock.
    public var targetClocks: [String: String] = [:]
    /// Calls that wait (`sleep`): the loop around one, or else the body it is in, runs on a clock.
    public var waitClocks: [String: String] = [:]
    /// Values that tick (`Timer.publish`: the call's receiver and name as written), kept in a property
    /// or given in place to a receiver.
    public var publishers: [String: String] = [:]
    /// What receives each tick of a publisher: a call's closures, the publisher given as its first
    /// argument (`onReceive`) or the call made on it (`sink`); or, a name read on the publisher
    /// (`values`), the body of a `for await` loop over it.
    public var receivers: Set<String> = []
    /// Calls that make an async sequence that ticks (`AsyncTimerSequence`): the body of a `for await`
    /// loop over one runs on the clock.
    public var sequences: [String: String] = [:]
    /// Views whose content closure is given the time (`TimelineView`): what the closure computes from
    /// its parameter, and shows there, changes with it.
    public var timeDrivenViews: [String: String] = [:]
    /// Calls that pick an element at random (`randomElement`).
    public var randomPicks: Set<String> = []

    public init() {}

    /// Every name of a call that makes code run over time (not the publishers).
    public var clockCalls: Set<String> {
        Set(closureClocks.keys).union(targetClocks.keys).union(waitClocks.keys).union(receivers).union(timeDrivenViews.keys)
            .union(sequences.keys)
    }

    /// Every name that shows text: display calls, properties and setters.
    public var displayNames: Set<String> { displayCalls.union(displayProperties).union(displaySetters) }

    /// How messages name a clock (`scheduledTimer`: "a repeating Timer"); the name itself when not given.
    public func description(ofClock name: String) -> String {
        closureClocks[name] ?? targetClocks[name] ?? waitClocks[name] ?? publishers[name] ?? timeDrivenViews[name] ?? sequences[name] ?? name
    }

    /// The names of two rules together (the engine walks a file once for every rotating-text rule).
    public func merged(with other: RotationVocabulary) -> RotationVocabulary {
        var merged = self
        merged.displayCalls.formUnion(other.displayCalls)
        merged.displayProperties.formUnion(other.displayProperties)
        merged.displaySetters.formUnion(other.displaySetters)
        merged.observableState.formUnion(other.observableState)
        merged.closureClocks.merge(other.closureClocks) { first, _ in first }
        merged.targetClocks.merge(other.targetClocks) { first, _ in first }
        merged.waitClocks.merge(other.waitClocks) { first, _ in first }
        merged.publishers.merge(other.publishers) { first, _ in first }
        merged.receivers.formUnion(other.receivers)
        merged.timeDrivenViews.merge(other.timeDrivenViews) { first, _ in first }
        merged.sequences.merge(other.sequences) { first, _ in first }
        merged.randomPicks.formUnion(other.randomPicks)
        return merged
    }
}
