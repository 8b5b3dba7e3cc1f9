import Audit
import Foundation

extension FixPlanner {
    /// The plan, with each rewritten file written as the command line writes a fix (the writer
    /// itself is tested in LoadAuditCLITests: here plain writes, as nothing else touches the files).
    func planAndWrite(_ paths: [String]) throws -> Plan {
        let plan = try plan(paths)
        for file in plan.files where file.outcome == .fixed && file.fixed != file.original {
            try Data(file.fixed).write(to: URL(fileURLWithPath: file.absolutePath))
        }
        return plan
    }
}
