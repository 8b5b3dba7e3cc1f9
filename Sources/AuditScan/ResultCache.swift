import AuditModel
import AuditRules
import Foundation

/// Per-file analyses kept between runs, keyed by the file's path, content, the rules and the tool
/// version, so a re-run after a one-file change parses about one file. Anything unreadable, foreign
/// or stale in the cache is ignored and rewritten, never trusted.
public final class ResultCache: @unchecked Sendable {
    public let folder: String
    private let rulesKey: String

    /// `rulesKey` must change whenever anything that affects analyses changes (rules, tool version).
    public init(folder: String, rulesKey: String) throws {
        self.folder = folder
        self.rulesKey = rulesKey
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    struct Entry: Codable {
        let format: Int
        let rulesKey: String
        let path: String
        let contentHash: String
        let analysis: FileAnalysis
    }

    static let format = 2  // 2: suppressions with their kind and lines (disable/enable regions)

    private func entryPath(_ file: SourceFileReference) -> String {
        folder + "/" + Self.hash(file.absolutePath + "\u{1F}" + file.displayPath) + ".json"
    }

    func load(_ file: SourceFileReference, bytes: [UInt8]) -> FileAnalysis? {
        guard let data = FileManager.default.contents(atPath: entryPath(file)),
              let entry = try? JSONDecoder().decode(Entry.self, from: data),
              entry.format == Self.format, entry.rulesKey == rulesKey, entry.path == file.absolutePath,
              entry.contentHash == Self.hash(bytes), entry.analysis.file == file.displayPath else { return nil }
        return entry.analysis
    }

    func store(_ analysis: FileAnalysis, for file: SourceFileReference, bytes: [UInt8]) {
        let entry = Entry(format: Self.format, rulesKey: rulesKey, path: file.absolutePath, contentHash: Self.hash(bytes), analysis: analysis)
        guard let data = try? JSONEncoder().encode(entry) else { return }
        // A cache that cannot be written only costs speed.
        try? data.write(to: URL(fileURLWithPath: entryPath(file)), options: .atomic)
    }

    /// 64-bit FNV-1a (`FNV1a`) over bytes, in hex, twice for 128 bits of key: the second from another
    /// seed, over the bytes xor 0x5A.
    static func hash(_ bytes: [UInt8]) -> String {
        var first = FNV1a()
        var second = FNV1a(seed: 0x8422_2325_CBF2_9CE4)
        for byte in bytes {
            first.add(byte)
            second.add(byte ^ 0x5A)
        }
        return String(first.value, radix: 16) + String(second.value, radix: 16)
    }

    static func hash(_ text: String) -> String { hash(Array(text.utf8)) }

    // MARK: - File versions from git history (`progress`)

    struct VersionsFile<Value: Codable>: Codable {
        let format: Int
        let rulesKey: String
        let versions: [String: Value]
    }

    private var versionsPath: String { folder + "/history-versions.json" }

    /// What earlier `progress` runs kept about file versions (keyed by the caller, e.g. path and blob
    /// id) under the same rules and tool version; empty when there is none or it is stale or foreign.
    public func loadVersions<Value: Codable>(_ type: Value.Type) -> [String: Value] {
        guard let data = FileManager.default.contents(atPath: versionsPath),
              let file = try? JSONDecoder().decode(VersionsFile<Value>.self, from: data),
              file.format == Self.format, file.rulesKey == rulesKey else { return [:] }
        return file.versions
    }

    /// Keeps `versions` for the next run (replacing what was kept).
    public func storeVersions<Value: Codable>(_ versions: [String: Value]) {
        guard let data = try? JSONEncoder().encode(VersionsFile(format: Self.format, rulesKey: rulesKey, versions: versions)) else { return }
        // A cache that cannot be written only costs speed.
        try? data.write(to: URL(fileURLWithPath: versionsPath), options: .atomic)
    }
}
