import AuditModel

extension RuleEngine {
    /// The findings a pass of safe fixes leaves in place (manual, or unsafe), ordered by where they
    /// start, asked for the first one inside the code a safe fix rewrites. Built once per file: asking
    /// every finding's fix of all the file's findings was quadratic (a generated file of 12,000
    /// spinners took 40 s of CPU to resolve).
    struct StayingFindings {
        /// The findings left in place with their position among the findings given, by start offset.
        private let byStart: [(index: Int, finding: Finding)]

        init(_ findings: [Finding]) {
            byStart = findings.enumerated()
                .filter { $0.element.fix != .safe || $0.element.edits.isEmpty }
                .map { (index: $0.offset, finding: $0.element) }
                .sorted { ($0.finding.start.byteOffset, $0.index) < ($1.finding.start.byteOffset, $1.index) }
        }

        /// The first finding (in the order given), other than `outer` itself, inside the code `outer`'s
        /// fix rewrites (its span: a pattern writes only the tokens that differ, the rest is kept inside
        /// the new code).
        func first(inside outer: Finding) -> Finding? {
            guard !outer.edits.isEmpty else { return nil }
            var found: (index: Int, finding: Finding)?
            var at = byStart.partitioningIndex { $0.finding.start.byteOffset >= outer.start.byteOffset }
            while at < byStart.count, byStart[at].finding.start.byteOffset <= outer.end.byteOffset {
                let inner = byStart[at]
                at += 1
                guard inner.finding.end.byteOffset <= outer.end.byteOffset,
                      inner.finding.start.byteOffset != outer.start.byteOffset || inner.finding.end.byteOffset != outer.end.byteOffset,
                      found.map({ inner.index < $0.index }) ?? true
                else { continue }
                found = inner
            }
            return found?.finding
        }
    }
}
