// `swift package loadaudit ...`: runs loadaudit, built from this package, with the arguments given, in
// the package's folder (`swift package loadaudit scan Sources`). A fix writes files, which SwiftPM
// allows only when asked: `swift package --allow-writing-to-package-directory loadaudit fix Sources`.
// It owns nothing but starting the tool and passing on its exit status; it must not read or change
// the arguments (loadaudit's own `--help` documents them).
import Foundation
import PackagePlugin

@main
struct LoadAuditCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "loadaudit")
        let process = Process()
        // (`path` rather than 6.0's `url`: the manifest's tools version is 5.9.)
        process.executableURL = URL(fileURLWithPath: tool.path.string)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: context.package.directory.string)
        try process.run()
        process.waitUntilExit()
        if process.terminationReason != .exit || process.terminationStatus != 0 {
            throw LoadAuditFailed(status: process.terminationStatus)
        }
    }
}

/// loadaudit's exit status (1: findings that fail the gate; 2: bad input, said on standard error).
struct LoadAuditFailed: Error, CustomStringConvertible {
    let status: Int32
    var description: String { "loadaudit exited with status \(status)" }
}
