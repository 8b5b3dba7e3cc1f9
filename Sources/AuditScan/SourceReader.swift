import AuditModel
import AuditSelect
import Foundation
#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
#endif

/// Reads a file as UTF-8 source, refusing what is not Swift text.
public enum SourceReader {
    public struct Failure: Error {
        public let kind: FileProblem.Kind
        public let detail: String

        /// A file of `size` bytes, over the `limit`.
        public static func tooLarge(_ size: Int, limit: Int) -> Failure {
            Failure(kind: .tooLarge, detail: "\(size / (1 << 20)) MB is over the \(limit >> 20) MB limit: skipped")
        }
    }

    /// The file's bytes, checked (binary, not UTF-8).
    public static func read(_ path: String, maximumSize: Int) -> Result<[UInt8], Failure> {
        readBytes(path, maximumSize: maximumSize).flatMap { bytes in refusal(of: bytes).map { .failure($0) } ?? .success(bytes) }
    }

    /// Why `bytes` are not Swift text, if they are not: a NUL byte in the first 8 KB (binary), or a
    /// byte that is no valid UTF-8.
    public static func refusal(of bytes: [UInt8]) -> Failure? {
        let problems = FileSelector.textProblems(bytes)
        if let offset = problems.firstNUL, offset < 8192 {
            return Failure(kind: .binary, detail: "binary content (NUL bytes), not Swift source: skipped")
        }
        if let offset = problems.firstInvalidUTF8 {
            return Failure(kind: .notUTF8, detail: "not valid UTF-8 (first bad byte at offset \(offset)): skipped")
        }
        return nil
    }

    /// Reads into `base` from `start` until `end` or the file's end, again after a signal: how far it
    /// got, and the error that stopped it (0: none).
    static func fill(_ descriptor: Int32, _ base: UnsafeMutablePointer<UInt8>, from start: Int, to end: Int) -> (Int, Int32) {
        var position = start
        while position < end {
            let got = systemRead(descriptor, base + position, end - position)
            if got < 0 {
                if errno == EINTR { continue }
                return (position, errno)
            }
            if got == 0 { break }
            position += got
        }
        return (position, 0)
    }

    static func readBytes(_ path: String, maximumSize: Int) -> Result<[UInt8], Failure> {
        readFile(path, maximumSize: maximumSize).map(\.bytes)
    }

    /// The whole file in one buffer: open, fstat for the size, read that many bytes (a file that grew
    /// since counts as it was at the fstat; one that gave no size, or fewer bytes, is read to its end).
    /// With the file's identity, from the same fstat.
    static func readFile(_ path: String, maximumSize: Int) -> Result<(bytes: [UInt8], identity: SourceDiscovery.FileIdentity), Failure> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno == EACCES ? "permission denied?" : String(cString: strerror(errno))
            return .failure(Failure(kind: .unreadable, detail: "cannot read the file (\(reason))"))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            return .failure(Failure(kind: .unreadable, detail: "cannot read the file (\(String(cString: strerror(errno))))"))
        }
        if Int(status.st_size) > maximumSize { return .failure(.tooLarge(Int(status.st_size), limit: maximumSize)) }
        // The expected size and one byte more, read into uninitialized memory (no zero-filling first):
        // the array counts only what `read` wrote. The size `fstat` gave, read in full, is the file as
        // it was then: no second `read` to hear the end (one system call fewer for each of thousands of
        // files). A file with no size (those of /proc) is read to its end.
        let size = max(Int(status.st_size), 0)
        let capacity = size + 1
        var readError: Int32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            (count, readError) = fill(descriptor, buffer.baseAddress!, from: 0, to: size > 0 ? size : capacity)
        }
        var filled = bytes.count
        if size > 0, filled == size, readError == 0 { return .success((bytes, SourceDiscovery.FileIdentity(status))) }
        // A full buffer: the file grew since `fstat` (or, like a file of /proc, gave no size); read on to the end.
        var full = filled == capacity
        while readError == 0, full {
            if filled > maximumSize { return .failure(.tooLarge(filled, limit: maximumSize)) }
            bytes.append(contentsOf: repeatElement(0, count: max(4096, filled)))
            let end = bytes.count
            (filled, readError) = bytes.withUnsafeMutableBufferPointer { fill(descriptor, $0.baseAddress!, from: filled, to: end) }
            full = filled == end
        }
        if readError != 0 {
            return .failure(Failure(kind: .unreadable, detail: "cannot read the file (\(String(cString: strerror(readError))))"))
        }
        if filled > maximumSize { return .failure(.tooLarge(filled, limit: maximumSize)) }
        bytes.removeLast(bytes.count - filled)
        return .success((bytes, SourceDiscovery.FileIdentity(status)))
    }
}
