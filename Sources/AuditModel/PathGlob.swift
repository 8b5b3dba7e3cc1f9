/// The one glob matcher of paths relative to a folder, in the two dialects loadaudit reads:
/// `.loadaudit.yml`'s `include`/`exclude` (`.configuration`) and CODEOWNERS (`.codeOwners`, gitignore's
/// rules as GitHub applies them). Both share the core:
/// - `*` any characters within a path component, `?` one character (never a `/`), `**` any characters,
///   `**/` any number of whole folders (none too);
/// - `\\` before a character takes it literally;
/// - a pattern without a slash inside matches a file or folder name at any depth; one with a slash
///   inside is anchored at the folder;
/// - a pattern that matches a folder matches all in it;
/// - negation (`!pattern`) is refused, never ignored.
///
/// Where they differ:
///
/// |                         | configuration                          | codeOwners                              |
/// |-------------------------|----------------------------------------|-----------------------------------------|
/// | leading `/`             | dropped (so is `./`): changes nothing  | anchors the pattern at the top          |
/// | trailing `/`            | dropped: a file or a folder            | a folder: only what is in it            |
/// | trailing `/*`           | all below (as any match of a folder)   | only the files right in it (GitHub)     |
/// | `[abc]`, `[!a-z]`       | one character of (or not of) a class   | refused (GitHub does not support them)  |
/// | `{Views,Models}`        | one of several alternatives (nested)   | the characters themselves               |
/// | an empty pattern        | refused                                | (never given: a line's first field)     |
public struct PathGlob: Equatable, Sendable {
    public enum Syntax: Sendable { case configuration, codeOwners }

    public struct SyntaxError: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    public let pattern: String
    public let syntax: Syntax
    private let pieces: [Piece]
    /// False: the pattern may start at any folder of the path.
    private let anchored: Bool
    private let end: End

    /// What may follow the pattern's match: nothing or a folder's contents (the default), a folder's
    /// contents only (a CODEOWNERS `dir/`), or nothing (a CODEOWNERS `dir/*`).
    private enum End: Sendable { case nothingOrContents, contents, nothing }

    fileprivate indirect enum Piece: Sendable {
        case literal(Unicode.Scalar)
        /// `?`
        case one
        /// `*`
        case star
        /// `**` not followed by `/`
        case anything
        /// `**/`
        case folders
        case characterClass(negated: Bool, ranges: [ClosedRange<UInt32>])
        case alternatives([[Piece]])
    }

    public init(_ pattern: String, syntax: Syntax) throws {
        self.pattern = pattern
        self.syntax = syntax
        if pattern.hasPrefix("!") { throw SyntaxError("negation ('!') is not supported") }
        var body = pattern
        var end = End.nothingOrContents
        switch syntax {
        case .configuration:
            while body.hasPrefix("./") { body.removeFirst(2) }
            if body.hasSuffix("/") { body.removeLast() }
            if body.hasPrefix("/") { body.removeFirst() }
            if body.isEmpty || body == "." { throw SyntaxError("an empty pattern matches nothing") }
            anchored = body.contains("/")
        case .codeOwners:
            if body.hasSuffix("/") {
                body.removeLast()
                end = .contents
            } else if body.hasSuffix("/*") {
                // `docs/*` owns the files right in docs, not those further down (GitHub's documented exception).
                end = .nothing
            }
            anchored = body.hasPrefix("/") || body.dropFirst().contains("/")
            if body.hasPrefix("/") { body.removeFirst() }
        }
        self.end = end
        var scalars = Array(body.unicodeScalars)[...]
        pieces = try Self.pieces(&scalars, syntax: syntax, insideBraces: false)
    }

    public static func == (lhs: PathGlob, rhs: PathGlob) -> Bool { lhs.pattern == rhs.pattern && lhs.syntax == rhs.syntax }

    /// Whether a path relative to the pattern's folder (no leading `/`) matches.
    public func matches(_ path: String) -> Bool {
        let path = Array(path.unicodeScalars)[...]
        let end = self.end
        let atEnd = { (rest: ArraySlice<Unicode.Scalar>) -> Bool in
            switch end {
            case .nothingOrContents: return rest.isEmpty || rest.first == "/"
            case .contents: return rest.first == "/"
            case .nothing: return rest.isEmpty
            }
        }
        if Self.match(pieces[...], path, atEnd) { return true }
        guard !anchored else { return false }
        // At any depth: after any `/` of the path.
        var index = path.startIndex
        while index < path.endIndex {
            if path[index] == "/", Self.match(pieces[...], path[(index + 1)...], atEnd) { return true }
            index += 1
        }
        return false
    }

    /// Whether `pieces` match a beginning of `path` after which `rest` accepts what is left.
    private static func match(
        _ pieces: ArraySlice<Piece>, _ path: ArraySlice<Unicode.Scalar>, _ rest: (ArraySlice<Unicode.Scalar>) -> Bool
    ) -> Bool {
        guard let piece = pieces.first else { return rest(path) }
        let next = pieces.dropFirst()
        switch piece {
        case .literal(let scalar):
            return path.first == scalar && match(next, path.dropFirst(), rest)
        case .one:
            guard let first = path.first, first != "/" else { return false }
            return match(next, path.dropFirst(), rest)
        case .star:
            var count = 0
            while true {
                if match(next, path.dropFirst(count), rest) { return true }
                guard count < path.count, path[path.startIndex + count] != "/" else { return false }
                count += 1
            }
        case .anything:
            for count in 0...path.count where match(next, path.dropFirst(count), rest) { return true }
            return false
        case .folders:
            if match(next, path, rest) { return true }
            for index in path.indices where path[index] == "/" {
                if match(next, path[(index + 1)...], rest) { return true }
            }
            return false
        case .characterClass(let negated, let ranges):
            guard let first = path.first, first != "/" else { return false }
            guard ranges.contains(where: { $0.contains(first.value) }) != negated else { return false }
            return match(next, path.dropFirst(), rest)
        case .alternatives(let alternatives):
            return alternatives.contains { alternative in match(alternative[...], path) { match(next, $0, rest) } }
        }
    }

    /// The pattern's pieces, up to the end (or, inside braces, up to the `,` or `}` that ends the
    /// alternative, left unconsumed).
    private static func pieces(_ scalars: inout ArraySlice<Unicode.Scalar>, syntax: Syntax, insideBraces: Bool) throws -> [Piece] {
        var pieces: [Piece] = []
        while let scalar = scalars.first {
            if insideBraces, scalar == "," || scalar == "}" { return pieces }
            scalars.removeFirst()
            switch scalar {
            case "*":
                if scalars.first == "*" {
                    scalars.removeFirst()
                    if scalars.first == "/" {
                        scalars.removeFirst()
                        pieces.append(.folders)
                    } else {
                        pieces.append(.anything)
                    }
                } else {
                    pieces.append(.star)
                }
            case "?":
                pieces.append(.one)
            case "[":
                guard syntax == .configuration else { throw SyntaxError("character ranges ('[...]') are not supported") }
                pieces.append(try characterClass(&scalars))
            case "{" where syntax == .configuration:
                var alternatives: [[Piece]] = []
                while true {
                    alternatives.append(try self.pieces(&scalars, syntax: syntax, insideBraces: true))
                    guard let separator = scalars.popFirst() else { throw SyntaxError("a '{' is never closed") }
                    if separator == "}" { break }
                }
                pieces.append(.alternatives(alternatives))
            case "}" where syntax == .configuration && !insideBraces:
                throw SyntaxError("a '}' closes no '{'")
            case "\\":
                guard let literal = scalars.popFirst() else { throw SyntaxError("a '\\' ends the pattern") }
                pieces.append(.literal(literal))
            default:
                pieces.append(.literal(scalar))
            }
        }
        return pieces
    }

    /// `[...]` after its `[`: one character of the class (never a `/`). A `]` right after the `[` (or
    /// `[!`) is a member; `-` between two members makes a range.
    private static func characterClass(_ scalars: inout ArraySlice<Unicode.Scalar>) throws -> Piece {
        var negated = false
        if scalars.first == "!" || scalars.first == "^" {
            negated = true
            scalars.removeFirst()
        }
        var ranges: [ClosedRange<UInt32>] = []
        while let scalar = scalars.popFirst() {
            if scalar == "]", !ranges.isEmpty { return .characterClass(negated: negated, ranges: ranges) }
            if scalar == "-", let low = ranges.last, low.count == 1, let high = scalars.first, high != "]" {
                scalars.removeFirst()
                guard low.lowerBound <= high.value else { throw SyntaxError("the range '\(Unicode.Scalar(low.lowerBound).map(String.init) ?? "")-\(high)' is backwards") }
                ranges[ranges.count - 1] = low.lowerBound...high.value
            } else {
                ranges.append(scalar.value...scalar.value)
            }
        }
        throw SyntaxError("a '[' is never closed")
    }
}
