import AuditRotation
import SwiftGrammar

/// What the rules (and the engine's own features) need a file to show before it is worth parsing:
/// declared here, as names, for the select step (AuditSelect) to turn into its filters. Nothing here
/// says how files are selected; the engine matches whatever it is given.
public struct SelectionNeeds: Sendable {
    /// Names whose use in code makes a file relevant: the components and the label components.
    public var codeNames: Set<String>
    /// Words that make a file relevant wherever they are, comments and strings included: the
    /// suppression marker lives in comments (`loadaudit:`), re-exports (`@_exported`) change what
    /// every file imports.
    public var anywhereWords: Set<String>
    /// Words of `anywhereWords` that count in comments too (not only in code).
    public var commentWords: Set<String>
    /// Names (of `codeNames`) a call of which is determinate progress, never a finding, with the
    /// argument labels that make it so (`ProgressView`: `value`, `timerInterval`).
    public var determinateLabels: [String: Set<String>]
    /// The style modifiers of the rules acting on those names (`progressViewStyle`), each with whether
    /// a style of a given name spins determinate progress (`ThemedSpinnerStyle`: yes; `.linear`: no).
    public var determinateStyles: [String: @Sendable (String) -> Bool]
    /// The rotating-text rules' names: display calls (`Text`), clocks, random picks; nil when no
    /// rotating-text rule runs (then no file is followed across files).
    public var rotation: RotationVocabulary?

    /// Every word a file must show (`codeNames` and `anywhereWords`), sorted.
    public var triggerWords: [String] { codeNames.union(anywhereWords).sorted() }
}

extension RuleSet {
    /// What these rules need (see `SelectionNeeds`), with the engine's suppression and re-export words.
    public var selectionNeeds: SelectionNeeds {
        var componentRules: [String: [ComponentRule]] = [:]
        var labelRules: [LabelStyle] = []
        var vocabularies: [RotationVocabulary] = []
        // A pattern rule's match holds all its names: a file must use one of them (the first) in code.
        var patternNames = Set<String>()
        for rule in rules {
            switch rule.matcher {
            case .component(let component): componentRules[component.name, default: []].append(component)
            case .labelStyle(let style): labelRules.append(style)
            case .rotatingText(let vocabulary): vocabularies.append(vocabulary)
            case .pattern(let pattern): if let name = pattern.pattern.names.first { patternNames.insert(name) }
            }
        }
        let labelComponents = labelRules.reduce(into: Set<String>()) { $0.formUnion($1.components) }
        let codeNames = Set(componentRules.keys).union(labelComponents).union(patternNames)
        var styles: [String: [StyleCheck]] = [:]
        var accepted: [String: Set<String>] = [:]
        // (A name a pattern rule looks for is never only determinate progress: the pattern decides.)
        for name in codeNames.subtracting(patternNames) where SwiftWords.isAllNameBytes(name.utf8) {
            let components = componentRules[name] ?? [], labelStyles = labelRules.filter { $0.components.contains(name) }
            let forms = components.compactMap(\.determinate) + labelStyles.compactMap(\.determinate)
            // Every rule acting on the name must have a determinate form, and a label all accept.
            guard !forms.isEmpty, forms.count == components.count + labelStyles.count else { continue }
            let labels = forms.dropFirst().reduce(forms[0].arguments) { $0.intersection($1.arguments) }
            guard !labels.isEmpty else { continue }
            accepted[name] = labels
            for component in components { if let style = component.style { styles[style.modifier, default: []].append(style) } }
        }
        // As `UsageMatcher` decides: a style spins determinate progress when it is no spinner style of
        // the rule's list and its name matches the rule's spinning-style names.
        let spinning = styles.mapValues { checks in
            { @Sendable (name: String) in checks.contains { !$0.spinnerStyles.contains(name) && $0.isSpinning(name) } }
        }
        return SelectionNeeds(
            codeNames: codeNames, anywhereWords: ["loadaudit:", "@_exported"], commentWords: ["loadaudit:"],
            determinateLabels: accepted, determinateStyles: accepted.isEmpty ? [:] : spinning,
            rotation: vocabularies.isEmpty ? nil : vocabularies.reduce(RotationVocabulary()) { $0.merged(with: $1) }
        )
    }
}
