/// What a byte of Swift source can be, as bits: a name byte, the start of a name, a digit, a capital,
/// an operator character, ... `ByteClass.table` holds them for all 256 bytes, the one definition every
/// step that reads bytes asks (the rules' matching, the rotating-text facts, the rules file's names,
/// the select step's readings and hashes). The word screen's C loop (`CWordStarts`) has no definition
/// of its own either: it is handed this table's bytes and the bit of its word bytes (`nameStart`).
/// `ByteClassTests` checks the C loop against the table on all 256 bytes, `ByteClassVocabularyTests`
/// that no other file of `Sources/` writes a table or a range of these bytes.
@frozen
public struct ByteClass: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    @inlinable
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Letters, digits, `_`, and every byte of a multi-byte character (Swift allows many in names).
    @inlinable public static var name: ByteClass { ByteClass(rawValue: 1 << 0) }
    /// A name byte that is no digit (a letter, `_`, a byte of a multi-byte character): where a Swift
    /// name starts, and the word screen's word bytes.
    @inlinable public static var nameStart: ByteClass { ByteClass(rawValue: 1 << 1) }
    /// `0` to `9`.
    @inlinable public static var digit: ByteClass { ByteClass(rawValue: 1 << 2) }
    /// `A` to `Z`.
    @inlinable public static var uppercase: ByteClass { ByteClass(rawValue: 1 << 3) }
    /// `a` to `z`.
    @inlinable public static var lowercase: ByteClass { ByteClass(rawValue: 1 << 4) }
    /// The characters an operator is made of where code is read (`=`, `+=`, `??`, `->`): `=-+!*%<>&|^~?`
    /// (`/` and `.` are read on their own: they may start a comment or a member).
    @inlinable public static var operatorCharacter: ByteClass { ByteClass(rawValue: 1 << 5) }
    /// What may follow a backslash in a string literal, besides `(`: `\0 \\ \t \n \r \" \' \u{…}` (and,
    /// in a `"""` block, a line break after blanks or not, which the reader checks itself).
    @inlinable public static var escapable: ByteClass { ByteClass(rawValue: 1 << 6) }

    /// Every byte's classes. Hot loops keep a local copy of it (a static costs a `swift_once` check
    /// on every read); the C loop gets its bytes (`ByteClass` is one byte wide).
    public static let table: [ByteClass] = (0...255).map { classes(of: UInt8($0)) }

    /// A byte's classes, from the table.
    @inlinable
    public static func of(_ byte: UInt8) -> ByteClass { table[Int(byte)] }

    /// The definition, byte by byte: the only place these ranges are written.
    private static func classes(of byte: UInt8) -> ByteClass {
        var classes: ByteClass = []
        if byte >= 0x30 && byte <= 0x39 { classes.insert(.digit) }
        if byte >= 0x41 && byte <= 0x5A { classes.insert(.uppercase) }
        if byte >= 0x61 && byte <= 0x7A { classes.insert(.lowercase) }
        if !classes.isDisjoint(with: [.uppercase, .lowercase]) || byte == UInt8(ascii: "_") || byte >= 0x80 { classes.insert(.nameStart) }
        if !classes.isDisjoint(with: [.nameStart, .digit]) { classes.insert(.name) }
        if "=-+!*%<>&|^~?".utf8.contains(byte) { classes.insert(.operatorCharacter) }
        if "0\\tnr\"'u".utf8.contains(byte) { classes.insert(.escapable) }
        return classes
    }
}
