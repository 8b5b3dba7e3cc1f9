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
        let log = try git(["log", "--first-parent", "--no-renames", "--raw", "--no-abbrev", "-z",
                           "--format=%x01%H %ct %an%x09%s"] + range)
        var commits: [Commit] = []
        var tokens = log.split(separator: "\0", omittingEmptySubsequences: false)[...]
        while let first = tokens.popFirst() {
            let token = first.drop { $0 == "\n" }
            if token.first == "\u{1}" {
                // A boundary commit's header is marked "-" by git.
                let header = token.dropFirst().drop { $0 == "-" }
                let tab = header.firstIndex(of: "\t") ?? header.endIndex
                let parts = header[..<tab].split(separator: " ", maxSplits: 2)
                guard parts.count == 3, let time = Int(parts[1]) else { continue }
                let subject = tab < header.endIndex ? String(header[header.index(after: tab)...]) : ""
                commits.append(Commit(id: String(parts[0]), time: time, author: String(parts[2]), subject: subject))
            } else if token.first == ":", let path = tokens.popFirst(), !commits.isEmpty {
                let meta = token.dropFirst().split(separator: " ")
                guard meta.count >= 4, accepted(path) else { continue }
                commits[commits.count - 1].changes.append(Change(path: String(path), old: Self.blob(meta[2]), new: Self.blob(meta[3])))
            }
        }
        return commits
    }

    /// A blob id from `git log --raw`; nil for the zeros of a file that did not exist.
    private static func blob(_ text: Substring) -> String? { text.allSatisfy { $0 == "0" } ? nil : String(text) }

    /// The commits tags reachable from HEAD point at (an annotated tag's commit is its peeled object,
    /// `%(*objectname)`; a light tag's, its own); empty when git cannot say.
    public func taggedCommits() -> Set<String> {
        let refs = (try? git(["for-each-ref", "--merged", "HEAD", "--format=%(objectname) %(*objectname)", "refs/tags"])) ?? ""
        return Set(refs.split(separator: "\n").compactMap { line in line.split(separator: " ").last.map(String.init) })
    }

    /// Every file of a commit (the whole repository), with its blob.
    public func files(at commit: String) throws -> [Entry] {
        try git(["ls-tree", "-r", "--full-tree", "-z", commit]).split(separator: "\0").compactMap { line in
            guard let tab = line.firstIndex(of: "\t") else { return nil }
            let meta = line[..<tab].split(separator: " "), path = String(line[line.index(after: tab)...])
            guard meta.count == 3, meta[1] == "blob" else { return nil }
            return Entry(path: path, blob: String(meta[2]))
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
