import Foundation

/// JSON reports name the repository, HEAD's commit and day and the rules' hash (`ReportIdentity`),
/// which differ between checkouts, commits and rules edits: golden files hold placeholders instead.
public enum ReportIdentityText {
    public static func normalised(_ json: String) -> String {
        let replacements: [(String, String)] = [
            (#"(?m)^  "commit" : "[0-9a-f]{40}""#, #"  "commit" : "COMMIT""#),
            (#"(?m)^  "date" : "\d{4}-\d{2}-\d{2}""#, #"  "date" : "DATE""#),
            (#"(?m)^  "repository" : "(?:[^"\\]|\\.)*""#, #"  "repository" : "REPOSITORY""#),
            (#"(?m)^    "hash" : "[0-9a-f]{16}""#, #"    "hash" : "RULES""#),
        ]
        var text = json
        for (pattern, replacement) in replacements {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return text
    }
}
