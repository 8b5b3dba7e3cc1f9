import Foundation

/// Small SwiftPM projects built from independent choices about one deprecated name, each use
/// labelled by construction as deprecated or not by Swift's own name lookup (and the one decision the
/// rules add to it, below): which rule (a component rule, `LoadingOverlay`, or a pattern rule,
/// SwiftUI's `NavigationView`), the module layout, where the tree declares the name and as what, which
/// module the use is written in, how that file imports the packages, how the name is used and whether
/// it is qualified. The generator resolves the name as Swift does while it writes the use, and marks
/// the use's line when it resolves to the deprecated one; no label depends on what loadaudit answers.
///
/// The labels, in Swift's terms: a module's own type of the name shadows every import; `M.Name` is M's;
/// of the imported modules, one whose type is a SwiftUI view shadows SwiftUI's (its file imports
/// SwiftUI: Swift drops a declaration of a module that another candidate's module imports); two other
/// candidates are ambiguous and the project would not build (not written). A view of the name in the
/// tree is the deprecated one (the rule's home), as is SwiftUI's `NavigationView` and a component
/// declared outside the tree (`LoadingKit`, a binary framework). The rules' decision
/// (docs/project-model.md): where the tree declares no view of the name, which declaration is the
/// rule's cannot be told by kind, so every use counts, a module's own class of the name included.
struct NameProject: LabelledProject {
    let choices: [(axis: String, option: String)]
    let files: [String: String]
    /// The file holding the use (the only file compared: a component rule also reports its view's
    /// declaration, which is not what the generator varies).
    let useFile: String
    /// Where the rule must report: "path:line" (empty when the use is another type's).
    let expected: Set<String>
    let ruleId: String

}

enum NameAxes: LabelledAxes {
    static let rule = ["component", "pattern"]
    static let layout = ["appOnly", "appAndPackage", "twoPackages"]
    /// Where the tree declares the name: nowhere (SwiftUI's, or a framework outside the tree), a view
    /// in the app, a view in a package, an unrelated class in a package, a view and a class.
    static let declared = ["nowhere", "appView", "packageView", "packageClass", "both"]
    /// The module the use is written in.
    static let site = ["app", "kit", "tiles"]
    static let imports = ["imported", "notImported", "testable", "importStruct"]
    static let form = ["call", "annotation", "cast", "genericArgument", "extension"]
    static let qualified = ["bare", "qualified"]

    static let all: [(String, [String])] = [("rule", rule), ("layout", layout), ("declared", declared), ("site", site),
                                             ("imports", imports), ("form", form), ("qualified", qualified)]

    /// The options the rules do not reach yet, found by the generator's first run (see docs/project-model.md).
    static let unreached: [[String: String]] = []

    static func isCoherent(_ choice: [String: String]) -> Bool {
        NameLookup(choice).resolution != nil
    }

    static func project(_ choice: [String: String]) -> NameProject { NameProjectWriter(choice: choice).project() }
}

/// The modules of a combination, what each declares, and what the use resolves to by Swift's lookup.
struct NameLookup {
    enum Kind { case view, other }

    let choice: [String: String]
    init(_ choice: [String: String]) { self.choice = choice }

    var isPattern: Bool { choice["rule"] == "pattern" }
    var name: String { isPattern ? "NavigationView" : "LoadingOverlay" }

    var modules: [String] {
        switch choice["layout"]! {
        case "appOnly": return ["App"]
        case "appAndPackage": return ["App", "Kit"]
        default: return ["App", "Kit", "Tiles"]
        }
    }

    /// The package modules a module depends on (the app on every package, Kit on Tiles).
    func dependencies(of module: String) -> [String] {
        switch module {
        case "App": return modules.filter { $0 != "App" }
        case "Kit": return modules.contains("Tiles") ? ["Tiles"] : []
        default: return []
        }
    }

    /// Module -> the kind of its type of the name.
    var declarations: [String: Kind]? {
        let two = choice["layout"] == "twoPackages"
        switch choice["declared"]! {
        case "nowhere": return [:]
        case "appView": return ["App": .view]
        case "packageView": return modules.count > 1 ? ["Kit": .view] : nil
        case "packageClass": return modules.count > 1 ? [two ? "Tiles" : "Kit": .other] : nil
        default: return modules.count > 1 ? (two ? ["Kit": .view, "Tiles": .other] : ["App": .view, "Kit": .other]) : nil
        }
    }

    var siteModule: String? {
        let module = ["app": "App", "kit": "Kit", "tiles": "Tiles"][choice["site"]!]!
        return modules.contains(module) ? module : nil
    }

    /// The module outside the tree that declares the deprecated name: SwiftUI's `NavigationView`, or a
    /// binary framework's component when the tree declares none.
    var external: String? { isPattern ? "SwiftUI" : (declarations?.isEmpty == true ? "LoadingKit" : nil) }

    /// The dependencies the use's file imports (all of them, or none).
    var importedModules: [String] {
        guard let site = siteModule, choice["imports"] != "notImported" else { return [] }
        return dependencies(of: site)
    }

    /// The module the use is qualified with: a visible module's class of the name, else a visible
    /// view, else the module outside the tree.
    var qualifier: String? {
        guard let site = siteModule, let declarations else { return nil }
        let visible = [site] + importedModules
        return visible.first { declarations[$0] == .other } ?? visible.first { declarations[$0] == .view } ?? external
    }

    /// What the use is by Swift's lookup: the declaring module and its kind; nil where the project
    /// would not build (the name not visible, ambiguous) or the choices do not apply.
    var resolution: (module: String, kind: Kind)? {
        guard let site = siteModule, let declarations else { return nil }
        let dependencies = dependencies(of: site)
        // Options that write the same project as another: nothing to import, or no type to import alone.
        if dependencies.isEmpty && choice["imports"] != "imported" { return nil }
        if choice["imports"] == "importStruct" && !dependencies.contains(where: { declarations[$0] != nil }) { return nil }
        // An extension of another module's class is written on a view only (a class extension is the same shape).
        if choice["qualified"] == "qualified" {
            guard let qualifier else { return nil }
            if qualifier == external { return (qualifier, .view) }
            return declarations[qualifier].map { (qualifier, $0) }
        }
        if let own = declarations[site] { return (site, own) }
        var candidates = importedModules.compactMap { module in declarations[module].map { (module: module, kind: $0) } }
        // A view's module imports SwiftUI: its type shadows SwiftUI's.
        if let external, !(isPattern && candidates.contains { $0.kind == .view }) { candidates.append((external, .view)) }
        return candidates.count == 1 ? candidates[0] : nil
    }

    /// Whether the rule must report the use: the resolved type is a view where the tree declares one;
    /// every use where it declares none (the rules' decision).
    var isDeprecated: Bool {
        guard let resolution, let declarations else { return false }
        guard declarations.values.contains(.view) else { return true }
        return resolution.kind == .view
    }
}
