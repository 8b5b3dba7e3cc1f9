// A build tool plugin: at build time, `loadaudit scan --format xcode` over a target's Swift files, so
// that each finding is a warning on its line in `swift build`'s output and in Xcode's issue navigator
// (a finding of severity `error` is an error and fails the build). The project's `.loadaudit.yml`
// applies, found above the scanned folder as for any scan (its scope, rules, severities, baseline).
// With the release's artifact bundle as the `loadaudit` binary target (scripts/swiftpm-package
// writes that package), the app builds nothing of loadaudit or tree-sitter; in loadaudit's own
// package, the tool is built from source.
//
// It owns nothing but the command it hands to SwiftPM or Xcode: which folders to scan, which files
// make it run again, where loadaudit may keep its cache. docs/install-swiftpm.md says how to use it.
import Foundation
import PackagePlugin

@main
struct LoadAuditBuildTool: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        // (`Path` rather than 6.0's `URL`: the manifests that declare this plugin are tools version 5.9.)
        guard let target = target as? SourceModuleTarget else { return [] }
        let files = target.sourceFiles(withSuffix: "swift").map(\.path)
        guard !files.isEmpty else { return [] }
        return [Self.scan(tool: try context.tool(named: "loadaudit").path, folders: [target.directory], files: files,
                          workDirectory: context.pluginWorkDirectory, name: target.name)]
    }

    /// The command: a scan of `folders` (the target's folder, or the folders of an Xcode target's
    /// files), run again when one of `files` or the configuration changes.
    ///
    /// Folders rather than the files themselves: below a folder the configuration's include and exclude
    /// apply (a file named on the command line is always scanned), and a scan of folders inside the
    /// project reads the whole project's facts (declarations, imports, rotating text across files).
    /// `--fail-on error`: warnings do not stop a build, errors do. `--allow-empty`: a target that the
    /// configuration leaves out entirely gets one warning, not a failed build. `--no-gitignore`: the
    /// target's files are what the build compiles, ignored or not (and git may not run in the
    /// plugin's sandbox).
    static func scan(tool: Path, folders: [Path], files: [Path], workDirectory: Path, name: String) -> Command {
        var arguments = ["scan", "--format", "xcode", "--fail-on", "error", "--allow-empty", "--no-gitignore",
                         "--cache-dir", workDirectory.appending(subpath: "cache").string]
        arguments += folders.map(\.string)
        return .buildCommand(
            displayName: "loadaudit scan \(name)",
            executable: tool,
            arguments: arguments,
            environment: [:],
            inputFiles: files + configuration(above: folders.first),
            // No output: it reports on standard output and changes nothing the build uses. (SwiftPM
            // runs a command without outputs for packages of tools version 6.0 and later; Xcode runs it.)
            outputFiles: []
        )
    }

    /// The `.loadaudit.yml` a scan of `folder` finds: in it or the nearest folder above.
    static func configuration(above folder: Path?) -> [Path] {
        guard var current = folder else { return [] }
        while true {
            let candidate = current.appending(subpath: ".loadaudit.yml")
            if FileManager.default.fileExists(atPath: candidate.string) { return [candidate] }
            let parent = current.removingLastComponent()
            if parent.string == current.string || parent.string.isEmpty { return [] }
            current = parent
        }
    }

    /// The fewest folders that hold every file: each file's folder, without those inside another.
    static func folders(holding files: [Path]) -> [Path] {
        let all = Set(files.map { $0.removingLastComponent().string })
        let outermost = all.filter { folder in
            !all.contains { other in other != folder && folder.hasPrefix(other.hasSuffix("/") ? other : other + "/") }
        }
        return outermost.sorted().map { Path($0) }
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

// An Xcode project's target (Build Phases > Run Build Tool Plug-ins): its Swift files are not in one
// folder SwiftPM names, so the scan covers the folders that hold them.
extension LoadAuditBuildTool: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        let files = target.inputFiles.filter { $0.type == .source && $0.path.extension == "swift" }.map(\.path)
        guard !files.isEmpty else { return [] }
        return [Self.scan(tool: try context.tool(named: "loadaudit").path, folders: Self.folders(holding: files), files: files,
                          workDirectory: context.pluginWorkDirectory, name: target.displayName)]
    }
}
#endif
