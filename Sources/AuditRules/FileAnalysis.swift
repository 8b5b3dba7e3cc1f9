import AuditModel
import AuditProject
import AuditRotation
import Foundation
import SwiftGrammar
import TreeSitter

/// What the engine found in one file, before facts from the other files are known.
public struct FileAnalysis: Sendable, Codable {
    public let file: String
    public let candidates: [Candidate]
    public let topLevelTypes: Set<String>
    public let imports: Set<String>
    public let exportedImports: Set<String>
    /// Types extended at the top level, and the top-level functions and variables and extension
    /// members declared (for the project model: whose name a rule sees).
    public var extendedTypes: Set<String> = []
    public var declaredMembers: Set<String> = []
    /// The top-level types that are SwiftUI views (`struct X: View`): where a component rule without
    /// `module:` finds its component's home.
    public var viewTypes: Set<String> = []
    /// The top-level types declared in code the parser could not read whole: of no known kind.
    public var unsureTypes: Set<String> = []
    /// For a `Package.swift`: the targets it declares.
    public var manifest: PackageManifest? = nil
    /// Where an `import` a fix needs goes.
    public var importInsertion: ImportInsertion? = nil
    /// Syntax errors the file really has (not the grammar's known gaps).
    public let syntaxErrors: [TextPosition]
    public let suppressions: [Suppression]
    /// For `rotating-text` rules: what this file contributes to the project-wide picture.
    public let rotation: RotationFacts?

    /// Whether it can neither hold a finding nor tell anything about other files: no candidate, no
    /// suppression, no type declared, no module re-exported, no rotating-text fact (most files of a
    /// large tree, never parsed).
    /// Whether findings may be reported in it: a candidate, a suppression (it may be unused), a
    /// display of rotating text.
    public var mayHoldFindings: Bool {
        !candidates.isEmpty || !suppressions.isEmpty || !(rotation?.displays.isEmpty ?? true)
    }

    var contributesNothing: Bool {
        candidates.isEmpty && suppressions.isEmpty && topLevelTypes.isEmpty && exportedImports.isEmpty && (rotation?.isEmpty ?? true)
            && extendedTypes.isEmpty && declaredMembers.isEmpty && manifest == nil
    }

    /// What the project model needs of this file.
    public var moduleFacts: ModuleFileFacts {
        ModuleFileFacts(imports: imports, exportedImports: exportedImports, declaredTypes: topLevelTypes,
                        extendedTypes: extendedTypes, declaredMembers: declaredMembers, viewTypes: viewTypes, unsureTypes: unsureTypes)
    }
}

/// A finding that may still be dropped or downgraded once every file is known: an unqualified use of
/// a name from another module (`ProgressView`) means something else if the project declares its own.
public struct Candidate: Sendable, Codable {
    public internal(set) var finding: Finding
    public let moduleCheck: ModuleCheck?
    /// The rule's message and the reasons that lowered the fix class, kept apart to add more later.
    let ruleMessage: String
    private(set) var reasons: [String]

    init(finding: Finding, moduleCheck: ModuleCheck?, ruleMessage: String, reasons: [String]) {
        self.finding = finding
        self.moduleCheck = moduleCheck
        self.ruleMessage = ruleMessage
        self.reasons = reasons
    }

    static func message(_ ruleMessage: String, reasons: [String]) -> String {
        reasons.isEmpty ? ruleMessage : "\(ruleMessage) (\(reasons.joined(separator: "; ")))"
    }

    func lowered(to fix: FixClass, because reason: String) -> Candidate {
        var lowered = self
        lowered.finding = downgraded(to: fix, because: reason)
        lowered.reasons.append(reason)
        return lowered
    }

    func downgraded(to fix: FixClass, because reason: String) -> Finding {
        settled(lowering: (fix, reason))
    }

    /// The finding once its file's place in the project is known: lowered for a reason, with more
    /// edits (an `import`) and what they do said in its message.
    func settled(lowering: (fix: FixClass, reason: String)? = nil, adding edits: [TextEdit] = [], because note: String? = nil) -> Finding {
        let finding = self.finding
        guard lowering != nil || !edits.isEmpty else { return finding }
        let more = [lowering?.reason, note].compactMap { $0 }
        var settled = Finding(
            ruleId: finding.ruleId, severity: finding.severity, file: finding.file, start: finding.start, end: finding.end,
            symbol: finding.symbol, message: Candidate.message(ruleMessage, reasons: reasons + more),
            replacement: finding.replacement, fix: max(finding.fix, lowering?.fix ?? finding.fix), edits: finding.edits + edits
        )
        // A finding lowered here has always been fingerprinted without its scope and snippet (see
        // AuditBaseline's Fingerprint): kept so, or every baseline entry of one would turn new.
        if lowering == nil {
            settled.scope = finding.scope
            settled.snippet = finding.snippet
        }
        settled.related = finding.related
        settled.fingerprint = finding.fingerprint
        settled.baseline = finding.baseline
        settled.shownLine = finding.shownLine
        return settled
    }

    /// The module that declares the rule's deprecated API (`module:`), and the modules its replacement
    /// needs imported (`replacement-module:`).
    var ruleModule: String? = nil
    /// For a component or pattern rule without `module:`: its use is judged by Swift's lookup against the modules
    /// that declare the component as a view (`ProjectModel.Declaration.isView`), and `qualifier` is the
    /// module-like name written before it (`MapTiles` of `MapTiles.LoadingOverlay`), nil when unqualified.
    var looksUpHome = false
    var qualifier: String? = nil
    var replacementModules: [String] = []
    /// Which of the rule's size contexts decided the size (an index into `size.context`), for the
    /// contexts' examples.
    public internal(set) var sizeContext: Int? = nil

    /// An unqualified use of a name of `module`: whose it is depends on what the file sees.
    public struct ModuleCheck: Sendable, Codable {
        public let module: String
        public let fileImports: Set<String>
    }
}
