import SwiftGrammar

/// Takes the tokens of `CodeScanner`, one at a time.
protocol CodeTokenVisitor {
    mutating func visit(_ token: CodeScanner.Token)
    /// Whether the visitor has read enough: the scan ends after its token (as if at the end, unless it
    /// gave up there).
    var hasReadEnough: Bool { get }
}

extension CodeTokenVisitor {
    var hasReadEnough: Bool { false }
}

/// What Swift code is made of, once comments and string literals are set apart: names, brackets and
/// operators, in order. It follows Swift's lexical rules for comments (block comments nest) and
/// strings (escapes, `"""` blocks, raw strings with `#`, interpolations with strings inside them, whose
/// code is code) and gives up, returning false, wherever it could be wrong: a `/` that may start a
/// regular expression literal, a one-line string that meets a line break, a `"""` with text after it
/// (opening) or before it (closing), brackets that do not match, a comment that touches an operator
/// (`x!// note`, which the pinned grammar reads as code) or starts with `*` (`//* note`, the same), a
/// comment, string or bracket still open at the end. Broken code is where
/// a parser's error recovery may read strings its own way: giving up there keeps the look sound.
enum CodeScanner {
    enum Token {
        /// A name in code (`WordHash.ofName` hash), where it starts, whether its first letter is a capital.
        case name(hash: UInt64, start: Int, capitalized: Bool)
        case commentName(hash: UInt64)
        /// `{ } ( ) [ ] ; : , . @` in code (not an interpolation's own parentheses), and `#` before a
        /// directive or macro (`#if`, `#keyPath`; not a raw string's).
        case punctuation(UInt8, at: Int)
        /// A run of operator characters (`=`, `+=`, `==`, `??`, `->`), and whether it may assign.
        case operatorRun(assigns: Bool, at: Int)
        /// A line break outside comments and strings.
        case lineBreak(at: Int)
        /// A string literal starts (its text and interpolations follow, the latter as tokens) or ends.
        case stringStart(at: Int)
        case stringEnd(at: Int)
    }

    private enum Context {
        /// Code, with the parentheses opened since it started (an interpolation ends at its `)`).
        case code(parentheses: Int)
        case string(multiline: Bool, hashes: Int)
    }

    /// Hands each token in order to `visitor`; false when it gave up. Generic rather than a closure:
    /// the closer readings take millions of tokens, and a specialized call costs nothing.
    static func scan<Visitor: CodeTokenVisitor>(_ bytes: UnsafeBufferPointer<UInt8>, _ visitor: inout Visitor) -> Bool {
        var scanner = Scanner(bytes: bytes, visitor: visitor)
        let finished = scanner.run()
        visitor = scanner.visitor
        return finished
    }

    /// The same with a closure, for the looks taken at a few files.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ visit: (Token) -> Void) -> Bool {
        withoutActuallyEscaping(visit) { visit in
            var visitor = ClosureVisitor(body: visit)
            return scan(bytes, &visitor)
        }
    }

    private struct ClosureVisitor: CodeTokenVisitor {
        let body: (Token) -> Void
        func visit(_ token: Token) { body(token) }
    }

    /// Operators with `=` that compare rather than assign.
    static let comparisons: [[UInt8]] = ["==", "!=", "===", "!==", "<=", ">="].map { Array($0.utf8) }

    /// The declaration keywords the pinned grammar cuts off a longer word where it expects a
    /// declaration (after a modifier or an attribute, in broken code: `final classFoo` reads as
    /// `class Foo`), found one by one with `loadaudit syntax`.
    static let declarationKeywords: [[UInt8]] = ["associatedtype", "class", "enum", "extension", "func", "import", "let",
                                                  "precedencegroup", "protocol", "struct", "typealias", "var", "case", "actor", "macro"]
        .map { Array($0.utf8) }
    /// Them by first byte: most names start with none of them, the others with one or two.
    static let declarationKeywordsByFirstByte: [[[UInt8]]] = (0..<256).map { byte in declarationKeywords.filter { Int($0[0]) == byte } }
    /// The words after which a declaration keyword comes (the grammar's cuts follow each of them).
    static let declarationModifiers: [[UInt8]] = [
        "public", "private", "fileprivate", "internal", "open", "package", "final", "static", "override", "mutating",
        "nonmutating", "lazy", "weak", "unowned", "required", "convenience", "dynamic", "indirect", "nonisolated",
        "optional", "prefix", "postfix", "infix", "distributed", "consuming", "borrowing",
    ].map { Array($0.utf8) }

    /// A declaration's type annotation, token by token: `let`/`var`, the bound name, `:`, a type's
    /// name, and `.` with another name (`Foo.Bar`). Anything else, a line break included, ends it.
    enum Annotation {
        case none, binding, boundName, colon, typeName, typeDot

        /// After a name; `binds`: the name is `let` or `var`.
        func afterName(binds: Bool) -> Annotation {
            switch self {
            case .colon, .typeDot: return .typeName
            case .binding: return .boundName
            default: return binds ? .binding : .none
            }
        }
    }

    private struct Scanner<Visitor: CodeTokenVisitor> {
        let bytes: UnsafeBufferPointer<UInt8>
        var visitor: Visitor
        var index = 0
        var stack: [Context] = [.code(parentheses: 0)]
        /// The brackets open in code, innermost last, and how many were open when each interpolation began.
        var brackets: [UInt8] = []
        var bracketsAtInterpolation: [Int] = []
        /// How far the tokens read so far go into a declaration's type annotation (`var name: Type`).
        var annotation = Annotation.none
        // Instance copies of the tables: a static costs a `swift_once` check on every byte.
        let classes = ByteClass.table
        let comparisons = CodeScanner.comparisons
        let declarationKeywordsByFirstByte = CodeScanner.declarationKeywordsByFirstByte
        /// Whether a declaration keyword starts with the byte: only such names are checked for a glued one.
        let startsADeclarationKeyword = CodeScanner.declarationKeywordsByFirstByte.map { !$0.isEmpty }
        let letKeyword = WordHash.ofName("let"), varKeyword = WordHash.ofName("var")

        init(bytes: UnsafeBufferPointer<UInt8>, visitor: Visitor) {
            self.bytes = bytes
            self.visitor = visitor
        }

        mutating func visit(_ token: Token) { visitor.visit(token) }

        /// A name in code, with whether its first letter is a capital.
        mutating func visitName(_ hash: UInt64, at start: Int) {
            visit(.name(hash: hash, start: start, capitalized: classes[Int(bytes[start])].contains(.uppercase)))
        }

        func byte(at offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

        mutating func run() -> Bool {
            while index < bytes.count {
                let proceeded: Bool
                switch stack[stack.count - 1] {
                case .code(let parentheses): proceeded = stepInCode(parentheses: parentheses)
                case .string(let multiline, let hashes): proceeded = stepInString(multiline: multiline, hashes: hashes)
                }
                if !proceeded { return false }
                if visitor.hasReadEnough { return true }
            }
            return stack.count == 1 && brackets.isEmpty
        }

        mutating func stepInCode(parentheses: Int) -> Bool {
            var current = bytes[index]
            // Blanks, above all indentation, make no token: a run of them at once, then the token after
            // them in the same step (nothing between them could change the context or the visitor).
            if current == 0x20 || current == 0x09 {
                index += 1
                while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
                guard index < bytes.count else { return true }
                current = bytes[index]
            }
            // Only the next token continues an annotation: every token starts from none.
            let annotationSoFar = annotation
            annotation = .none
            if classes[Int(current)].contains(.name) {
                let start = index
                let hash = readName()
                if startsADeclarationKeyword[Int(current)], CodeScanner.gluesADeclarationKeyword(bytes, from: start, to: index, classes: classes, keywordsByFirstByte: declarationKeywordsByFirstByte) {
                    return false
                }
                annotation = annotationSoFar.afterName(binds: hash == letKeyword || hash == varKeyword)
                visitName(hash, at: start)
                // `0case`, `3tips`: a parser reads a number, then a keyword or a name: that name too.
                if classes[Int(current)].contains(.digit), let suffix = SourceBytes.nameAfterDigits(bytes, from: start, to: index) {
                    visitName(suffix.hash, at: suffix.start)
                }
                return true
            }
            if classes[Int(current)].contains(.operatorCharacter) {
                let start = index
                while index < bytes.count, classes[Int(bytes[index])].contains(.operatorCharacter) { index += 1 }
                let run = UnsafeBufferPointer(rebasing: bytes[start..<index])
                visit(.operatorRun(assigns: run.contains(UInt8(ascii: "=")) && !comparisons.contains { $0.elementsEqual(run) }, at: start))
                return true
            }
            switch current {
            case UInt8(ascii: "`"):
                return readRawIdentifier()
            case UInt8(ascii: "/"):
                // The pinned grammar reads `x!// note` as the operator `!//` and `note` as code, where Swift
                // starts a comment, and `a.// note` as the operator `.//` (found by the fuzzer): when an
                // operator character or a dot touches `//` or `/*`, give up.
                if index > 0, classes[Int(bytes[index - 1])].contains(.operatorCharacter) || bytes[index - 1] == UInt8(ascii: "."),
                   byte(at: index + 1) == UInt8(ascii: "/") || byte(at: index + 1) == UInt8(ascii: "*") {
                    return false
                }
                if byte(at: index + 1) == UInt8(ascii: "/") {
                    // The pinned grammar reads `//*` (and `///*`, `//**`) as a custom operator and the rest
                    // of the line as code, where Swift starts a comment (found by the fuzzer): give up.
                    var slashes = index
                    while byte(at: slashes) == UInt8(ascii: "/") { slashes += 1 }
                    if byte(at: slashes) == UInt8(ascii: "*") { return false }
                    return skipLineComment()
                }
                if byte(at: index + 1) == UInt8(ascii: "*") { return skipBlockComment() }
                // Division, an operator, or a regular expression literal (`/a"b/`) whose inside is no
                // code. The pinned grammar's one-line literal holds no `/` and ends with a `/` after a
                // character that is no blank (`/a /` is none, nor `/a /b/`): unless the next `/` on the
                // line is such an end, this one starts no literal (`x: w / 2, y: h / 2`, `w / 2 // half`).
                var ahead = index + 1
                while ahead < bytes.count, bytes[ahead] != 0x0A, bytes[ahead] != 0x0D {
                    if bytes[ahead] == UInt8(ascii: "/") {
                        if bytes[ahead - 1] != UInt8(ascii: " "), bytes[ahead - 1] != 0x09 { return false }
                        break
                    }
                    ahead += 1
                }
                visit(.operatorRun(assigns: byte(at: index + 1) == UInt8(ascii: "="), at: index))
                index += 1
            case UInt8(ascii: "#"):
                var hashes = 0
                while byte(at: index + hashes) == UInt8(ascii: "#") { hashes += 1 }
                let after = byte(at: index + hashes)
                if after == UInt8(ascii: "/") { return false }  // `#/…/#`, an extended regular expression literal.
                if after == UInt8(ascii: "\"") {
                    index += hashes
                    return openString(hashes: hashes)
                } else {
                    visit(.punctuation(current, at: index))
                    index += hashes
                }
            case UInt8(ascii: "\""):
                return openString(hashes: 0)
            case UInt8(ascii: "("):
                // `var config: Theme("…")` is no Swift: the grammar's recovery was seen to read the string
                // after it as code (the fuzzer's `call-in-a-type-annotation.swift`). Give up.
                if annotationSoFar == .typeName { return false }
                stack[stack.count - 1] = .code(parentheses: parentheses + 1)
                brackets.append(current)
                visit(.punctuation(current, at: index))
                index += 1
            case UInt8(ascii: ")"):
                if parentheses == 0, stack.count > 1 {
                    // The interpolation ends; its string goes on. What it opened must be closed.
                    guard brackets.count == bracketsAtInterpolation.removeLast() else { return false }
                    stack.removeLast()
                } else {
                    guard brackets.popLast() == UInt8(ascii: "(") else { return false }
                    stack[stack.count - 1] = .code(parentheses: parentheses - 1)
                    visit(.punctuation(current, at: index))
                }
                index += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                brackets.append(current)
                visit(.punctuation(current, at: index))
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                // Brackets that do not match mean broken code, which a parser's error recovery may read
                // its own way (strings included): give up.
                guard brackets.popLast() == (current == UInt8(ascii: "}") ? UInt8(ascii: "{") : UInt8(ascii: "[")) else { return false }
                visit(.punctuation(current, at: index))
                index += 1
            case UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "."), UInt8(ascii: "@"):
                if current == UInt8(ascii: ":"), annotationSoFar == .boundName { annotation = .colon }
                if current == UInt8(ascii: "."), annotationSoFar == .typeName { annotation = .typeDot }
                visit(.punctuation(current, at: index))
                index += 1
            case 0x0A, 0x0D:
                visit(.lineBreak(at: index))
                index += 1
            default:
                index += 1
            }
            return true
        }

        /// At a `"`: a `"""` block or a one-line string.
        /// False at a `"""` with more on its line: not Swift, and a parser may read it its own way.
        mutating func openString(hashes: Int) -> Bool {
            visit(.stringStart(at: index))
            if byte(at: index + 1) == UInt8(ascii: "\""), byte(at: index + 2) == UInt8(ascii: "\"") {
                index += 3
                var after = index
                while let next = byte(at: after), next == 0x20 || next == 0x09 { after += 1 }
                guard after < bytes.count, bytes[after] == 0x0A || bytes[after] == 0x0D else { return false }
                stack.append(.string(multiline: true, hashes: hashes))
            } else {
                index += 1
                stack.append(.string(multiline: false, hashes: hashes))
            }
            return true
        }

        /// Whether only blanks stand between the line's start and `offset` (where a `"""` must close).
        func startsItsLine(_ offset: Int) -> Bool {
            var before = offset - 1
            while before >= 0, bytes[before] == 0x20 || bytes[before] == 0x09 { before -= 1 }
            return before < 0 || bytes[before] == 0x0A || bytes[before] == 0x0D
        }

        mutating func stepInString(multiline: Bool, hashes: Int) -> Bool {
            let current = bytes[index]
            switch current {
            case UInt8(ascii: "\\"):
                guard hasHashes(hashes, at: index + 1) else {
                    index += 1  // In a raw string a backslash without its `#`s is a character.
                    return true
                }
                let after = index + 1 + hashes
                if byte(at: after) == UInt8(ascii: "(") {
                    index = after + 1
                    stack.append(.code(parentheses: 0))
                    bracketsAtInterpolation.append(brackets.count)
                } else {
                    // An escape: the character after it (`\"`, `\\`, a line break in a `"""` block) is text.
                    // Swift has no other escapes than these; at any other (`\.`), broken code, the grammar's
                    // recovery was seen to end the string there and read the rest of it as code (the
                    // fuzzer's `invalid-escape.swift`): give up.
                    guard let escaped = byte(at: after), classes[Int(escaped)].contains(.escapable) || (multiline && continuesALine(from: after)) else {
                        return false
                    }
                    index = min(after + 1, bytes.count)
                }
            case UInt8(ascii: "\""):
                let quotes = multiline ? 3 : 1
                if (0..<quotes).allSatisfy({ byte(at: index + $0) == UInt8(ascii: "\"") }), hasHashes(hashes, at: index + quotes) {
                    // A block's closing `"""` begins its line; one after other text is not Swift.
                    if multiline, !startsItsLine(index) { return false }
                    visit(.stringEnd(at: index))
                    index += quotes + hashes
                    stack.removeLast()
                } else {
                    index += 1
                }
            case 0x0A, 0x0D:
                // A one-line string cannot hold a line break: the scanner lost track (or the code is broken).
                if !multiline { return false }
                index += 1
            default:
                index += 1
            }
            return true
        }

        /// Whether only blanks stand between `offset` and a line break: a `"""` block's line continues
        /// there after a backslash (blanks before the break too: Swift accepts them, the twelve apps have them).
        func continuesALine(from offset: Int) -> Bool {
            var position = offset
            while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
            return position < bytes.count && (bytes[position] == 0x0A || bytes[position] == 0x0D)
        }

        func hasHashes(_ count: Int, at offset: Int) -> Bool {
            (0..<count).allSatisfy { byte(at: offset + $0) == UInt8(ascii: "#") }
        }

        /// At a backtick: a name in backticks (`` `default` ``), read as a name. Anything else between
        /// backticks (a Swift 6 raw identifier, `` `load twice` ``, which the grammar reads as one name
        /// since tree-sitter-swift 0.7 and this look does not follow) or a backtick with no other on its
        /// line is code the grammar reads its own way: a `//` in it started a comment for the closer
        /// reading, and the grammar's recovery took it for code (the fuzzer's `unclosed-backtick.swift`).
        /// Give up there.
        mutating func readRawIdentifier() -> Bool {
            var end = index + 1
            while end < bytes.count, classes[Int(bytes[end])].contains(.name) { end += 1 }
            guard end < bytes.count, bytes[end] == UInt8(ascii: "`"), end > index + 1 else { return false }
            let start = index + 1
            index = start
            let hash = readName()
            visitName(hash, at: start)
            index = end + 1
            return true
        }

        mutating func readName() -> UInt64 {
            var hash = WordHash()
            while index < bytes.count, classes[Int(bytes[index])].contains(.name) {
                hash.add(bytes[index])
                index += 1
            }
            return hash.value
        }

        mutating func skipLineComment() -> Bool {
            while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D {
                if classes[Int(bytes[index])].contains(.name) { visit(.commentName(hash: readName())) } else { index += 1 }
            }
            return true
        }

        /// Block comments nest (`/* a /* b */ c */`); one still open at the end is a give-up.
        mutating func skipBlockComment() -> Bool {
            var depth = 0
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "/"), byte(at: index + 1) == UInt8(ascii: "*") {
                    depth += 1
                    index += 2
                } else if bytes[index] == UInt8(ascii: "*"), byte(at: index + 1) == UInt8(ascii: "/") {
                    depth -= 1
                    index += 2
                    if depth == 0 { return true }
                } else if classes[Int(bytes[index])].contains(.name) {
                    visit(.commentName(hash: readName()))
                } else {
                    index += 1
                }
            }
            return false
        }
    }
}

extension CodeScanner {
    /// Whether the name from `start` to `index` is a declaration keyword with more name bytes glued to
    /// it (`let0badExample`) where the grammar expects a declaration: after a modifier, an attribute
    /// (`@MainActor`, on the line before too), or a `)` on its line (`private(set)`, `@objc(name)`),
    /// or on the line before when that line starts with `@` (`@available(iOS 17, *)`). The grammar
    /// then cuts the keyword off, and its error recovery in what follows was seen to read a `"""`
    /// string's text as code (the fuzzer's `keyword-cut-before-a-string.swift`): such broken code
    /// gets no closer reading. A name inside a function body (`letter = 1`) is left alone.
    ///
    /// A static function of the bytes, not a method of the scanner: called at every name that starts
    /// like a keyword, a method copied the whole scanner (its visitor too) on each call.
    /// `classes` and `keywordsByFirstByte` are the scanner's copies of `ByteClass.table` and
    /// `declarationKeywordsByFirstByte` (a static costs a `swift_once` check and a retain).
    static func gluesADeclarationKeyword(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to index: Int, classes: [ByteClass],
                                         keywordsByFirstByte: [[[UInt8]]]) -> Bool {
        let length = index - start
        guard keywordsByFirstByte[Int(bytes[start])].contains(where: { keyword in
            keyword.count < length && keyword.indices.allSatisfy { bytes[start + $0] == keyword[$0] }
        }) else { return false }
        var position = start - 1
        var crossedALine = false
        while position >= 0, bytes[position] == 0x20 || bytes[position] == 0x09 || bytes[position] == 0x0A || bytes[position] == 0x0D {
            if bytes[position] == 0x0A || bytes[position] == 0x0D { crossedALine = true }
            position -= 1
        }
        guard position >= 0 else { return false }
        if bytes[position] == UInt8(ascii: ")") { return !crossedALine || lineStartsWithAnAttribute(bytes, position) }
        guard classes[Int(bytes[position])].contains(.name) else { return false }
        let end = position + 1
        while position >= 0, classes[Int(bytes[position])].contains(.name) { position -= 1 }
        if position >= 0, bytes[position] == UInt8(ascii: "@") { return true }
        let word = bytes[(position + 1)..<end]
        return CodeScanner.declarationModifiers.contains { $0.elementsEqual(word) }
    }

    /// Whether the line that holds `offset` starts, past blanks, with `@`.
    static func lineStartsWithAnAttribute(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Bool {
        var position = offset
        while position > 0, bytes[position - 1] != 0x0A, bytes[position - 1] != 0x0D { position -= 1 }
        while position < offset, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
        return bytes[position] == UInt8(ascii: "@")
    }
}
