import SwiftGrammar

/// What makes a call determinate progress, for `CodeWords` to watch (see `FileSelector.isRelevantOnSight`).
public struct DeterminateWatch: Sendable {
    /// Names (hashes), each with the argument labels that make a call of it determinate (`value`,
    /// `timerInterval`), hashed too.
    let labels: [UInt64: Set<UInt64>]
    /// Style modifiers (hashes), each with whether a style of a given name makes determinate
    /// progress spin (`ThemedSpinnerStyle`: yes; `.linear`: no).
    let spinningStyles: [UInt64: @Sendable (String) -> Bool]
    /// A bit per watched name (labels' and styles' keys), by its hash's low six bits: most names of a
    /// file find theirs clear and cost no dictionary lookup (tests: all set, the plain way).
    var watchedBits: UInt64

    init(labels: [UInt64: Set<UInt64>], spinningStyles: [UInt64: @Sendable (String) -> Bool]) {
        self.labels = labels
        self.spinningStyles = spinningStyles
        watchedBits = labels.keys.reduce(spinningStyles.keys.reduce(0) { $0 | 1 &<< ($1 & 63) }) { $0 | 1 &<< ($1 & 63) }
    }
}

/// Follows the uses of a few names in code, to tell which are only ever called with a determinate
/// progress label (`ProgressView(value: x)`). It reads the tokens strictly: the `(` right after the
/// name, a label right after that `(` or a `,` of the same call, a `:`, then a value. Anything else
/// is a use that counts: `ProgressView ()`, `ProgressView.init(value:)`, `ProgressView<A, B>(value:)`,
/// a label inside a nested call or a string's interpolation, a `#if` among the arguments. A style
/// modifier anywhere in the code must take a style it can name (`.linear`, `LinearStyle()`) that
/// does not spin determinate progress, or no call counts as determinate.
struct DeterminateCalls {
    let labels: [UInt64: Set<UInt64>]
    let spinningStyles: [UInt64: @Sendable (String) -> Bool]
    let watchedBits: UInt64
    private var plain = Set<UInt64>()
    private var determinate = Set<UInt64>()
    /// A watched name just ended: its call's `(` must be at this offset.
    private var awaiting: (name: UInt64, parenthesisAt: Int)?
    private var open: [OpenCall] = []
    private var depth = 0
    private var stringDepth = 0

    private struct OpenCall {
        let name: UInt64
        /// The bracket and string depth inside its parentheses: only tokens there are its own.
        let depth: Int
        let stringDepth: Int
        var atArgumentStart = true
        var label: UInt64?
        /// A determinate label and its `:` were read: a value must follow (`ProgressView(value:)` has none).
        var awaitingValue = false
        var determinate = false
        var spoiled = false
    }

    /// A style modifier just ended: its `(` must be at this offset.
    private var awaitingStyle: (spins: @Sendable (String) -> Bool, parenthesisAt: Int)?
    /// The argument of a style modifier being read.
    private var style: StyleArgument?
    private var styleMaySpin = false

    private struct StyleArgument {
        let spins: @Sendable (String) -> Bool
        let depth: Int
        let stringDepth: Int
        /// Its tokens, in order: names, `.`, and the parentheses of a call (`LinearStyle()`).
        var tokens: [StyleToken] = []
        var unreadable = false

        enum StyleToken: Equatable {
            case name(String)
            case dot
            case open
            case close
        }

        /// The style's name, as `UsageMatcher` reads it, for the shapes read here.
        var name: String? {
            guard !unreadable else { return nil }
            switch tokens.first {
            case .dot: if tokens.count == 2, case .name(let name) = tokens[1] { return name }
            case .name(let name):
                if tokens.count == 1 { return name }
                // A call's name only when its parentheses close at the end (`Linear().spinning()` is `spinning`'s).
                guard tokens.count >= 3, tokens[1] == .open else { return nil }
                var open = 0
                for (index, token) in tokens.enumerated().dropFirst() {
                    if token == .open { open += 1 }
                    if token == .close {
                        open -= 1
                        if open == 0 { return index == tokens.count - 1 ? name : nil }
                    }
                }
            default: break
            }
            return nil
        }
    }

    init(_ watch: DeterminateWatch) {
        labels = watch.labels
        spinningStyles = watch.spinningStyles
        watchedBits = watch.watchedBits
    }

    var onlyDeterminate: Set<UInt64> {
        awaiting == nil && awaitingStyle == nil && open.isEmpty && style == nil && !styleMaySpin ? determinate.subtracting(plain) : []
    }

    mutating func visit(_ token: CodeScanner.Token, in bytes: UnsafeBufferPointer<UInt8>) {
        if let waiting = awaitingStyle {
            awaitingStyle = nil
            if case .punctuation(UInt8(ascii: "("), let at) = token, at == waiting.parenthesisAt, style == nil {
                depth += 1
                style = StyleArgument(spins: waiting.spins, depth: depth, stringDepth: stringDepth)
                return
            }
            styleMaySpin = true
        }
        if var argument = style {
            switch token {
            case .punctuation(UInt8(ascii: ")"), _) where depth == argument.depth && stringDepth == argument.stringDepth:
                if let name = argument.name, !argument.spins(name) {} else { styleMaySpin = true }
                style = nil
                depth -= 1
                return
            case .name(_, let start, _):
                argument.tokens.append(.name(Self.name(at: start, in: bytes)))
            case .punctuation(UInt8(ascii: "."), _):
                argument.tokens.append(.dot)
            case .punctuation(UInt8(ascii: "("), _):
                argument.tokens.append(.open)
            case .punctuation(UInt8(ascii: ")"), _):
                argument.tokens.append(.close)
            case .lineBreak, .commentName:
                break
            default:
                argument.unreadable = true
            }
            style = argument
        }
        if let waiting = awaiting {
            awaiting = nil
            if case .punctuation(UInt8(ascii: "("), let at) = token, at == waiting.parenthesisAt {
                depth += 1
                open.append(OpenCall(name: waiting.name, depth: depth, stringDepth: stringDepth))
                return
            }
            plain.insert(waiting.name)
        }
        let own = open.last.map { $0.depth == depth && $0.stringDepth == stringDepth } ?? false
        if open.last?.awaitingValue == true {
            switch token {
            case .lineBreak, .commentName:
                break
            case .punctuation(UInt8(ascii: ","), _) where own, .punctuation(UInt8(ascii: ")"), _) where own:
                open[open.count - 1].awaitingValue = false
            default:
                open[open.count - 1].awaitingValue = false
                open[open.count - 1].determinate = true
            }
        }
        switch token {
        case .name(let hash, let start, _):
            if watchedBits & (1 &<< (hash & 63)) == 0 {
                // Neither a label's name nor a style modifier.
            } else if labels[hash] != nil {
                awaiting = (hash, Self.end(ofNameAt: start, in: bytes))
            } else if let spins = spinningStyles[hash] {
                awaitingStyle = (spins, Self.end(ofNameAt: start, in: bytes))
            }
            if own {
                open[open.count - 1].label = open[open.count - 1].atArgumentStart ? hash : nil
                open[open.count - 1].atArgumentStart = false
            }
        case .punctuation(let byte, _):
            switch byte {
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                if own { interruptLabel() }
                depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                if own, let call = open.popLast() {
                    if call.determinate && !call.spoiled { determinate.insert(call.name) } else { plain.insert(call.name) }
                }
                depth -= 1
            case UInt8(ascii: ","):
                if own { open[open.count - 1].atArgumentStart = true; open[open.count - 1].label = nil }
            case UInt8(ascii: ":"):
                if own, let label = open[open.count - 1].label, labels[open[open.count - 1].name]?.contains(label) == true {
                    open[open.count - 1].awaitingValue = true
                }
                if own { open[open.count - 1].label = nil }
            case UInt8(ascii: "#"):
                for index in open.indices { open[index].spoiled = true }
            default:
                if own { interruptLabel() }
            }
        case .operatorRun:
            if own { interruptLabel() }
        case .stringStart:
            if own { interruptLabel() }
            stringDepth += 1
        case .stringEnd:
            stringDepth -= 1
        case .lineBreak, .commentName:
            break
        }
    }

    /// A token of the innermost call's own that is no label: none is being read until the next `,`.
    private mutating func interruptLabel() {
        open[open.count - 1].label = nil
        open[open.count - 1].atArgumentStart = false
    }

    static func end(ofNameAt start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var end = start
        while end < bytes.count, ByteClass.of(bytes[end]).contains(.name) { end += 1 }
        return end
    }

    static func name(at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end(ofNameAt: start, in: bytes)]), as: UTF8.self)
    }
}
