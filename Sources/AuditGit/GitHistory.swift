import Foundation

/// Reads a repository's history with git: the first-parent commits, the files of a commit, the
/// contents of blobs (one `git cat-file --batch`). Never checks anything out.
public struct GitHistory {
    public struct Commit {
        public let id: String
        /// Committer time, seconds since 1970.
        public let time: Int
        public let author: String
        public let subject: String
        /// The files it changed against its first parent (those the reader was asked about).
        public var changes: [Change] = []
    }

    /// A file a commit changed: its blob before (nil: added) and after (nil: deleted).
    public struct Change {
        public let path: String
        public let old: String?
        public let new: String?
    }

    /// A file version: its path (from the repository's top) and blob.
    public struct Entry: Hashable {
        public let path: String
        public let blob: String

        public init(path: String, blob: String) {
            self.path = path
            self.blob = blob
        }
    }

    /// Why a folder's history cannot be read.
    public enum Refusal: Error {
        /// Not in a git work tree (or git is not installed).
        case notAWorkTree
        /// A shallow clone, whose first-parent history starts at this day (`YYYY-MM-DD`; "?" unknown).
        case shallow(oldest: String)
    }

    /// The work tree's top folder.
    public let top: String
    /// The folder asked about, relative to the top ("" for the top itself; else ending with "/").
    public let prefix: String

    public init(folder: String) throws {
        do {
            top = try Git.run(["rev-parse", "--show-toplevel"], in: folder).trimmingCharacters(in: .whitespacesAndNewlines)
            prefix = try Git.run(["rev-parse", "--show-prefix"], in: folder).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw Refusal.notAWorkTree
        }
        if (try? Git.run(["rev-parse", "--is-shallow-repository"], in: folder).hasPrefix("true")) == true {
            let oldest = (try? Git.run(["log", "--first-parent", "--format=%cs", "--reverse", "HEAD"], in: folder))?.split(separator: "\n").first ?? "?"
            throw Refusal.shallow(oldest: String(oldest))
        }
    }

    private func git(_ arguments: [String]) throws -> String { try Git.run(arguments, in: top) }

    private func gitBytes(_ arguments: [String]) throws -> [UInt8] { try Git.runBytes(arguments, in: top) }

    /// Whether `reference` names a commit git knows.
    public func isCommit(_ reference: String) -> Bool {
        (try? git(["rev-parse", "--verify", "--quiet", reference + "^{commit}"])) != nil
    }

    /// The first-parent commits of HEAD after `boundary` (and it, git's boundary commit) or all of
    /// them, newest first, each with the files it changed (against its first parent) whose paths
    /// `changes` accepts, from one `git log`.
    public func firstParentCommits(after boundary: String?, changes accepted: (Substring) -> Bool) throws -> [Commit] {
        let range = boundary.map { ["--boundary", $0 + "..HEAD"] } ?? ["HEAD"]
        // `-z`: each header starts with \u{1}; then ":mode mode old new status" and the path, each
        // ended by NUL. (With --first-parent, a merge's changes are those against its first parent.)
        let log = try gitBytes(["log", "--first-parent", "--no-renames", "--raw", "--no-abbrev", "-z",
                                "--format=%x01%H %ct %an%x09%s"] + range)
        return Self.commits(ofLog: log, accepting: accepted)
    }

    /// The commits of `git log -z --raw --format=%x01%H %ct %an%x09%s` output, newest first, with
    /// the changes whose paths `accepted` accepts. Read as bytes, NUL by NUL (splitting the whole
    /// text as a String cost most of `progress`'s reading of the history).
    static func commits(ofLog log: [UInt8], accepting accepted: (Substring) -> Bool) -> [Commit] {
        var commits: [Commit] = []
        let tokens = Self.fields(of: log)
        var next = 0
        while next < tokens.count {
            var token = tokens[next]
            next += 1
            while token.first == 0x0A { token = token.dropFirst() }
            if token.first == 0x01 {
                // A boundary commit's header is marked "-" by git.
                let header = token.dropFirst().drop { $0 == 0x2D }
                let tab = header.firstIndex(of: 0x09) ?? header.endIndex
                let parts = header[..<tab].split(separator: 0x20, maxSplits: 2)
                guard parts.count == 3, let time = Int(String(decoding: parts[1], as: UTF8.self)) else { continue }
                let subject = tab < header.endIndex ? String(decoding: header[(tab + 1)...], as: UTF8.self) : ""
                commits.append(Commit(id: String(decoding: parts[0], as: UTF8.self), time: time,
                                      author: String(decoding: parts[2], as: UTF8.self), subject: subject))
            } else if token.first == 0x3A, next < tokens.count {
                let path = String(decoding: tokens[next], as: UTF8.self)
                next += 1
                guard !commits.isEmpty else { continue }
                let meta = token.dropFirst().split(separator: 0x20)
                guard meta.count >= 4, accepted(path[...]) else { continue }
                commits[commits.count - 1].changes.append(Change(path: path, old: Self.blob(meta[2]), new: Self.blob(meta[3])))
            }
        }
        return commits
    }

    /// A blob id from `git log --raw`; nil for the zeros of a file that did not exist.
    private static func blob(_ text: ArraySlice<UInt8>) -> String? { text.allSatisfy { $0 == 0x30 } ? nil : String(decoding: text, as: UTF8.self) }

    /// The NUL-separated fields of git's `-z` output (empty ones kept, as `split` with
    /// `omittingEmptySubsequences: false` gives them).
    static func fields(of output: [UInt8]) -> [ArraySlice<UInt8>] {
        var fields: [ArraySlice<UInt8>] = []
        var start = 0
        output.withUnsafeBufferPointer { bytes in
            for index in 0..<bytes.count where bytes[index] == 0 {
                fields.append(output[start..<index])
                start = index + 1
            }
        }
        fields.append(output[start...])
        return fields
    }

    /// The commits tags reachable from HEAD point at (an annotated tag's commit is its peeled object,
    /// `%(*objectname)`; a light tag's, its own); empty when git cannot say.
    public func taggedCommits() -> Set<String> {
        let refs = (try? git(["for-each-ref", "--merged", "HEAD", "--format=%(objectname) %(*objectname)", "refs/tags"])) ?? ""
        return Set(refs.split(separator: "\n").compactMap { line in line.split(separator: " ").last.map(String.init) })
    }

    /// Every file of a commit (the whole repository), with its blob.
    public func files(at commit: String) throws -> [Entry] {
        try Self.entries(ofTree: gitBytes(["ls-tree", "-r", "--full-tree", "-z", commit]))
    }

    /// The blobs of `git ls-tree -z`'s output ("mode type id<TAB>path", NUL after each), read as
    /// bytes: parsing it as a String cost more than git's own listing.
    static func entries(ofTree listing: [UInt8]) -> [Entry] {
        fields(of: listing).compactMap { line -> Entry? in
            guard !line.isEmpty, let tab = line.firstIndex(of: 0x09) else { return nil }
            let meta = line[..<tab].split(separator: 0x20)
            guard meta.count == 3, meta[1].elementsEqual("blob".utf8) else { return nil }
            return Entry(path: String(decoding: line[(tab + 1)...], as: UTF8.self), blob: String(decoding: meta[2], as: UTF8.self))
        }
    }

    /// The bytes of each blob, read with one `git cat-file --batch`.
    public func contents(of blobs: Set<String>) throws -> [String: [UInt8]] {
        guard !blobs.isEmpty else { return [:] }
        guard let gitPath = Git.executable else { throw Git.notInstalled }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gitPath)
        process.arguments = ["-C", top, "cat-file", "--batch"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let request = Data(blobs.sorted().map { $0 + "\n" }.joined().utf8)
        let writer = Thread {
            input.fileHandleForWriting.write(request)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let data = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        var contents: [String: [UInt8]] = [:]
        var index = 0
        while index < data.count {
            guard let newline = data[index...].firstIndex(of: 0x0A) else { break }
            let header = String(decoding: data[index..<newline], as: UTF8.self).split(separator: " ")
            index = newline + 1
            guard header.count == 3, header[1] == "blob", let size = Int(header[2]), index + size <= data.count else { continue }
            contents[String(header[0])] = Array(data[index..<(index + size)])
            index += size + 1
        }
        return contents
    }
}
