/// A unified diff (`--- a/path`, `+++ b/path`, hunks with context) that `git apply` and `patch -p1` accept.
public enum UnifiedDiff {
    /// nil when the two texts are equal. Any two texts: the shortest edit script (Myers), whose time
    /// and memory grow with the size times the number of changed lines.
    public static func make(path: String, old: [UInt8], new: [UInt8], context: Int = 3, colour: Bool = false) -> String? {
        guard old != new else { return nil }
        let oldLines = splitLines(old)
        let newLines = splitLines(new)
        return render(path, oldLines, newLines, editScript(oldLines.map(\.text), newLines.map(\.text)), context: context, colour: colour)
    }

    /// The diff of a rewrite made by `applied` (a fix's passes): the lines its edits left alone are
    /// kept as they are, without comparing the texts, so a generated file with tens of thousands of
    /// changes costs time in proportion to its size. Between two kept lines, equal lines at either end
    /// are kept too, and a short stretch is compared line by line (Myers); a long one is its old lines
    /// removed, then its new lines added.
    public static func make(path: String, old: [UInt8], new: [UInt8], applied: AppliedEdits, context: Int = 3, colour: Bool = false) -> String? {
        guard old != new else { return nil }
        let oldLines = splitLines(old)
        let newLines = splitLines(new)
        let script = script(sharing: applied.sharedLines(old: old, new: new), oldLines.map(\.text), newLines.map(\.text))
        return render(path, oldLines, newLines, script, context: context, colour: colour)
    }

    private static func render(_ path: String, _ oldLines: [Line], _ newLines: [Line], _ script: [Operation], context: Int, colour: Bool) -> String {
        // As git does: a name with a space ends with a tab, so `patch` does not cut it at the space.
        let name = path.contains(" ") ? path + "\t" : path
        var output = paint("--- a/\(name)\n+++ b/\(name)\n", "1", colour)
        for hunk in hunks(script, context: context) {
            let oldStart = hunk.oldCount == 0 ? hunk.oldStart : hunk.oldStart + 1
            let newStart = hunk.newCount == 0 ? hunk.newStart : hunk.newStart + 1
            output += paint("@@ -\(range(oldStart, hunk.oldCount)) +\(range(newStart, hunk.newCount)) @@\n", "36", colour)
            for operation in hunk.operations {
                switch operation {
                case .keep(let oldIndex, _):
                    output += line(" ", oldLines[oldIndex], colour: nil)
                case .delete(let oldIndex):
                    output += line("-", oldLines[oldIndex], colour: colour ? "31" : nil)
                case .insert(let newIndex):
                    output += line("+", newLines[newIndex], colour: colour ? "32" : nil)
                }
            }
        }
        return output
    }

    struct Line {
        let text: [UInt8]
        let hasNewline: Bool
    }

    /// Lines with their terminators kept in `text` (so `\r\n` round-trips) except the `\n`.
    static func splitLines(_ bytes: [UInt8]) -> [Line] {
        var lines: [Line] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            lines.append(Line(text: Array(bytes[start..<index]), hasNewline: true))
            start = index + 1
        }
        if start < bytes.count { lines.append(Line(text: Array(bytes[start...]), hasNewline: false)) }
        return lines
    }

    private static func line(_ marker: String, _ line: Line, colour: String?) -> String {
        var text = marker + String(decoding: line.text, as: UTF8.self)
        if let colour { text = "\u{1B}[\(colour)m\(text)\u{1B}[0m" }
        text += "\n"
        if !line.hasNewline { text += "\\ No newline at end of file\n" }
        return text
    }

    private static func range(_ start: Int, _ count: Int) -> String {
        count == 1 ? "\(start)" : "\(start),\(count)"
    }

    private static func paint(_ text: String, _ code: String, _ colour: Bool) -> String {
        guard colour else { return text }
        return text.split(separator: "\n").map { "\u{1B}[\(code)m\($0)\u{1B}[0m\n" }.joined()
    }

    enum Operation: Equatable {
        case keep(Int, Int)
        case delete(Int)
        case insert(Int)
    }

    /// The edit script that keeps the `shared` lines (in order), and between two of them what the
    /// stretch holds: see `make(path:old:new:applied:)`.
    static func script(sharing shared: [(old: Int, new: Int)], _ a: [[UInt8]], _ b: [[UInt8]]) -> [Operation] {
        var operations: [Operation] = []
        operations.reserveCapacity(max(a.count, b.count))
        var x = 0, y = 0
        for (old, new) in shared + [(old: a.count, new: b.count)] {
            appendStretch(a, x..<old, b, y..<new, to: &operations)
            if old < a.count { operations.append(.keep(old, new)) }
            x = old + 1
            y = new + 1
        }
        return operations
    }

    /// Stretches up to this many old lines times new lines are compared line by line.
    static let comparedStretch = 4096

    private static func appendStretch(_ a: [[UInt8]], _ old: Range<Int>, _ b: [[UInt8]], _ new: Range<Int>, to operations: inout [Operation]) {
        var old = old, new = new
        while !old.isEmpty, !new.isEmpty, a[old.lowerBound] == b[new.lowerBound] {
            operations.append(.keep(old.lowerBound, new.lowerBound))
            old = (old.lowerBound + 1)..<old.upperBound
            new = (new.lowerBound + 1)..<new.upperBound
        }
        var tail: [Operation] = []
        while !old.isEmpty, !new.isEmpty, a[old.upperBound - 1] == b[new.upperBound - 1] {
            tail.append(.keep(old.upperBound - 1, new.upperBound - 1))
            old = old.lowerBound..<(old.upperBound - 1)
            new = new.lowerBound..<(new.upperBound - 1)
        }
        if old.count * new.count <= comparedStretch {
            for operation in editScript(Array(a[old]), Array(b[new])) {
                switch operation {
                case .keep(let x, let y): operations.append(.keep(old.lowerBound + x, new.lowerBound + y))
                case .delete(let x): operations.append(.delete(old.lowerBound + x))
                case .insert(let y): operations.append(.insert(new.lowerBound + y))
                }
            }
        } else {
            operations += old.map(Operation.delete) + new.map(Operation.insert)
        }
        operations += tail.reversed()
    }

    /// The shortest edit script between two line lists (Myers' O((N+M)D) algorithm).
    static func editScript(_ a: [[UInt8]], _ b: [[UInt8]]) -> [Operation] {
        let n = a.count, m = b.count
        let maximum = n + m
        var frontier = [Int](repeating: 0, count: 2 * maximum + 2)
        var trace: [[Int]] = []
        var found = false
        for depth in 0...maximum {
            trace.append(frontier)
            for k in stride(from: -depth, through: depth, by: 2) {
                let index = k + maximum
                var x = (k == -depth || (k != depth && frontier[index - 1] < frontier[index + 1])) ? frontier[index + 1] : frontier[index - 1] + 1
                var y = x - k
                while x < n, y < m, a[x] == b[y] {
                    x += 1
                    y += 1
                }
                frontier[index] = x
                if x >= n, y >= m {
                    found = true
                    break
                }
            }
            if found { break }
        }
        // Walk back through the saved frontiers to recover the path.
        var operations: [Operation] = []
        var x = n, y = m
        for depth in stride(from: trace.count - 1, through: 0, by: -1) {
            let previous = trace[depth]
            let k = x - y
            let index = k + maximum
            let previousK = (k == -depth || (k != depth && previous[index - 1] < previous[index + 1])) ? k + 1 : k - 1
            let previousX = depth == 0 ? 0 : previous[previousK + maximum]
            let previousY = previousX - previousK
            while x > previousX && y > previousY {
                x -= 1
                y -= 1
                operations.append(.keep(x, y))
            }
            if depth > 0 {
                if x == previousX { operations.append(.insert(previousY)) } else { operations.append(.delete(previousX)) }
            }
            x = previousX
            y = previousY
        }
        return operations.reversed()
    }

    struct Hunk {
        var oldStart: Int
        var newStart: Int
        var oldCount = 0
        var newCount = 0
        var operations: [Operation] = []
    }

    /// Groups changes with `context` unchanged lines around them; nearby groups merge.
    static func hunks(_ script: [Operation], context: Int) -> [Hunk] {
        let changed = script.indices.filter { if case .keep = script[$0] { return false } else { return true } }
        guard !changed.isEmpty else { return [] }
        var groups: [ClosedRange<Int>] = []
        for index in changed {
            let low = max(0, index - context), high = min(script.count - 1, index + context)
            if let last = groups.last, low <= last.upperBound + 1 {
                groups[groups.count - 1] = last.lowerBound...max(last.upperBound, high)
            } else {
                groups.append(low...high)
            }
        }
        // The old and new line before each operation, counted once (a count from the start for every
        // hunk made a diff of many hunks quadratic).
        var positions: [(old: Int, new: Int)] = []
        positions.reserveCapacity(script.count)
        var oldPosition = 0, newPosition = 0
        for operation in script {
            positions.append((oldPosition, newPosition))
            switch operation {
            case .keep: oldPosition += 1; newPosition += 1
            case .delete: oldPosition += 1
            case .insert: newPosition += 1
            }
        }
        return groups.map { group in
            var hunk = Hunk(oldStart: positions[group.lowerBound].old, newStart: positions[group.lowerBound].new)
            for operation in script[group] {
                hunk.operations.append(operation)
                switch operation {
                case .keep: hunk.oldCount += 1; hunk.newCount += 1
                case .delete: hunk.oldCount += 1
                case .insert: hunk.newCount += 1
                }
            }
            return hunk
        }
    }
}
