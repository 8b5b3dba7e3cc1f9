import Audit
import AuditModel
import Foundation

/// An open document: its text and version as the client last sent them, and what was last judged.
struct Document {
    let uri: String
    let path: String
    var text: [UInt8]
    var version: Int
    /// The file holding the text for the scanner, and the version written there.
    let standIn: String
    var standInVersion: Int?
    /// The version whose findings `findings` are, and those findings (each with its diagnostic).
    var judgedVersion: Int?
    var findings: [(finding: Finding, diagnostic: [String: Any])] = []

    var isSwift: Bool { path.hasSuffix(".swift") }
}

extension LanguageServer {
    func didOpen(_ params: [String: Any]) {
        guard let item = params["textDocument"] as? [String: Any], let uri = item["uri"] as? String,
              let path = Self.path(ofURI: uri), let text = item["text"] as? String else { return }
        nextStandIn += 1
        let standIn = "\(standInFolder)/\(nextStandIn)/\((path as NSString).lastPathComponent)"
        documents[uri] = Document(uri: uri, path: path, text: Array(text.utf8), version: item["version"] as? Int ?? 0, standIn: standIn)
        if documents[uri]!.isSwift { schedule(uri) }
    }

    func didChange(_ params: [String: Any]) {
        guard let item = params["textDocument"] as? [String: Any], let uri = item["uri"] as? String,
              var document = documents[uri], let changes = params["contentChanges"] as? [[String: Any]] else { return }
        for change in changes {
            guard let text = change["text"] as? String else { continue }
            if let range = change["range"] as? [String: Any], let start = range["start"] as? [String: Any], let end = range["end"] as? [String: Any] {
                // An incremental change (the server asks for full ones; a client may still send these).
                let index = LineIndex(document.text)
                let from = index.offset(line: start["line"] as? Int ?? 0, character: start["character"] as? Int ?? 0)
                let to = max(from, index.offset(line: end["line"] as? Int ?? 0, character: end["character"] as? Int ?? 0))
                document.text.replaceSubrange(from..<to, with: Array(text.utf8))
            } else {
                document.text = Array(text.utf8)
            }
        }
        document.version = item["version"] as? Int ?? document.version + 1
        documents[uri] = document
        if document.isSwift { schedule(uri) }
    }

    func didSave(_ params: [String: Any]) {
        guard let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String, let path = Self.path(ofURI: uri) else { return }
        if path.hasSuffix(".yml") || path.hasSuffix(".yaml") {
            configurationChanged()
        } else if documents[uri]?.isSwift == true {
            // A file's declarations and imports are facts of the others: every open buffer is judged again.
            for other in documents.keys where documents[other]!.isSwift {
                documents[other]!.judgedVersion = nil
                schedule(other)
            }
        }
    }

    func didClose(_ params: [String: Any]) {
        guard let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String, let document = documents.removeValue(forKey: uri) else { return }
        try? FileManager.default.removeItem(atPath: (document.standIn as NSString).deletingLastPathComponent)
        if document.isSwift { notify("textDocument/publishDiagnostics", ["uri": uri, "diagnostics": [Any]()]) }
    }

    /// A configuration or rules file changed: read them again and judge every open buffer again.
    func configurationChanged() {
        audits = [:]
        for uri in documents.keys where documents[uri]!.isSwift {
            documents[uri]!.judgedVersion = nil
            schedule(uri)
        }
        if documents.values.allSatisfy({ !$0.isSwift }) { _ = auditForFolders() }
    }

    /// Judges the buffer after the messages already queued (and, with a `debounce`, once it has not
    /// changed for that long): a judgement is made for the newest version only, and published only
    /// while that version is still the newest (all on one queue). Changes that arrive while a
    /// judgement runs queue behind it; each schedules its own, and all but the newest are skipped.
    func schedule(_ uri: String) {
        let version = documents[uri]?.version
        let judgeIfNewest: @Sendable () -> Void = { [self] in
            guard let document = documents[uri], document.version == version, document.judgedVersion != version else { return }
            judge(uri)
        }
        if debounce > 0 {
            queue.asyncAfter(deadline: .now() + debounce, execute: judgeIfNewest)
        } else {
            queue.async(execute: judgeIfNewest)
        }
    }

    /// Judges an open buffer now (its current version) and publishes its diagnostics.
    func judge(_ uri: String) {
        guard var document = documents[uri] else { return }
        var diagnostics: [[String: Any]] = []
        document.findings = []
        switch audit(for: document.path) {
        case .failure(let error):
            diagnostics = [Self.diagnostic(at: (0, 0), to: (0, 0), severity: 1, code: nil,
                                           message: "loadaudit cannot judge this file: the configuration or rules do not read: \(error.message)")]
        case .success(let audit):
            do {
                let (result, _) = try audit.judge(StandIn(file: writeStandIn(uri), name: document.path), openBuffers: openBuffers(except: uri))
                let index = LineIndex(document.text)
                let help = Dictionary(audit.ruleSet.rules.map { ($0.id, $0.helpURI) }, uniquingKeysWith: { first, _ in first })
                for finding in result.findings where finding.file == document.path {
                    let diagnostic = diagnosticOf(finding, index: index, helpURI: help[finding.ruleId] ?? nil, folder: audit.setup.currentDirectory)
                    document.findings.append((finding, diagnostic))
                    diagnostics.append(diagnostic)
                }
                for problem in result.problems where problem.file == document.path {
                    let line = max(0, (problem.line ?? 1) - 1)
                    let start = (line, max(0, (problem.column ?? 1) - 1))
                    // A syntax error is the compiler's to show; loadaudit says the region around it was not judged.
                    diagnostics.append(Self.diagnostic(at: start, to: start, severity: problem.kind == .syntaxError ? 3 : 2, code: nil,
                                                       message: "loadaudit: \(problem.detail)"))
                }
            } catch let error as AuditError {
                diagnostics = [Self.diagnostic(at: (0, 0), to: (0, 0), severity: 1, code: nil, message: "loadaudit: \(error.message)")]
            } catch {
                diagnostics = [Self.diagnostic(at: (0, 0), to: (0, 0), severity: 1, code: nil, message: "loadaudit: \(error)")]
            }
        }
        document.judgedVersion = document.version
        documents[uri] = document
        notify("textDocument/publishDiagnostics", ["uri": uri, "version": document.version, "diagnostics": diagnostics])
    }

    /// The diagnostic of a finding: its rule as `code` (with the rule's help link), its severity, its
    /// message with the replacement and fix class, its exact range, and its related places.
    func diagnosticOf(_ finding: Finding, index: LineIndex, helpURI: String?, folder: String) -> [String: Any] {
        let severity = finding.severity == .error ? 1 : finding.severity == .warning ? 2 : 3
        var message = finding.message
        if let replacement = finding.replacement, finding.fix != .manual {
            message += "\nReplacement (\(finding.fix.rawValue) fix): \(replacement)"
        } else if finding.fix == .manual {
            message += "\nManual: no automatic rewrite."
        }
        var diagnostic = Self.diagnostic(at: index.position(ofByte: finding.start.byteOffset), to: index.position(ofByte: finding.end.byteOffset),
                                         severity: severity, code: finding.ruleId, message: message)
        if let helpURI { diagnostic["codeDescription"] = ["href": helpURI] }
        diagnostic["data"] = ["fix": finding.fix.rawValue]
        if !finding.related.isEmpty {
            diagnostic["relatedInformation"] = finding.related.map { related -> [String: Any] in
                let path = related.file.hasPrefix("/") ? related.file : folder + "/" + related.file
                let position = ["line": max(0, related.line - 1), "character": max(0, related.column - 1)]
                return ["location": ["uri": Self.uri(ofPath: path), "range": ["start": position, "end": position]], "message": related.message]
            }
        }
        return diagnostic
    }

    static func diagnostic(at start: (line: Int, character: Int), to end: (line: Int, character: Int), severity: Int, code: String?, message: String) -> [String: Any] {
        var diagnostic: [String: Any] = [
            "range": ["start": ["line": start.line, "character": start.character], "end": ["line": end.line, "character": end.character]],
            "severity": severity, "source": "loadaudit", "message": message,
        ]
        if let code { diagnostic["code"] = code }
        return diagnostic
    }

    /// Writes the buffer's current text where the scanner reads it (when not written yet).
    func writeStandIn(_ uri: String) -> String {
        guard let document = documents[uri] else { return "" }
        if document.standInVersion != document.version || !FileManager.default.fileExists(atPath: document.standIn) {
            let folder = (document.standIn as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: document.standIn, contents: Data(document.text))
            documents[uri]!.standInVersion = document.version
        }
        return document.standIn
    }

    /// The other open Swift buffers, read instead of their files on disk for the project's facts.
    func openBuffers(except uri: String) -> OpenBuffers {
        var texts: [String: String] = [:]
        for (other, document) in documents where other != uri && document.isSwift {
            texts[document.path] = writeStandIn(other)
        }
        return OpenBuffers(texts)
    }

    // MARK: Configuration

    /// The workspace folder holding `path` (the innermost), else the file's own folder.
    func folder(of path: String) -> String {
        let holding = workspaceFolders.filter { path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
        return holding.max { $0.count < $1.count } ?? (path as NSString).deletingLastPathComponent
    }

    /// The audit a file is judged with: its configuration (the nearest `.loadaudit.yml` above it) and
    /// rules, as `scan --stdin-filename` run from the workspace folder reads them. A configuration or
    /// rules file that does not read is published as diagnostics on that file.
    func audit(for path: String) -> Result<Audit, AuditError> {
        let folder = folder(of: path)
        let key = folder + "|" + (Audit.configurationPath(for: path) ?? "")
        if let known = audits[key] { return known }
        var setup = AuditSetup(currentDirectory: folder, toolVersion: toolVersion)
        setup.allowsEmpty = true
        // The project's other files are read for their facts at every judgement: their analyses are
        // kept (by content) in the server's own folder, so that only the changed buffer is parsed again.
        setup.cacheFolder = standInFolder + "/cache"
        setup.jobs = max(1, min(2, ProcessInfo.processInfo.activeProcessorCount))
        let made: Result<Audit, AuditError>
        do {
            made = .success(try Audit(setup, paths: [path]))
        } catch let error as AuditError {
            made = .failure(error)
        } catch {
            made = .failure(AuditError("\(error)"))
        }
        audits[key] = made
        publishConfigurationErrors()
        return made
    }

    /// Reads the workspace folders' configurations (to show their mistakes) when no buffer is open.
    func auditForFolders() -> [Result<Audit, AuditError>] {
        workspaceFolders.map { audit(for: $0 + "/.loadaudit-lsp-probe.swift") }
    }

    /// Every configuration error's places as diagnostics on their files (configurations and rules
    /// files); files whose errors are gone get empty diagnostics. A new error is also shown as a message.
    func publishConfigurationErrors() {
        var byFile: [String: [[String: Any]]] = [:]
        var messages: [String] = []
        for case .failure(let error) in audits.values {
            messages.append(error.message)
            for place in error.places {
                let line = max(0, (place.line ?? 1) - 1)
                let start = (line, max(0, (place.column ?? 1) - 1))
                let end = (line, place.column == nil ? 1000 : start.1 + 1)
                byFile[place.file, default: []].append(Self.diagnostic(at: start, to: end, severity: 1, code: "rules-file", message: place.problem))
            }
        }
        for file in filesWithConfigurationErrors.subtracting(byFile.keys) {
            notify("textDocument/publishDiagnostics", ["uri": Self.uri(ofPath: file), "diagnostics": [Any]()])
        }
        for (file, diagnostics) in byFile {
            notify("textDocument/publishDiagnostics", ["uri": Self.uri(ofPath: file), "diagnostics": diagnostics])
        }
        filesWithConfigurationErrors = Set(byFile.keys)
        let message = messages.sorted().joined(separator: "\n")
        if !message.isEmpty, message != lastConfigurationMessage {
            notify("window/showMessage", ["type": 1, "message": "loadaudit: \(message)"])
        }
        lastConfigurationMessage = message.isEmpty ? nil : message
    }
}
