import LoadAuditTestSupport

/// What the labelled generators of projects share (rotating text: `RotationAxes`; name lookup:
/// `NameAxes`): axes of named options, the coherent combinations, the options the rules do not reach
/// yet, a fixed-seed sample, and the shrinking of a failing combination to the plainest one that still
/// fails. Each generator says only its axes, what is coherent and how a choice becomes a project.
protocol LabelledAxes {
    associatedtype Project: LabelledProject
    /// The axes in order, each with its options (the first option is the plainest).
    static var all: [(String, [String])] { get }
    /// Patterns of options the rules do not reach yet: left out of the sample, each checked to fail.
    static var unreached: [[String: String]] { get }
    static func isCoherent(_ choice: [String: String]) -> Bool
    /// The project a choice writes, with its labels.
    static func project(_ choice: [String: String]) -> Project
}

/// A generated project: the choice per axis and its files.
protocol LabelledProject: CustomStringConvertible {
    /// The choice made on each axis, in axis order (the project's name and what shrinking varies).
    var choices: [(axis: String, option: String)] { get }
    /// Relative path -> contents.
    var files: [String: String] { get }
}

extension LabelledProject {
    var description: String { choices.map { "\($0.axis)=\($0.option)" }.joined(separator: " ") }

    /// The files with their labels, for a person reading a failure.
    var listing: String {
        files.keys.sorted().map { "// ---- \($0)\n\(files[$0]!)" }.joined(separator: "\n")
    }
}

extension LabelledAxes {
    static func matches(_ choice: [String: String], _ pattern: [String: String]) -> Bool {
        pattern.allSatisfy { choice[$0.key] == $0.value }
    }

    static func isReached(_ choice: [String: String]) -> Bool {
        !unreached.contains { matches(choice, $0) }
    }

    /// Every coherent combination, in a fixed order.
    static func combinations() -> [[String: String]] {
        var result: [[String: String]] = [[:]]
        for (axis, options) in all {
            result = result.flatMap { partial in options.map { partial.merging([axis: $0]) { $1 } } }
        }
        return result.filter(isCoherent)
    }

    /// `count` reached combinations drawn without repeats from `seed`'s sequence (all when `count` is
    /// nil or not smaller).
    static func sample(_ count: Int?, seed: UInt64) -> (sample: [[String: String]], of: Int) {
        let all = combinations().filter(isReached)
        guard let count, count < all.count else { return (all, all.count) }
        var random = SeededRandom(seed: seed)
        var (sample, left) = ([[String: String]](), all)
        for _ in 0..<count { sample.append(left.remove(at: random.below(left.count))) }
        return (sample, all.count)
    }

    /// The plainest combination that still fails, reached from `start` by trying, axis by axis, each
    /// plainer option (coherent ones only) and keeping it when the project still fails.
    static func shrink(_ start: [String: String], problem: (Project) throws -> String?) rethrows -> (project: Project, problem: String) {
        var current = start
        var found = try problem(project(current)) ?? "passes"
        var changed = true
        while changed {
            changed = false
            for (axis, options) in all {
                for option in options.prefix(while: { $0 != current[axis] }) {
                    var candidate = current
                    candidate[axis] = option
                    guard isCoherent(candidate), let failing = try problem(project(candidate)) else { continue }
                    current = candidate
                    found = failing
                    changed = true
                    break
                }
            }
        }
        return (project(current), found)
    }

    /// Runs every combination of the sample; nil when each gives its labels, else the report of the
    /// failures with the first one shrunk and listed whole.
    static func failures(_ sample: [[String: String]], of total: Int, problem: (Project) throws -> String?) rethrows -> String? {
        var failures: [(Project, String)] = []
        for choice in sample {
            let generated = project(choice)
            if let found = try problem(generated) { failures.append((generated, found)) }
        }
        guard let (first, found) = failures.first else { return nil }
        let shrunk = try shrink(Dictionary(uniqueKeysWithValues: first.choices.map { ($0.axis, $0.option) }), problem: problem)
        return """
        \(failures.count) of \(sample.count) generated projects (of \(total) combinations) differ from their labels; the first: \(first)
        \(found)
        shrunk to: \(shrunk.project) -- \(shrunk.problem)
        \(shrunk.project.listing)
        every failing combination:
        \(failures.map { "\($0.0): \($0.1)" }.joined(separator: "\n"))
        """
    }
}
