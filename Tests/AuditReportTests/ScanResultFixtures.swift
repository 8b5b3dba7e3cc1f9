import AuditModel

/// Hand-built scan results, so report tests depend on nothing but the model.
enum Fixtures {
    static let loadingFile = "Sources/App/Views/Loading.swift"
    static let legacyFile = "Sources/App/Legacy/Old.swift"

    static let safeFinding = Finding(
        ruleId: "progress-view", severity: .warning, file: loadingFile,
        start: SourcePoint(line: 12, column: 9, byteOffset: 300), end: SourcePoint(line: 12, column: 23, byteOffset: 314),
        symbol: "ProgressView", message: "ProgressView is deprecated; use LoadingIndicator",
        replacement: "LoadingIndicator()", fix: .safe
    )

    static let manualFinding = Finding(
        ruleId: "activity-indicator", severity: .error, file: legacyFile,
        start: SourcePoint(line: 3, column: 5, byteOffset: 40), end: SourcePoint(line: 5, column: 6, byteOffset: 120),
        symbol: "UIActivityIndicatorView", message: "UIActivityIndicatorView has no automatic replacement",
        replacement: nil, fix: .manual
    )

    static let secondSafeFinding = Finding(
        ruleId: "progress-view", severity: .warning, file: legacyFile,
        start: SourcePoint(line: 9, column: 1, byteOffset: 200), end: SourcePoint(line: 9, column: 15, byteOffset: 214),
        symbol: "ProgressView", message: "ProgressView is deprecated; use LoadingIndicator",
        replacement: "LoadingIndicator()", fix: .safe
    )

    static let syntaxProblem = FileProblem(
        file: "Sources/App/Broken.swift", kind: .syntaxError, line: 4, column: 2, detail: "syntax error near '}'"
    )

    static func result(
        findings: [Finding] = [safeFinding, manualFinding, secondSafeFinding],
        problems: [FileProblem] = [syntaxProblem],
        filesScanned: Int = 5,
        filesWithParseErrors: Int = 1,
        ruleIds: [String] = ["progress-view", "activity-indicator", "never-fires"]
    ) -> ScanResult {
        ScanResult(
            findings: findings, problems: problems, filesScanned: filesScanned,
            filesWithParseErrors: filesWithParseErrors, ruleIds: ruleIds
        )
    }
}
