// AuditFix: pure byte work on the plain model: which findings' edits go together in one pass and
// applying them (EditPlan), and unified diffs. It must not parse, scan, read or write files: the
// Audit layer re-parses each pass, the command line writes.

import AuditModel

/// Chooses which findings' edits to apply in one pass, and applies them.
public enum EditPlan {
    /// Findings whose edits can be applied together: each finding's edits are taken whole or not at
    /// all, and a finding that overlaps one already taken waits for the next pass (the outer usage goes
    /// first: earliest start, then widest span), so nested usages come out right after re-parsing.
    /// An edit the very same as one already taken (the `import` two fixes of a file need) is shared,
    /// not an overlap: `apply` makes it once.
    public static func select(_ findings: [Finding]) -> [Finding] {
        let ordered = findings.filter { !$0.edits.isEmpty }.sorted { lhs, rhs in
            if lhs.start.byteOffset != rhs.start.byteOffset { return lhs.start.byteOffset < rhs.start.byteOffset }
            if lhs.end.byteOffset != rhs.end.byteOffset { return lhs.end.byteOffset > rhs.end.byteOffset }
            return lhs.ruleId < rhs.ruleId
        }
        var taken = TakenRanges()
        // An edit two findings share (the import a replacement needs) is taken once: the second
        // finding's copy of it is no overlap.
        var takenEdits: Set<TextEdit> = []
        var selected: [Finding] = []
        for finding in ordered {
            let own = finding.edits.filter { !takenEdits.contains($0) }
            let ranges = own.map(\.range) + [finding.start.byteOffset..<finding.end.byteOffset]
            if ranges.contains(where: taken.overlaps) { continue }
            for range in ranges { taken.insert(range) }
            takenEdits.formUnion(own)
            selected.append(finding)
        }
        return selected
    }

    /// The ranges of the findings taken so far, by start, each with the furthest end of those up to it:
    /// a range's possible overlaps are found by a binary search and a short walk back, where a look at
    /// every range taken made a pass over a generated file of tens of thousands of findings quadratic.
    /// Findings come by start, so a range is nearly always added at the end.
    struct TakenRanges {
        private var ranges: [Range<Int>] = []
        /// The largest upper bound of `ranges[0...i]`.
        private var furthest: [Int] = []

        func overlaps(_ range: Range<Int>) -> Bool {
            // Only a range that starts at or before this one's end can overlap it; of those, walk back
            // while one of them (or one before) may still reach it.
            var index = firstStarting(after: range.upperBound) - 1
            while index >= 0, furthest[index] >= range.lowerBound {
                if EditPlan.overlaps(ranges[index], range) { return true }
                index -= 1
            }
            return false
        }

        mutating func insert(_ range: Range<Int>) {
            let index = firstStarting(after: range.lowerBound)
            ranges.insert(range, at: index)
            furthest.insert(range.upperBound, at: index)
            for later in index..<furthest.count {
                let reach = max(furthest[later], later > 0 ? furthest[later - 1] : Int.min)
                if later > index, reach == furthest[later] { break }
                furthest[later] = reach
            }
        }

        /// The index of the first range that starts after `offset`.
        private func firstStarting(after offset: Int) -> Int {
            ranges.partitioningIndex { $0.lowerBound > offset }
        }
    }

    /// Two ranges overlap when they share a byte, or when both are insertions at the same place.
    static func overlaps(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        if a.isEmpty || b.isEmpty { return a.lowerBound == b.lowerBound || (a.lowerBound > b.lowerBound && a.lowerBound < b.upperBound) || (b.lowerBound > a.lowerBound && b.lowerBound < a.upperBound) }
        return a.lowerBound < b.upperBound && b.lowerBound < a.upperBound
    }

    /// Applies non-overlapping edits in one pass over the old bytes (back to front is not needed); an
    /// edit given twice is made once. Edits at the same offset are ordered: an insertion at X goes
    /// before a replacement or deletion starting at X (a fix's `import` at a file's first byte and the
    /// replacement of a call there), and insertions at the same place keep the order given.
    public static func apply(_ edits: [TextEdit], to bytes: [UInt8]) -> [UInt8] {
        var seen: Set<TextEdit> = []
        let sorted = edits.filter { seen.insert($0).inserted }.enumerated().sorted { lhs, rhs in
            let (a, b) = (lhs.element.range, rhs.element.range)
            if a.lowerBound != b.lowerBound { return a.lowerBound < b.lowerBound }
            if a.isEmpty != b.isEmpty { return a.isEmpty }
            return lhs.offset < rhs.offset
        }.map(\.element)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var cursor = 0
        for edit in sorted {
            precondition(edit.range.lowerBound >= cursor && edit.range.upperBound <= bytes.count, "overlapping or out-of-range edit \(edit.range)")
            output.append(contentsOf: bytes[cursor..<edit.range.lowerBound])
            output.append(contentsOf: Array(edit.text.utf8))
            cursor = edit.range.upperBound
        }
        output.append(contentsOf: bytes[cursor...])
        return output
    }
}
