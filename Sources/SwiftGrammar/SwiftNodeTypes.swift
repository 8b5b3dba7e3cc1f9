import TreeSitter

/// The Swift grammar's node types and field names that loadaudit asks for, named once here: SwiftGrammar's
/// own code and the engine in AuditRules write `node.type == SwiftNodeType.callExpression`,
/// `child(byField: SwiftField.target)`, and no module writes the grammar's vocabulary as a literal.
/// Inlined: as cheap as the literal. GrammarVocabularyTests checks every one against the grammar.
public enum SwiftNodeType {
    @inlinable public static var additiveExpression: String { "additive_expression" }
    @inlinable public static var arrayLiteral: String { "array_literal" }
    @inlinable public static var associatedtypeDeclaration: String { "associatedtype_declaration" }
    @inlinable public static var assignment: String { "assignment" }
    @inlinable public static var attribute: String { "attribute" }
    @inlinable public static var awaitExpression: String { "await_expression" }
    @inlinable public static var awaitKeyword: String { "await" }  // the keyword token (`for await`)
    @inlinable public static var callExpression: String { "call_expression" }
    @inlinable public static var callSuffix: String { "call_suffix" }
    @inlinable public static var caseKeyword: String { "case" }  // the keyword token
    @inlinable public static var classBody: String { "class_body" }
    @inlinable public static var classDeclaration: String { "class_declaration" }
    @inlinable public static var comment: String { "comment" }
    @inlinable public static var computedProperty: String { "computed_property" }
    @inlinable public static var controlTransferStatement: String { "control_transfer_statement" }
    @inlinable public static var deinitDeclaration: String { "deinit_declaration" }
    @inlinable public static var enumClassBody: String { "enum_class_body" }
    @inlinable public static var enumEntry: String { "enum_entry" }
    @inlinable public static var `extension`: String { "extension" }
    @inlinable public static var forStatement: String { "for_statement" }
    @inlinable public static var functionBody: String { "function_body" }
    @inlinable public static var functionDeclaration: String { "function_declaration" }
    @inlinable public static var guardStatement: String { "guard_statement" }
    @inlinable public static var identifier: String { "identifier" }
    @inlinable public static var ifStatement: String { "if_statement" }
    @inlinable public static var importDeclaration: String { "import_declaration" }
    @inlinable public static var inheritanceSpecifier: String { "inheritance_specifier" }
    @inlinable public static var initDeclaration: String { "init_declaration" }
    @inlinable public static var integerLiteral: String { "integer_literal" }
    @inlinable public static var interpolatedExpression: String { "interpolated_expression" }
    @inlinable public static var lambdaFunctionTypeParameters: String { "lambda_function_type_parameters" }
    @inlinable public static var lambdaLiteral: String { "lambda_literal" }
    @inlinable public static var lambdaParameter: String { "lambda_parameter" }
    @inlinable public static var letKeyword: String { "let" }  // the keyword token
    @inlinable public static var lineStringLiteral: String { "line_string_literal" }
    @inlinable public static var macroInvocation: String { "macro_invocation" }
    @inlinable public static var macroDeclaration: String { "macro_declaration" }
    @inlinable public static var modifiers: String { "modifiers" }
    @inlinable public static var multiLineStringLiteral: String { "multi_line_string_literal" }
    @inlinable public static var multilineComment: String { "multiline_comment" }
    @inlinable public static var multiplicativeExpression: String { "multiplicative_expression" }
    @inlinable public static var navigationExpression: String { "navigation_expression" }
    @inlinable public static var navigationSuffix: String { "navigation_suffix" }
    @inlinable public static var nilCoalescingExpression: String { "nil_coalescing_expression" }
    @inlinable public static var operatorDeclaration: String { "operator_declaration" }
    @inlinable public static var optionalType: String { "optional_type" }
    @inlinable public static var parameter: String { "parameter" }
    @inlinable public static var pattern: String { "pattern" }
    @inlinable public static var postfixExpression: String { "postfix_expression" }
    @inlinable public static var precedenceGroupDeclaration: String { "precedence_group_declaration" }
    @inlinable public static var prefixExpression: String { "prefix_expression" }
    @inlinable public static var propertyDeclaration: String { "property_declaration" }
    @inlinable public static var protocolDeclaration: String { "protocol_declaration" }
    @inlinable public static var protocolFunctionDeclaration: String { "protocol_function_declaration" }
    @inlinable public static var protocolPropertyDeclaration: String { "protocol_property_declaration" }
    @inlinable public static var rawStringLiteral: String { "raw_string_literal" }
    @inlinable public static var realLiteral: String { "real_literal" }
    @inlinable public static var repeatWhileStatement: String { "repeat_while_statement" }
    @inlinable public static var selectorExpression: String { "selector_expression" }
    @inlinable public static var selfExpression: String { "self_expression" }
    @inlinable public static var simpleIdentifier: String { "simple_identifier" }
    @inlinable public static var sourceFile: String { "source_file" }
    @inlinable public static var statements: String { "statements" }
    @inlinable public static var subscriptDeclaration: String { "subscript_declaration" }
    @inlinable public static var switchStatement: String { "switch_statement" }
    @inlinable public static var ternaryExpression: String { "ternary_expression" }
    @inlinable public static var tryExpression: String { "try_expression" }
    @inlinable public static var tupleExpression: String { "tuple_expression" }
    @inlinable public static var typeAnnotation: String { "type_annotation" }
    @inlinable public static var typeIdentifier: String { "type_identifier" }
    @inlinable public static var typealiasDeclaration: String { "typealias_declaration" }
    @inlinable public static var userType: String { "user_type" }
    @inlinable public static var valueArgument: String { "value_argument" }
    @inlinable public static var valueArguments: String { "value_arguments" }
    @inlinable public static var valueBindingPattern: String { "value_binding_pattern" }
    @inlinable public static var varKeyword: String { "var" }  // the keyword token
    @inlinable public static var whileStatement: String { "while_statement" }

    /// Every kind of declaration the grammar has (a type, a function, a property, an initializer, an
    /// operator, ...): where a closure search stops, and whose `name` field declares a name rather
    /// than uses it. GrammarVocabularyTests checks it against the grammar's node types.
    public static let declarations: Set<String> = [
        associatedtypeDeclaration, classDeclaration, deinitDeclaration, functionDeclaration, importDeclaration, initDeclaration,
        macroDeclaration, operatorDeclaration, precedenceGroupDeclaration, propertyDeclaration, protocolDeclaration,
        protocolFunctionDeclaration, protocolPropertyDeclaration, subscriptDeclaration, typealiasDeclaration,
    ]
}

/// The grammar's field names (`child(byField:)`).
public enum SwiftField {
    @inlinable public static var body: String { "body" }
    @inlinable public static var collection: String { "collection" }
    @inlinable public static var condition: String { "condition" }
    @inlinable public static var declarationKind: String { "declaration_kind" }
    @inlinable public static var expr: String { "expr" }
    @inlinable public static var ifFalse: String { "if_false" }
    @inlinable public static var ifTrue: String { "if_true" }
    @inlinable public static var name: String { "name" }
    @inlinable public static var operation: String { "operation" }
    @inlinable public static var `operator`: String { "operator" }
    @inlinable public static var result: String { "result" }
    @inlinable public static var suffix: String { "suffix" }
    @inlinable public static var target: String { "target" }
    @inlinable public static var `type`: String { "type" }
    @inlinable public static var value: String { "value" }
}

/// Node kinds asked by the grammar's numbers (`Node.symbol`) instead of by name: `node.type` makes a
/// `String` per call and comparing it with a name costs a string comparison, on walks that ask of
/// every node. `SwiftKinds.callExpression.contains(node)` is `node.type == SwiftNodeType.callExpression`
/// for a tree of the Swift grammar (every tree loadaudit makes): the kinds of those names, each name's
/// every number (`Language.symbols(named:)`); the built-in error symbols, outside the grammar's table,
/// are in no kind. `SwiftKindsTests` compares both at every node of every fixture.
public struct SwiftKinds: Sendable {
    /// Whether each symbol is one of the kinds.
    @usableFromInline let members: [Bool]

    public init(_ names: String...) {
        var members = [Bool](repeating: false, count: Language.swift.symbolCount)
        for name in names { for symbol in Language.swift.symbols(named: name) { members[symbol] = true } }
        self.members = members
    }

    /// Whether the node is of one of the kinds. Inlinable: the readers of other modules ask it of
    /// every node they pass (a call cost a retain and release of the table each time).
    @inlinable
    public func contains(_ node: Node) -> Bool {
        let symbol = node.symbol
        return symbol < members.count && members[symbol]
    }

    /// The first named child of one of the kinds: `node.namedChildren.first { $0.type == name }`
    /// without the array of children, a `String` per child, nor the walk past the one found.
    @inline(__always)
    public func firstNamedChild(of node: Node) -> Node? {
        node.firstNamedChild { $0 < members.count && members[$0] }
    }

    /// The last named child of one of the kinds: `node.namedChildren.last { $0.type == name }` without the array.
    @inline(__always)
    public func lastNamedChild(of node: Node) -> Node? {
        node.lastNamedChild { $0 < members.count && members[$0] }
    }

    /// The first child, named or not, of one of the kinds: `node.children.first { $0.type == name }`.
    @inline(__always)
    public func firstChild(of node: Node) -> Node? {
        node.firstChild { $0 < members.count && members[$0] }
    }

    public static let assignment = SwiftKinds(SwiftNodeType.assignment)
    public static let awaitExpression = SwiftKinds(SwiftNodeType.awaitExpression)
    public static let callExpression = SwiftKinds(SwiftNodeType.callExpression)
    public static let classBody = SwiftKinds(SwiftNodeType.classBody)
    public static let classDeclaration = SwiftKinds(SwiftNodeType.classDeclaration)
    public static let enumClassBody = SwiftKinds(SwiftNodeType.enumClassBody)
    public static let functionDeclaration = SwiftKinds(SwiftNodeType.functionDeclaration)
    public static let initDeclaration = SwiftKinds(SwiftNodeType.initDeclaration)
    public static let lambdaLiteral = SwiftKinds(SwiftNodeType.lambdaLiteral)
    public static let propertyDeclaration = SwiftKinds(SwiftNodeType.propertyDeclaration)
    public static let protocolDeclaration = SwiftKinds(SwiftNodeType.protocolDeclaration)
    public static let statements = SwiftKinds(SwiftNodeType.statements)
    // The kinds the declaration readings ask of a declaration's parts (`SwiftDeclarations`, the
    // rotating-text reader's property readings, `SwiftExpressions.lastName`).
    public static let attribute = SwiftKinds(SwiftNodeType.attribute)
    public static let callSuffix = SwiftKinds(SwiftNodeType.callSuffix)
    public static let modifiers = SwiftKinds(SwiftNodeType.modifiers)
    public static let navigationExpression = SwiftKinds(SwiftNodeType.navigationExpression)
    public static let optionalType = SwiftKinds(SwiftNodeType.optionalType)
    public static let pattern = SwiftKinds(SwiftNodeType.pattern)
    public static let simpleIdentifier = SwiftKinds(SwiftNodeType.simpleIdentifier)
    public static let typeAnnotation = SwiftKinds(SwiftNodeType.typeAnnotation)
    public static let typeIdentifier = SwiftKinds(SwiftNodeType.typeIdentifier)
    public static let userType = SwiftKinds(SwiftNodeType.userType)
    public static let valueBindingPattern = SwiftKinds(SwiftNodeType.valueBindingPattern)
    /// `type_identifier` or `user_type`: a type declaration's name as written.
    public static let typeName = SwiftKinds(SwiftNodeType.typeIdentifier, SwiftNodeType.userType)
    /// A type declaration's kinds and `typealias_declaration`: what `SwiftDeclarations.declaredName` names.
    public static let namedTypeDeclaration = SwiftKinds(SwiftNodeType.classDeclaration, SwiftNodeType.protocolDeclaration, SwiftNodeType.typealiasDeclaration)
    /// The `let` and `var` keyword tokens.
    public static let bindingKeyword = SwiftKinds(SwiftNodeType.letKeyword, SwiftNodeType.varKeyword)
    /// A type's declaration: `class_declaration` (classes, structs, enums, actors, extensions) or `protocol_declaration`.
    public static let typeDeclaration = SwiftKinds(SwiftNodeType.classDeclaration, SwiftNodeType.protocolDeclaration)
    /// A type's body: `class_body` or `enum_class_body`.
    public static let typeBody = SwiftKinds(SwiftNodeType.classBody, SwiftNodeType.enumClassBody)
}
