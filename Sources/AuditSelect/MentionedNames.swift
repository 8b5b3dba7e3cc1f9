import CNameDigest
import Foundation
import SwiftGrammar

/// What the follow-up keeps of a file left for later instead of its bytes: a 32-bit print of each
/// distinct name in it (`CNameDigest`), made when the first look leaves the file for later. Once the
/// links are known, a file none of whose prints is a linking name's is settled without reading it
/// again; a file whose prints match is read to be parsed anyway, and the match is confirmed on its
/// bytes first (`FileSelector.wants`: a print is a fingerprint, the answer is the bytes'). About 4
/// bytes a distinct name: 8.5 MB for the 24-repository corpus.
public struct MentionedNames: Sendable {
    /// The prints, in no particular order.
    let prints: [UInt32]

    /// The names of these bytes (a run of name bytes, after its leading digits, as `forEachName`
    /// reads it); nil when the memory for it could not be had.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            prints = []
            return
        }
        var found: UnsafeMutablePointer<UInt32>?
        let count = NameDigest.withLook { look in loadaudit_name_prints(base, bytes.count, look, &found) }
        defer { free(found) }
        guard count >= 0, let found else { return nil }
        prints = Array(UnsafeBufferPointer(start: found, count: count))
    }

    /// How many distinct names the file holds.
    public var count: Int { prints.count }
}

/// The prints of a few names (the links of one workspace) to look for among a file's
/// (`MentionedNames`): a bit per print's low six bits first, then the prints one by one.
struct NamePrints: Sendable {
    let prints: [UInt32]
    let bits: UInt64

    /// Each name as `WordHash.ofWord` reads it where it stands in a file: its name bytes, after any
    /// leading digits; a name with nothing left is mentioned by no file.
    init(_ names: some Sequence<String>) {
        var prints: [UInt32] = []
        for name in names {
            var bytes = Array(name.utf8.filter { ByteClass.of($0).contains(.name) })
            bytes = Array(bytes.drop { ByteClass.of($0).contains(.digit) })
            guard !bytes.isEmpty else { continue }
            prints.append(bytes.withUnsafeBufferPointer { loadaudit_name_print($0.baseAddress!, $0.count) })
        }
        self.prints = prints
        bits = prints.reduce(0) { $0 | (1 << UInt64($1 & 63)) }
    }

    var isEmpty: Bool { prints.isEmpty }

    /// Whether one of the file's names has one of these prints.
    func anyIn(_ names: MentionedNames) -> Bool {
        for print in names.prints where bits & (1 << UInt64(print & 63)) != 0 {
            if prints.contains(print) { return true }
        }
        return false
    }
}

/// The C loop's look: the byte classes (`ByteClass.table`, shared, not copied) and the nibble tables
/// of its name bytes, built once.
enum NameDigest {
    static let nibbles: [UInt8] = {
        var nibbles = [UInt8](repeating: 0, count: Int(LOADAUDIT_NAME_NIBBLE_BYTES))
        ByteClass.table.withUnsafeBufferPointer { classes in
            classes.withMemoryRebound(to: UInt8.self) { classes in
                nibbles.withUnsafeMutableBufferPointer { loadaudit_name_nibbles_build($0.baseAddress!, classes.baseAddress!, ByteClass.name.rawValue) }
            }
        }
        return nibbles
    }()

    static func withLook<Result>(_ body: (UnsafePointer<loadaudit_name_look>) -> Result) -> Result {
        ByteClass.table.withUnsafeBufferPointer { classes in
            classes.withMemoryRebound(to: UInt8.self) { classes in
                nibbles.withUnsafeBufferPointer { nibbles in
                    var look = loadaudit_name_look(classes: classes.baseAddress!, name_class: ByteClass.name.rawValue,
                                                   digit_class: ByteClass.digit.rawValue, name_nibbles: nibbles.baseAddress!)
                    return body(&look)
                }
            }
        }
    }
}
