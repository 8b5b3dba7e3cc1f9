// AuditProgress: the plain model of a migration's progress over history (samples of findings per rule
// and folder, adoption of the new components, a projection) and its renderers (text, JSON, CSV); what
// names a report (ReportIdentity); the organisation report merged from many repositories' reports
// (FleetReport, decoded from bytes the CLI read). It must not read git, files or anything else: the
// Audit layer computes a `ProgressHistory`, the CLI reads the reports `fleet` merges.

import Foundation

/// The migration's state at sampled commits of the first-parent history, oldest first.
public struct ProgressHistory: Codable, Equatable, Sendable {
    /// What one first-parent commit did to the counts: the change in findings and in adopted uses of
    /// the files it touched (each file version judged with the facts of the sample that follows it).
    public struct CommitChange: Codable, Equatable, Sendable {
        public var commit: String
        public var date: String
        public var author: String
        public var subject: String
        /// Findings more (positive) or fewer (negative) after the commit.
        public var findings: Int
        /// Adopted uses more or fewer after the commit.
        public var adopted: Int

        public init(commit: String, date: String, author: String, subject: String, findings: Int, adopted: Int) {
            self.commit = commit
            self.date = date
            self.author = author
            self.subject = subject
            self.findings = findings
            self.adopted = adopted
        }
    }

    public struct Sample: Codable, Equatable, Sendable {
        public var commit: String
        /// The commit's date (committer), `YYYY-MM-DD` in UTC.
        public var date: String
        public var files: Int
        public var findingsByRule: [String: Int]
        /// Findings per top-level folder of the scanned path (`.` for files at its top).
        public var findingsByFolder: [String: Int]
        /// Findings per owner from CODEOWNERS (owners joined by spaces; `(no owner)`); empty without one.
        public var findingsByOwner: [String: Int] = [:]
        /// What changed in the files that decide the rules since the sample before (`.loadaudit.yml
        /// changed`): the counts before and after it were judged by today's rules all the same.
        public var events: [String] = []
        /// The commits since the sample before that changed the counts most (up to three, biggest
        /// change of findings first, then of adoption); commits that changed nothing are left out.
        public var biggestChanges: [CommitChange] = []
        /// Uses of each new component in code.
        public var adoption: [String: Int]
        /// Files that could not be analysed (not UTF-8, too large, unreadable blob): counted as
        /// nothing, so the sample is marked incomplete rather than taken for progress.
        public var incomplete: [String]

        public init(commit: String, date: String, files: Int, findingsByRule: [String: Int], findingsByFolder: [String: Int],
                    adoption: [String: Int], incomplete: [String]) {
            self.commit = commit
            self.date = date
            self.files = files
            self.findingsByRule = findingsByRule
            self.findingsByFolder = findingsByFolder
            self.adoption = adoption
            self.incomplete = incomplete
        }

        public var findings: Int { findingsByRule.values.reduce(0, +) }
        public var adopted: Int { adoption.values.reduce(0, +) }

        /// Adopted / (adopted + findings) in percent; nil before either exists.
        public var migratedPercent: Double? {
            let total = adopted + findings
            return total == 0 ? nil : Double(adopted) * 100 / Double(total)
        }
    }

    /// When the findings would reach zero at the recent pace: a least-squares line through the last
    /// samples (findings against days). Nil "no progress" when the line does not fall.
    public struct Projection: Codable, Equatable, Sendable {
        public var basedOnSamples: Int
        /// Findings fewer per week (positive when the migration moves).
        public var findingsPerWeek: Double
        /// The day the line reaches zero, `YYYY-MM-DD`; nil when it does not fall.
        public var finishDate: String?
    }

    public var version = 1
    public var path: String
    public var every: String
    public var rules: [String]
    public var newComponents: [String]
    public var samples: [Sample]
    public var projection: Projection?
    /// Which repository, at which commit, with which rules (`ReportIdentity`); nil until the caller
    /// names them (absent from the JSON then).
    public var repository: String?
    public var commit: String?
    public var date: String?
    public var rulesIdentity: RulesIdentity?

    /// Names the repository, commit and rules of the report.
    public mutating func identify(_ identity: ReportIdentity) {
        repository = identity.repository
        commit = identity.commit
        date = identity.date
        rulesIdentity = identity.rulesIdentity
    }

    public init(path: String, every: String, rules: [String], newComponents: [String], samples: [Sample]) {
        self.path = path
        self.every = every
        self.rules = rules
        self.newComponents = newComponents
        self.samples = samples
        projection = Self.project(samples)
    }

    /// The least-squares line through the last (up to) eight complete samples.
    static func project(_ samples: [Sample]) -> Projection? {
        let recent = samples.filter { $0.incomplete.isEmpty }.suffix(8)
        guard recent.count >= 3, let first = recent.first.flatMap({ day($0.date) }) else { return nil }
        let points = recent.compactMap { sample in day(sample.date).map { (($0 - first) / 86_400, Double(sample.findings)) } }
        let n = Double(points.count)
        let meanX = points.map(\.0).reduce(0, +) / n, meanY = points.map(\.1).reduce(0, +) / n
        let sxx = points.map { ($0.0 - meanX) * ($0.0 - meanX) }.reduce(0, +)
        guard sxx > 0 else { return nil }
        let slope = points.map { ($0.0 - meanX) * ($0.1 - meanY) }.reduce(0, +) / sxx
        var projection = Projection(basedOnSamples: points.count, findingsPerWeek: -slope * 7, finishDate: nil)
        if slope < 0, let last = points.last {
            let daysLeft = (last.1 == 0 ? 0 : -(meanY + slope * (last.0 - meanX)) / slope)
            projection.finishDate = format(first + (last.0 + max(0, daysLeft)) * 86_400)
        }
        return projection
    }

    /// Seconds since 1970 of a `YYYY-MM-DD` day (UTC), nil for other text.
    public static func day(_ text: String) -> Double? { dayFormatter().date(from: text)?.timeIntervalSince1970 }

    /// The `YYYY-MM-DD` day (UTC) of a time.
    public static func format(_ seconds: Double) -> String { dayFormatter().string(from: Date(timeIntervalSince1970: seconds)) }

    private static func dayFormatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter
    }
}
