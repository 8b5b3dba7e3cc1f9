/// A buffer's lines as LSP counts them: positions are a 0-based line and a column in UTF-16 code units
/// (the protocol's default encoding); lines end at `\n`, `\r\n` or `\r`. Converts the byte offsets
/// of findings and edits (UTF-8) to positions and back.
struct LineIndex {
    let bytes: [UInt8]
    /// The byte offset each line starts at.
    let lineStarts: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        var index = 0
        while index < bytes.count {
            if bytes[index] == 10 {
                starts.append(index + 1)
            } else if bytes[index] == 13 {
                if index + 1 < bytes.count, bytes[index + 1] == 10 { index += 1 }
                starts.append(index + 1)
            }
            index += 1
        }
        lineStarts = starts
    }

    /// The line and UTF-16 column of a byte offset (clamped to the text; an offset inside a
    /// character counts up to that character's start).
    func position(ofByte offset: Int) -> (line: Int, character: Int) {
        let offset = max(0, min(offset, bytes.count))
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        var units = 0
        var index = lineStarts[low]
        while index < offset {
            let (length, utf16) = Self.character(at: index, in: bytes)
            if index + length > offset { break }
            units += utf16
            index += length
        }
        return (low, units)
    }

    /// The byte offset of a position; a column past the line's end is its end (before the break), a
    /// line past the last is the end of the text.
    func offset(line: Int, character: Int) -> Int {
        guard line >= 0 else { return 0 }
        guard line < lineStarts.count else { return bytes.count }
        var end = line + 1 < lineStarts.count ? lineStarts[line + 1] : bytes.count
        while end > lineStarts[line], bytes[end - 1] == 10 || bytes[end - 1] == 13 { end -= 1 }
        var index = lineStarts[line]
        var units = 0
        while index < end, units < character {
            let (length, utf16) = Self.character(at: index, in: bytes)
            units += utf16
            index += length
        }
        return min(index, end)
    }

    /// The UTF-8 length of the character at `index` and its UTF-16 length (a byte that starts no
    /// valid character counts as one replacement character).
    static func character(at index: Int, in bytes: [UInt8]) -> (length: Int, utf16: Int) {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0..<0x80: return (1, 1)
        case 0xC2..<0xE0: length = 2
        case 0xE0..<0xF0: length = 3
        case 0xF0..<0xF5: length = 4
        default: return (1, 1)
        }
        guard index + length <= bytes.count, bytes[(index + 1)..<(index + length)].allSatisfy({ $0 & 0xC0 == 0x80 }) else { return (1, 1) }
        return (length, length == 4 ? 2 : 1)
    }

    /// The one edit that turns `old` into `new`: the bytes between their common start and common end
    /// (on character boundaries), or nil when they are the same.
    static func difference(_ old: [UInt8], _ new: [UInt8]) -> (range: Range<Int>, text: [UInt8])? {
        guard old != new else { return nil }
        var prefix = 0
        let shorter = min(old.count, new.count)
        while prefix < shorter, old[prefix] == new[prefix] { prefix += 1 }
        while prefix > 0, old.indices.contains(prefix), old[prefix] & 0xC0 == 0x80 { prefix -= 1 }
        var suffix = 0
        while suffix < shorter - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        while suffix > 0, old[old.count - suffix] & 0xC0 == 0x80 { suffix -= 1 }
        return (prefix..<(old.count - suffix), Array(new[prefix..<(new.count - suffix)]))
    }
}
