import AuditGit
import AuditModel
import AuditProgress
import Foundation

extension Audit {
    /// The identity a JSON report carries (`ReportIdentity`): the repository's name (`name`, else
    /// the `origin` remote reduced to owner/name, else the name of the work tree's top folder, else
    /// of `path`'s folder), HEAD's commit and day, and the rules in force.
    public func reportIdentity(of path: String, name: String?) -> ReportIdentity {
        let folder = Self.folderHolding(setup.absolute(path))
        let top = GitRepositoryFacts.top(of: folder)
        let repository = name
            ?? GitRepositoryFacts.originURL(in: folder).flatMap(ReportIdentity.repositoryName(fromRemote:))
            ?? URL(fileURLWithPath: top ?? folder).standardizedFileURL.lastPathComponent
        let head = top == nil ? nil : GitRepositoryFacts.head(in: folder)
        let day = ProgressHistory.format(Double(head?.time ?? Int(Date().timeIntervalSince1970)))
        return ReportIdentity(repository: repository, commit: head?.commit, date: day, rulesIdentity: rulesIdentity)
    }

    /// A hash of what decides the findings (`RuleSet.cacheKey`: every property of every rule in
    /// force, the protected names, the severities) and the rules files' names as given.
    public var rulesIdentity: RulesIdentity {
        var files = setup.rulesFiles
        if files.isEmpty, config?.builtInRules ?? true { files = ["built-in"] }
        files += config?.rulesFiles ?? []
        var hash = FNV1a()
        hash.add(Array(ruleSet.cacheKey.utf8))
        for file in files { hash.add(0x1F); hash.add(Array(file.utf8)) }
        return RulesIdentity(hash: String(format: "%016llx", hash.value), files: files)
    }

    /// The folder itself, or the folder of a file (the nearest existing folder above otherwise).
    private static func folderHolding(_ path: String) -> String {
        var isFolder: ObjCBool = false
        var current = URL(fileURLWithPath: path).standardizedFileURL
        while current.path != "/" {
            if FileManager.default.fileExists(atPath: current.path, isDirectory: &isFolder), isFolder.boolValue { return current.path }
            current.deleteLastPathComponent()
        }
        return "/"
    }
}
