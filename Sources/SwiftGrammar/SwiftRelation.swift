import TreeSitter

/// A condition on where a node sits or what it holds, as ast-grep's relational rules put it
/// (`inside`, `has`, `not`, `stopBy`): `inside: Button` holds for a spinner in a button's label,
/// `not-inside: List` for one that is not in a list, `has: Text` for a stack holding a text.
///
/// The related node is found by patterns (any of them): a `SwiftPattern`, matched as rules match, or a
/// lone name (`Button`, `toolbar`), which stands for a call of that name (`Button { } label: { }`,
/// `Button("Save", action: save)`, `List { }.toolbar { }`). A node is inside such a call when it is in
/// the call's arguments or closures, never in the code the call is chained on: the rows of
/// `List { ... }.toolbar { ... }` are not inside `toolbar`. A pattern's match contains the node however
/// the node sits in it (`$V.scaleEffect($K)` contains its receiver).
///
/// How far the search goes (`reach`): up to the nearest closure around the node and the call that
/// closure belongs to (`closure`, the default: the view builder a SwiftUI view sits in, so a spinner in
/// `List { Button { ... } label: { ProgressView() } }` is inside the Button, not inside the List), or
/// to the file's end (`end`: any ancestor, any descendant). A declaration (`var body: some View`, a
/// function) bounds a `closure` search too. Downwards (`has`), `closure` looks into the node's own
/// closures and nowhere deeper.
///
/// A relation may hold more relations, on the node it relates to: `inside: {pattern: HStack, has: Text}`
/// is "inside an HStack that holds a Text"; and it may have several branches, any of which will do
/// (`inside: [List, {pattern: Section, inside: List}]`). Metavariables of a relation's patterns are its own: they
/// are not shared with the rule's match or with other relations.
public struct SwiftRelation: Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable {
        case inside
        case notInside = "not-inside"
        case has
        case notHas = "not-has"

        var isNegated: Bool { self == .notInside || self == .notHas }
        var looksUp: Bool { self == .inside || self == .notInside }
    }

    public enum Reach: String, Sendable, CaseIterable {
        /// The nearest closure (and its call), or the declaration around the node.
        case closure
        /// Every ancestor, or every descendant.
        case end
    }

    /// What a relation looks for: a pattern, a lone name standing for a call of it, or a node kind of
    /// the grammar (`if_statement`, as `loadaudit syntax` prints them).
    public struct Target: Sendable, CustomStringConvertible {
        public let pattern: SwiftPattern?
        /// The called name, for a lone name.
        public let callName: String?
        /// A node kind of the grammar.
        public let nodeKind: String?

        public init(_ pattern: SwiftPattern) {
            self.pattern = pattern
            callName = pattern.isLoneName ? pattern.names.first : nil
            nodeKind = nil
        }

        public init(kind: String) {
            pattern = nil
            callName = nil
            nodeKind = kind
        }

        public var description: String { pattern?.text ?? nodeKind ?? "" }
    }

    /// One way the relation can hold: any of its targets, found within its reach, for which all its
    /// nested relations hold.
    public struct Branch: Sendable, CustomStringConvertible {
        public let targets: [Target]
        public let reach: Reach
        /// Conditions on the related node, all of which must hold.
        public let nested: [SwiftRelation]

        public init(targets: [Target], reach: Reach = .closure, nested: [SwiftRelation] = []) {
            self.targets = targets
            self.reach = reach
            self.nested = nested
        }

        public var description: String { description(looksUp: true) }

        func description(looksUp: Bool) -> String {
            let names = targets.map(\.description)
            let list = names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
            let how = reach == .closure ? "" : looksUp ? " (any ancestor)" : " (at any depth)"
            let more = nested.isEmpty ? "" : " that " + nested.map(\.nestedDescription).joined(separator: " and ")
            return list + how + more
        }
    }

    public let kind: Kind
    /// Any of these.
    public let branches: [Branch]

    public init(kind: Kind, branches: [Branch]) {
        self.kind = kind
        self.branches = branches
    }

    /// One branch: any of `targets`.
    public init(kind: Kind, targets: [SwiftPattern], reach: Reach = .closure, nested: [SwiftRelation] = []) {
        self.init(kind: kind, branches: [Branch(targets: targets.map(Target.init), reach: reach, nested: nested)])
    }

    /// How many conditions this is, its nested ones included (the branch with the most): how specific
    /// a rule is.
    public var conditionCount: Int { 1 + (branches.map { $0.nested.reduce(0) { $0 + $1.conditionCount } }.max() ?? 0) }

    /// For people: `inside Button or ToolbarItem (any ancestor)`, `inside List, or Section that is
    /// inside List`.
    public var description: String {
        kind.rawValue.replacingOccurrences(of: "-", with: " ") + " " + branches.map { $0.description(looksUp: kind.looksUp) }.joined(separator: ", or ")
    }

    var nestedDescription: String {
        // Several branches of a nested relation are one condition: in parentheses.
        let text = branches.count < 2 ? description
            : kind.rawValue.replacingOccurrences(of: "-", with: " ") + " (" + branches.map { $0.description(looksUp: kind.looksUp) }.joined(separator: ", or ") + ")"
        switch kind {
        case .inside, .notInside: return "is " + text
        case .has: return text
        case .notHas: return "does not have" + text.dropFirst("not has".count)
        }
    }

    /// Whether the relation holds for `node`, whose ancestors are given innermost first (the engine's
    /// walk knows them; asking the tree costs a descent from the root each time).
    public func holds(at node: Node, ancestors: [Node]) -> Bool {
        let found = branches.contains { branch in
            kind.looksUp ? branch.findAncestor(of: node, ancestors: ancestors) : branch.findDescendant(of: node, ancestors: ancestors)
        }
        return found != kind.isNegated
    }
}

extension SwiftRelation.Branch {
    /// `ancestors` (the candidate's, innermost first) is made only when a nested relation asks.
    private func related(_ candidate: Node, ancestors: @autoclosure () -> [Node], cameFrom child: Node?) -> Bool {
        // The candidate's kind and callee, found once for all the targets (`[Button, Menu]` asks twice).
        var seen = SwiftRelation.Seen(candidate)
        var found = false
        for index in targets.indices where targets[index].matches(candidate, cameFrom: child, seen: &seen) {
            found = true
            break
        }
        guard found else { return false }
        guard !nested.isEmpty else { return true }
        let above = ancestors()
        return nested.allSatisfy { $0.holds(at: candidate, ancestors: above) }
    }

    func findAncestor(of node: Node, ancestors: [Node]) -> Bool {
        var child = node
        var closureOwnerNext = false
        for (index, ancestor) in ancestors.enumerated() {
            if related(ancestor, ancestors: Array(ancestors[(index + 1)...]), cameFrom: child) { return true }
            if reach == .closure {
                if SwiftScopes.isDeclaration(ancestor) { return false }
                if closureOwnerNext {
                    // Past a closure: only the way to the call it belongs to goes on.
                    if SwiftScopes.isCall(ancestor) || !SwiftScopes.leadsToClosureOwner(ancestor) { return false }
                } else if SwiftScopes.isClosure(ancestor) {
                    closureOwnerNext = true
                }
            }
            child = ancestor
        }
        return false
    }

    func findDescendant(of node: Node, ancestors: [Node]) -> Bool {
        var found = false
        node.walk(withAncestors: { descendant, path in
            if found { return false }
            if descendant == node { return true }
            if reach == .closure {
                if SwiftScopes.isDeclaration(descendant) { return false }
                // Only the node's own closures: `path` runs from `node` to the closure's parent.
                if SwiftScopes.isClosure(descendant), !SwiftScopes.isOwnClosure(path: path) { return false }
            }
            if related(descendant, ancestors: Array(path.reversed()) + ancestors, cameFrom: nil) {
                found = true
                return false
            }
            return true
        })
        return found
    }
}

extension SwiftRelation {
    /// What the targets ask of one candidate node, each found once, when first asked.
    struct Seen {
        let node: Node
        private var foundType: String?
        private var foundCallee: String??

        init(_ node: Node) { self.node = node }

        var type: String {
            mutating get {
                if let foundType { return foundType }
                let type = node.type
                foundType = type
                return type
            }
        }

        var callee: String? {
            mutating get {
                if let foundCallee { return foundCallee }
                let callee = SwiftCall.calleeName(of: node)
                foundCallee = .some(callee)
                return callee
            }
        }
    }
}

extension SwiftRelation.Target {
    /// `cameFrom`: the child of `node` on the way up from the node a relation starts at (nil: looking
    /// down); `seen`: `node`'s kind and callee, shared by the targets of a branch.
    func matches(_ node: Node, cameFrom child: Node?, seen: inout SwiftRelation.Seen) -> Bool {
        if let nodeKind { return seen.type == nodeKind }
        if let callName {
            guard seen.callee == callName else { return false }
            // Inside a call means inside its arguments or closures, not in what it is chained on.
            if let child { return SwiftScopes.isCallSuffix(child) }
            return true
        }
        guard let pattern else { return false }
        return pattern.rootTypes.contains(seen.type) && pattern.match(node) != nil
    }
}

/// The scopes of SwiftUI code as the grammar draws them: closures, the calls they belong to, declarations.
public enum SwiftScopes {
    public static func isClosure(_ node: Node) -> Bool { node.type == SwiftNodeType.lambdaLiteral }

    public static func isCall(_ node: Node) -> Bool { node.type == SwiftNodeType.callExpression }

    /// Whether `name` is a kind of named node of the Swift grammar (`if_statement`).
    public static func isNodeKind(_ name: String) -> Bool { Language.swift.hasNodeType(name, named: true) }

    static func isCallSuffix(_ node: Node) -> Bool { node.type == SwiftNodeType.callSuffix }

    /// A declaration (a function, a property, a type, an initializer): where a closure search stops.
    public static func isDeclaration(_ node: Node) -> Bool { SwiftNodeType.declarations.contains(node.type) }

    /// Whether `node` is the name its `parent` declares (`ThemedSpinner` of `struct ThemedSpinner`):
    /// no use of the name.
    public static func isDeclaredName(_ node: Node, parent: Node?) -> Bool {
        guard let parent, isDeclaration(parent) else { return false }
        return parent.child(byField: SwiftField.name) == node
    }

    /// The nodes between a closure and the call it is given to: `call_suffix` for a trailing closure;
    /// `value_argument`, `value_arguments`, `call_suffix` for an argument.
    static func leadsToClosureOwner(_ node: Node) -> Bool {
        switch node.type {
        case SwiftNodeType.callSuffix, SwiftNodeType.valueArguments, SwiftNodeType.valueArgument: return true
        default: return false
        }
    }

    /// Whether the closure at the end of `path` (the walk's path from a node, outermost first, ending at
    /// the closure's parent) is given to that first node itself.
    static func isOwnClosure(path: [Node]) -> Bool {
        guard let start = path.first, isCall(start) else { return false }
        return path.dropFirst().allSatisfy(leadsToClosureOwner)
    }
}
