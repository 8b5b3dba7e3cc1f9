import AuditModel
@testable import AuditRules
import XCTest

/// The rules' keys are read off the rules by reflection (`ReflectedKey`), not listed by hand: the
/// result cache's key holds every property of every rule, and the gate's matching key every one but
/// the wording, the examples and the place in the file.
final class RuleKeyTests: XCTestCase {
    let team = """
        version: 1
        rules:
          - id: old-badge
            kind: pattern
            match: "OldBadge($N)"
            replace: "Badge($N)"
            fix: safe
            message: OldBadge is gone; use Badge.
            inside: {pattern: List, stop-by: end}
            values:
              N: {1: one, 2..<5: few, nearest: {10: many}}
            examples:
              match: ['List { ↓OldBadge(1) }']
        """

    func key(_ text: String) throws -> (cache: String, matching: String) {
        let ruleSet = try RuleSet.load(text: text, file: "team.yml")
        return (ruleSet.cacheKey, ruleSet.matchingKey(of: ruleSet.rules[0]))
    }

    /// Every stored property of a rule, and of its kind's settings (the payload of its matcher's case),
    /// is in the cache key, and all but the wording and places in the matching key, for each rule of
    /// the built-in files (every kind): a property added to `Rule` or to a kind's settings is in them.
    func testEveryPropertyOfEveryBuiltInRuleIsInTheKeys() throws {
        var kinds = Set<RuleKind>()
        for name in RuleSet.builtInNames {
            let ruleSet = try XCTUnwrap(RuleSet.builtIn(named: name))
            for rule in ruleSet.rules {
                kinds.insert(rule.kind)
                let settings = try XCTUnwrap(Mirror(reflecting: rule.matcher).children.first, "\(rule.id): its case has no settings")
                let settingsLabels = Mirror(reflecting: settings.value).children.compactMap(\.label)
                XCTAssertGreaterThan(settingsLabels.count, 5, rule.id)
                let labels = Mirror(reflecting: rule).children.compactMap(\.label) + settingsLabels
                XCTAssertGreaterThan(labels.count, 15, rule.id)
                let cache = ReflectedKey.of(rule), matching = ruleSet.matchingKey(of: rule)
                XCTAssertTrue(matching.contains("matcher:\(settings.label ?? "?")("), "\(rule.id): the matching key names the kind")
                for label in labels {
                    XCTAssertTrue(cache.contains(label + ":"), "\(rule.id): \(label) is not in the cache key")
                    XCTAssertEqual(matching.contains("," + label + ":") || matching.contains("(" + label + ":"),
                                   !RuleSet.wordingAndPlaces.contains(label), "\(rule.id): \(label) in the matching key")
                }
            }
        }
        XCTAssertEqual(kinds, Set(RuleKind.allCases), "the built-in files hold a rule of every kind")
    }

    func testWordingLeavesTheMatchingKeyAndEveryChangeOfMatchingMovesBoth() throws {
        let base = try key(team)
        for (old, new) in [("message: OldBadge is gone; use Badge.", "message: OldBadge is retired."),
                           ("fix: safe\n", "fix: safe\n    severity: error\n"),
                           ("['List { ↓OldBadge(1) }']", "['List { ↓OldBadge(2) }']")] {
            let changed = try key(team.replacingOccurrences(of: old, with: new))
            XCTAssertNotEqual(changed.cache, base.cache, new)
            XCTAssertEqual(changed.matching, base.matching, new)
        }
        for (old, new) in [("stop-by: end", "stop-by: closure"), ("2..<5: few", "2..<6: few"), ("{10: many}", "{10: lots}"),
                           ("\"Badge($N)\"", "\"NewBadge($N)\""), ("fix: safe", "fix: unsafe")] {
            let changed = try key(team.replacingOccurrences(of: old, with: new))
            XCTAssertNotEqual(changed.cache, base.cache, new)
            XCTAssertNotEqual(changed.matching, base.matching, new)
        }
    }

    /// A set's order changes from run to run (and with its history): the key sorts it.
    func testSetsAndDictionariesAreWrittenInOneOrder() {
        let names = (0..<200).map { "name\($0)" }
        var grown = Set<String>(minimumCapacity: 4096)
        for name in names.reversed() { grown.insert(name) }
        XCTAssertEqual(ReflectedKey.of(Set(names)), ReflectedKey.of(grown))
        let table = Dictionary(uniqueKeysWithValues: names.map { ($0, $0.count) })
        var other = [String: Int](minimumCapacity: 4096)
        for name in names.reversed() { other[name] = name.count }
        XCTAssertEqual(ReflectedKey.of(table), ReflectedKey.of(other))
        XCTAssertEqual(ReflectedKey.of(["b", "a"] as [String]), "[\"b\",\"a\"]", "a list keeps its order")
    }
}
