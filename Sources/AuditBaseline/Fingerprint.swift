import AuditModel

/// Identities for findings that survive edits which do not touch the use: lines inserted or removed
/// above it, re-indentation, other uses added or removed. Built from the rule, the component, the
/// declarations around the use and its code with blanks folded, never from line numbers or measured
/// values; identical uses in one file are told apart by their order (`-1`, `-2`, ...).
public enum Fingerprint {
    /// Sets `fingerprint` on every finding; findings must be in report order.
    public static func assign(_ findings: inout [Finding]) {
        var occurrences: [String: Int] = [:]
        for index in findings.indices {
            let finding = findings[index]
            let key = hash([finding.ruleId, finding.symbol, finding.scope, finding.snippet].joined(separator: "\u{1F}"))
            let count = (occurrences[finding.file + "\u{1F}" + key] ?? 0) + 1
            occurrences[finding.file + "\u{1F}" + key] = count
            findings[index].fingerprint = "\(key)-\(count)"
        }
    }

    /// 64-bit FNV-1a (`FNV1a`, stable across platforms and releases), as 16 hex digits.
    static func hash(_ text: String) -> String {
        let hex = String(FNV1a.of(text.utf8), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
