// The project model's path arithmetic: parents, normal forms and folder tests, on the bytes where a
// path is ASCII (nearly every one), by characters otherwise.

extension ProjectModel {
    /// Whether `path` is a file or folder right inside `folder` (its parent is `folder`), byte by byte;
    /// false for paths of other bytes than ASCII (their parent is found by characters).
    static func path(_ path: String, isDirectlyIn folder: String) -> Bool {
        var path = path, folder = folder
        return path.withUTF8 { path in
            folder.withUTF8 { folder in
                let slash = UInt8(ascii: "/")
                guard !folder.isEmpty, folder.last != slash, path.count > folder.count + 1, path[folder.count] == slash else { return false }
                // Byte by byte, the folder from its end (paths share their first folders): the generic
                // `elementsEqual` of two buffers cost about 2,000 instructions a call.
                var index = folder.count - 1
                while index >= 0 {
                    if path[index] != folder[index] || folder[index] >= 0x80 { return false }
                    index -= 1
                }
                for index in (folder.count + 1)..<path.count where path[index] == slash || path[index] >= 0x80 { return false }
                return true
            }
        }
    }

    static func trimmed(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    static func parent(of path: String) -> String {
        // A path of ASCII bytes (nearly every one): its bytes are its characters, the last `/` found
        // byte by byte in its buffer (the generic `allSatisfy` and `lastIndex(of:)` over the UTF-8 view
        // cost about 3,000 instructions a path). Other paths by characters (a `/` joined to a mark is
        // no `/` there).
        var bytes = path
        let ascii: String?? = bytes.withUTF8 { bytes -> String?? in
            var slash = -1
            for index in bytes.indices {
                if bytes[index] >= 0x80 { return .none }
                if bytes[index] == UInt8(ascii: "/") { slash = index }
            }
            if slash < 0 { return .some("") }
            if slash == 0 { return .some(bytes.count == 1 ? "" : "/") }
            return .some(String(decoding: UnsafeBufferPointer(rebasing: bytes[..<slash]), as: UTF8.self))
        }
        if case .some(let parent?) = ascii { return parent }
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? (path == "/" ? "" : "/") : String(path[..<slash])
    }

    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Whether `path` is `folder` or inside it, byte by byte (both absolute, `folder` without a
    /// trailing `/`): the scan's follow-up asks it of thousands of files and each workspace with
    /// links. Most answers are no at the byte after the folder's length (paths share their first
    /// folders), so that byte is looked at first, and the rest compared from the end.
    /// The strings' own bytes are read where they are contiguous (every native string): copying the
    /// two strings to call `withUTF8` cost two retains and releases, most of each call.
    public static func path(_ path: String, isInside folder: String) -> Bool {
        if let answer = path.utf8.withContiguousStorageIfAvailable({ path in
            folder.utf8.withContiguousStorageIfAvailable { folder in bytes(path, areInside: folder) }
        }), let answer {
            return answer
        }
        var path = path, folder = folder
        return path.withUTF8 { path in folder.withUTF8 { folder in bytes(path, areInside: folder) } }
    }

    private static func bytes(_ path: UnsafeBufferPointer<UInt8>, areInside folder: UnsafeBufferPointer<UInt8>) -> Bool {
        let slash = UInt8(ascii: "/"), count = folder.count
        guard count > 0 else { return path.isEmpty || path[0] == slash }
        guard path.count >= count else { return false }
        if path.count > count, path[count] != slash, folder[count - 1] != slash { return false }
        var index = count - 1
        while index >= 0 {
            if path[index] != folder[index] { return false }
            index -= 1
        }
        return true
    }

    static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder == "/" ? "/" : folder + "/")
    }

    /// Whether `normalized` would give `path` back: ASCII bytes, each part (after a leading `/`)
    /// neither empty nor `.` nor `..`.
    static func isNormalASCII(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { bytes in
            let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
            guard !bytes.isEmpty else { return true }
            var start = bytes[0] == slash ? 1 : 0
            if start == bytes.count { return bytes.count == 1 }
            while start <= bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != slash {
                    if bytes[end] >= 0x80 { return false }
                    end += 1
                }
                let length = end - start
                if length == 0 || (bytes[start] == dot && (length == 1 || (length == 2 && bytes[start + 1] == dot))) { return false }
                start = end + 1
            }
            return true
        }
    }

    /// `a/./b/../c` as `a/c`, without a trailing `/`.
    static func normalized(_ path: String) -> String {
        // Most paths (a package's folder and a target's conventional folder) are normal already: ASCII,
        // no empty, `.` or `..` part, no trailing `/`.
        if isNormalASCII(path) { return path }
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", !parts.isEmpty { parts.removeLast() } else { parts.append(part) }
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }
}
