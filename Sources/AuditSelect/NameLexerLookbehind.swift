import SwiftGrammar
import Foundation

/// The lexer's looks around a position: what an argument, an operand, a value or a string looks
/// like from the bytes near it, without tokens.
extension Lexer {
    /// Whether what follows the name ending at `end` may end an argument: `)` or `,` past blanks and a
    /// closing backtick, or a comment that may hide either.
    static func endsAnArgument(_ bytes: UnsafeBufferPointer<UInt8>, at end: Int) -> Bool {
        var next = end
        if next < bytes.count, bytes[next] == UInt8(ascii: "`") { next += 1 }
        while next < bytes.count, bytes[next] == 0x20 || bytes[next] == 0x09 || bytes[next] == 0x0A || bytes[next] == 0x0D
            || bytes[next] == 0x0B || bytes[next] == 0x0C { next += 1 }
        guard next < bytes.count else { return false }
        return bytes[next] == UInt8(ascii: ")") || bytes[next] == UInt8(ascii: ",") || bytes[next] == UInt8(ascii: "/")
            || bytes[next] == UInt8(ascii: "#")
    }

    enum ArgumentCallee: Equatable {
        /// The expression starts right after `callee(`.
        case callee(UInt64)
        /// It starts after something else (`,`, `label:`, `try`, `"\(`).
        case none
        /// A comment, a directive, a string or a generic call stands in the way.
        case unsure
    }

    /// Walks left from a name to where the expression it belongs to starts, as the grammar groups a
    /// subscript or call of it: over member chains (`a.b`, `a?.b`, `f(x).b`, `xs[0].b`, `$0.b`, across
    /// lines) and over operators and their operands, since the grammar lets `+ - * / %` and prefix
    /// operators bind tighter than a call or subscript suffix (`a * b.tips[0]` is `(a * b.tips)[0]`,
    /// `-b.tips[0]` is `(-b.tips)[0]`; `loadaudit syntax` shows it). A `(`
    /// after a name there gives that name. Line breaks crossed onto a line with a `/` or `#` (a comment
    /// or `#if` may hide what the parser sees), groups holding a quote, slash or `#`, and the end of a
    /// block comment give `unsure`: every doubt is a "yes" later.
    static func argumentCallee(_ bytes: UnsafeBufferPointer<UInt8>, nameStart: Int) -> ArgumentCallee {
        var index = nameStart - 1
        if index >= 0, bytes[index] == UInt8(ascii: "`") { index -= 1 }
        if index >= 0, bytes[index] == UInt8(ascii: "$") { index -= 1 }
        guard var position = skipBlanksBackward(bytes, from: index) else { return .unsure }
        while position >= 0, isOperatorByte[Int(bytes[position])] {
            // An operator run the grammar binds tighter than a suffix (`.`, `?.`, ` * `, `-`): the operand
            // before it belongs to the expression too. Any other (`==`, `??`, `..<`) starts the expression
            // after it; `//` starts a comment the name is in (or, touching another operator, makes a
            // custom operator, which binds looser); `*/` ends a comment that may hide anything; `>.`
            // may close a generic type (`Cache<Tip>.shared.tips[0]`).
            let runEnd = position
            var binds = true
            while position >= 0, isOperatorByte[Int(bytes[position])] {
                let byte = bytes[position], before = position > 0 ? bytes[position - 1] : 0
                if byte == UInt8(ascii: "/"), before == UInt8(ascii: "*") { return .unsure }
                if byte == UInt8(ascii: "/"), before == UInt8(ascii: "/") { return .none }
                if byte == UInt8(ascii: "."), before == UInt8(ascii: ">") { return .unsure }
                if !bindsTighterThanASuffix[Int(byte)], !(byte == UInt8(ascii: "?") && bytes[runEnd] == UInt8(ascii: ".")) { binds = false }
                position -= 1
            }
            guard binds else {
                position = runEnd
                break
            }
            guard let operandEnd = skipBlanksBackward(bytes, from: position) else { return .unsure }
            guard let before = operandStart(bytes, end: operandEnd) else { return .unsure }
            position = before
        }
        guard position >= 0 else { return .none }
        switch bytes[position] {
        case UInt8(ascii: "("):
            guard let found = skipBlanksBackward(bytes, from: position - 1) else { return .unsure }
            var nameEnd = found
            if nameEnd >= 0, bytes[nameEnd] == UInt8(ascii: "`") { nameEnd -= 1 }
            guard nameEnd >= 0 else { return .none }
            let byte = bytes[nameEnd]
            if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "#") { return .unsure }
            guard isNameByte[Int(byte)] else { return .none }
            var start = nameEnd
            while start > 0, isNameByte[Int(bytes[start - 1])] { start -= 1 }
            if bytes[start] <= 0x39 { return .unsure }
            var hash = WordHash()
            for offset in start...nameEnd { hash.add(bytes[offset]) }
            return .callee(hash.value)
        case UInt8(ascii: "#"), UInt8(ascii: "\""):
            return .unsure
        default:
            return .none
        }
    }

    /// The bytes operators are made of (and `.`, which chains members like one).
    static let isOperatorByte: [Bool] = (0..<256).map { byte in
        "./=-+!*%<>&|^~?".utf8.contains(UInt8(byte))
    }

    /// The bytes of the operators the grammar binds tighter than a call or subscript suffix: `+ - * / %`,
    /// the prefix `! ~ &`, and the dot (`?` too, right before a dot: `a?.b`).
    static let bindsTighterThanASuffix: [Bool] = (0..<256).map { byte in
        "./-+!*%&~".utf8.contains(UInt8(byte))
    }

    /// Steps left over one operand that ends at `end` (`foo`, `` `foo` ``, `$0`, `f(x)`, `xs[0]`,
    /// `list.first { … }`, `(a ?? b)`): the first non-blank byte before it, or `end` itself when
    /// nothing there is an operand (a `(` or `,`); nil when a group cannot be stepped over.
    static func operandStart(_ bytes: UnsafeBufferPointer<UInt8>, end: Int) -> Int? {
        var position = end
        while position >= 0 {
            let byte = bytes[position]
            if byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                guard let opening = openingOfGroup(bytes, closingAt: position), let next = skipBlanksBackward(bytes, from: opening - 1) else {
                    return nil
                }
                // A generic call (`Cache<Tip>(…)`): its type's brackets are not walked.
                if next >= 0, bytes[next] == UInt8(ascii: ">") { return nil }
                position = next
                // Optional chaining or a forced unwrap before the group (`store?[0]`, `load!(1)`).
                while position >= 0, bytes[position] == UInt8(ascii: "?") || bytes[position] == UInt8(ascii: "!") { position -= 1 }
            } else if byte == UInt8(ascii: "`") || isNameByte[Int(byte)] {
                var start = position
                if byte == UInt8(ascii: "`") {
                    start -= 1
                    while start >= 0, bytes[start] != UInt8(ascii: "`"), bytes[start] != 0x0A { start -= 1 }
                    guard start >= 0, bytes[start] == UInt8(ascii: "`") else { return nil }
                    start -= 1
                } else {
                    while start >= 0, isNameByte[Int(bytes[start])] { start -= 1 }
                }
                if start >= 0, bytes[start] == UInt8(ascii: "$") { start -= 1 }
                return skipBlanksBackward(bytes, from: start)
            } else {
                return position
            }
        }
        return position
    }

    /// The first byte at or before `index` that is not blank (-1 at the file's start); nil when a line
    /// break was crossed onto a line that holds a `/` or `#` before that byte.
    static func skipBlanksBackward(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int? {
        var position = index
        var crossedBreak = false
        while position >= 0, bytes[position] == 0x20 || bytes[position] == 0x09 || bytes[position] == 0x0A || bytes[position] == 0x0D
            || bytes[position] == 0x0B || bytes[position] == 0x0C {
            if bytes[position] == 0x0A || bytes[position] == 0x0D { crossedBreak = true }
            position -= 1
        }
        if crossedBreak {
            var start = position
            while start >= 0, bytes[start] != 0x0A, bytes[start] != 0x0D {
                if bytes[start] == UInt8(ascii: "/") || bytes[start] == UInt8(ascii: "#") { return nil }
                start -= 1
            }
        }
        return position
    }

    /// Where the group that closes at `closing` (`)`, `]` or `}`) opens; nil when it holds a quote,
    /// slash or `#` (a string or comment may hold brackets), or opens too far back to look.
    static func openingOfGroup(_ bytes: UnsafeBufferPointer<UInt8>, closingAt closing: Int) -> Int? {
        var depth = 0
        var position = closing
        let limit = max(0, closing - 4096)
        while position >= limit {
            switch bytes[position] {
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth += 1
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                depth -= 1
                if depth == 0 { return position }
            case UInt8(ascii: "\""), UInt8(ascii: "/"), UInt8(ascii: "#"):
                return nil
            default:
                break
            }
            position -= 1
        }
        return nil
    }

    /// A word that starts with digits (`0case`, `3tips`) is not one name to a parser: a number, then a
    /// keyword or a name. The part after the digits counts as a name of its own too.
    mutating func endNameAfterDigits(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
        guard let suffix = Self.nameAfterDigits(bytes, from: start, to: end) else { return }
        endName(suffix.hash, bytes, at: end, significantBefore: suffix.start - 1, start: suffix.start)
    }

    /// Where the name after a word's leading digits starts, and its hash; nil when the word does not
    /// start with a digit or is all digits. Shared with `CodeScanner`, which splits words the same way.
    static func nameAfterDigits(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> (start: Int, hash: UInt64)? {
        guard bytes[start] >= 0x30, bytes[start] <= 0x39 else { return nil }
        var letter = start
        while letter < end, bytes[letter] >= 0x30, bytes[letter] <= 0x39 { letter += 1 }
        guard letter < end else { return nil }
        var hash = WordHash()
        for offset in letter..<end { hash.add(bytes[offset]) }
        return (letter, hash.value)
    }

    /// The names a string array's declaration may bind: the last binding, and the ones before it
    /// while the later keyword may be in a comment. Nil when every binding kept may be: the real one
    /// may be older.
    func boundNameCandidates() -> [UInt64]? {
        var names: [UInt64] = []
        var index = recentBindings.count - 1
        while index >= 0 {
            names.append(recentBindings[index].name)
            guard recentBindings[index].mayBeHidden else { return names }
            index -= 1
        }
        return nil
    }

    enum ValuePosition {
        /// Right after the `=` at `equals`, `linesUp` line breaks above the `[`.
        case value(linesUp: Int, equals: Int)
        /// After something else: a declaration's value always follows its `=`.
        case notAValue
        /// A comment or a compiler directive may stand between the `=` and the `[`.
        case unsure
    }

    /// Whether the `[` at `open` may start the value of a declaration (`let tips = [`), from the
    /// last byte before it that is not blank. A comment (`= // tips` then a line break, `= /* */ [`)
    /// or an `#if` line in between hides what is before it: unsure, never a wrong `notAValue`.
    static func valuePosition(_ bytes: UnsafeBufferPointer<UInt8>, before open: Int) -> ValuePosition {
        // Across a line break, a `//` or `#` on the line reached may hide what is before the `[`.
        guard let index = skipBlanksBackward(bytes, from: open - 1) else { return .unsure }
        guard index >= 0 else { return .notAValue }
        if bytes[index] == UInt8(ascii: "/") { return .unsure }
        guard bytes[index] == UInt8(ascii: "=") else { return .notAValue }
        let linesUp = bytes[(index + 1)..<open].reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
        return .value(linesUp: linesUp, equals: index)
    }

    /// Whether the `=` at `equals` follows a member on its line (`model.tips =`): an assignment, as a
    /// declaration's name never follows a dot.
    static func assignsAMember(_ bytes: UnsafeBufferPointer<UInt8>, equals: Int) -> Bool {
        var index = equals - 1
        while index >= 0, bytes[index] == 0x20 || bytes[index] == 0x09 { index -= 1 }
        let nameEnd = index
        while index >= 0, bytes[index] >= 0x80 || isNameByte[Int(bytes[index])] { index -= 1 }
        guard index < nameEnd else { return false }
        while index >= 0, bytes[index] == 0x20 || bytes[index] == 0x09 { index -= 1 }
        return index >= 0 && bytes[index] == UInt8(ascii: ".")
    }

    /// The length of the valid UTF-8 sequence starting at `index` (a non-ASCII lead byte), or nil:
    /// no overlong forms, no surrogates, nothing above U+10FFFF (as Swift's own decoder).
    static func utf8SequenceWidth(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        let width: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: width = 2
        case 0xE0: width = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: width = 3
        case 0xED: width = 3; high = 0x9F
        case 0xF0: width = 4; low = 0x90
        case 0xF1...0xF3: width = 4
        case 0xF4: width = 4; high = 0x8F
        default: return nil
        }
        guard index + width <= bytes.count else { return nil }
        let second = bytes[index + 1]
        guard second >= low && second <= high else { return nil }
        for offset in 2..<max(2, width) where bytes[index + offset] & 0xC0 != 0x80 { return nil }
        return width
    }

    /// Whether the `[` at `open` may start an array literal whose first two elements are string
    /// literals. Anything the lexer cannot follow (an interpolation, a raw or multi-line string, an
    /// unterminated comment or string) counts as "may": the answer must never be a wrong "no".
    static func stringArrayStarts(_ bytes: UnsafeBufferPointer<UInt8>, at open: Int) -> Bool {
        var index = open + 1
        guard skipTrivia(bytes, &index) else { return true }
        switch skipPlainString(bytes, &index) {
        case .notAString: return false
        case .unsure: return true
        case .ended: break
        }
        guard skipTrivia(bytes, &index) else { return true }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return false }
        index += 1
        guard skipTrivia(bytes, &index) else { return true }
        guard index < bytes.count else { return true }
        return bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "#")
    }

    /// Skips blanks, line breaks and comments (block comments nest in Swift). False when it cannot
    /// tell where they end.
    static func skipTrivia(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Bool {
        let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*")
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C {
                index += 1
            } else if byte == slash, index + 1 < bytes.count, bytes[index + 1] == slash {
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            } else if byte == slash, index + 1 < bytes.count, bytes[index + 1] == star {
                var depth = 0
                repeat {
                    if index + 1 >= bytes.count { return false }
                    if bytes[index] == slash, bytes[index + 1] == star { depth += 1; index += 2 }
                    else if bytes[index] == star, bytes[index + 1] == slash { depth -= 1; index += 2 }
                    else { index += 1 }
                } while depth > 0
            } else {
                return true
            }
        }
        return true
    }

    enum StringEnd { case ended, notAString, unsure }

    /// Skips a one-line string literal without interpolation; anything fancier is `unsure`.
    static func skipPlainString(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> StringEnd {
        guard index < bytes.count else { return .unsure }
        if bytes[index] == UInt8(ascii: "#") {
            // `#"raw"#`, or `#if` around the elements: unsure; `#keyPath(…)`, `#selector(…)`: no string.
            var end = index + 1
            while end < bytes.count, bytes[end] < 0x80, isNameByte[Int(bytes[end])] { end += 1 }
            let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end]), as: UTF8.self)
            return word.isEmpty || ["if", "elseif", "else", "endif"].contains(word) ? .unsure : .notAString
        }
        guard bytes[index] == UInt8(ascii: "\"") else { return .notAString }
        if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\""), bytes[index + 2] == UInt8(ascii: "\"") { return .unsure }
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return .ended
            case UInt8(ascii: "\\"):
                if index + 1 >= bytes.count || bytes[index + 1] == UInt8(ascii: "(") { return .unsure }
                index += 2
            case 0x0A, 0x0D:
                return .unsure
            default:
                index += 1
            }
        }
        return .unsure
    }
}

