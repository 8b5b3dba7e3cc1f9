import AuditRules
import AuditScan
import Foundation
import TreeSitter

/// The steps of the commands around scan and fix: the rule authors' tools and the start of a run.
/// Values only, as the rest of Audit: the command line renders them.
extension Audit {
    /// Starts loading the built-in rules on another thread, for a command that will need them (its
    /// arguments are parsed meanwhile).
    public static func prepareBuiltInRules() {
        RuleSet.prepareBuiltIn()
    }

    /// The syntax tree of one Swift file, read as a scan reads it (`SourceReader`: Swift text of at
    /// most `ProjectScanner.maximumFileSize`), for `syntax`, the tree dumper. A file that cannot be read
    /// is an `AuditError` naming it as `shownAs`.
    public static func syntaxTree(ofFile path: String, shownAs name: String) throws -> Tree {
        let source: SourceText
        switch SourceReader.read(path, maximumSize: ProjectScanner.maximumFileSize) {
        case .success(let bytes): source = SourceText(bytes: bytes)
        case .failure(let failure):
            throw AuditError("\(name): \(FileManager.default.fileExists(atPath: path) ? failure.detail : "no such file")")
        }
        return try Parser().parse(source)
    }
}
