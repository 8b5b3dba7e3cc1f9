import Foundation

/// Why a fixed file was not written. The original is untouched in every case.
public enum WriteRefusal: Error, Equatable, CustomStringConvertible {
    case readOnly
    case changedOnDisk
    case outsideRoots(String)
    case failed(String)

    public var description: String {
        switch self {
        case .readOnly: return "read-only file: not fixed"
        case .changedOnDisk: return "the file changed on disk since it was read: not fixed (run again)"
        case .outsideRoots(let target): return "a symbolic link to \(target), outside the scanned folders: not written"
        case .failed(let reason): return "could not be written (\(reason)): the original is untouched"
        }
    }
}

/// The one way loadaudit writes a file (fixed sources, reports, baselines).
///
/// Replaces a file's content all at once: a temporary file in the same folder, then a rename, so a
/// reader (or a crash) sees the old file or the new one, never a mix. Keeps the permissions. The
/// temporary file's name carries the process id, so that leftovers of killed runs can be told from
/// a live run's and removed.
public enum AtomicWriter {
    /// Writes a new file (a report, a baseline) or replaces one loadaudit owns, all at once. A path
    /// that names something other than a file or a folder (`/dev/null`, `/dev/stdout`, a named pipe, a
    /// socket) is written into as a shell's `>` would: renaming a file over it (as root) would replace
    /// the device with a plain file.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        var info = stat()
        if stat(path, &info) == 0, !isFileOrFolder(info.st_mode) {
            try writeInto(path, bytes)
            return
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    static func isFileOrFolder(_ mode: mode_t) -> Bool {
        (mode & S_IFMT) == S_IFREG || (mode & S_IFMT) == S_IFDIR
    }

    /// Writes `bytes` into what `path` opens (a device or a pipe), without truncating or renaming.
    static func writeInto(_ path: String, _ bytes: [UInt8]) throws {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw WriteRefusal.failed(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        let result = writeAll(bytes, to: descriptor)
        if result != 0 { throw WriteRefusal.failed(String(cString: strerror(result))) }
    }

    /// Writes every byte to `descriptor` (again after an interrupted or short write): 0, or the errno.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32 {
        bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let result = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += result
            }
            return 0
        }
    }

    /// Writes `bytes` to `path` if its current content is still `original`.
    /// `roots` are the real paths of the scanned folders; a link may only lead inside them.
    public static func replace(_ path: String, with bytes: [UInt8], original: [UInt8], roots: [String]) throws {
        let target = realPath(path)
        if target != path || isLink(path) {
            guard roots.contains(where: { target == $0 || target.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) else {
                throw WriteRefusal.outsideRoots(target)
            }
        }
        var info = stat()
        guard stat(target, &info) == 0 else { throw WriteRefusal.failed(String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw WriteRefusal.failed("no longer a regular file") }
        // Root may write anything: the permission bits say what the owner meant.
        guard info.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH) != 0, access(target, W_OK) == 0 else { throw WriteRefusal.readOnly }

        let folder = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        removeTemporariesOfDeadRuns(beside: name, in: folder)
        var template = Array("\(folder)/.\(name).loadaudit-\(getpid())-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw WriteRefusal.failed("cannot create a temporary file in \(folder): \(String(cString: strerror(errno)))") }
        let temporary = String(cString: template)
        var keepTemporary = false
        defer { if !keepTemporary { unlink(temporary) } }

        let writeResult = writeAll(bytes, to: descriptor)
        if writeResult != 0 {
            close(descriptor)
            throw WriteRefusal.failed(String(cString: strerror(writeResult)))
        }
        fchmod(descriptor, info.st_mode & 0o7777)
        _ = fchown(descriptor, info.st_uid, info.st_gid)
        guard fsync(descriptor) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw WriteRefusal.failed(reason)
        }
        close(descriptor)

        guard let current = FileManager.default.contents(atPath: target), [UInt8](current) == original else {
            throw WriteRefusal.changedOnDisk
        }
        guard rename(temporary, target) == 0 else { throw WriteRefusal.failed(String(cString: strerror(errno))) }
        keepTemporary = true
    }

    /// A run killed between creating its temporary file and the rename (SIGKILL cannot be caught)
    /// leaves `.<name>.loadaudit-<pid>-XXXXXX` beside the intact target. The next write of that file
    /// removes such leftovers whose process is gone; a live run's are left alone.
    static func removeTemporariesOfDeadRuns(beside name: String, in folder: String) {
        let prefix = ".\(name).loadaudit-"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries where entry.hasPrefix(prefix) {
            let tail = entry.dropFirst(prefix.count).split(separator: "-")
            guard tail.count == 2, tail[1].count == 6, let pid = pid_t(tail[0]), pid > 0 else { continue }
            if kill(pid, 0) == -1, errno == ESRCH { unlink("\(folder)/\(entry)") }
        }
    }

    static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }
}

extension AtomicWriter {
    /// A report written where the user named it (`--output`, `--report FORMAT=FILE`, `--html`): one
    /// line naming the file when it cannot be written.
    static func writeReport(_ text: String, named file: String, terminal: Terminal, what: String = "the report") throws {
        do { try write(Array(text.utf8), to: terminal.absolutePath(file)) } catch {
            throw CommandFailure(message: "\(file): cannot write \(what) (\(error.localizedDescription))")
        }
    }
}
