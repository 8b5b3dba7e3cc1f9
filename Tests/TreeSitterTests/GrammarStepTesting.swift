import Foundation
import XCTest

/// What the tests of scripts/bootstrap's later steps on the grammar's parser.c share
/// (GrammarCharsetFastPathTests, GrammarAdvanceMapTests): the checkout's paths, a seeded generator and
/// the generator's literal forms, running a step on a generated parser.c, and compiling and running a
/// C harness against the grammar's runtime headers.
enum GrammarStepTesting {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// parser.h as bootstrap puts it beside the grammar's sources (the runtime headers the grammar is compiled with).
    static let headers = root.appendingPathComponent("Sources/CTreeSitterSwift/grammar")

    /// SplitMix64, so that a failure names the seed that reproduces it.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &+ 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    /// A code point as tree-sitter's generator writes it: a printable ASCII character quoted, a control
    /// character or quote escaped, anything else in hex (and, to read every form, sometimes in decimal).
    static func literal(_ value: Int, _ random: inout Random) -> String {
        let escapes: [Int: String] = [0: "'\\0'", 9: "'\\t'", 10: "'\\n'", 11: "'\\v'", 12: "'\\f'", 13: "'\\r'", 0x27: "'\\''", 0x5C: "'\\\\'"]
        if let escaped = escapes[value], random.below(2) == 0 { return escaped }
        if value > 0x20, value < 0x7F, value != 0x27, value != 0x5C, random.below(3) > 0 { return "'\(Character(UnicodeScalar(UInt8(value))))'" }
        return random.below(4) == 0 ? String(value) : "0x" + String(value, radix: 16)
    }

    /// A program's exit status and what it wrote (standard output and error together).
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// A step's run on one parser.c: its exit status, what it said, and the file after it.
    struct StepRun {
        let status: Int32
        let errors: String
        let file: String
    }

    /// Runs the step `script` on `text`, written as `folder`/parser.c.
    static func adapt(_ text: String, with script: URL, in folder: URL) throws -> StepRun {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/python3") else {
            throw XCTSkip("python3 is not installed (scripts/bootstrap needs it anyway)")
        }
        let parser = folder.appendingPathComponent("parser.c")
        try text.write(to: parser, atomically: true, encoding: .utf8)
        let result = try run("python3", [script.path, parser.path])
        return StepRun(status: result.status, errors: result.output, file: try String(contentsOf: parser, encoding: .utf8))
    }

    /// Skips unless scripts/bootstrap has put the grammar's runtime headers in place.
    static func requireHeaders() throws {
        guard FileManager.default.fileExists(atPath: headers.appendingPathComponent("tree_sitter/parser.h").path) else {
            throw XCTSkip("run scripts/bootstrap first: no grammar headers in Sources/CTreeSitterSwift/grammar")
        }
    }

    /// Compiles `harness` (a C program against the grammar's runtime headers) in `folder` and runs it:
    /// the compiler's run, then the program's (nil when it did not compile).
    static func compileAndRun(_ harness: String, in folder: URL) throws -> (compiled: (status: Int32, output: String), checked: (status: Int32, output: String)?) {
        let source = folder.appendingPathComponent("harness.c")
        try harness.write(to: source, atomically: true, encoding: .utf8)
        let binary = folder.appendingPathComponent("harness")
        let compiled = try run(ProcessInfo.processInfo.environment["CC"] ?? "cc", ["-O1", "-std=c11", "-w", "-I", headers.path, source.path, "-o", binary.path])
        return (compiled, compiled.status == 0 ? try run(binary.path, []) : nil)
    }
}

extension XCTestCase {
    /// A new empty folder, removed when the test ends.
    func temporaryGrammarStepFolder(_ prefix: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }
}
