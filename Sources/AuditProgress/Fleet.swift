import Foundation

/// An organisation's migration: the progress (and scan) reports of many repositories merged
/// (`loadaudit fleet`). Reports made with the same rules (`RulesIdentity`) form a group whose counts
/// are added up; counts of different groups are never added together. A group's totals over time
/// align the repositories by date: at each date that any of them sampled, each repository counts
/// with its last sample at or before that date (nothing before its first).
public struct FleetReport: Codable, Equatable, Sendable {
    /// One repository's samples, oldest first, as its report gave them.
    public struct Repository: Codable, Equatable, Sendable {
        public var name: String
        /// The report file it was read from.
        public var source: String
        /// `progress` or `scan` (a scan report is one sample, and counts no adoption).
        public var kind: String
        public var commit: String?
        /// Nil: a report without `rulesIdentity` (made by an older loadaudit).
        public var rulesIdentity: RulesIdentity?
        public var samples: [Point]
        /// Its own progress page, when known (`--page-url`).
        public var pageURL: String?
        /// Findings now minus findings four weeks before its last sample (its sample at or before
        /// then, else its first).
        public var change28Days: Int
        /// Its last sample is older than `staleDays` before the newest sample of all reports.
        public var stale: Bool

        public var last: Point { samples[samples.count - 1] }

        public init(name: String, source: String, kind: String = "progress", commit: String? = nil, rulesIdentity: RulesIdentity?, samples: [Point],
                    pageURL: String? = nil, change28Days: Int = 0, stale: Bool = false) {
            self.name = name
            self.source = source
            self.kind = kind
            self.commit = commit
            self.rulesIdentity = rulesIdentity
            self.samples = samples
            self.pageURL = pageURL
            self.change28Days = change28Days
            self.stale = stale
        }
    }

    /// The counts at one date: one repository's sample, or a group's totals.
    public struct Point: Codable, Equatable, Sendable {
        /// `YYYY-MM-DD`.
        public var date: String
        /// Repositories counted (1 for a repository's own sample).
        public var repositories: Int
        public var findings: Int
        public var adopted: Int
        public var findingsByRule: [String: Int]
        /// Findings per CODEOWNERS owner; empty when no report has owners.
        public var findingsByOwner: [String: Int]

        public init(date: String, repositories: Int = 1, findingsByRule: [String: Int], adopted: Int, findingsByOwner: [String: Int] = [:]) {
            self.date = date
            self.repositories = repositories
            self.findingsByRule = findingsByRule
            self.findings = findingsByRule.values.reduce(0, +)
            self.adopted = adopted
            self.findingsByOwner = findingsByOwner
        }

        /// Adopted / (adopted + findings) in percent; nil before either exists.
        public var migratedPercent: Double? {
            adopted + findings == 0 ? nil : Double(adopted) * 100 / Double(adopted + findings)
        }
    }

    /// The repositories that ran the same rules, and their totals over time.
    public struct Group: Codable, Equatable, Sendable {
        /// Nil: reports that do not say which rules made them (older loadaudit), kept apart.
        public var rulesIdentity: RulesIdentity?
        public var repositories: [String]
        public var totals: [Point]
        public var projection: ProgressHistory.Projection?
    }

    /// A report that could not be read or was left out, and why.
    public struct Problem: Codable, Equatable, Sendable, Error {
        public var source: String
        public var problem: String

        public init(source: String, problem: String) {
            self.source = source
            self.problem = problem
        }
    }

    public var version = 1
    /// The newest sample date of all reports: what "stale" is measured from.
    public var newest: String?
    public var staleDays: Int
    public var groups: [Group]
    /// By name.
    public var repositories: [Repository]
    /// Reports that could not be read (named, not merged).
    public var unreadable: [Problem]
    /// Older reports of a repository that has a newer one (left out, so that nothing counts twice).
    public var superseded: [Problem]

    /// The options of a merge.
    public struct Options: Sendable {
        /// A repository whose last sample is older than this many days before the newest is stale.
        public var staleDays = 30
        /// The URL of each repository's progress page, `{repository}` replaced by its name.
        public var pageURL: String?

        public init() {}
    }

    /// Reads and merges the reports (`source`: the name shown, `data`: its bytes).
    public static func merge(_ reports: [(source: String, data: Data)], options: Options = Options()) -> FleetReport {
        // Decoded on every core (decoding is nearly all of the time of a merge), kept in the given order.
        let outcomes = Outcomes(count: reports.count)
        DispatchQueue.concurrentPerform(iterations: reports.count) { index in
            let report = reports[index]
            let outcome: Result<Repository, Problem>
            do {
                outcome = .success(try FleetReading.repository(from: report.data, source: report.source))
            } catch let error as FleetReading.Unreadable {
                outcome = .failure(Problem(source: report.source, problem: error.problem))
            } catch {
                outcome = .failure(Problem(source: report.source, problem: "\(error)"))
            }
            outcomes.set(index, outcome)
        }
        var read: [Repository] = []
        var unreadable: [Problem] = []
        for outcome in outcomes.all {
            switch outcome {
            case .success(let repository): read.append(repository)
            case .failure(let problem): unreadable.append(problem)
            case nil: break
            }
        }
        return merge(repositories: read, unreadable: unreadable, options: options)
    }

    /// Merges repositories already read.
    public static func merge(repositories read: [Repository], unreadable: [Problem] = [], options: Options = Options()) -> FleetReport {
        // One report per repository: the one with the newest last sample (then the one named last).
        var byName: [String: Repository] = [:]
        var superseded: [Problem] = []
        for repository in read.sorted(by: { ($0.last.date, $0.source) < ($1.last.date, $1.source) }) {
            if let older = byName[repository.name] {
                superseded.append(Problem(source: older.source, problem: "an older report of \(repository.name) than \(repository.source)"))
            }
            byName[repository.name] = repository
        }
        var repositories = byName.values.sorted { $0.name < $1.name }
        let newest = repositories.map(\.last.date).max()
        let staleBefore = newest.flatMap(ProgressHistory.day).map { ProgressHistory.format($0 - Double(options.staleDays) * 86_400) }
        for index in repositories.indices {
            if let staleBefore { repositories[index].stale = repositories[index].last.date < staleBefore }
            if let template = options.pageURL {
                repositories[index].pageURL = template.replacingOccurrences(of: "{repository}", with: repositories[index].name)
            }
            repositories[index].change28Days = change28Days(repositories[index].samples)
        }
        // Groups by rules; the largest first.
        let grouped = Dictionary(grouping: repositories, by: { $0.rulesIdentity })
        let groups = grouped.map { identity, members -> Group in
            let totals = alignedTotals(members.map(\.samples))
            let asSamples = totals.map {
                ProgressHistory.Sample(commit: "", date: $0.date, files: 0, findingsByRule: $0.findingsByRule, findingsByFolder: [:],
                                       adoption: ["": $0.adopted], incomplete: [])
            }
            return Group(rulesIdentity: identity, repositories: members.map(\.name), totals: totals, projection: ProgressHistory.project(asSamples))
        }.sorted { ($0.repositories.count, $1.rulesIdentity?.hash ?? "") > ($1.repositories.count, $0.rulesIdentity?.hash ?? "") }
        return FleetReport(newest: newest, staleDays: options.staleDays, groups: groups, repositories: repositories,
                           unreadable: unreadable.sorted { $0.source < $1.source }, superseded: superseded.sorted { $0.source < $1.source })
    }

    /// The totals at every date any series sampled: each series counts with its last point at or
    /// before the date. One sweep over the points in date order, adding each point's difference from
    /// the point of its series before it.
    public static func alignedTotals(_ series: [[Point]]) -> [Point] {
        var events: [(date: String, series: Int, index: Int)] = []
        for (number, points) in series.enumerated() {
            for (index, point) in points.enumerated() { events.append((point.date, number, index)) }
        }
        events.sort { ($0.date, $0.series, $0.index) < ($1.date, $1.series, $1.index) }
        var byRule: [String: Int] = [:], byOwner: [String: Int] = [:]
        var adopted = 0, counted = 0
        var current = [Int?](repeating: nil, count: series.count)
        var totals: [Point] = []
        var position = 0
        while position < events.count {
            let date = events[position].date
            while position < events.count, events[position].date == date {
                let event = events[position]
                let new = series[event.series][event.index]
                if let old = current[event.series].map({ series[event.series][$0] }) {
                    for (rule, count) in old.findingsByRule { byRule[rule, default: 0] -= count }
                    for (owner, count) in old.findingsByOwner { byOwner[owner, default: 0] -= count }
                    adopted -= old.adopted
                } else {
                    counted += 1
                }
                for (rule, count) in new.findingsByRule { byRule[rule, default: 0] += count }
                for (owner, count) in new.findingsByOwner { byOwner[owner, default: 0] += count }
                adopted += new.adopted
                current[event.series] = event.index
                position += 1
            }
            byRule = byRule.filter { $0.value != 0 }
            byOwner = byOwner.filter { $0.value != 0 }
            totals.append(Point(date: date, repositories: counted, findingsByRule: byRule, adopted: adopted, findingsByOwner: byOwner))
        }
        return totals
    }

    static func change28Days(_ samples: [Point]) -> Int {
        guard let last = samples.last, let day = ProgressHistory.day(last.date) else { return 0 }
        let then = ProgressHistory.format(day - 28 * 86_400)
        let before = samples.last { $0.date <= then } ?? samples[0]
        return last.findings - before.findings
    }
}

/// The decoding's results, each written once from its own thread.
private final class Outcomes: @unchecked Sendable {
    private var outcomes: [Result<FleetReport.Repository, FleetReport.Problem>?]
    private let lock = NSLock()

    init(count: Int) { outcomes = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ outcome: Result<FleetReport.Repository, FleetReport.Problem>) {
        lock.lock()
        outcomes[index] = outcome
        lock.unlock()
    }

    var all: [Result<FleetReport.Repository, FleetReport.Problem>?] {
        lock.lock()
        defer { lock.unlock() }
        return outcomes
    }
}
