/// The names a file's string-array declarations may bind (`let tips = ["…", "…"]`), from a closer
/// reading of its code: for the files whose one-pass lexer lost track of them (a keyword on an earlier
/// line than the array, a comment between), which would otherwise all be parsed on sight.
///
/// A declaration's value follows its `=`: an array literal that opens right after an `=` and starts
/// with two string literals is a possible string array, and the names in pattern position since the
/// last `let` or `var` at the same bracket depth (after the keyword or a `,`, before a `:` or `=`) are
/// the candidates for its name: the declared one, and more (several bindings), never less. A `;`, or a line that starts with a name after a line that ended
/// one (not after `let`, `,`, `:` or an operator), ends a declaration. Nil where `CodeScanner` gives
/// up, or a `#` directive stands where an element or the value could be (`= #if DEBUG …`): then the
/// names stay unknown.
struct DeclaredStringArrays {
    /// Whether any possible string-array declaration was seen.
    let found: Bool
    let names: Set<UInt64>

    static let letKeyword = WordHash.ofName("let")
    static let varKeyword = WordHash.ofName("var")

    init?(bytes: [UInt8]) {
        /// After a declaration's `=`: how far the array literal that may follow has come.
        enum Step {
            case afterEquals
            case afterOpen
            /// Inside the first element, a string: `nesting` strings deep (interpolations hold strings).
            case inFirst(nesting: Int)
            case afterFirst
            case afterComma
        }
        /// Per open bracket (and the top level): the pattern names since the last `let`/`var`, nil when
        /// none, and whether a name now would be in a pattern (not a type annotation or a value).
        var declarations: [[UInt64]?] = [nil]
        var inPattern: [Bool] = [false]
        var pending: (step: Step, candidates: [UInt64])?
        var names = Set<UInt64>()
        var found = false
        var unsure = false
        var lineBroke = false
        var previousEndsAnExpression = false
        let finished = bytes.withUnsafeBufferPointer { buffer in
            CodeScanner.scan(buffer) { token in
                if case .lineBreak = token {
                    lineBroke = true
                    return
                }
                if case .commentName = token { return }
                if lineBroke, previousEndsAnExpression, case .name = token { declarations[declarations.count - 1] = nil }
                lineBroke = false
                previousEndsAnExpression = Self.endsAnExpression(token)
                if let (step, candidates) = pending {
                    pending = nil
                    switch (step, token) {
                    case (.afterEquals, .punctuation(let byte, _)) where byte == UInt8(ascii: "["):
                        pending = (.afterOpen, candidates)
                    case (.afterEquals, .punctuation(let byte, _)) where byte == UInt8(ascii: "#"),
                         (.afterOpen, .punctuation(let byte, _)) where byte == UInt8(ascii: "#"),
                         (.afterFirst, .punctuation(let byte, _)) where byte == UInt8(ascii: "#"),
                         (.afterComma, .punctuation(let byte, _)) where byte == UInt8(ascii: "#"):
                        unsure = true
                    case (.afterOpen, .stringStart):
                        pending = (.inFirst(nesting: 1), candidates)
                    case (.inFirst(let nesting), .stringStart):
                        pending = (.inFirst(nesting: nesting + 1), candidates)
                    case (.inFirst(let nesting), .stringEnd):
                        pending = (nesting == 1 ? .afterFirst : .inFirst(nesting: nesting - 1), candidates)
                    case (.inFirst, _):
                        pending = (step, candidates)  // An interpolation's code.
                    case (.afterFirst, .punctuation(let byte, _)) where byte == UInt8(ascii: ","):
                        pending = (.afterComma, candidates)
                    case (.afterComma, .stringStart):
                        found = true
                        names.formUnion(candidates)
                    default:
                        break
                    }
                    if case .inFirst? = pending?.step { return }
                }
                switch token {
                case .name(let hash, _, _):
                    if hash == Self.letKeyword || hash == Self.varKeyword {
                        declarations[declarations.count - 1] = []
                        inPattern[inPattern.count - 1] = true
                    } else if declarations[declarations.count - 1] != nil, inPattern[inPattern.count - 1] {
                        declarations[declarations.count - 1]!.append(hash)
                    }
                case .operatorRun(_, let at):
                    let isPlainEquals = bytes[at] == UInt8(ascii: "=")
                        && (at + 1 >= bytes.count || !CodeScanner.isOperatorByte[Int(bytes[at + 1])])
                    if isPlainEquals, let candidates = declarations[declarations.count - 1] {
                        pending = (.afterEquals, candidates)
                        inPattern[inPattern.count - 1] = false
                    }
                case .punctuation(let byte, _):
                    switch byte {
                    case UInt8(ascii: "{"), UInt8(ascii: "("), UInt8(ascii: "["):
                        declarations.append(nil)
                        inPattern.append(false)
                    case UInt8(ascii: "}"), UInt8(ascii: ")"), UInt8(ascii: "]"):
                        if declarations.count > 1 {
                            declarations.removeLast()
                            inPattern.removeLast()
                        } else {
                            unsure = true
                        }
                    case UInt8(ascii: ":"):
                        inPattern[inPattern.count - 1] = false
                    case UInt8(ascii: ","):
                        inPattern[inPattern.count - 1] = true
                    case UInt8(ascii: ";"):
                        declarations[declarations.count - 1] = nil
                    default:
                        break
                    }
                default:
                    break
                }
            }
        }
        guard finished, !unsure, declarations.count == 1 else { return nil }
        self.found = found
        self.names = names
    }

    /// A token after which a line break may end the statement: a name (not `let`/`var`), a closing
    /// bracket, a string's end.
    static func endsAnExpression(_ token: CodeScanner.Token) -> Bool {
        switch token {
        case .name(let hash, _, _): return hash != letKeyword && hash != varKeyword
        case .punctuation(let byte, _): return byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
        case .stringEnd: return true
        default: return false
        }
    }
}
