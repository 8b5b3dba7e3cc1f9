import Foundation

/// JSON-RPC 2.0 over a byte stream with `Content-Length` headers (the base protocol of LSP): reads
/// whole messages from a file descriptor and writes them, one at a time, to another.
final class MessageChannel: @unchecked Sendable {
    /// What the reader got: a message's JSON object, a body that is not one (answered with a parse
    /// error), or the end of the input.
    enum Incoming {
        case message([String: Any])
        case unreadable(String)
        case end
    }

    private let input: Int32
    private let output: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private let writing = NSLock()

    init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
    }

    /// The next message. Headers it does not know are skipped; a header block without a
    /// `Content-Length` is unreadable (and skipped), as is a body that is not a JSON object.
    func read() -> Incoming {
        while true {
            guard let headerEnd = find([13, 10, 13, 10]) else {
                if !fill() { return .end }
                continue
            }
            let header = String(decoding: buffer[start..<headerEnd], as: UTF8.self)
            start = headerEnd + 4
            var length: Int?
            for line in header.split(separator: "\r\n") {
                // Found anywhere in the line: after bytes that were no message, the next header is read.
                if let name = line.range(of: "content-length:", options: .caseInsensitive) {
                    length = Int(line[name.upperBound...].trimmingCharacters(in: .whitespaces))
                }
            }
            guard let length, length >= 0 else { return .unreadable("a header without a valid Content-Length") }
            while buffer.count - start < length {
                if !fill() { return .end }
            }
            let body = Data(buffer[start..<(start + length)])
            start += length
            compact()
            guard let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else {
                return .unreadable("the body is not JSON")
            }
            guard let message = object as? [String: Any] else { return .unreadable("the body is not a JSON object") }
            return .message(message)
        }
    }

    /// Writes one message (a JSON object) with its header, whole, whatever the thread.
    func write(_ message: [String: Any]) {
        guard let body = try? JSONSerialization.data(withJSONObject: message, options: [.withoutEscapingSlashes]) else { return }
        var bytes = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
        bytes += body
        writing.lock()
        defer { writing.unlock() }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Foundation.write(output, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            written += count
        }
    }

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            buffer += chunk[0..<count]
            return true
        }
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count - start >= needle.count else { return nil }
        var index = start
        while index + needle.count <= buffer.count {
            if buffer[index] == needle[0], Array(buffer[index..<(index + needle.count)]) == needle { return index }
            index += 1
        }
        return nil
    }

    private func compact() {
        if start > 1 << 20 || start == buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
    }
}

/// The error codes of JSON-RPC and LSP the server answers with.
enum ErrorCode: Int {
    case parseError = -32700
    case invalidRequest = -32600
    case methodNotFound = -32601
    case invalidParams = -32602
    case internalError = -32603
    case serverNotInitialized = -32002
    case requestFailed = -32803
}
