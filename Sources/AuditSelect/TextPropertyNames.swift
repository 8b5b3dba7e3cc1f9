/// The computed properties a file may declare that switch to two or more string literals (`var
/// message: String { switch self { case .idle: "…" … } }`), by name: a superset of the text
/// properties `RotationFacts` finds in its enums, seen without parsing. The rotating-text rule needs
/// one behind every `Text(phase.message)`; knowing the names lets `RotationFollower` skip clock files
/// whose case assignments no display could show (see there).
///
/// A block counts when the statement that opens it has a `var` (the property is the name after the
/// last one) and the block holds `switch` and two string literals, nested blocks included. Nil when
/// `CodeScanner` gives up or a `var` is not followed by a name: then any name may be one.
public struct TextPropertyNames: Sendable, Equatable {
    /// Hashes (`WordHash.ofName`) of the properties' names.
    public let names: Set<UInt64>

    static let varKeyword = WordHash.ofName("var")
    static let switchKeyword = WordHash.ofName("switch")

    public init?(bytes: [UInt8]) {
        var finder = Finder()
        let finished = bytes.withUnsafeBufferPointer { CodeScanner.scan($0, &finder) }
        guard finished, !finder.unknown, !finder.unbalanced, finder.frames.isEmpty else { return nil }
        names = finder.names
    }

    private struct Finder: CodeTokenVisitor {
        struct Frame {
            let name: UInt64?
            var strings = 0
            var switches = false
        }
        /// One entry per open `{`: the property it opens, if any.
        var frames: [Frame?] = []
        var lastProperty: UInt64??
        var afterVar = false
        var names = Set<UInt64>()
        var unknown = false
        var unbalanced = false
        // Instance copies: a static costs a `swift_once` check on every token.
        let varKeyword = TextPropertyNames.varKeyword
        let switchKeyword = TextPropertyNames.switchKeyword

        mutating func visit(_ token: CodeScanner.Token) {
            if afterVar {
                afterVar = false
                if case .name(let hash, _, _) = token { lastProperty = .some(hash) } else { lastProperty = .some(nil) }
            }
            switch token {
            case .name(let hash, _, _):
                if hash == varKeyword { afterVar = true }
                if hash == switchKeyword { for index in frames.indices { frames[index]?.switches = true } }
            case .stringStart:
                for index in frames.indices { frames[index]?.strings += 1 }
            case .punctuation(let byte, _) where byte == UInt8(ascii: "{"):
                frames.append(lastProperty.map { Frame(name: $0) })
                lastProperty = nil
            case .punctuation(let byte, _) where byte == UInt8(ascii: "}"):
                guard let closed = frames.popLast() else {
                    unbalanced = true
                    return
                }
                if let frame = closed, frame.switches, frame.strings >= 2 {
                    if let name = frame.name { names.insert(name) } else { unknown = true }
                }
                lastProperty = nil
            case .punctuation(let byte, _) where byte == UInt8(ascii: ";"):
                lastProperty = nil
            default:
                break
            }
        }
    }
}
