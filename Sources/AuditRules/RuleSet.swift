import AuditModel
import Foundation
import SwiftGrammar
import Yams

/// The rules of one or more rules files, validated and merged.
public struct RuleSet: Sendable {
    public private(set) var rules: [Rule]
    public private(set) var newComponents: Set<String>
    /// Kept components and why they stay.
    public private(set) var kept: [String: String]
    public private(set) var sizes: SpinnerSizes?
    /// Every rule id the loaded files define, including rules not selected to run and rules a file
    /// disables (`enabled: false`): for suppressions and baseline entries, which may name them.
    public private(set) var knownRuleIds: Set<String>
    /// The severity of `unused-suppression` findings; nil switches them off.
    public var unusedSuppressionSeverity: Severity? = .warning
    /// The names of each rules file merged, in order.
    public private(set) var names: [MigrationNames] = []

    /// The migration the rules are for, for titles: the files' titles, joined; nil when none has one.
    public var title: String? {
        var titles: [String] = []
        for title in names.compactMap(\.title) where !titles.contains(title) { titles.append(title) }
        return titles.isEmpty ? nil : titles.joined(separator: " and ")
    }

    /// What the findings are, when every file merged says the same ("deprecated loading indicators");
    /// else nil, and reports say "findings".
    public var findingsName: String? {
        guard let first = names.first?.findingsName, names.allSatisfy({ $0.findingsName == first }) else { return nil }
        return first
    }

    public init(
        rules: [Rule] = [], newComponents: Set<String> = [], kept: [String: String] = [:], sizes: SpinnerSizes? = nil, disabledRuleIds: Set<String> = [],
        names: MigrationNames? = nil
    ) {
        self.names = names.map { [$0] } ?? []
        knownRuleIds = Set(rules.map(\.id)).union(disabledRuleIds).union([UnusedSuppressionRule.id])
        self.rules = rules
        self.newComponents = newComponents
        self.kept = kept
        self.sizes = sizes
    }

    /// The built-in loading migration rules (the same text as rules/loading-migration.yml).
    public static func builtIn() -> RuleSet { loadedBuiltIn }

    /// The built-in rules files, by the name `--rules` takes: the loading migration (the default),
    /// SwiftUI's own deprecations, and the skeleton-first loading philosophy.
    public static let builtInNames = ["loading-migration", "swiftui-deprecations", "skeleton-first"]

    /// A built-in rules file by name (see `builtInNames`), nil for another name.
    public static func builtIn(named name: String) throws -> RuleSet? {
        switch name {
        case "loading-migration": return builtIn()
        case "swiftui-deprecations": return try RuleSetLoader.load(text: BuiltInRules.swiftuiDeprecations, file: "rules/swiftui-deprecations.yml")
        case "skeleton-first": return try RuleSetLoader.load(text: BuiltInRules.skeletonFirst, file: "rules/skeleton-first.yml")
        default: return nil
        }
    }

    /// Loaded once per process; the first to ask waits for the others.
    private static let loadedBuiltIn: RuleSet = {
        do {
            return try RuleSetLoader.load(text: BuiltInRules.loadingMigration, file: "rules/loading-migration.yml")
        } catch {
            preconditionFailure("the built-in rules do not load: \(error)")
        }
    }()

    /// Starts loading the built-in rules on another thread: a command that will need them can parse
    /// its arguments meanwhile (each takes a few milliseconds of every run's start).
    public static func prepareBuiltIn() {
        DispatchQueue.global(qos: .userInitiated).async { _ = loadedBuiltIn }
    }

    /// The rules of one rules file's text (`file` names it in errors); every mistake of the file is
    /// thrown together.
    public static func load(text: String, file: String) throws -> RuleSet {
        try RuleSetLoader.load(text: text, file: file)
    }

    /// The rules of a file's text that read well, and its mistakes: for reporting every mistake of
    /// several files at once (a rule id the next file defines again is still found).
    public static func read(text: String, file: String) -> (RuleSet, [RulesFileError]) {
        RuleSetLoader.read(text: text, file: file)
    }

    /// Loads and merges rules files in order. A rule id defined twice is an error. Every file is read:
    /// the mistakes of all of them are thrown together.
    public static func load(files: [String]) throws -> RuleSet {
        let (merged, errors) = read(files: files)
        if let error = RulesFileError.combining(errors) { throw error }
        return merged
    }

    /// `load(files:)`, giving the rules read well and every mistake.
    public static func read(files: [String]) -> (RuleSet, [RulesFileError]) {
        var merged = RuleSet()
        var errors: [RulesFileError] = []
        for file in files {
            let text: String
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: file))
                guard let decoded = String(data: data, encoding: .utf8) else {
                    errors.append(RulesFileError(file: file, line: nil, problem: "the rules file is not UTF-8 text"))
                    continue
                }
                text = decoded
            } catch {
                errors.append(RulesFileError(file: file, line: nil, problem: "cannot read the rules file (\(Self.reason(error)))"))
                continue
            }
            let (ruleSet, mistakes) = read(text: text, file: file)
            errors += mistakes
            errors += merged.adding(ruleSet, from: file)
        }
        return (merged, errors)
    }

    /// Adds another file's rules; a rule id defined twice is an error (see `adding`).
    public mutating func merge(_ other: RuleSet, from file: String) throws {
        if let error = RulesFileError.combining(adding(other, from: file)) { throw error }
    }

    /// Adds another file's rules, and returns the mistakes: each rule id defined twice, at the second
    /// definition (in its own file; `file` names the other set when its rules do not say where they
    /// come from). The other rules are merged all the same.
    public mutating func adding(_ other: RuleSet, from file: String) -> [RulesFileError] {
        var errors: [RulesFileError] = []
        for rule in other.rules {
            if let existing = rules.first(where: { $0.id == rule.id }) {
                errors.append(RulesFileError(file: rule.originFile ?? file,
                                             line: rule.idPlace?.line ?? Int(rule.origin.split(separator: ":").last ?? ""),
                                             column: rule.idPlace?.column,
                                             problem: "rule id '\(rule.id)' is already defined at \(existing.origin)"))
                continue
            }
            rules.append(rule)
        }
        knownRuleIds.formUnion(other.knownRuleIds)
        names += other.names
        newComponents.formUnion(other.newComponents)
        kept.merge(other.kept) { first, _ in first }
        if let sizes = other.sizes { self.sizes = sizes }
        return errors
    }

    /// Whether a rule id is one the loaded files define but that does not run here: disabled in its
    /// file, switched off by the configuration, or not selected (`--rule`). Its baseline entries cannot
    /// be checked.
    public func isNotRunning(_ id: String) -> Bool {
        guard knownRuleIds.contains(id) else { return false }
        if id == UnusedSuppressionRule.id { return unusedSuppressionSeverity == nil }
        return !rules.contains { $0.id == id }
    }

    /// Only the named rules, or every rule when `ids` is empty.
    public func selecting(_ ids: [String]) throws -> RuleSet {
        guard !ids.isEmpty else { return self }
        let known = Set(rules.map(\.id)).union([UnusedSuppressionRule.id])
        if let unknown = ids.first(where: { !known.contains($0) }) {
            throw RulesFileError(file: "--rule", line: nil, problem: "unknown rule id '\(unknown)' (known: \(rules.map(\.id).joined(separator: ", ")))")
        }
        var copy = self
        copy.rules = rules.filter { ids.contains($0.id) }
        if !ids.contains(UnusedSuppressionRule.id) { copy.unusedSuppressionSeverity = nil }
        return copy
    }

    /// Per-rule switches from a configuration: nil switches a rule off, a severity re-levels it.
    /// `unused-suppression` can be re-levelled and switched off the same way.
    public mutating func apply(severities: [String: Severity?]) {
        for (id, severity) in severities {
            if id == UnusedSuppressionRule.id {
                unusedSuppressionSeverity = severity
                continue
            }
            guard let index = rules.firstIndex(where: { $0.id == id }) else { continue }
            if let severity { rules[index] = rules[index].with(severity: severity) } else { rules.remove(at: index) }
        }
    }

    /// What a rule's findings do not depend on: its wording, its examples and where it is written.
    static let wordingAndPlaces: Set<String> = ["severity", "message", "help", "helpURI", "examples", "origin", "originFile", "idPlace"]

    /// What a rule matches and how it rewrites, as text: every property of the rule (found by
    /// reflection, `ReflectedKey`) but its severity, wording, examples and place in its file. Two
    /// versions of a rule with the same key find the same code (the gate compares them).
    public func matchingKey(of rule: Rule) -> String {
        ReflectedKey.of(rule, leavingOut: Self.wordingAndPlaces)
    }

    /// A text that changes whenever anything that affects a file's analysis changes: every property
    /// of every rule (by reflection: a new one cannot be left out), the protected names, the sizes,
    /// the known rule ids. Keys the result cache.
    public var cacheKey: String {
        var parts: [String] = []
        for rule in rules.sorted(by: { $0.id < $1.id }) {
            parts.append(ReflectedKey.of(rule))
        }
        parts.append(protectedNames.sorted().joined(separator: ","))
        if let sizes { parts.append(ReflectedKey.of(sizes)) }
        parts.append(knownRuleIds.sorted().joined(separator: ","))
        parts.append(unusedSuppressionSeverity?.rawValue ?? "off")
        return parts.joined(separator: "\u{1E}")
    }

    /// Names that are never reported, nor anything inside their declarations.
    public var protectedNames: Set<String> { newComponents.union(kept.keys) }

    /// The modules the rules' replacements come from (`replacement-module:`): their own files
    /// declare and use the new API, which is not a project adopting it.
    public var replacementModules: Set<String> {
        Set(rules.flatMap { rule -> [String] in
            switch rule.matcher {
            case .component(let component): component.replacementModules
            case .pattern(let pattern): pattern.replacementModules
            case .rotatingText, .labelStyle: []
            }
        })
    }

    static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
           let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileReadNoSuchFileError { return "no such file" }
        if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileReadNoPermissionError { return "permission denied" }
        return nsError.localizedDescription
    }
}
