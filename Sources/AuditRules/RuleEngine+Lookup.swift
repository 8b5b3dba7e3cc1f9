import AuditProject

/// Swift's name lookup for the component and pattern rules without `module:` (the app's own deprecated
/// components, which cannot name the app's module): the component's home is the module(s) where the
/// tree declares it as a view (`struct LoadingOverlay: View`). Where the tree declares one, a module
/// with its own type of that name of another kind (`class LoadingOverlay: MKTileOverlay`) keeps its
/// name: its own files (its declaration shadows what it imports), `M.Name` written with it, and the
/// files that see it and not the home; a file that sees both gets an `unsafe` finding. Where the tree
/// declares no view of the name (a component that is an enum, or declared outside the tree), which
/// declaration is the rule's cannot be told by kind: every use counts, as before. A declaration that did
/// not parse whole is of no kind. (docs/project-model.md, rules/README.md "Whose name it is")
extension RuleEngine {
    static func judgeByHome(_ candidate: Candidate, fileModule: Int?, visibility: ProjectModel.Visibility?, model: ProjectModel) -> Verdict {
        guard let fileModule, let visibility else { return .use }
        let symbol = candidate.finding.symbol
        let types = (model.declarations[symbol] ?? []).filter(\.isType)
        guard !types.isEmpty else { return .use }
        let homes = Set(types.filter(\.isView).map(\.module))
        guard !homes.isEmpty else { return .use }
        // The modules with a type of that name of another kind (`class LoadingOverlay: MKTileOverlay`).
        let others = Set(types.filter { !$0.isView && !$0.isUnsure }.map(\.module)).subtracting(homes)
        if let qualifier = candidate.qualifier {
            // `M.Name`: M's. Not a module of the tree (a type's namespace, a package outside it): as written.
            let named = model.modules(named: qualifier, from: fileModule)
            if named.contains(where: homes.contains) { return .use }
            return named.contains(where: others.contains) ? .notAUse : .use
        }
        if homes.contains(fileModule) { return .use }
        // The file's module declares its own: it shadows every import.
        if others.contains(fileModule) { return .notAUse }
        guard let other = others.filter(visibility.modules.contains).min() else { return .use }
        let otherName = model.modules[other].name
        guard let home = homes.filter(visibility.modules.contains).min() else { return .notAUse }
        return .ambiguous("\(symbol) is declared by \(model.modules[home].name) (a View) and by \(otherName), both imported here: check which this is")
    }
}
