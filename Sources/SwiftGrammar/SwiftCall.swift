import TreeSitter

/// One argument of a call: `label: value`, or an unlabelled `value`.
public struct CallArgument {
    public let label: String?
    public let value: Node
    /// The whole `label: value` node.
    public let node: Node
}

/// A call expression of the Swift grammar, taken apart: `callee(arguments) { trailing closures }`.
public struct SwiftCall {
    public let node: Node
    public let callee: Node
    public let arguments: [CallArgument]
    public let trailingClosures: [Node]

    /// nil when `node` is not a `call_expression`.
    public init?(_ node: Node) {
        guard SwiftKinds.callExpression.contains(node), let callee = node.namedChild(at: 0),
              let suffix = SwiftKinds.callSuffix.firstNamedChild(of: node) else { return nil }
        self.node = node
        self.callee = callee
        var arguments: [CallArgument] = []
        var closures: [Node] = []
        for part in suffix.namedChildren {
            switch part.type {
            case SwiftNodeType.valueArguments:
                for argument in part.namedChildren where argument.type == SwiftNodeType.valueArgument {
                    let label = argument.child(byField: SwiftField.name).map { Self.trimmed($0.text) }
                    guard let value = argument.child(byField: SwiftField.value) ?? argument.namedChildren.last else { continue }
                    arguments.append(CallArgument(label: label, value: value, node: argument))
                }
            case SwiftNodeType.lambdaLiteral:
                closures.append(part)
            default:
                break
            }
        }
        self.arguments = arguments
        trailingClosures = closures
    }

    public func argument(labelled label: String) -> CallArgument? {
        arguments.first { $0.label == label }
    }

    /// The called name: `Text` for `Text(...)` and for `SwiftUI.Text(...)`.
    public var calleeName: String? { SwiftExpressions.lastName(of: callee) }

    /// The called name of a `call_expression` without taking its arguments apart: for the walks that
    /// look at every call and keep few (`SwiftCall(node)` succeeds too, when it has arguments).
    public static func calleeName(of node: Node) -> String? {
        guard SwiftKinds.callExpression.contains(node), let callee = node.namedChild(at: 0) else { return nil }
        return SwiftExpressions.lastName(of: callee)
    }

    /// Most labels have no blanks around them: Foundation's trimming is only asked when one has.
    static func trimmed(_ text: String) -> String {
        text.first?.isWhitespace == true || text.last?.isWhitespace == true ? text.trimmingCharacters(in: .whitespaces) : text
    }
}

/// A modifier applied to an expression: `base.name(arguments)`, possibly on the next line.
public struct SwiftModifier {
    public let name: String
    public let call: SwiftCall
    /// The navigation node `base.name`, whose target is the modified expression.
    public let navigation: Node
}

/// What expressions are: the modifier applied to one, the last name of a callee, a single expression.
public enum SwiftExpressions {
    /// The modifier applied directly to `expression`, if `expression` is the receiver of `.name(...)`.
    public static func modifier(appliedTo expression: Node) -> SwiftModifier? {
        guard let navigation = expression.parent, navigation.type == SwiftNodeType.navigationExpression,
              navigation.child(byField: SwiftField.target) == expression, let outer = navigation.parent else { return nil }
        return modifier(navigation: navigation, outer: outer)
    }

    /// The modifier whose navigation node (`base.name`) and enclosing call are already known.
    public static func modifier(navigation: Node, outer: Node) -> SwiftModifier? {
        guard navigation.type == SwiftNodeType.navigationExpression, outer.type == SwiftNodeType.callExpression, outer.namedChild(at: 0) == navigation,
              let call = SwiftCall(outer),
              let suffix = navigation.namedChildren.last(where: { $0.type == SwiftNodeType.navigationSuffix }),
              let name = suffix.child(byField: SwiftField.suffix), name.type == SwiftNodeType.simpleIdentifier else { return nil }
        return SwiftModifier(name: name.text, call: call, navigation: navigation)
    }

    /// The name written before `name` (a `simple_identifier` or `type_identifier`; `ancestors` are its
    /// ancestors outermost first, as the engine's walk has them): `Module` of `Module.Name` in an
    /// expression or a type; nil when nothing qualifies it.
    public static func qualifier(of name: Node, ancestors: [Node]) -> String? {
        guard let parent = ancestors.last else { return nil }
        switch parent.type {
        case SwiftNodeType.navigationSuffix:
            guard ancestors.count >= 2 else { return nil }
            let navigation = ancestors[ancestors.count - 2]
            guard navigation.type == SwiftNodeType.navigationExpression, let target = navigation.child(byField: SwiftField.target),
                  target.type == SwiftNodeType.simpleIdentifier || target.type == SwiftNodeType.typeIdentifier else { return nil }
            return target.text
        case SwiftNodeType.userType:
            let names = parent.namedChildren.filter { $0.type == SwiftNodeType.typeIdentifier }
            guard let index = names.firstIndex(of: name), index > 0 else { return nil }
            return names[index - 1].text
        default:
            return nil
        }
    }

    /// The last simple name of a reference: `c` for `a.b.c`, `Text` for `Text`, nil for other shapes.
    public static func lastName(of node: Node) -> String? {
        // Kinds by number (`SwiftKinds`): every call the walks meet asks its callee's name.
        if SwiftKinds.simpleIdentifier.contains(node) || SwiftKinds.typeIdentifier.contains(node) {
            return node.text
        } else if SwiftKinds.navigationExpression.contains(node) {
            guard let suffix = node.child(byField: SwiftField.suffix) else { return nil }
            return suffix.child(byField: SwiftField.suffix).flatMap(lastName(of:))
        } else if SwiftKinds.userType.contains(node) {
            return SwiftKinds.typeIdentifier.lastNamedChild(of: node)?.text
        }
        return nil
    }

    /// The name of an implicit member (`.circular`), a call's callee (`CircularProgressViewStyle()`),
    /// or a reference (`style`, `Styles.ring`): what a style or size argument is called.
    public static func valueName(of node: Node) -> String? {
        switch node.type {
        case SwiftNodeType.prefixExpression:
            guard node.child(byField: SwiftField.operation)?.text == ".", let target = node.child(byField: SwiftField.target) else { return nil }
            return target.text
        case SwiftNodeType.callExpression:
            return SwiftCall(node)?.calleeName
        default:
            return lastName(of: node)
        }
    }

    /// `.small`: a member written without its type.
    /// A comment, `//` or `/* */`: code for no one.
    public static func isComment(_ node: Node) -> Bool {
        node.type == SwiftNodeType.comment || node.type == SwiftNodeType.multilineComment
    }

    public static func isImplicitMember(_ node: Node) -> Bool {
        node.type == SwiftNodeType.prefixExpression && node.child(byField: SwiftField.operation)?.text == "."
    }

    public static let stringLiteralTypes: Set<String> = [SwiftNodeType.lineStringLiteral, SwiftNodeType.multiLineStringLiteral, SwiftNodeType.rawStringLiteral]

    public static func isStringLiteral(_ node: Node) -> Bool {
        stringLiteralTypes.contains(node.type)
    }

    /// A one-line string literal with no interpolation: its text can move anywhere unchanged.
    public static func isPlainStringLiteral(_ node: Node) -> Bool {
        guard node.type == SwiftNodeType.lineStringLiteral else { return false }
        return !node.namedChildren.contains { $0.type == SwiftNodeType.interpolatedExpression }
    }

    /// The value of an integer or real literal, with an optional leading minus.
    public static func numericValue(of node: Node) -> Double? {
        switch node.type {
        case SwiftNodeType.integerLiteral, SwiftNodeType.realLiteral:
            return Double(node.text.replacingOccurrences(of: "_", with: ""))
        case SwiftNodeType.prefixExpression:
            guard node.child(byField: SwiftField.operation)?.text == "-", let target = node.child(byField: SwiftField.target),
                  let value = numericValue(of: target) else { return nil }
            return -value
        default:
            return nil
        }
    }

    /// The single expression a closure body consists of, if it has exactly one statement.
    public static func singleExpression(of lambda: Node) -> Node? {
        guard let statements = lambda.namedChildren.first(where: { $0.type == SwiftNodeType.statements }) else { return nil }
        let parts = statements.namedChildren.filter { !isComment($0) }
        return parts.count == 1 ? parts[0] : nil
    }
}

import Foundation
