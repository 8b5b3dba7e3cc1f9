/// Finds where a JSON text goes wrong, or where a value sits, as line and column: Foundation's
/// decoder says only "The given data was not valid JSON." and names keys, not places. A strict
/// RFC 8259 reader (no trailing commas, no comments), recursive but limited to 512 levels, so that
/// hostile input cannot overflow the stack.
public enum JSONLocator {
    public struct Place: Equatable, CustomStringConvertible {
        /// 1-based; the column counts characters (code points), as loadaudit's other messages do.
        public let line: Int
        public let column: Int
        public let message: String

        public init(line: Int, column: Int, message: String) {
            self.line = line
            self.column = column
            self.message = message
        }

        public var description: String { "\(line):\(column): \(message)" }
    }

    /// One step of a path to a value: a key of an object or an index in an array.
    public enum Step: Equatable {
        case key(String)
        case index(Int)
    }

    /// The first syntax error, or nil when the text is valid JSON.
    public static func syntaxError(in bytes: [UInt8]) -> Place? {
        var reader = Reader(bytes: bytes, target: nil)
        return reader.readDocument()
    }

    /// Where the value at `path` starts (for a decoding error that names a key, not a place).
    public static func place(of path: [Step], in bytes: [UInt8]) -> Place? {
        var reader = Reader(bytes: bytes, target: path)
        _ = reader.readDocument()
        return reader.found
    }

    static let maximumDepth = 512

    private struct Reader {
        let bytes: [UInt8]
        let target: [Step]?
        var index = 0
        var path: [Step] = []
        var found: Place?

        init(bytes: [UInt8], target: [Step]?) {
            self.bytes = bytes
            self.target = target
        }

        mutating func readDocument() -> Place? {
            skipBlanks()
            if let problem = readValue() { return problem }
            skipBlanks()
            return index < bytes.count ? place("unexpected text after the end of the JSON value") : nil
        }

        func place(_ message: String, at offset: Int? = nil) -> Place {
            let offset = min(offset ?? index, bytes.count)
            var line = 1
            var lineStart = 0
            for position in 0..<offset where bytes[position] == 0x0A {
                line += 1
                lineStart = position + 1
            }
            let column = bytes[lineStart..<offset].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
            return Place(line: line, column: column, message: message)
        }

        mutating func skipBlanks() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func readValue() -> Place? {
            if let target, found == nil, path == target { found = place("the value", at: index) }
            guard path.count <= JSONLocator.maximumDepth else { return place("nested more than \(JSONLocator.maximumDepth) levels deep") }
            guard let byte = current else { return place("the file ends where a value should be") }
            switch byte {
            case UInt8(ascii: "{"): return readObject()
            case UInt8(ascii: "["): return readArray()
            case UInt8(ascii: "\""): return readString()
            case UInt8(ascii: "t"): return readWord("true")
            case UInt8(ascii: "f"): return readWord("false")
            case UInt8(ascii: "n"): return readWord("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return readNumber()
            default: return place("expected a value (an object, array, string, number, true, false or null)")
            }
        }

        mutating func readObject() -> Place? {
            index += 1
            skipBlanks()
            if current == UInt8(ascii: "}") { index += 1; return nil }
            while true {
                guard current == UInt8(ascii: "\"") else {
                    return place(current == nil ? "the file ends inside an object" : "expected a key in double quotes")
                }
                let keyStart = index + 1
                if let problem = readString() { return problem }
                let key = String(decoding: bytes[keyStart..<(index - 1)], as: UTF8.self)
                skipBlanks()
                guard current == UInt8(ascii: ":") else { return place("expected ':' after the key \"\(key)\"") }
                index += 1
                skipBlanks()
                path.append(.key(key))
                if let problem = readValue() { return problem }
                path.removeLast()
                switch afterMember(closing: "}", container: "an object", member: "the value of \"\(key)\"") {
                case .next: continue
                case .closed: return nil
                case .problem(let problem): return problem
                }
            }
        }

        mutating func readArray() -> Place? {
            index += 1
            skipBlanks()
            if current == UInt8(ascii: "]") { index += 1; return nil }
            var count = 0
            while true {
                path.append(.index(count))
                if let problem = readValue() { return problem }
                path.removeLast()
                count += 1
                switch afterMember(closing: "]", container: "an array", member: "element \(count) of the array") {
                case .next: continue
                case .closed: return nil
                case .problem(let problem): return problem
                }
            }
        }

        enum AfterMember { case next, closed, problem(Place) }

        /// After a member of an object or array: a comma and another member, or the closing bracket.
        mutating func afterMember(closing: Character, container: String, member: String) -> AfterMember {
            let close = closing.asciiValue!
            skipBlanks()
            switch current {
            case UInt8(ascii: ","):
                index += 1
                skipBlanks()
                return current == close ? .problem(place("a comma before '\(closing)' (JSON allows no trailing comma)")) : .next
            case close:
                index += 1
                return .closed
            case nil:
                return .problem(place("the file ends inside \(container) (a '\(closing)' is missing)"))
            default:
                return .problem(place("expected ',' or '\(closing)' after \(member)"))
            }
        }

        mutating func readString() -> Place? {
            let start = index
            index += 1
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return nil
                case UInt8(ascii: "\\"):
                    index += 1
                    guard let escaped = current else { break }
                    if escaped == UInt8(ascii: "u") {
                        let digits = bytes[min(index + 1, bytes.count)..<min(index + 5, bytes.count)]
                        guard digits.count == 4, digits.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }) else {
                            return place("\\u must be followed by four hexadecimal digits")
                        }
                        index += 5
                    } else if Array("\"\\/bfnrt".utf8).contains(escaped) {
                        index += 1
                    } else {
                        return place("unknown escape \\\(String(decoding: [escaped], as: UTF8.self)) in a string")
                    }
                case 0x00..<0x20:
                    return place(byte == 0x0A ? "a line break inside a string (the closing quote is missing?)" : "a control character inside a string")
                default:
                    index += 1
                }
            }
            return place("the file ends inside a string that starts at \(place("", at: start).line):\(place("", at: start).column)")
        }

        mutating func readWord(_ word: String) -> Place? {
            let expected = Array(word.utf8)
            guard bytes.count - index >= expected.count, Array(bytes[index..<(index + expected.count)]) == expected else {
                return place("expected a value (did you mean \(word)?)")
            }
            index += expected.count
            return nil
        }

        mutating func readNumber() -> Place? {
            func digits() -> Int {
                let start = index
                while let byte = current, byte >= 0x30, byte <= 0x39 { index += 1 }
                return index - start
            }
            if current == UInt8(ascii: "-") { index += 1 }
            if current == UInt8(ascii: "0") {
                index += 1
            } else if digits() == 0 {
                return place("expected digits in a number")
            }
            if current == UInt8(ascii: ".") {
                index += 1
                if digits() == 0 { return place("expected digits after the decimal point") }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                if digits() == 0 { return place("expected digits in the exponent") }
            }
            return nil
        }
    }
}
