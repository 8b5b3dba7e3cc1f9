// LanguageServer: `loadaudit lsp`, the Language Server Protocol on standard input and output. It owns
// the protocol: the JSON-RPC framing (MessageChannel), the lifecycle (initialize, shutdown, exit), the
// open documents and their versions, positions in UTF-16 code units (LineIndex), the debounce, and
// turning findings into diagnostics and code actions. It must not judge code or plan fixes itself:
// every finding and every fixed text comes from `Audit` (`judge`, `fixedText`), as for the command
// line; it writes no file but the stand-ins of open buffers in its own temporary folder.

import Audit
import AuditModel
import Foundation

/// The server: reads messages on the calling thread, handles them in order on one queue (where all
/// its state lives), and judges a changed buffer once the changes already received are handled
/// (changes that arrive during a judgement are coalesced: only the newest version is judged next).
public final class LanguageServer: @unchecked Sendable {
    let channel: MessageChannel
    let toolVersion: String
    /// How long a buffer must stay unchanged before it is judged (seconds). 0: no fixed wait; the
    /// judgement queues behind the messages already received, so a burst of changes, or changes typed
    /// while a judgement runs, is judged once, at its newest version.
    let debounce: Double
    let queue = DispatchQueue(label: "loadaudit.lsp")

    // The state below is touched only on `queue`.
    var initialized = false
    var shutdownRequested = false
    var workspaceFolders: [String] = []
    var watchesDynamically = false
    var documents: [String: Document] = [:]
    /// The audit (configuration and rules) of each project: by workspace folder and configuration file.
    var audits: [String: Result<Audit, AuditError>] = [:]
    /// Files a configuration error was published on, cleared when the configuration reads again.
    var filesWithConfigurationErrors: Set<String> = []
    var lastConfigurationMessage: String?
    let standInFolder: String
    var nextStandIn = 0

    public init(input: Int32 = 0, output: Int32 = 1, toolVersion: String, debounce: Double = 0) {
        channel = MessageChannel(input: input, output: output)
        self.toolVersion = toolVersion
        self.debounce = debounce
        standInFolder = FileManager.default.temporaryDirectory.appendingPathComponent("loadaudit-lsp-\(getpid())-\(UUID().uuidString)").path
    }

    /// Serves until `exit` (or the end of the input); the exit status the protocol asks: 0 after a
    /// `shutdown` request, 1 otherwise.
    public func run() -> Int32 {
        defer { try? FileManager.default.removeItem(atPath: standInFolder) }
        while true {
            switch channel.read() {
            case .end:
                return queue.sync { shutdownRequested ? 0 : 1 }
            case .unreadable(let reason):
                channel.write(["jsonrpc": "2.0", "id": NSNull(), "error": ["code": ErrorCode.parseError.rawValue, "message": "unreadable message: \(reason)"]])
            case .message(let message):
                if message["method"] as? String == "exit" {
                    return queue.sync { shutdownRequested ? 0 : 1 }
                }
                queue.async { self.handle(message) }
            }
        }
    }

    // MARK: Dispatch

    func handle(_ message: [String: Any]) {
        guard let method = message["method"] as? String else {
            // A response to one of our requests (client/registerCapability): nothing to do. Anything
            // else without a method is not a message.
            if message["id"] == nil || (message["result"] == nil && message["error"] == nil) {
                channel.write(["jsonrpc": "2.0", "id": NSNull(), "error": ["code": ErrorCode.invalidRequest.rawValue, "message": "a message without a method"]])
            }
            return
        }
        let params = message["params"] as? [String: Any] ?? [:]
        guard let id = message["id"] else {
            notification(method, params)
            return
        }
        guard id is String || id is NSNumber else {
            reply(NSNull(), error: .invalidRequest, "the request id must be a number or a string")
            return
        }
        if shutdownRequested {
            reply(id, error: .invalidRequest, "the server is shut down: only exit is accepted")
            return
        }
        if !initialized && method != "initialize" {
            reply(id, error: .serverNotInitialized, "the server is not initialized: send initialize first")
            return
        }
        switch method {
        case "initialize":
            if initialized {
                reply(id, error: .invalidRequest, "initialize was already received")
            } else {
                reply(id, result: initialize(params))
            }
        case "shutdown":
            shutdownRequested = true
            reply(id, result: NSNull())
        case "textDocument/codeAction":
            reply(id, result: codeActions(params))
        default:
            reply(id, error: .methodNotFound, "unknown method \(method)")
        }
    }

    func notification(_ method: String, _ params: [String: Any]) {
        // Before initialize, notifications are dropped (exit is handled by the reader); after
        // shutdown, likewise.
        guard initialized, !shutdownRequested else { return }
        switch method {
        case "initialized": registerWatchers()
        case "textDocument/didOpen": didOpen(params)
        case "textDocument/didChange": didChange(params)
        case "textDocument/didSave": didSave(params)
        case "textDocument/didClose": didClose(params)
        case "workspace/didChangeWatchedFiles": configurationChanged()
        case "workspace/didChangeWorkspaceFolders": workspaceFoldersChanged(params)
        default: break  // $/cancelRequest, $/setTrace, and any other: nothing to do.
        }
    }

    func reply(_ id: Any, result: Any) {
        channel.write(["jsonrpc": "2.0", "id": id, "result": result])
    }

    func reply(_ id: Any, error: ErrorCode, _ message: String) {
        channel.write(["jsonrpc": "2.0", "id": id, "error": ["code": error.rawValue, "message": message]])
    }

    func notify(_ method: String, _ params: [String: Any]) {
        channel.write(["jsonrpc": "2.0", "method": method, "params": params])
    }

    // MARK: Lifecycle

    func initialize(_ params: [String: Any]) -> [String: Any] {
        initialized = true
        if let folders = params["workspaceFolders"] as? [[String: Any]] {
            workspaceFolders = folders.compactMap { ($0["uri"] as? String).flatMap(Self.path(ofURI:)) }
        }
        if workspaceFolders.isEmpty, let root = (params["rootUri"] as? String).flatMap(Self.path(ofURI:)) ?? params["rootPath"] as? String {
            workspaceFolders = [root]
        }
        let capabilities = params["capabilities"] as? [String: Any]
        let watched = (capabilities?["workspace"] as? [String: Any])?["didChangeWatchedFiles"] as? [String: Any]
        watchesDynamically = watched?["dynamicRegistration"] as? Bool ?? false
        return [
            "capabilities": [
                // Full text on every change (1: Full), open/close, and save (the text is on disk then).
                "textDocumentSync": ["openClose": true, "change": 1, "save": ["includeText": false]],
                "codeActionProvider": ["codeActionKinds": ["quickfix", "source.fixAll.loadaudit"]],
                "workspace": ["workspaceFolders": ["supported": true, "changeNotifications": true]],
            ],
            "serverInfo": ["name": "loadaudit", "version": toolVersion],
        ]
    }

    /// Asks the client to tell of changes to configurations and rules files (when it can be asked).
    func registerWatchers() {
        guard watchesDynamically else { return }
        let watchers = ["**/.loadaudit.yml", "**/*.yml", "**/*.yaml"].map { ["globPattern": $0] }
        channel.write([
            "jsonrpc": "2.0", "id": "loadaudit-watch", "method": "client/registerCapability",
            "params": ["registrations": [["id": "loadaudit-config", "method": "workspace/didChangeWatchedFiles",
                                          "registerOptions": ["watchers": watchers]]]],
        ])
    }

    func workspaceFoldersChanged(_ params: [String: Any]) {
        let event = params["event"] as? [String: Any]
        let removed = (event?["removed"] as? [[String: Any]] ?? []).compactMap { ($0["uri"] as? String).flatMap(Self.path(ofURI:)) }
        let added = (event?["added"] as? [[String: Any]] ?? []).compactMap { ($0["uri"] as? String).flatMap(Self.path(ofURI:)) }
        workspaceFolders = workspaceFolders.filter { !removed.contains($0) } + added
        configurationChanged()
    }

    // MARK: Paths

    /// The path of a `file:` URI (percent-decoded), nil for another scheme.
    static func path(ofURI uri: String) -> String? {
        guard let url = URL(string: uri), url.isFileURL else { return nil }
        return url.standardizedFileURL.path
    }

    static func uri(ofPath path: String) -> String {
        URL(fileURLWithPath: path).absoluteString
    }
}
