import Foundation

/// The repository's root folder, for tests that read its files (fixtures, docs, rules, Sources):
/// Tests/TestSupport/<this file> is three levels below it.
public enum RepositoryFolder {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
