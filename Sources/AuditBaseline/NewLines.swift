import AuditGit
import AuditModel
import Foundation

/// The diff base's judgement: a finding on lines the change since the merge base left alone was there
/// before it.
extension GitChanges {
    /// Marks findings on unchanged lines as existing (a finding is new if any of its lines changed).
    public func classify(_ findings: inout [Finding], absolutePaths: [String: String]) {
        for index in findings.indices {
            guard let path = absolutePaths[findings[index].file].map(Self.standardized) else { continue }
            if untrackedFiles.contains(path) { continue }
            let lines = changedLines[path] ?? []
            let span = findings[index].start.line...max(findings[index].start.line, findings[index].end.line)
            if !span.contains(where: lines.contains) { findings[index].baseline = .existing }
        }
    }
}
