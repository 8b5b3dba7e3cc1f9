import AuditGit
import AuditRules
import AuditScan
import AuditSelect
import SwiftGrammar
import TreeSitter

/// The file versions of `progress`, each taken through the scan's per-file step
/// (`ProjectScanner.screen`, then `ProjectScanner.parse`) once, however many samples hold it.
extension Audit {
    /// What one file version gave: its analysis and its uses of the new components; nothing to parse
    /// (its words show no rule can find anything, and no new component is named); or not Swift text.
    enum FileVersion: Codable {
        case analysed(FileAnalysis, uses: [String: Int])
        case nothing
        case skipped
    }

    /// Every file version analysed once, on every core. With `--cache`, versions analysed by an
    /// earlier run under the same rules and tool version are taken from the cache (keyed by path and
    /// blob id), and this run's are added to it.
    func analyse(_ files: Set<GitHistory.Entry>, blobs: [String: [UInt8]]) -> [GitHistory.Entry: FileVersion] {
        let key = { (file: GitHistory.Entry) in file.path + "\u{1F}" + file.blob }
        var cached = scanner.cache?.loadVersions(FileVersion.self) ?? [:]
        var map: [GitHistory.Entry: FileVersion] = [:]
        var list: [GitHistory.Entry] = []
        for file in files {
            if let version = cached[key(file)] { map[file] = version } else { list.append(file) }
        }
        let scanner = self.scanner
        let newComponents = ruleSet.newComponents
        let namesNew = NameSearch(newComponents, hashedAs: WordHash.ofName)
        let workers: [Void] = Array(repeating: (), count: max(1, min(setup.jobs, list.count)))
        // As a scan does: the versions the select step chooses, then those left for later that mention
        // what a chosen version's clocks link by (any sample's: a version another sample does not need
        // is parsed for nothing, never missed), and every version that names a new component.
        let parse = { (index: Int, bytes: [UInt8], countUses: Bool) -> FileVersion in
            let file = list[index]
            guard let parsed = try? scanner.parse(SourceText(bytes: bytes), path: file.path, alsoRead: { tree in
                countUses ? SwiftWords.uses(of: newComponents, in: tree) : [:]
            }) else { return .skipped }
            return .analysed(parsed.analysis, uses: parsed.extra)
        }
        var results = ParallelMap.map(count: list.count, contexts: workers) { _, index -> (FileVersion, Bool) in
            guard let bytes = blobs[list[index].blob], case .success(let decision) = scanner.screen(bytes, path: list[index].path) else {
                return (.skipped, false)
            }
            let named = namesNew.isMentioned(in: bytes)
            guard decision == .parse || decision == .manifest || named else { return (.nothing, decision == .later) }
            return (parse(index, bytes, named), false)
        }
        var later: [Int] = []
        for (index, result) in results.enumerated() where result?.1 == true { later.append(index) }
        var links = Set<String>()
        for case (.analysed(let analysis, _), _)? in results {
            if let facts = analysis.rotation { links.formUnion(facts.linkingNames) }
        }
        let followUp = FileSelector.FollowUp(links)
        if !followUp.isEmpty, !later.isEmpty {
            let selector = scanner.selector
            let more = ParallelMap.map(count: later.count, contexts: workers) { _, item -> FileVersion in
                // Screened already (left for later), so Swift text.
                guard let bytes = blobs[list[later[item]].blob], selector.wants(bytes, followUp) else { return .nothing }
                return parse(later[item], bytes, false)
            }
            for (item, version) in more.enumerated() { results[later[item]] = (version ?? .skipped, false) }
            if let trace = setup.trace {
                var count = 0, bytes = 0
                for (item, version) in more.enumerated() { if case .analysed? = version { count += 1; bytes += blobs[list[later[item]].blob]?.count ?? 0 } }
                trace("progress: follow-up (\(links.count) linking names) parsed \(count) versions (\(bytes) bytes)")
            }
        }
        for (index, file) in list.enumerated() { map[file] = results[index]?.0 ?? .skipped }
        if let trace = setup.trace {
            var parsed = 0, parsedBytes = 0, nothing = 0
            for file in list {
                switch map[file] {
                case .analysed?: parsed += 1; parsedBytes += blobs[file.blob]?.count ?? 0
                case .nothing?: nothing += 1
                default: break
                }
            }
            trace("progress: \(files.count) file versions (\(files.count - list.count) from the cache), \(parsed) parsed (\(parsedBytes) bytes; \(later.count) left for later), \(nothing) not parsed")
        }
        if let cache = scanner.cache, !list.isEmpty {
            // An unreadable blob may read next time: not kept.
            for file in list {
                if case .skipped? = map[file], blobs[file.blob] == nil { continue }
                cached[key(file)] = map[file]
            }
            cache.storeVersions(cached)
        }
        return map
    }
}
