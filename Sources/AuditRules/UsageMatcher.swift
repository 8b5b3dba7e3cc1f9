import AuditModel
import Foundation
import SwiftGrammar
import TreeSitter

/// Decides whether one identifier named like a rule's component is a use of it, and what that use
/// becomes: a call with a replacement, a type or member reference, or a declaration.
struct UsageMatcher {
    let rule: Rule
    /// The rule's settings (its `component` case).
    let component: ComponentRule
    let sizes: SpinnerSizes?
    let file: String
    let source: SourceText
    let facts: SwiftFileFacts

    /// How a matched name is used.
    private enum Usage {
        /// `Component(...)`, `Module.Component(...)`, `Component.init(...)`: `start` is where the use begins.
        case call(SwiftCall, start: Node)
        /// The name in a type, a member access or another expression: no automatic rewrite.
        case reference(Node, qualified: Bool)
        /// `struct Component`, `extension Component`: the deprecated component's own code.
        case declaration(Node)
    }

    /// `ancestors`: the identifier's ancestors, innermost first (from the engine's walk). Asking the
    /// tree for parents instead costs a descent from the root each time (tree-sitter 0.20.7).
    func match(_ identifier: Node, ancestors: [Node]) -> Candidate? {
        var matcher = self
        matcher.lineage = Lineage(identifier: identifier, ancestors: ancestors)
        return matcher.matchKnown(identifier)
    }

    /// The ancestors of the identifier being matched, to find parents without asking the tree.
    struct Lineage {
        let identifier: Node
        let ancestors: [Node]

        func parent(of node: Node) -> Node? {
            if node == identifier { return ancestors.first }
            guard let index = ancestors.firstIndex(of: node) else { return node.parent }
            return index + 1 < ancestors.count ? ancestors[index + 1] : nil
        }

        /// The ancestors of `node` (itself on the identifier's path), innermost first.
        func ancestors(of node: Node) -> [Node] {
            if node == identifier { return ancestors }
            guard let index = ancestors.firstIndex(of: node) else { return node.ancestors }
            return Array(ancestors[(index + 1)...])
        }
    }

    var lineage: Lineage?

    private func parent(of node: Node) -> Node? {
        lineage?.parent(of: node) ?? node.parent
    }

    private func modifier(appliedTo expression: Node) -> SwiftModifier? {
        guard let navigation = parent(of: expression), navigation.type == SwiftNodeType.navigationExpression,
              navigation.child(byField: SwiftField.target) == expression, let outer = parent(of: navigation) else { return nil }
        return SwiftExpressions.modifier(navigation: navigation, outer: outer)
    }

    private func matchKnown(_ identifier: Node) -> Candidate? {
        guard let usage = classify(identifier) else { return nil }
        // Where the use must sit or what it must hold: checked on the call, or the name as written.
        if !component.relations.isEmpty {
            let node: Node
            switch usage {
            case .declaration(let name): node = name
            case .reference(let reference, _): node = reference
            case .call(let call, _): node = call.node
            }
            let ancestors = lineage?.ancestors(of: node) ?? node.ancestors
            guard component.relations.allSatisfy({ $0.holds(at: node, ancestors: ancestors) }) else { return nil }
        }
        switch usage {
        case .declaration(let name):
            // A module's type declared by the app (`class ProgressView: UIView`) is not the deprecated thing.
            guard rule.module == nil else { return nil }
            return candidate(span: name.byteRange, fix: .manual, replacement: nil,
                             reasons: ["the declaration of \(component.name): delete it once nothing uses it"], qualified: true)
        case .reference(let node, let qualified):
            return candidate(span: node.byteRange, fix: .manual, replacement: nil,
                             reasons: rule.fix == .manual ? [] : ["a reference that is not a call: change it by hand"], qualified: qualified)
        case .call(let call, let start):
            return matchCall(call, start: start)
        }
    }

    // MARK: - What kind of use

    private func classify(_ identifier: Node) -> Usage? {
        guard let parent = parent(of: identifier) else { return nil }
        if identifier.type == SwiftNodeType.typeIdentifier {
            return classifyType(identifier, parent: parent)
        }
        switch parent.type {
        case SwiftNodeType.navigationSuffix:
            // `Qualifier.Component`: a use only when the qualifier is the component's module (or, for the
            // app's own components, any module-like name).
            guard let navigation = self.parent(of: parent), navigation.type == SwiftNodeType.navigationExpression,
                  let target = navigation.child(byField: SwiftField.target), target.type == SwiftNodeType.simpleIdentifier,
                  isAcceptedQualifier(target.text) else { return nil }
            return expressionUsage(navigation, qualified: true)
        case SwiftNodeType.callExpression:
            guard parent.namedChild(at: 0) == identifier else { return nil }
            return expressionUsage(identifier, qualified: false)
        case SwiftNodeType.navigationExpression:
            guard parent.child(byField: SwiftField.target) == identifier else { return nil }
            return expressionUsage(identifier, qualified: false)
        case SwiftNodeType.valueArgument:
            guard parent.child(byField: SwiftField.value) == identifier else { return nil }
            return .reference(identifier, qualified: false)
        default:
            return nil
        }
    }

    private func classifyType(_ identifier: Node, parent: Node) -> Usage? {
        switch parent.type {
        case SwiftNodeType.classDeclaration, SwiftNodeType.protocolDeclaration, SwiftNodeType.typealiasDeclaration:
            return SwiftDeclarations.declaredName(of: parent) == identifier ? .declaration(identifier) : nil
        case SwiftNodeType.userType:
            let names = parent.namedChildren.filter { $0.type == SwiftNodeType.typeIdentifier }
            // `extension Kit.LoadingOverlay` of an app's own component: Kit's, judged as `Kit.LoadingOverlay` is.
            if let owner = self.parent(of: parent), SwiftDeclarations.typeDeclarationKinds.contains(owner.type),
               SwiftDeclarations.declaredName(of: owner) == identifier, rule.module != nil || names.count == 1 {
                return .declaration(identifier)
            }
            guard let index = names.firstIndex(of: identifier) else { return nil }
            if index == 0 { return .reference(identifier, qualified: false) }
            guard index == 1, isAcceptedQualifier(names[0].text) else { return nil }
            return .reference(parent, qualified: true)
        default:
            return nil
        }
    }

    private func isAcceptedQualifier(_ qualifier: String) -> Bool {
        if let module = rule.module { return qualifier == module }
        return qualifier.first?.isUppercase == true
    }

    /// A name used in an expression: a call of it (`X(...)`, `X.init(...)`), or some other reference.
    private func expressionUsage(_ use: Node, qualified: Bool) -> Usage {
        if let parent = parent(of: use), parent.type == SwiftNodeType.callExpression, parent.namedChild(at: 0) == use, let call = SwiftCall(parent) {
            return .call(call, start: use)
        }
        if let modifier = modifier(appliedTo: use), modifier.name == "init" {
            return .call(modifier.call, start: use)
        }
        return .reference(use, qualified: qualified)
    }

    // MARK: - Calls

    /// The first of `places` where `call` stands (all its relations hold), by index.
    private func firstPlace(of call: SwiftCall, among places: [SizeByContext]) -> Int? {
        guard !places.isEmpty else { return nil }
        let ancestors = lineage?.ancestors(of: call.node) ?? call.node.ancestors
        return places.firstIndex { place in place.relations.allSatisfy { $0.holds(at: call.node, ancestors: ancestors) } }
    }

    private func matchCall(_ call: SwiftCall, start: Node) -> Candidate? {
        var fix = rule.fix
        var reasons: [String] = []
        func lower(to level: FixClass, _ reason: String) {
            fix = max(fix, level)
            if !reasons.contains(reason) { reasons.append(reason) }
        }

        let chain = absorbedChain(of: call)
        let style = component.style.flatMap { effectiveStyle(around: call.node, check: $0) }
        let customStyle = style.flatMap { $0.isSpinner ? nil : $0.text }

        if isDeterminate(call) {
            // Real progress is not a spinner, unless a style made to spin draws it: a custom indicator.
            guard let customStyle, let check = component.style, check.isSpinning(style?.name ?? customStyle) else { return nil }
            return candidate(span: start.startByte..<call.node.endByte, fix: .manual, replacement: nil,
                             reasons: ["determinate progress drawn by the custom style \(customStyle): a custom indicator to redesign by hand"],
                             qualified: start.type != SwiftNodeType.simpleIdentifier)
        }
        if let customStyle {
            return candidate(span: start.startByte..<call.node.endByte, fix: .manual, replacement: nil,
                             reasons: ["styled with \(customStyle), so it is not a plain spinner: migrate by hand"],
                             qualified: start.type != SwiftNodeType.simpleIdentifier)
        }

        var consumed = Set<Int>()
        var sizeContext: Int?
        var values: [ReplacementTemplate.Placeholder: String] = [:]
        var closuresConsumed = false

        if let labelSource = component.label {
            let label = readLabel(call, source: labelSource, consumed: &consumed, closuresConsumed: &closuresConsumed, lower: lower)
            values[.label] = label ?? labelSource.defaultLabel
        }
        if let sizeSource = component.size, let sizes {
            var size = sizeSource.defaultSize
            let sizeArgument = call.arguments.firstIndex { argument in argument.label.map(sizeSource.arguments.contains) ?? false }
            if let index = sizeArgument {
                consumed.insert(index)
                if let points = SwiftExpressions.numericValue(of: call.arguments[index].value), let nearest = sizes.nearest(to: points) {
                    size = nearest
                } else {
                    lower(to: .unsafe, "the size \(call.arguments[index].value.text) is not a number: .\(size) assumed")
                }
            }
            var decided = sizeArgument != nil
            if let fromModifiers = chain.size {
                size = fromModifiers
                decided = true
            }
            // Nothing in the call says: the place may (a spinner in a button's label is small).
            if !decided, let index = firstPlace(of: call, among: sizeSource.context) {
                let place = sizeSource.context[index]
                size = place.size
                sizeContext = index
                lower(to: .safe, ".\(place.size): \(place.why.isEmpty ? "decided by where it is" : place.why)")
            }
            values[.size] = size
        }
        // What a replacement would lose; a rule with none rewrites nothing, so loses nothing.
        for (index, argument) in call.arguments.enumerated() where !consumed.contains(index) && component.replacement != nil {
            if let label = argument.label, component.droppableArguments.contains(label) { continue }
            lower(to: .unsafe, "drops the argument \(argument.label.map { "\($0): " } ?? "")\(argument.value.text)")
        }
        if !closuresConsumed, !call.trailingClosures.isEmpty, component.replacement != nil {
            lower(to: .unsafe, "drops the trailing closure")
        }

        var replacement: String?
        if fix != .manual, let template = component.replacement {
            replacement = template.render(values)
            if replacement == nil { lower(to: .manual, "no value for the replacement's placeholders") }
        }
        let edits = replacement.map { text in
            [TextEdit(range: start.startByte..<chain.callEnd, text: text)]
                + LineRemoval.wholeLinesIfAlone(chain.removals, in: source.bytes).map { TextEdit(range: $0, text: "") }
        }
        var found = candidate(span: start.startByte..<chain.end, fix: fix, replacement: replacement, reasons: reasons,
                              qualified: start.type != SwiftNodeType.simpleIdentifier, edits: edits)
        found.sizeContext = sizeContext
        return found
    }

    private func isDeterminate(_ call: SwiftCall) -> Bool {
        guard let determinate = component.determinate else { return false }
        if call.arguments.contains(where: { $0.label.map(determinate.arguments.contains) ?? false }) { return true }
        guard let like = determinate.progressLike, call.arguments.count == 1, call.trailingClosures.isEmpty,
              call.arguments[0].label == nil else { return false }
        return Self.readsLike(like, call.arguments[0].value)
    }

    /// `task.progress`, `uploadProgress`, `Progress(totalUnitCount: 5)`: a `Progress` object, not a
    /// label, by the rule's `progress-like-argument`.
    static func readsLike(_ like: ProgressLike, _ value: Node) -> Bool {
        if SwiftScopes.isCall(value) { return SwiftCall(value)?.calleeName.map(like.calls.contains) ?? false }
        guard let name = SwiftExpressions.lastName(of: value) else { return false }
        let lower = name.lowercased()
        return like.namesContaining.contains(where: lower.contains) && !like.exceptEndings.contains(where: lower.hasSuffix)
    }

    // MARK: - Labels

    private func readLabel(
        _ call: SwiftCall, source: LabelSource, consumed: inout Set<Int>, closuresConsumed: inout Bool,
        lower: (FixClass, String) -> Void
    ) -> String? {
        for name in source.arguments {
            let index = name == "_"
                ? call.arguments.firstIndex(where: { $0.label == nil })
                : call.arguments.firstIndex(where: { $0.label == name })
            guard let index else { continue }
            consumed.insert(index)
            let value = call.arguments[index].value
            if value.type == SwiftNodeType.lambdaLiteral {
                return labelFromClosure(value, lower: lower)
            }
            return labelFromExpression(value, unlabelled: name == "_", lower: lower)
        }
        if !source.closureViews.isEmpty, call.trailingClosures.count == 1 {
            closuresConsumed = true
            return labelFromClosure(call.trailingClosures[0], lower: lower)
        }
        return nil
    }

    private func labelFromExpression(_ value: Node, unlabelled: Bool, lower: (FixClass, String) -> Void) -> String {
        if SwiftExpressions.isPlainStringLiteral(value) { return value.text }
        if SwiftExpressions.isStringLiteral(value) {
            lower(.unsafe, "the label \(value.text) is not one plain string literal")
        } else if unlabelled, component.determinate?.progressLike != nil, !Self.readsLikeText(value, component.label) {
            lower(.unsafe, "cannot tell whether \(value.text) is a label or a Progress: check it is text")
        } else {
            lower(.unsafe, "the label \(value.text) is not one plain string literal")
        }
        return value.text
    }

    /// `NSLocalizedString(...)`, `String(localized:)`, `L10n.loading`: text, by the label's
    /// `text-calls` and `text-prefixes`.
    static func readsLikeText(_ value: Node, _ source: LabelSource?) -> Bool {
        guard let source else { return false }
        if let call = SwiftCall(value), let callee = call.calleeName {
            return source.textCalls.contains { $0.name == callee && ($0.argument.map { call.argument(labelled: $0) != nil } ?? true) }
        }
        let text = value.text
        return source.textPrefixes.contains(where: text.hasPrefix)
    }

    private func labelFromClosure(_ closure: Node, lower: (FixClass, String) -> Void) -> String? {
        let views = component.label?.closureViews ?? []
        guard let expression = SwiftExpressions.singleExpression(of: closure), let text = SwiftCall(expression),
              let name = text.calleeName, views.contains(name), text.arguments.count == 1, text.arguments[0].label == nil, text.trailingClosures.isEmpty else {
            lower(.unsafe, "the label view is not one \(views.sorted().joined(separator: " or ")): it is dropped")
            return nil
        }
        let value = text.arguments[0].value
        if SwiftExpressions.isPlainStringLiteral(value) { return value.text }
        lower(.unsafe, "the label \(value.text) is not one plain string literal")
        return value.text
    }

    // MARK: - Modifiers

    private struct Chain {
        /// Where the call ends: the replacement takes the bytes from the start of the use to here.
        var callEnd: Int
        var end: Int
        var size: String?
        /// The absorbed modifiers, each from its `.` to its closing parenthesis.
        var removals: [Range<Int>] = []
    }

    /// The size and style modifiers directly after the call that its replacement takes over. Stops at
    /// the first other modifier or `#if`: what follows stays as it is. Comments between absorbed
    /// modifiers do not stop it (a fix keeps them in place).
    private func absorbedChain(of call: SwiftCall) -> Chain {
        var chain = Chain(callEnd: call.node.endByte, end: call.node.endByte, size: nil)
        var current = call.node
        let roles = component.size?.modifierRoles ?? [:]
        while let modifier = modifier(appliedTo: current), component.absorbModifiers.contains(modifier.name) {
            let arguments = modifier.call.arguments
            if let role = roles[modifier.name] {
                switch role {
                case .scale:
                    // One uniform factor, then labelled arguments only (an anchor): `.scaleEffect(0.6)`,
                    // `.scaleEffect(0.5, anchor: .center)`; the size nearest to the scaled diameter.
                    guard let first = arguments.first, first.label == nil, arguments.dropFirst().allSatisfy({ $0.label != nil }),
                          modifier.call.trailingClosures.isEmpty, let scale = SwiftExpressions.numericValue(of: first.value),
                          let points = component.size?.scalePoints, let size = sizes?.nearest(to: scale * points) else { return chain }
                    chain.size = size
                case .controlSize:
                    guard arguments.count == 1, arguments[0].label == nil, SwiftExpressions.isImplicitMember(arguments[0].value),
                          let name = SwiftExpressions.valueName(of: arguments[0].value), let size = sizes?.controlSize[name] else { return chain }
                    chain.size = size
                }
            } else if modifier.name == component.style?.modifier {
                guard let style = component.style, arguments.count == 1,
                      let name = SwiftExpressions.valueName(of: arguments[0].value), style.spinnerStyles.contains(name) else { return chain }
            }
            chain.end = modifier.call.node.endByte
            if let dot = modifier.navigation.namedChildren.last(where: { $0.type == SwiftNodeType.navigationSuffix }) {
                chain.removals.append(dot.startByte..<modifier.call.node.endByte)
            }
            current = modifier.call.node
        }
        return chain
    }

    private struct AppliedStyle {
        let text: String
        let name: String
        let isSpinner: Bool
    }

    /// The innermost style modifier that applies to the call: on the call itself, or on a container
    /// around it (SwiftUI passes styles down the view tree).
    private func effectiveStyle(around node: Node, check: StyleCheck) -> AppliedStyle? {
        let chain = lineage?.ancestors(of: node) ?? node.ancestors
        var child = node
        for (index, ancestor) in chain.enumerated() {
            // A style set where the view is used elsewhere cannot be seen from here: stop at the declaration.
            if Self.styleBoundaries.contains(ancestor.type) { return nil }
            if ancestor.type == SwiftNodeType.navigationExpression, ancestor.child(byField: SwiftField.target) == child, index + 1 < chain.count,
               let modifier = SwiftExpressions.modifier(navigation: ancestor, outer: chain[index + 1]), modifier.name == check.modifier {
                guard let argument = modifier.call.arguments.first?.value else { return nil }
                let name = SwiftExpressions.valueName(of: argument) ?? argument.text
                return AppliedStyle(text: argument.text, name: name, isSpinner: check.spinnerStyles.contains(name))
            }
            child = ancestor
        }
        return nil
    }

    private static let styleBoundaries: Set<String> = [
        SwiftNodeType.functionDeclaration, SwiftNodeType.classDeclaration, SwiftNodeType.protocolDeclaration, SwiftNodeType.propertyDeclaration, SwiftNodeType.sourceFile,
    ]

    // MARK: - Building the candidate

    private func candidate(
        span: Range<Int>, fix: FixClass, replacement: String?, reasons: [String], qualified: Bool, edits: [TextEdit]? = nil
    ) -> Candidate {
        let start = source.position(ofByte: span.lowerBound)
        let end = source.position(ofByte: span.upperBound)
        let finding = Finding(
            ruleId: rule.id,
            severity: rule.severity,
            file: file,
            start: SourcePoint(line: start.line, column: start.column, byteOffset: span.lowerBound),
            end: SourcePoint(line: end.line, column: end.column, byteOffset: span.upperBound),
            symbol: component.name,
            message: Candidate.message(rule.message, reasons: reasons),
            replacement: fix == .manual ? nil : replacement,
            fix: fix,
            edits: fix == .manual ? [] : edits
        )
        let check = rule.module.flatMap { module -> Candidate.ModuleCheck? in
            qualified ? nil : Candidate.ModuleCheck(module: module, fileImports: facts.imports)
        }
        var candidate = Candidate(finding: finding, moduleCheck: check, ruleMessage: rule.message, reasons: reasons)
        candidate.ruleModule = rule.module
        if rule.module == nil {
            // Whose the name is, by Swift's lookup (RuleEngine+Lookup): `MapTiles.LoadingOverlay` is MapTiles'.
            candidate.looksUpHome = true
            if qualified, let dot = source.bytes[span].firstIndex(of: UInt8(ascii: ".")) {
                let written = String(decoding: source.bytes[span.lowerBound..<dot], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                if !written.isEmpty, written.unicodeScalars.allSatisfy({ $0 == "_" || CharacterSet.alphanumerics.contains($0) }) { candidate.qualifier = written }
            }
        }
        candidate.replacementModules = component.replacementModules
        return candidate
    }
}
