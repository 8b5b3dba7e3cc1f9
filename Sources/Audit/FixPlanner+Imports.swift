import AuditFix
import AuditModel
import AuditProject
import AuditRules
import SwiftGrammar
import TreeSitter

/// The fix's last step for a file: the `import` of a rule's module (`module:`) that the rewrite left
/// with nothing to import. Only a module of the project (whose declarations the model knows) that
/// re-exports nothing; only a plain `import X` (never `@_exported`, `@testable`, nor one inside
/// `#if`); only when no word of the file (its code, comments and strings alike) is the module's name or
/// a name the module declares.
extension FixPlanner {
    func importRemovals(_ bytes: [UInt8], file: String, fixedRules: Set<String>, context: ProjectContext, parser: Parser) -> [TextEdit] {
        let model = context.model
        guard let fileModule = model.module(of: file) else { return [] }
        let ruleModules = Set(scanner.engine.ruleSet.rules.filter { fixedRules.contains($0.id) }.compactMap(\.module))
        guard !ruleModules.isEmpty, let tree = try? parser.parse(SourceText(bytes: bytes)) else { return [] }
        let imports = SwiftFileFacts(tree: tree).plainImports.filter { ruleModules.contains($0.module) }
        guard !imports.isEmpty else { return [] }
        var removals: [TextEdit] = []
        for (name, range) in imports {
            let declaring = model.modules(named: name, inWorkspaceOf: fileModule)
            guard declaring.count == 1, let module = declaring.first, module != fileModule, model.reExports(of: module).isEmpty else { continue }
            var names: Set<String> = [name]
            for (symbol, declarations) in model.declarations where declarations.contains(where: { $0.module == module }) { names.insert(symbol) }
            let rest = Array(bytes[..<range.lowerBound]) + Array(bytes[range.upperBound...])
            guard SwiftWords.words(in: rest).isDisjoint(with: names) else { continue }
            removals.append(TextEdit(range: LineRemoval.wholeLineIfAlone(range, in: bytes), text: ""))
        }
        return removals
    }
}
