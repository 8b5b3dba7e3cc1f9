import AuditGit
import AuditModel
import AuditProgress
import Foundation

extension Audit {
    /// The identity a JSON report carries (`ReportIdentity`): the repository's name (`name`, else
    /// the `origin` remote reduced to owner/name, else the name of the work tree's top folder, else
    /// of `path`'s folder), HEAD's commit and day, and the rules in force.
    public func reportIdentity(of path: String, name: String?) -> ReportIdentity {
        startReportIdentity(of: path, name: name).identity
    }

    /// `reportIdentity`, worked out on a thread of its own from now on: its two or three git processes
    /// (the work tree's top, the origin remote, HEAD; a few milliseconds each, one after the other) and
    /// the rules' hash (a reflection of every rule: some tens of millions of instructions) run beside
    /// the scan instead of after it. `identity` waits for them.
    public func startReportIdentity(of path: String, name: String?) -> PendingReportIdentity {
        let folder = Self.folderHolding(setup.absolute(path))
        let pending = PendingReportIdentity()
        let audit = self
        let thread = Thread {
            let top = GitRepositoryFacts.top(of: folder)
            let repository = name
                ?? GitRepositoryFacts.originURL(in: folder).flatMap(ReportIdentity.repositoryName(fromRemote:))
                ?? URL(fileURLWithPath: top ?? folder).standardizedFileURL.lastPathComponent
            let head = top == nil ? nil : GitRepositoryFacts.head(in: folder)
            pending.answer(repository: repository, head: head, rulesIdentity: audit.rulesIdentity)
        }
        thread.start()
        return pending
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

/// A report's identity whose git answers are on their way (`Audit.startReportIdentity`).
public final class PendingReportIdentity: @unchecked Sendable {
    private let answered = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    // Written once by the thread that works them out, before it signals `answered`; read after
    // waiting for that.
    private var repository = ""
    private var head: (commit: String, time: Int)?
    private var rulesIdentity = RulesIdentity(hash: "", files: [])
    private var waited = false

    fileprivate func answer(repository: String, head: (commit: String, time: Int)?, rulesIdentity: RulesIdentity) {
        self.repository = repository
        self.head = head
        self.rulesIdentity = rulesIdentity
        answered.signal()
    }

    /// The identity, once git has answered (waiting for it the first time). Outside git, the day is
    /// the day this is asked, as before.
    public var identity: ReportIdentity {
        lock.lock()
        defer { lock.unlock() }
        if !waited {
            answered.wait()
            waited = true
        }
        let day = ProgressHistory.format(Double(head?.time ?? Int(Date().timeIntervalSince1970)))
        return ReportIdentity(repository: repository, commit: head?.commit, date: day, rulesIdentity: rulesIdentity)
    }
}
