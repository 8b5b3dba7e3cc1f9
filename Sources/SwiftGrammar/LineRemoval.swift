/// What a removal takes with it, so that a rewrite leaves no debris: code that stands alone on its
/// line goes with the whole line (indentation and line break), and code at the end of a line with the
/// blanks before it. Shared by the removed modifiers of component rules and the dropped tokens of
/// pattern rules.
public enum LineRemoval {
    /// `range` widened as above; unchanged when other code follows it on its line.
    public static func wholeLineIfAlone(_ range: Range<Int>, in bytes: [UInt8]) -> Range<Int> {
        func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var lineStart = range.lowerBound
        while lineStart > 0, isBlank(bytes[lineStart - 1]) { lineStart -= 1 }
        var lineEnd = range.upperBound
        while lineEnd < bytes.count, isBlank(bytes[lineEnd]) { lineEnd += 1 }
        if lineEnd < bytes.count, bytes[lineEnd] == UInt8(ascii: "\r") { lineEnd += 1 }
        let endsLine = lineEnd == bytes.count || bytes[lineEnd] == UInt8(ascii: "\n")
        guard lineStart == 0 || bytes[lineStart - 1] == UInt8(ascii: "\n") else {
            // Something precedes it on the line (`/* note */ .tint(x)`): when nothing follows, take the
            // blanks before it too, so no trailing whitespace is left.
            return endsLine ? lineStart..<range.upperBound : range
        }
        guard endsLine else { return range }
        if lineEnd < bytes.count { return lineStart..<(lineEnd + 1) }
        // On the last line, without a line break: take the break before it instead.
        return breakBefore(lineStart, in: bytes)..<lineEnd
    }

    /// Where the line break just before `start` begins (`\n`, or `\r\n`); `start` when there is none.
    private static func breakBefore(_ start: Int, in bytes: [UInt8]) -> Int {
        var before = start
        if before > 0, bytes[before - 1] == UInt8(ascii: "\n") { before -= 1 }
        if before > 0, bytes[before - 1] == UInt8(ascii: "\r") { before -= 1 }
        return before
    }

    /// Several removals next to one another (the modifiers of one call), each widened as above, then
    /// joined where they overlap: two removals on consecutive lines may both want the line break
    /// between them (the last one, on the file's last line, takes the break before it). Removals that
    /// only touch stay apart (the reports list each).
    public static func wholeLinesIfAlone(_ ranges: [Range<Int>], in bytes: [UInt8]) -> [Range<Int>] {
        var joined: [Range<Int>] = []
        for range in ranges.map({ wholeLineIfAlone($0, in: bytes) }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = joined.last, range.lowerBound < last.upperBound {
                joined[joined.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                joined.append(range)
            }
        }
        // Joined up to the end of a file that has no final line break: as one removal on the last
        // line would, take the break before it, so the file still ends without one.
        // (A removal that took that break already starts at it.)
        if let last = joined.last, last.upperBound == bytes.count, bytes.last != UInt8(ascii: "\n"),
           last.lowerBound < bytes.count, bytes[last.lowerBound] != UInt8(ascii: "\n"), bytes[last.lowerBound] != UInt8(ascii: "\r") {
            let before = breakBefore(last.lowerBound, in: bytes)
            if joined.count < 2 || joined[joined.count - 2].upperBound <= before { joined[joined.count - 1] = before..<last.upperBound }
        }
        return joined
    }
}
