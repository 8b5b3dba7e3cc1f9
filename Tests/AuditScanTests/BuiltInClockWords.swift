import AuditRules
import AuditSelect

extension ClockWords {
    /// The clock names of the built-in loading rules (`clocks:` in rules/loading-migration.yml).
    static let builtIn = FileSelector(RuleEngine(ruleSet: RuleSet.builtIn())).clockWords
}
