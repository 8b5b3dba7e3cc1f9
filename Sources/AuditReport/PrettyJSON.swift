/// JSON text laid out byte for byte as Foundation's `JSONEncoder` lays it out with `.prettyPrinted`,
/// `.sortedKeys` and `.withoutEscapingSlashes`: two spaces per level, `"key" : value`, an empty array or
/// object as its brackets with an empty line between, the control characters escaped (`\b \t \n \f \r`
/// short, the others `\u00XX` with lower-case hex), `"` and `\` escaped, everything else as it is.
/// The JSON report's writer: the encoder took milliseconds for a few hundred findings, on the thread
/// the end of every scan waits for. Callers write each object's members in byte order of their keys
/// (the tests compare the two writers on random reports).
struct PrettyJSON {
    private(set) var bytes: [UInt8] = []
    private var depth = 0
    /// Whether the innermost open array or object has no element or member yet.
    private var empty = false

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// A line break after the document.
    mutating func lineBreak() { bytes.append(0x0A) }

    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Starts the next member of the open object: its key; its value follows.
    mutating func key(_ name: String) {
        nextItem()
        string(name)
        bytes.append(contentsOf: [0x20, UInt8(ascii: ":"), 0x20])
    }

    /// A member with a string value.
    mutating func member(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    /// A member with a number value.
    mutating func member(_ name: String, _ value: Int) {
        key(name)
        int(value)
    }

    /// Starts the next element of the open array; its value follows.
    mutating func element() { nextItem() }

    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0..<0x20:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 15)]])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    mutating func int(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }

    mutating func null() { bytes.append(contentsOf: "null".utf8) }

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        depth += 1
        empty = true
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        bytes.append(0x0A)
        if empty { bytes.append(0x0A) }
        indent()
        bytes.append(bracket)
        empty = false
    }

    private mutating func nextItem() {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        bytes.append(0x0A)
        indent()
        empty = false
    }

    private mutating func indent() {
        bytes.append(contentsOf: repeatElement(0x20, count: 2 * depth))
    }
}
