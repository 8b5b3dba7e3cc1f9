import AuditModel

/// The edits a fix applied, pass after pass (each pass's edits in the text before that pass), and what
/// they tell about the rewritten text without comparing it with the original: where an offset of it
/// was before the fix, and which of its lines the fix left as they were. Both take a binary search per
/// pass, so a generated file with tens of thousands of edits costs time in proportion to its size
/// (a line diff of two such texts costs their size times the number of changes).
public struct AppliedEdits {
    /// One applied edit: where it starts in the text after its pass, where its new text ends there,
    /// where it started before, and the change in length of the text up to its end.
    struct Placed {
        let newStart: Int
        let newEnd: Int
        let oldStart: Int
        let shiftAfter: Int
        var isRemoval: Bool { newEnd == newStart }
    }

    /// Per pass, its edits in text order.
    private let passes: [[Placed]]

    public init(_ passes: [[TextEdit]]) {
        self.passes = passes.map { edits in
            var shift = 0
            return edits.sorted { $0.range.lowerBound < $1.range.lowerBound }.map { edit in
                let newStart = edit.range.lowerBound + shift
                let length = edit.text.utf8.count
                shift += length - edit.range.count
                return Placed(newStart: newStart, newEnd: newStart + length, oldStart: edit.range.lowerBound, shiftAfter: shift)
            }
        }
    }

    /// Where an offset of the rewritten text was before the fix: outside every edit, back by what the
    /// edits before it changed; inside an edit's new text, where that edit starts.
    public func originalOffset(of offset: Int) -> Int {
        var offset = offset
        for edits in passes.reversed() {
            guard let index = Self.last(in: edits, startingAtOrBefore: offset) else { continue }
            let edit = edits[index]
            offset = offset < edit.newEnd ? edit.oldStart : offset - edit.shiftAfter
        }
        return offset
    }

    /// Where the bytes `range` of the rewritten text were before the fix, when no edit touched them
    /// (none changed them, or removed or added anything between them); nil otherwise.
    func untouchedOrigin(of range: Range<Int>) -> Range<Int>? {
        var start = range.lowerBound
        let length = range.count
        for edits in passes.reversed() {
            let end = start + length
            let before = Self.last(in: edits, startingAtOrBefore: start - 1)
            // An edit that starts before the range and whose new text reaches into it.
            if let before, edits[before].newEnd > start { return nil }
            // Edits that start in the range: new text there, or a removal inside it (a removal right
            // at its start took bytes before it, not between them).
            var next = (before ?? -1) + 1
            while next < edits.count, edits[next].newStart < end {
                if !edits[next].isRemoval || edits[next].newStart > start { return nil }
                next += 1
            }
            if let index = Self.last(in: edits, startingAtOrBefore: start) { start -= edits[index].shiftAfter }
        }
        return start..<(start + length)
    }

    /// The lines of `new` (the rewritten text) that the fix left as they were, each with its line in
    /// `old`, in order (0-based line indices): the lines a diff keeps.
    public func sharedLines(old: [UInt8], new: [UInt8]) -> [(old: Int, new: Int)] {
        let oldStarts = Self.lineStarts(old), newStarts = Self.lineStarts(new)
        var shared: [(old: Int, new: Int)] = []
        for (index, start) in newStarts.enumerated() {
            let end = index + 1 < newStarts.count ? newStarts[index + 1] : new.count
            guard let origin = untouchedOrigin(of: start..<end) else { continue }
            // The same bytes must be a whole line there too.
            guard let line = Self.index(of: origin.lowerBound, in: oldStarts) else { continue }
            let oldEnd = line + 1 < oldStarts.count ? oldStarts[line + 1] : old.count
            if oldEnd == origin.upperBound { shared.append((line, index)) }
        }
        return shared
    }

    /// The offset where each line starts (none for an empty text).
    static func lineStarts(_ bytes: [UInt8]) -> [Int] {
        guard !bytes.isEmpty else { return [] }
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") && offset + 1 < bytes.count {
            starts.append(offset + 1)
        }
        return starts
    }

    /// The index of `offset` in the sorted `starts`, when it is one of them.
    static func index(of offset: Int, in starts: [Int]) -> Int? {
        let low = starts.partitioningIndex { $0 >= offset }
        return low < starts.count && starts[low] == offset ? low : nil
    }

    /// The last edit that starts at or before `offset` in the text after its pass.
    private static func last(in edits: [Placed], startingAtOrBefore offset: Int) -> Int? {
        let low = edits.partitioningIndex { $0.newStart > offset }
        return low > 0 ? low - 1 : nil
    }
}
