import AuditModel
import AuditProject
import AuditRotation
import Foundation
import SwiftGrammar
import TreeSitter

/// What every file needs to know about the others: the project model (modules, who declares which
/// names, what each file sees) and the pieces of rotating text.
public struct ProjectContext: Sendable {
    public let model: ProjectModel
    public let rotation: RotationResolver

    /// The context of these analyses in `model`; without one, every file is taken for one module of
    /// an Xcode-like project (a single file's examples, tests).
    public init(_ analyses: [FileAnalysis], model: ProjectModel? = nil) {
        let model = model ?? ProjectModel.singleModule(analyses.map { ($0.file, $0.moduleFacts) })
        self.model = model
        rotation = RotationResolver(analyses.compactMap { analysis in analysis.rotation.map { (analysis.file, $0, analysis.imports) } }, model: model)
    }
}
