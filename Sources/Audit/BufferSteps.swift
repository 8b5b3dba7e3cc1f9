import AuditConfig
import AuditModel
import AuditRules
import AuditScan
import Foundation

/// Open editor buffers (`loadaudit lsp`): files whose text is not the one on disk. Each maps a file's
/// absolute path in the project to the file holding its current text (written by the caller, as the
/// command line writes standard input for `--stdin-filename`). The one judged is a `StandIn`; the
/// others are read instead of their files on disk for the project's facts.
public struct OpenBuffers {
    public var texts: [String: String]

    public init(_ texts: [String: String] = [:]) { self.texts = texts }
}

/// A place of an `AuditError`: a file (absolute), its 1-based line and column when known, and the problem.
public struct AuditErrorPlace: Equatable, Sendable {
    public let file: String
    public let line: Int?
    public let column: Int?
    public let problem: String
}

extension AuditError {
    init(_ error: RulesFileError, from folder: String) {
        self.init(error.shown(from: folder))
        places = error.all.map { AuditErrorPlace(file: $0.file, line: $0.line, column: $0.column, problem: $0.problem) }
    }
}

extension Audit {
    /// What an editor shows for one buffer: the scan's findings of `standIn` (its text, judged as the
    /// file at `standIn.name`, an absolute path, with the other open buffers' texts for the project's
    /// facts), the same step as `scan --stdin-filename` (`scanFindings`). Findings name the file
    /// `standIn.name`.
    public func judge(_ standIn: StandIn, openBuffers: OpenBuffers = OpenBuffers()) throws -> (ScanResult, [String]) {
        var audit = self
        audit.scanner.readsInstead.merge(openBuffers.texts) { current, _ in current }
        // The judged text changes at every keystroke: its analysis is not worth keeping.
        audit.scanner.uncached = [URL(fileURLWithPath: setup.absolute(standIn.name)).standardizedFileURL.path, standIn.file]
        return try audit.scanFindings([standIn.name], standIn: standIn)
    }

    /// The text `fix` would write for one buffer (judged as `judge` judges it): the fixes of the
    /// classes given, or with `only`, just the findings it accepts (one finding's quick fix) with the
    /// imports its replacement module needs. Nil when nothing changes or the rewrite is refused
    /// (it would not parse): nothing is offered then.
    public func fixedText(_ standIn: StandIn, openBuffers: OpenBuffers = OpenBuffers(), classes: Set<FixClass>,
                          only: (@Sendable (Finding) -> Bool)? = nil) throws -> [UInt8]? {
        var scanner = self.scanner
        scanner.readsInstead.merge(openBuffers.texts) { current, _ in current }
        let inPlace = URL(fileURLWithPath: setup.absolute(standIn.name)).standardizedFileURL.path
        var options = FixPlanner.Options(classes: classes)
        options.selects = only
        let plan: FixPlanner.Plan
        do {
            if FileManager.default.fileExists(atPath: inPlace) {
                scanner.readsInstead[inPlace] = standIn.file
                plan = try FixPlanner(scanner: scanner, options: options).plan([inPlace], within: projectRoot(for: [inPlace]))
            } else {
                plan = try FixPlanner(scanner: scanner, options: options).plan([standIn.file])
            }
        } catch let error as InputPathError {
            throw AuditError(error.description)
        }
        guard let file = plan.files.first, file.outcome == .fixed, file.fixed != file.original else { return nil }
        return file.fixed
    }
}

extension Audit {
    /// The configuration a file is judged with: the nearest `.loadaudit.yml` at or above it.
    public static func configurationPath(for file: String) -> String? {
        ProjectConfig.find(from: file)
    }
}
