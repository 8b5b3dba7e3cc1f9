import Foundation

/// Reads one report for `fleet`: `progress --format json` (its samples) or `scan --format json` (one
/// sample at its `date`). What is not one of them is `Unreadable`, with a one-line reason.
enum FleetReading {
    struct Unreadable: Error {
        let problem: String
    }

    /// The keys of both kinds of report that `fleet` reads; every other key is left alone.
    private struct Report: Decodable {
        struct Sample: Decodable {
            var date: String
            var findingsByRule: [String: Int]
            var adoption: [String: Int]
            var findingsByOwner: [String: Int]?
        }

        struct Summary: Decodable {
            var byRule: [String: Int]
        }

        var repository: String?
        var commit: String?
        var date: String?
        var rulesIdentity: RulesIdentity?
        var path: String?
        var samples: [Sample]?
        var summary: Summary?
    }

    static func repository(from data: Data, source: String) throws -> FleetReport.Repository {
        let report: Report
        do {
            report = try JSONDecoder().decode(Report.self, from: data)
        } catch DecodingError.dataCorrupted(let context) {
            throw Unreadable(problem: "not JSON (\((context.underlyingError as NSError?)?.localizedDescription ?? context.debugDescription))")
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            throw Unreadable(problem: "not a loadaudit report: \(context.codingPath.map(\.stringValue).joined(separator: ".")) has the wrong type")
        } catch DecodingError.keyNotFound(let key, let context) {
            let path = (context.codingPath.map(\.stringValue) + [key.stringValue]).joined(separator: ".")
            throw Unreadable(problem: "not a loadaudit report: \(path) is missing")
        }
        let fallbackName = ((source as NSString).lastPathComponent as NSString).deletingPathExtension
        if let samples = report.samples {
            // A day sampled twice (a tag and the week's newest commit) counts with its later sample.
            var points: [FleetReport.Point] = []
            for sample in samples {
                guard ProgressHistory.day(sample.date) != nil else { throw Unreadable(problem: "a sample's date '\(sample.date)' is not YYYY-MM-DD") }
                let point = FleetReport.Point(date: sample.date, findingsByRule: sample.findingsByRule, adopted: sample.adoption.values.reduce(0, +),
                                              findingsByOwner: sample.findingsByOwner ?? [:])
                if let last = points.last, last.date > point.date { throw Unreadable(problem: "its samples are not in date order (\(last.date), then \(point.date))") }
                if points.last?.date == point.date { points[points.count - 1] = point } else { points.append(point) }
            }
            guard !points.isEmpty else { throw Unreadable(problem: "a progress report without samples (no commit to sample)") }
            return FleetReport.Repository(name: report.repository ?? fallbackName, source: source, kind: "progress", commit: report.commit,
                                          rulesIdentity: report.rulesIdentity, samples: points, pageURL: nil, change28Days: 0, stale: false)
        }
        if let summary = report.summary {
            guard let date = report.date, ProgressHistory.day(date) != nil else {
                throw Unreadable(problem: "a scan report without its date (made by a loadaudit older than `fleet`: scan again with --format json)")
            }
            let point = FleetReport.Point(date: date, findingsByRule: summary.byRule, adopted: 0)
            return FleetReport.Repository(name: report.repository ?? fallbackName, source: source, kind: "scan", commit: report.commit,
                                          rulesIdentity: report.rulesIdentity, samples: [point], pageURL: nil, change28Days: 0, stale: false)
        }
        throw Unreadable(problem: "not a loadaudit report: neither `samples` (progress --format json) nor `summary` (scan --format json)")
    }
}
