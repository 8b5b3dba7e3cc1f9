@testable import AuditGit
import XCTest

/// `progress` reads `git log -z --raw` and each sample's `git ls-tree -z` as bytes (docs/speed.md):
/// these compare that reading with the plain one it replaced (the output decoded as a String and split
/// by characters) on generated listings, odd names included.
final class GitHistoryReadingTests: XCTestCase {
    /// Names with spaces, tabs, colons, non-ASCII letters, a combining accent and bytes that are not UTF-8.
    private let names: [[UInt8]] = [
        Array("App/Feed View.swift".utf8), Array("Sources/Kit/Café.swift".utf8), Array("a:b/Odd\tName.swift".utf8),
        Array("Sources/Kit/Cafe\u{301}.swift".utf8), [0x4E, 0xFF, 0xFE, 0x2E, 0x73, 0x77, 0x69, 0x66, 0x74], Array("README.md".utf8),
        Array("Packages/Models/Package.swift".utf8), Array("-dash/x.swift".utf8), Array("日本/画面.swift".utf8),
    ]

    private func blobId(_ random: inout SystemRandomNumberGenerator, zero: Bool = false) -> [UInt8] {
        zero ? Array(repeating: 0x30, count: 40) : (0..<40).map { _ in Array("0123456789abcdef".utf8)[Int.random(in: 0..<16, using: &random)] }
    }

    func testTreeListingsReadAsBytesGiveThePlainReadingsEntries() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var listing: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                let kind = ["blob", "blob", "blob", "tree", "commit"].randomElement(using: &random)!
                listing += Array("100644 \(kind) ".utf8) + blobId(&random) + [0x09] + names.randomElement(using: &random)! + [0]
            }
            if Bool.random(using: &random) { listing += [0] }
            let fast = GitHistory.entries(ofTree: listing)
            let plain = Self.plainEntries(String(decoding: listing, as: UTF8.self))
            XCTAssertEqual(fast, plain)
        }
    }

    func testLogsReadAsBytesGiveThePlainReadingsCommits() {
        var random = SystemRandomNumberGenerator()
        let authors = ["Ada Lovelace", "Zoë Ng", "bot", "名前 姓"]
        let subjects = ["Fix the feed", "", "Spinner: use a skeleton\tnow", "Übersetzung"]
        for _ in 0..<200 {
            var log: [UInt8] = []
            if Bool.random(using: &random) { log += Array(":100644 100644 ".utf8) + blobId(&random) + [0x20] + blobId(&random) + Array(" M".utf8) + [0] + names[0] + [0] }
            for index in 0..<Int.random(in: 0...6, using: &random) {
                if index > 0 { log += [0x0A] }
                let boundary = Bool.random(using: &random) && Bool.random(using: &random) ? "-" : ""
                log += Array("\u{1}\(boundary)".utf8) + blobId(&random)
                log += Array(" \(Int.random(in: 1_600_000_000...1_800_000_000, using: &random)) \(authors.randomElement(using: &random)!)\t\(subjects.randomElement(using: &random)!)".utf8)
                log += [0x0A]
                for _ in 0..<Int.random(in: 0...4, using: &random) {
                    let status = ["M", "A", "D", "T"].randomElement(using: &random)!
                    log += [0x0A] + Array(":100644 100644 ".utf8) + blobId(&random, zero: status == "A") + [0x20]
                        + blobId(&random, zero: status == "D") + Array(" \(status)".utf8) + [0] + names.randomElement(using: &random)! + [0]
                }
            }
            let accepted = { (path: Substring) in path.hasSuffix(".swift") }
            let fast = GitHistory.commits(ofLog: log, accepting: accepted).map(Self.describe)
            let plain = Self.plainCommits(String(decoding: log, as: UTF8.self), accepting: accepted).map(Self.describe)
            XCTAssertEqual(fast, plain)
        }
    }

    private static func describe(_ commit: GitHistory.Commit) -> String {
        "\(commit.id) \(commit.time) \(commit.author) | \(commit.subject): " + commit.changes.map { "\($0.path) \($0.old ?? "-") \($0.new ?? "-")" }.joined(separator: ", ")
    }

    /// The reading `GitHistory.files(at:)` did before (2b2d6b4).
    private static func plainEntries(_ listing: String) -> [GitHistory.Entry] {
        listing.split(separator: "\0").compactMap { line in
            guard let tab = line.firstIndex(of: "\t") else { return nil }
            let meta = line[..<tab].split(separator: " "), path = String(line[line.index(after: tab)...])
            guard meta.count == 3, meta[1] == "blob" else { return nil }
            return GitHistory.Entry(path: path, blob: String(meta[2]))
        }
    }

    /// The reading `GitHistory.firstParentCommits` did before (2b2d6b4).
    private static func plainCommits(_ log: String, accepting accepted: (Substring) -> Bool) -> [GitHistory.Commit] {
        func blob(_ text: Substring) -> String? { text.allSatisfy { $0 == "0" } ? nil : String(text) }
        var commits: [GitHistory.Commit] = []
        var tokens = log.split(separator: "\0", omittingEmptySubsequences: false)[...]
        while let first = tokens.popFirst() {
            let token = first.drop { $0 == "\n" }
            if token.first == "\u{1}" {
                let header = token.dropFirst().drop { $0 == "-" }
                let tab = header.firstIndex(of: "\t") ?? header.endIndex
                let parts = header[..<tab].split(separator: " ", maxSplits: 2)
                guard parts.count == 3, let time = Int(parts[1]) else { continue }
                let subject = tab < header.endIndex ? String(header[header.index(after: tab)...]) : ""
                commits.append(GitHistory.Commit(id: String(parts[0]), time: time, author: String(parts[2]), subject: subject))
            } else if token.first == ":", let path = tokens.popFirst(), !commits.isEmpty {
                let meta = token.dropFirst().split(separator: " ")
                guard meta.count >= 4, accepted(path) else { continue }
                commits[commits.count - 1].changes.append(GitHistory.Change(path: String(path), old: blob(meta[2]), new: blob(meta[3])))
            }
        }
        return commits
    }
}
