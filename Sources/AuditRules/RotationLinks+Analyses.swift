import AuditProject
import AuditRotation

extension RotationLinks {
    /// The links of a scan's analyses.
    public init(_ analyses: [FileAnalysis], model: ProjectModel) {
        self.init(analyses.compactMap { analysis in analysis.rotation.map { (model.module(of: analysis.file) ?? 0, $0) } }, model: model)
    }
}

extension Rule: RotatingTextRule {}
