// AuditModel: the plain model every stage shares: findings, positions, severities, fix classes,
// edits, file problems, the scan result; and the few helpers every layer shares: the one byte hash
// (FNV1a), the one binary search (partitioningIndex), the UTF-8 order of paths, the pluralizer, the
// one glob matcher of paths (PathGlob: .loadaudit.yml's and CODEOWNERS' dialects).
// Values only: it must not parse, do I/O, or import another module of loadaudit.

/// How serious a finding is. Ordered: a run fails on findings at or above its failing severity.
public enum Severity: String, CaseIterable, Codable, Comparable, Sendable {
    case note, warning, error

    private var rank: Int {
        switch self {
        case .note: return 0
        case .warning: return 1
        case .error: return 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// How far a finding's replacement can be trusted.
public enum FixClass: String, CaseIterable, Codable, Comparable, Sendable {
    /// Mechanical and behaviour-preserving: `fix` applies it.
    case safe
    /// A plausible rewrite that needs a human glance: `fix --unsafe` applies it.
    case unsafe
    /// No automatic rewrite: a person must change the code.
    case manual

    private var rank: Int {
        switch self {
        case .safe: return 0
        case .unsafe: return 1
        case .manual: return 2
        }
    }

    public static func < (lhs: FixClass, rhs: FixClass) -> Bool { lhs.rank < rhs.rank }
}

/// A place in a file: 1-based line, 1-based column in Unicode code points, and the UTF-8 byte offset.
public struct SourcePoint: Hashable, Comparable, Codable, Sendable {
    public let line: Int
    public let column: Int
    public let byteOffset: Int

    public init(line: Int, column: Int, byteOffset: Int) {
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
    }

    public static func < (lhs: SourcePoint, rhs: SourcePoint) -> Bool {
        (lhs.line, lhs.column, lhs.byteOffset) < (rhs.line, rhs.column, rhs.byteOffset)
    }
}

/// A replacement of the bytes `range` of a file by `text`: the unit every fix is made of.
public struct TextEdit: Hashable, Codable, Sendable {
    public let range: Range<Int>
    public let text: String

    public init(range: Range<Int>, text: String) {
        self.range = range
        self.text = text
    }
}

/// Another place that explains a finding: where a rotating string array or its timer lives.
public struct RelatedLocation: Hashable, Codable, Sendable {
    public let file: String
    public let line: Int
    public let column: Int
    public let message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }
}

/// One deprecated usage (or declaration) found in one file.
public struct Finding: Hashable, Sendable, Codable {
    public let ruleId: String
    public let severity: Severity
    /// The path shown to people and written to reports (relative to the current directory).
    public let file: String
    /// Start and end (exclusive) of the span: the usage, with any modifiers its replacement absorbs.
    public let start: SourcePoint
    public let end: SourcePoint
    /// The deprecated name as written in the code, e.g. `ProgressView`.
    public let symbol: String
    public let message: String
    /// The code that replaces the span, or nil when there is no automatic rewrite.
    public let replacement: String?
    public let fix: FixClass
    /// The declarations around the use, outermost first (`GamesHistoryView.body`): part of its identity
    /// in a baseline, which must survive edits elsewhere in the file.
    public var scope: String = ""
    /// The code of the span with blanks folded (`ProgressView() .controlSize(.small)`), likewise.
    public var snippet: String = ""
    /// Other places that explain it (cross-file rules).
    public var related: [RelatedLocation] = []
    /// A stable identity, the same across edits that do not touch the use (see AuditBaseline).
    public var fingerprint: String = ""
    /// Whether a baseline (or the diff base) already had it. Without one, every finding is new.
    public var baseline: BaselineState = .new
    /// The source line a report shows under it (its start line, cut around the span when long), set
    /// once the findings are resolved: no report reads a file again.
    public var shownLine: ShownLine?
    /// The byte edits that apply the replacement: the call replaced, each absorbed modifier removed
    /// (with its line when it stands alone), everything between them untouched. Empty without a replacement.
    public let edits: [TextEdit]

    public init(
        ruleId: String, severity: Severity, file: String, start: SourcePoint, end: SourcePoint,
        symbol: String, message: String, replacement: String?, fix: FixClass, edits: [TextEdit]? = nil
    ) {
        self.ruleId = ruleId
        self.severity = severity
        self.file = file
        self.start = start
        self.end = end
        self.symbol = symbol
        self.message = message
        self.replacement = replacement
        self.fix = fix
        if let replacement {
            self.edits = edits ?? [TextEdit(range: start.byteOffset..<end.byteOffset, text: replacement)]
        } else {
            self.edits = []
        }
    }

    /// The same finding named under another path (related places in `from` too): for a file read
    /// from standard input under the name it has in the project.
    public func renamingFile(_ from: String, to name: String) -> Finding {
        var copy = Finding(ruleId: ruleId, severity: severity, file: file == from ? name : file, start: start, end: end,
                           symbol: symbol, message: message, replacement: replacement, fix: fix, edits: edits)
        copy.scope = scope
        copy.snippet = snippet
        copy.related = related.map { $0.file == from ? RelatedLocation(file: name, line: $0.line, column: $0.column, message: $0.message) : $0 }
        copy.fingerprint = fingerprint
        copy.baseline = baseline
        copy.shownLine = shownLine
        return copy
    }

    /// Report order: file, then position, then rule id for findings that share a start.
    public static func reportOrder(_ lhs: Finding, _ rhs: Finding) -> Bool {
        if lhs.file != rhs.file { return lhs.file.precedesInUTF8(rhs.file) }
        if lhs.start != rhs.start { return lhs.start < rhs.start }
        return lhs.ruleId < rhs.ruleId
    }
}

/// The part of a source line shown under a finding: all of a line up to `widest` characters; of a
/// longer line (minified or generated code, a one-line file of megabytes) a window around the span,
/// cut with "…" at either end. With the span's start and end as character indices into `text`.
public struct ShownLine: Hashable, Codable, Sendable {
    public let text: String
    public let start: Int
    public let end: Int

    public static let widest = 200

    /// `line` (its text, without the line break) with the span from the 1-based `startColumn` to
    /// `endColumn` (exclusive; nil when the span goes on past the line).
    public init(line: String, startColumn: Int, endColumn: Int?) {
        let line = Array(line.unicodeScalars)
        let start = min(max(startColumn - 1, 0), line.count)
        let end = endColumn.map { min(max($0 - 1, start + 1), line.count) } ?? line.count
        guard line.count > Self.widest else {
            (text, self.start, self.end) = (String(String.UnicodeScalarView(line)), start, end)
            return
        }
        let context = 40
        let from = max(0, start - context)
        let to = min(line.count, from + Self.widest, max(end, start + 1) + context)
        let head: [Unicode.Scalar] = from > 0 ? ["…"] : []
        let tail: [Unicode.Scalar] = to < line.count ? ["…"] : []
        text = String(String.UnicodeScalarView(head + line[from..<to] + tail))
        self.start = start - from + head.count
        self.end = min(end, to) - from + head.count
    }

    /// The shown line of a finding spanning `start` to `end`, from its start line's text.
    public init(line: String, start: SourcePoint, end: SourcePoint) {
        self.init(line: line, startColumn: start.column, endColumn: end.line == start.line ? end.column : nil)
    }
}

public enum BaselineState: String, Codable, Sendable {
    /// Not in the baseline (or on a line changed since the diff base): it fails the run.
    case new
    /// Already there: reported, but it does not fail the run.
    case existing
}

/// A baseline entry whose finding is gone: the usage was fixed, so the baseline can shrink.
public struct StaleEntry: Hashable, Codable, Sendable {
    public let ruleId: String
    public let file: String
    public let fingerprint: String
    public let snippet: String

    public init(ruleId: String, file: String, fingerprint: String, snippet: String) {
        self.ruleId = ruleId
        self.file = file
        self.fingerprint = fingerprint
        self.snippet = snippet
    }
}

/// A problem with one input file that did not stop the scan (unreadable, not UTF-8, syntax errors...).
public struct FileProblem: Hashable, Sendable {
    public enum Kind: String, Sendable {
        case unreadable
        case notUTF8 = "not-utf8"
        case binary
        case syntaxError = "syntax-error"
        case symlinkLoop = "symlink-loop"
        case tooLarge = "too-large"

        /// A Swift source file the scan could not judge at all (it cannot be read, or is not UTF-8):
        /// a new use in it would pass unseen, so the gate fails on it. A binary or over-64 MB file
        /// is not source a person writes; a syntax error or a symbolic link loop leaves the rest judged.
        public var leavesSourceUnjudged: Bool { self == .unreadable || self == .notUTF8 }
    }

    public let file: String
    public let kind: Kind
    /// Where the problem is, for syntax errors.
    public let line: Int?
    public let column: Int?
    public let detail: String

    public init(file: String, kind: Kind, line: Int? = nil, column: Int? = nil, detail: String) {
        self.file = file
        self.kind = kind
        self.line = line
        self.column = column
        self.detail = detail
    }

    /// One line for people: `path:line:col: what is wrong`.
    public var summary: String {
        var location = file
        if let line { location += ":\(line)" }
        if let column { location += ":\(column)" }
        return "\(location): \(detail)"
    }
}

/// Everything one scan produced, ready for any report.
public struct ScanResult: Sendable {
    public var findings: [Finding]
    public var problems: [FileProblem]
    public var filesScanned: Int
    /// Files whose syntax tree has errors (they were still scanned outside the broken regions).
    public var filesWithParseErrors: Int
    /// The rule ids that ran, in rules-file order, so reports can list rules with no finding too.
    public var ruleIds: [String]
    /// The absolute path behind each path the findings name (their files and related places), for
    /// reading source lines back and for baselines.
    public var absolutePaths: [String: String]
    /// Baseline entries no finding matched any more.
    public var staleEntries: [StaleEntry] = []
    /// Baseline entries of rules that did not run (switched off, or not selected), per rule id: neither
    /// existing nor fixed.
    public var baselineEntriesNotChecked: [String: Int] = [:]

    public init(
        findings: [Finding], problems: [FileProblem], filesScanned: Int, filesWithParseErrors: Int, ruleIds: [String],
        absolutePaths: [String: String] = [:]
    ) {
        self.findings = findings
        self.problems = problems
        self.filesScanned = filesScanned
        self.filesWithParseErrors = filesWithParseErrors
        self.ruleIds = ruleIds
        self.absolutePaths = absolutePaths
    }

    public var countsByRule: [String: Int] {
        findings.reduce(into: [:]) { $0[$1.ruleId, default: 0] += 1 }
    }

    public var newFindings: [Finding] { findings.filter { $0.baseline == .new } }
}

/// What reports say about a rule: its documentation, independent of how the rule matches.
public struct RuleDescription: Hashable, Sendable {
    public let id: String
    public let severity: Severity
    public let fix: FixClass
    public let message: String
    public let help: String?
    public let helpURI: String?

    public init(id: String, severity: Severity, fix: FixClass, message: String, help: String?, helpURI: String?) {
        self.id = id
        self.severity = severity
        self.fix = fix
        self.message = message
        self.help = help
        self.helpURI = helpURI
    }
}
