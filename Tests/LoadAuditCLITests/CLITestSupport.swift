import Foundation
import LoadAuditCLI
import XCTest
import LoadAuditTestSupport

/// Runs loadaudit in-process, as a user would from a shell, and captures what it prints.
struct CLIRun {
    let status: Int32
    let output: String
    let errors: String

    init(_ arguments: [String], in directory: String = Repository.root.path, terminal isTerminal: Bool = false, environment: [String: String] = [:],
         input: String = "") {
        let terminal = Terminal(capturing: true, outputIsTerminal: isTerminal, environment: environment, currentDirectory: directory)
        terminal.standardInput = Data(input.utf8)
        status = LoadAudit.main(arguments: arguments, terminal: terminal)
        output = terminal.standardOutput
        errors = terminal.standardError
    }
}

/// Runs a program to its end and returns its exit status and everything it printed (standard output
/// and standard error, interleaved as written). `environment` nil: this process's own.
func runProgram(_ program: String, _ arguments: [String], in folder: URL, environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.currentDirectoryURL = folder
    if let environment { process.environment = environment }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// The rows of one of the fixtures' hand-written tables (`fixtures/expected-*.tsv`): its lines after
/// the `#` lines that say which fixture and command it checks, and after its header line.
func expectedRows(_ name: String) throws -> [String] {
    let text = try String(contentsOf: Repository.root.appendingPathComponent("fixtures/\(name)"), encoding: .utf8)
    return text.split(separator: "\n").drop { $0.hasPrefix("#") }.dropFirst().map(String.init)
}

enum Repository {
    static let root = RepositoryFolder.root
    static let exampleApp = root.appendingPathComponent("fixtures/ExampleApp")

    /// The loadaudit executable SwiftPM built beside the tests, if any.
    static var builtExecutable: URL? {
        let beside = Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("loadaudit")
        return [beside, root.appendingPathComponent(".build/debug/loadaudit")].first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}

/// A temporary folder of files, removed when the test ends.
final class TemporaryTree {
    let url: URL

    init(_ files: [String: String] = [:]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("loadaudit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (path, text) in files { try write(path, text) }
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    var path: String { url.path }

    func write(_ relativePath: String, _ text: String) throws {
        try write(relativePath, Data(text.utf8))
    }

    func write(_ relativePath: String, _ data: Data) throws {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }
}

extension TemporaryTree {
    /// Runs git in the tree as a test user (no signing), with author and committer `date` when given
    /// (`YYYY-MM-DD`, noon UTC); a failing git fails the test.
    func git(_ arguments: [String], date: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        guard let git = ["/usr/bin/git", "/usr/local/bin/git", "/opt/homebrew/bin/git"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("git is not installed")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: git)
        process.arguments = ["-C", path, "-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"] + arguments
        if let date {
            var environment = ProcessInfo.processInfo.environment
            environment["GIT_AUTHOR_DATE"] = date + "T12:00:00Z"
            environment["GIT_COMMITTER_DATE"] = date + "T12:00:00Z"
            process.environment = environment
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "git \(arguments.joined(separator: " "))", file: file, line: line)
    }
}
