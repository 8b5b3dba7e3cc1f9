import Foundation
import LoadAuditTestSupport
import TreeSitter
import XCTest

/// The Swift files of every fixture app, as the shortcut tests read them (each compares a fast way with
/// the plain one at every node of every fixture).
func fixtureSwiftSources() -> [SourceText] {
    let fixtures = RepositoryFolder.root.appendingPathComponent("fixtures")
    let walker = FileManager.default.enumerator(at: fixtures, includingPropertiesForKeys: nil)
    var sources: [SourceText] = []
    while let url = walker?.nextObject() as? URL {
        guard url.pathExtension == "swift", let data = try? Data(contentsOf: url) else { continue }
        sources.append(SourceText(bytes: Array(data)))
    }
    XCTAssertGreaterThan(sources.count, 50)
    return sources
}
