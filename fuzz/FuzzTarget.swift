// libFuzzer entry point for loadaudit: built by scripts/fuzz (not by SwiftPM), see docs/reliability.md.
//
// Each input is treated as the bytes of a .swift file and goes through what `loadaudit scan` and
// `loadaudit fix --unsafe` do in memory: the reader's UTF-8/NUL filter, the select step's decision, a
// parse, the built-in rules' analysis, the per-file resolution, then the fix passes (EditPlan.select/
// apply, re-parse, resolve again) exactly as the Fixer runs them. Broken invariants stop the run with
// a message (a crash for libFuzzer, with the input saved as a reproducer):
//   - the select step's UTF-8 and NUL verdicts are Swift's decoder's;
//   - a file the select step does not choose holds no finding of its own and no clock that counts;
//   - every name the file's rotation facts state is in its bytes (what the follow-up searches);
//   - walks that skip subtrees without their words find what whole walks find;
//   - every finding's byte span and edits lie inside the file, its line/column agree with its offset;
//   - edits of one selected pass never overlap (EditPlan.apply's precondition checks it too);
//   - an accepted pass never adds syntax errors.
// Each input also goes through the scan and the fix passes under each team rules file in the folder
// $LOADAUDIT_FUZZ_RULES (scripts/fuzz passes fuzz/rules): `replacement-module` fixes that insert an
// import (at the first byte of a file that starts with the call), trailing-closure patterns, findings
// nested in findings.
// The pinned tree-sitter never finishes parsing some truncated inputs (`a{b(){c`); loadaudit's Parser
// gives up after 10 s (plus 10 s per MB). So that fuzzing does not spend 10 s on each of them, a
// pre-parse with a 2 s limit catches them first: counted, written to $LOADAUDIT_FUZZ_HANGS (if set),
// and skipped.

import AuditFix
import AuditModel
import AuditRules
import AuditSelect
import Foundation
import SwiftGrammar
import TreeSitter

private let engine = RuleEngine(ruleSet: .builtIn())
private let selector = FileSelector(engine.selectionNeeds)
/// Walks whole trees: the reference for the engine's walks, which skip subtrees without their words.
private let wholeWalks = RuleEngine(ruleSet: .builtIn(), skipsUnmarkedSubtrees: false)
/// The team rules files of $LOADAUDIT_FUZZ_RULES, each an engine of its own (a file that does not
/// load stops the run: the harness would otherwise fuzz less than it says).
private let teamEngines: [RuleEngine] = {
    guard let folder = ProcessInfo.processInfo.environment["LOADAUDIT_FUZZ_RULES"] else { return [] }
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".yml") }.sorted()
    return names.map { name in
        let path = folder + "/" + name
        do {
            return RuleEngine(ruleSet: try RuleSet.load(text: try String(contentsOfFile: path, encoding: .utf8), file: path))
        } catch {
            fail("the rules file \(path) does not load: \(error)")
        }
    }
}()
private var parser: Parser?
private var hangsSeen = 0
private let maximumPasses = 8

/// Whether Swift's own decoder accepts the bytes as UTF-8 (the reference for the lexer's check).
private func isValidUTF8(_ bytes: [UInt8]) -> Bool {
    var decoder = UTF8()
    var iterator = bytes.makeIterator()
    while true {
        switch decoder.decode(&iterator) {
        case .scalarValue: continue
        case .emptyInput: return true
        case .error: return false
        }
    }
}

private func recordHang(_ bytes: [UInt8]) {
    hangsSeen += 1
    guard let folder = ProcessInfo.processInfo.environment["LOADAUDIT_FUZZ_HANGS"], hangsSeen <= 50 else { return }
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let name = String(format: "hang-%03d-%d.swift", hangsSeen, bytes.count)
    _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(bytes))
}

private func fail(_ message: String) -> Never {
    fatalError("loadaudit fuzz invariant: \(message)")
}

private func check(_ findings: [Finding], in bytes: [UInt8], _ stage: String) {
    let text = SourceText(bytes: bytes)
    for finding in findings {
        let what = "\(stage): \(finding.ruleId) at \(finding.start.line):\(finding.start.column)"
        guard finding.start.byteOffset >= 0, finding.start.byteOffset <= finding.end.byteOffset, finding.end.byteOffset <= bytes.count else {
            fail("\(what): span \(finding.start.byteOffset)..<\(finding.end.byteOffset) outside \(bytes.count) bytes")
        }
        for point in [finding.start, finding.end] {
            let position = text.position(ofByte: point.byteOffset)
            if position.line != point.line || position.column != point.column {
                fail("\(what): \(point.line):\(point.column) but byte \(point.byteOffset) is \(position.line):\(position.column)")
            }
        }
        for edit in finding.edits where edit.range.lowerBound < 0 || edit.range.upperBound > bytes.count {
            fail("\(what): edit \(edit.range) outside \(bytes.count) bytes")
        }
    }
}

/// The tree of `bytes`, or nil: parses that take over two seconds (the known hang, or a new one) are
/// set aside (kept with `recordHang`) so that the run goes on, not held to the scan's longer limit.
private func parseQuickly(_ bytes: [UInt8]) -> Tree? {
    do {
        if parser == nil { parser = try Parser() }
        return try parser!.parse(SourceText(bytes: bytes), timeLimit: 2)
    } catch TreeSitterError.timedOut {
        recordHang(bytes)
        return nil
    } catch {
        return nil
    }
}

/// Loads the rules and makes the parser before the first input, so that their allocations are not
/// counted against an input by libFuzzer's leak check.
@_cdecl("LLVMFuzzerInitialize")
public func loadauditFuzzInitialize(
    _ argc: UnsafeMutablePointer<Int32>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> Int32 {
    _ = selector.triggerWords
    _ = teamEngines
    parser = try? Parser()
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func loadauditFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    // The select step's reading of bytes: its NUL and UTF-8 verdicts must match the reference ones.
    let problems = FileSelector.textProblems(bytes)
    let validUTF8 = isValidUTF8(bytes)
    if (problems.firstInvalidUTF8 == nil) != validUTF8 { fail("the select step's UTF-8 verdict differs from Swift's decoder") }
    if validUTF8, problems.firstNUL != bytes.firstIndex(of: 0) { fail("the select step's first NUL differs") }
    // The scanner's filter (SourceReader): NUL bytes in the first 8 KB, or invalid UTF-8, are skipped.
    guard validUTF8, (problems.firstNUL ?? .max) >= 8192 else { return 0 }
    guard let tree = parseQuickly(bytes) else { return 0 }
    let analysis = engine.analyze(tree: tree, file: "Fuzz.swift")
    // A file the select step does not choose must hold nothing a parse reports on its own, and no
    // clock that counts (it would have to be parsed to start a finding).
    let decision = selector.decide(bytes, path: "Fuzz.swift")
    if decision != .parse {
        if !analysis.candidates.isEmpty || !analysis.suppressions.isEmpty || !analysis.exportedImports.isEmpty {
            fail("a file not chosen holds \(analysis.candidates.map(\.finding.ruleId)), \(analysis.suppressions.count) suppressions, \(analysis.exportedImports)")
        }
        if analysis.rotation?.isAnchor == true { fail("a file not chosen holds a clock that counts") }
    }
    // A file left for later is parsed when its bytes mention a name its facts state: every such name
    // must be in its bytes, as a whole word.
    // The follow-up asks a word screen of the names first: it must pass every such file too.
    for name in analysis.rotation?.statedNames ?? [] {
        guard let hash = WordHash.ofWord(name) else { continue }
        if !FileSelector.mentionsAny(of: [hash], in: bytes) { fail("the facts state \(name), which the bytes do not mention") }
        if !selector.wants(bytes, FileSelector.FollowUp([name])) { fail("the follow-up passes over \(name), which the facts state") }
    }
    let whole = wholeWalks.analyze(tree: tree, file: "Fuzz.swift")
    if whole.candidates.map(\.finding) != analysis.candidates.map(\.finding) || whole.suppressions != analysis.suppressions
        || whole.rotation != analysis.rotation {
        fail("walks that skip unmarked subtrees found something else than whole walks")
    }
    scanAndFix(bytes, analysis, engine)
    for team in teamEngines {
        let teamAnalysis = team.analyze(tree: tree, file: "Fuzz.swift")
        scanAndFix(bytes, teamAnalysis, team)
    }
    return 0
}

/// The scan's findings of `engine` in the file, then the fix passes, as Fixer.fix runs them (safe and
/// unsafe classes: `fix --unsafe`), each checked.
private func scanAndFix(_ bytes: [UInt8], _ analysis: FileAnalysis, _ engine: RuleEngine) {
    let context = ProjectContext([analysis])
    let findings = engine.resolve(analysis, in: context)
    check(findings, in: bytes, "scan")
    let allowedErrors = analysis.syntaxErrors.count
    var current = bytes
    var currentFindings = findings
    for pass in 0..<maximumPasses {
        let applicable = currentFindings.filter { $0.fix != .manual && !$0.edits.isEmpty }
        let selected = EditPlan.select(applicable)
        if selected.isEmpty { break }
        // By offset, an insertion before a replacement starting at its offset (as `apply` orders them).
        let edits = Array(Set(selected.flatMap(\.edits))).sorted {
            ($0.range.lowerBound, $0.range.isEmpty ? 0 : 1, $0.range.upperBound) < ($1.range.lowerBound, $1.range.isEmpty ? 0 : 1, $1.range.upperBound)
        }
        for (left, right) in zip(edits, edits.dropFirst()) where left.range.upperBound > right.range.lowerBound {
            fail("pass \(pass): selected edits overlap: \(left.range) and \(right.range)")
        }
        let next = EditPlan.apply(selected.flatMap(\.edits), to: current)
        guard let nextTree = parseQuickly(next) else { return }
        let nextAnalysis = engine.analyze(tree: nextTree, file: "Fuzz.swift")
        // A pass that adds a syntax error is refused by the Fixer: the file stays as it was.
        if nextAnalysis.syntaxErrors.count > allowedErrors { break }
        current = next
        currentFindings = engine.resolve(nextAnalysis, in: context)
        check(currentFindings, in: current, "after pass \(pass)")
    }
}
