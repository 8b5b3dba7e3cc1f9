import AuditModel
@testable import AuditRules
import Foundation
import LoadAuditTestSupport
import SwiftGrammar
import XCTest

/// `ReflectedKey` writes into one byte buffer and skips the runtime's description of the leaves it
/// knows: its text must stay the plain reflection's, byte for byte (the JSON report's `rulesIdentity`
/// and the result cache's key are hashes of it). `PlainReflection` below is that plain way, each
/// value written out by itself: the keys of every built-in rules file, of the fixtures' rules files
/// and of generated rules and values are compared with it.
final class ReflectedKeyEquivalenceTests: XCTestCase {
    func assertPlain(_ ruleSet: RuleSet, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        for rule in ruleSet.rules {
            XCTAssertEqual(ReflectedKey.of(rule), PlainReflection.of(rule), "\(name): \(rule.id)", file: file, line: line)
            XCTAssertEqual(ruleSet.matchingKey(of: rule), PlainReflection.of(rule, leavingOut: RuleSet.wordingAndPlaces),
                           "\(name): \(rule.id)", file: file, line: line)
        }
        XCTAssertEqual(ruleSet.cacheKey, PlainReflection.cacheKey(of: ruleSet), name, file: file, line: line)
        // Everything a rule set holds, its sizes, protected names and known ids included.
        XCTAssertEqual(ReflectedKey.of(ruleSet), PlainReflection.of(ruleSet), name, file: file, line: line)
    }

    func testEveryBuiltInAndFixtureRulesFileHasThePlainKeys() throws {
        for name in RuleSet.builtInNames { assertPlain(try XCTUnwrap(RuleSet.builtIn(named: name)), name) }
        assertPlain(RuleSet.builtIn(), "the default built-in rules")
        let fixtures = RepositoryFolder.root.appendingPathComponent("fixtures")
        let files = try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: fixtures.path))
            .filter { $0.hasSuffix(".yml") && !$0.hasSuffix(".loadaudit.yml") }
        XCTAssertGreaterThanOrEqual(files.count, 4)
        for file in files { assertPlain(try RuleSet.load(files: [fixtures.appendingPathComponent(file).path]), file) }
    }

    /// Rules files written from random text (quotes, backslashes, combining marks, ...) and numbers.
    func testGeneratedRulesHaveThePlainKeys() throws {
        for seed in UInt64(1)...40 {
            var random = SeededRandom(seed: seed)
            let text = Generated.rulesFile(&random)
            let ruleSet: RuleSet
            do { ruleSet = try RuleSet.load(text: text, file: "generated.yml") } catch {
                return XCTFail("seed \(seed): \(error)\n\(text)")
            }
            XCTAssertEqual(ruleSet.rules.count, 3, "seed \(seed)")
            assertPlain(ruleSet, "seed \(seed)")
        }
    }

    /// Values of every shape reflection meets: nested structs, enums with and without payloads,
    /// optionals, tuples, arrays, sets, dictionaries, classes, numbers, truth values, patterns,
    /// templates and regular expressions; properties left out at any depth.
    func testGeneratedValuesHaveThePlainKeys() throws {
        for seed in UInt64(1)...300 {
            var random = SeededRandom(seed: seed)
            let value = try Generated.value(&random, depth: 4)
            XCTAssertEqual(ReflectedKey.of(value), PlainReflection.of(value), "seed \(seed)")
            for omitted in [["text", "payload", "second"], ["key"], ["value", "maybe"]] as [Set<String>] {
                XCTAssertEqual(ReflectedKey.of(value, leavingOut: omitted), PlainReflection.of(value, leavingOut: omitted), "seed \(seed)")
            }
        }
    }

    /// Text whose quotes and backslashes stand next to what Foundation joins with them.
    func testQuotesNextToCombiningMarksAreWrittenAsThePlainWayDoes() {
        for text in ["a\"\u{301}b", "\\\u{301}x", "e\u{301}\"", "\u{301}\"", "x\"\u{200D}y", "\"\r\n\"", "\u{600}\"1", "↓\"", "\"↓", "\\\\\"", ""] {
            XCTAssertEqual(ReflectedKey.of(text), PlainReflection.of(text), text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
        }
    }
}

/// The plain reflection: `ReflectedKey` as it was first written, each value's text made by itself
/// and joined into its parent's. Slow (the runtime describes every leaf, Foundation escapes every
/// text), and the reference the fast writer must equal.
enum PlainReflection {
    static func of(_ value: Any, leavingOut omitted: Set<String> = []) -> String {
        switch value {
        case let text as String: return quoted(text)
        case let pattern as SwiftPattern: return "pattern " + quoted(pattern.text)
        case let template as ReplacementTemplate: return "template " + quoted(template.source)
        case let expression as NSRegularExpression: return "regex " + quoted(expression.pattern)
        default: break
        }
        let mirror = Mirror(reflecting: value)
        let children = Array(mirror.children)
        switch mirror.displayStyle {
        case .optional:
            return children.first.map { of($0.value, leavingOut: omitted) } ?? "nil"
        case .set, .dictionary:
            return "{" + children.map { of($0.value, leavingOut: omitted) }.sorted().joined(separator: ",") + "}"
        case .collection:
            return "[" + children.map { of($0.value, leavingOut: omitted) }.joined(separator: ",") + "]"
        case .struct, .class, .tuple, .enum:
            if children.isEmpty { return "\(value)" }
            let parts = children.compactMap { child -> String? in
                if let label = child.label, omitted.contains(label) { return nil }
                return (child.label ?? "") + ":" + of(child.value, leavingOut: omitted)
            }
            let name = mirror.displayStyle == .enum ? children.first?.label ?? "" : ""
            return name + "(" + parts.joined(separator: ",") + ")"
        default:
            return "\(value)"
        }
    }

    /// `RuleSet.cacheKey` made with the plain reflection.
    static func cacheKey(of ruleSet: RuleSet) -> String {
        var parts = ruleSet.rules.sorted { $0.id < $1.id }.map { of($0) }
        parts.append(ruleSet.protectedNames.sorted().joined(separator: ","))
        if let sizes = ruleSet.sizes { parts.append(of(sizes)) }
        parts.append(ruleSet.knownRuleIds.sorted().joined(separator: ","))
        parts.append(ruleSet.unusedSuppressionSeverity?.rawValue ?? "off")
        return parts.joined(separator: "\u{1E}")
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// Random rules files and values for the comparisons above.
enum Generated {
    /// Text mixing letters with what needs escaping or joins with its neighbours.
    static func text(_ random: inout SeededRandom) -> String {
        let pieces = ["a", "Z", " ", "\"", "\\", "\\\"", "é", "e\u{301}", "\u{301}", "\u{200D}", "↓", "👩‍💻", "\u{600}", "\r\n", "\t", "{", "(", ":", ","]
        return (0..<random.below(12)).map { _ in random.pick(pieces) }.joined()
    }

    /// `text` as a YAML double-quoted value.
    static func yaml(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\r": out += "\\r"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func name(_ random: inout SeededRandom) -> String {
        random.pick(["Old", "Legacy", "Spinner", "Badge", "Card"]) + random.pick(["View", "Label", "Row", ""]) + String(random.below(100))
    }

    static func number(_ random: inout SeededRandom) -> String {
        random.pick([String(random.below(50)), "\(random.below(50)).\(random.below(10))", "1e\(random.below(3))", "0.\(random.below(1000))"])
    }

    static func rulesFile(_ random: inout SeededRandom) -> String {
        let old = name(&random), new = name(&random), component = name(&random)
        let severity = random.pick(["error", "warning", "note"]), fix = random.pick(["safe", "unsafe", "manual"])
        let low = random.below(5), high = low + 1 + random.below(5)
        return """
            version: 1
            rules:
              - id: old-\(random.below(1000))
                kind: pattern
                match: "\(old)($N)"
                replace: "\(new)($N)"
                fix: \(fix)
                severity: \(severity)
                message: \(yaml("W" + text(&random)))
                help: \(yaml("W" + text(&random)))
                inside: {pattern: \(random.pick(["List", "VStack", "Form"])), stop-by: \(random.pick(["end", "closure"]))}
                values:
                  N: {\(number(&random)): \(yaml("W" + text(&random))), \(low)..<\(high): few, nearest: {\(number(&random)): \(yaml("W" + text(&random)))}}
                examples:
                  no-match: [\(yaml("W" + text(&random))), \(yaml("W" + text(&random)))]
              - id: component-\(random.below(1000))
                component: \(component)
                replacement: "\(new)(label: {label})"
                fix: manual
                message: \(yaml("W" + text(&random)))
                label: {arguments: [title, _], default: \(yaml("W" + text(&random)))}
              - id: label-\(random.below(1000))
                kind: label-style
                components: [\(component), \(new)]
                label-arguments: [label, _]
                allowed-labels: [\(yaml("W" + text(&random))), \(yaml("W" + text(&random))), Loading]
                label-pattern: \(yaml("^" + random.pick(["Loading", "Wait", "é\u{301}"]) + " [^.]+$"))
                message: \(yaml("W" + text(&random)))
            """
    }

    struct Leaf {
        var text: String
        var number: Double
        var count: Int
        var flag: Bool
        var maybe: String?
    }

    enum Shape {
        case plain
        case other
        case payload(Leaf)
        case pair(first: Int, second: [String])
    }

    final class Box {
        let inner: [Shape]
        let name: String?
        init(inner: [Shape], name: String?) {
            self.inner = inner
            self.name = name
        }
    }

    struct Empty {}

    static func value(_ random: inout SeededRandom, depth: Int) throws -> Any {
        let leafChoices = 12
        let choice = random.below(depth > 0 ? leafChoices + 7 : leafChoices)
        switch choice {
        case 0: return text(&random)
        case 1: return Double(random.below(2000)) / Double(1 + random.below(7)) * (random.chance(20) ? 1e22 : 1)
        case 2: return random.below(1000) - 500
        case 3: return random.chance(50)
        case 4: return random.pick([Severity.error, .warning, .note] as [Severity])
        case 5: return Leaf(text: text(&random), number: Double(random.below(100)) / 8, count: random.below(9), flag: random.chance(50),
                            maybe: random.chance(50) ? text(&random) : nil)
        case 6: return random.chance(50) ? Shape.plain : Shape.other
        case 7: return Empty()
        case 8:
            switch random.below(3) {
            case 0: return try SwiftPattern(random.pick(["Old($X)", "$V.tint($C)", "Badge(\"a\\\\b\")"]))
            case 1: return try NSRegularExpression(pattern: "^" + random.pick(["a\"b", "\\d+", "é\u{301}\\\\"]) + "$")
            default: return try ReplacementTemplate(random.pick(["New(label: {label})", "Plain \"a\\\\b\"", "{size}é\u{301}"]))
            }
        case 9:
            var table: [String: String] = [:]
            for _ in 0..<random.below(5) { table[text(&random)] = text(&random) }
            return table
        case 10:
            let list: [String]? = random.chance(30) ? nil : (0..<random.below(4)).map { _ in text(&random) }
            return list as Any
        case 11:
            let maybe: String? = random.chance(30) ? nil : text(&random)
            return maybe as Any
        case 12: return try (0..<random.below(4)).map { _ in try value(&random, depth: depth - 1) }
        case 13: return Set((0..<random.below(6)).map { _ in text(&random) })
        case 14:
            var table: [String: Any] = [:]
            for _ in 0..<random.below(5) { table[text(&random)] = try value(&random, depth: depth - 1) }
            return table
        case 15: return (text: text(&random), payload: try value(&random, depth: depth - 1), random.below(3))
        case 16: return random.chance(30) ? Optional<Any>.none as Any : Optional(try value(&random, depth: depth - 1)) as Any
        case 17:
            return Box(inner: (0..<random.below(3)).map { _ in
                random.chance(50) ? Shape.payload(Leaf(text: text(&random), number: 1.5, count: 2, flag: false, maybe: nil))
                    : Shape.pair(first: random.below(9), second: [text(&random)])
            }, name: random.chance(50) ? text(&random) : nil)
        default: return [try value(&random, depth: depth - 1), try value(&random, depth: depth - 1)] as [Any]
        }
    }
}
