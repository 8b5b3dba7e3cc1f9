import Foundation
import XCTest

/// scripts/adapt-grammar-advance-maps, the bootstrap step that writes the lexer's ADVANCE_MAP lists as
/// switches (docs/grammar.md): on generated parser.c files, each rewritten map picks the state
/// parser.h's loop picks (or none) for every lookahead; and a map the step cannot prove that for is
/// refused and the file left as it was.
final class GrammarAdvanceMapTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = root.appendingPathComponent("scripts/adapt-grammar-advance-maps")
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

    /// A key as the generator writes it: a printable ASCII character quoted, an escape, else hex or decimal.
    static func literal(_ value: Int, _ random: inout Random) -> String {
        let escapes: [Int: String] = [0: "'\\0'", 9: "'\\t'", 10: "'\\n'", 13: "'\\r'", 0x27: "'\\''", 0x5C: "'\\\\'"]
        if let escaped = escapes[value], random.below(2) == 0 { return escaped }
        if value > 0x20, value < 0x7F, value != 0x27, value != 0x5C, random.below(3) > 0 { return "'\(Character(UnicodeScalar(UInt8(value))))'" }
        return random.below(4) == 0 ? String(value) : "0x" + String(value, radix: 16)
    }

    /// `count` lexer-like functions, each one ADVANCE_MAP of distinct keys (mostly ASCII, some up to
    /// 0xFFFF) in the generator's layout, returning the state it jumps to or -1.
    static func parser(seed: UInt64, count: Int) -> String {
        var random = Random(state: seed)
        var text = "#include \"tree_sitter/parser.h\"\n\n"
        for index in 0..<count {
            var keys: [Int] = []
            while keys.count < 1 + random.below(60) {
                let key = random.below(5) == 0 ? random.below(0x10000) : random.below(128)
                if !keys.contains(key) { keys.append(key) }
            }
            text += "static int lex_\(index)(int32_t lookahead) {\n  TSStateId state = 0;\n  ADVANCE_MAP(\n"
            for key in keys { text += "    \(literal(key, &random)), \(random.below(0x10000)),\n" }
            text += "  );\n  return -1;\nnext_state:\n  return state;\n}\n\n"
        }
        return text
    }

    func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
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

    func adapt(_ text: String, in folder: URL) throws -> (status: Int32, errors: String, file: String) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/python3") else {
            throw XCTSkip("python3 is not installed (scripts/bootstrap needs it anyway)")
        }
        let parser = folder.appendingPathComponent("parser.c")
        try text.write(to: parser, atomically: true, encoding: .utf8)
        let result = try run("python3", [Self.script.path, parser.path])
        return (result.status, result.output, try String(contentsOf: parser, encoding: .utf8))
    }

    func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("advance-maps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    func testEachSwitchPicksTheStateTheMapsLoopPicks() throws {
        guard FileManager.default.fileExists(atPath: Self.headers.appendingPathComponent("tree_sitter/parser.h").path) else {
            throw XCTSkip("run scripts/bootstrap first: no grammar headers in Sources/CTreeSitterSwift/grammar")
        }
        let count = 12
        for seed: UInt64 in [3, 77, 2026] {
            let folder = try temporaryFolder()
            let plain = Self.parser(seed: seed, count: count)
            let adapted = try adapt(plain, in: folder)
            XCTAssertEqual(adapted.status, 0, adapted.errors)
            XCTAssertFalse(adapted.file.contains("ADVANCE_MAP("), "every map rewritten")
            XCTAssertEqual(adapted.file.components(separatedBy: "switch (lookahead)").count - 1, count)
            // The plain functions (parser.h's loop) appended after the step ran, renamed; then, for
            // every lookahead from -3 to 0x110002, each pair must pick the same state.
            var harness = adapted.file + plain.replacingOccurrences(of: "#include \"tree_sitter/parser.h\"\n", with: "")
                .replacingOccurrences(of: "static int lex_", with: "static int plain_lex_")
            harness += "#include <stdio.h>\nint main(void) {\n  long wrong = 0, jumps = 0;\n"
            for index in 0..<count {
                harness += """
                  for (int32_t c = -3; c <= 0x110002; c++) {
                    int fast = lex_\(index)(c), loop = plain_lex_\(index)(c);
                    if (fast != loop) { if (wrong++ < 5) printf("map \(index): %d switch %d loop %d\\n", c, fast, loop); }
                    jumps += fast >= 0;
                  }

                """
            }
            harness += "  printf(\"wrong %ld jumps %ld\\n\", wrong, jumps);\n  return wrong != 0;\n}\n"
            let source = folder.appendingPathComponent("harness.c")
            try harness.write(to: source, atomically: true, encoding: .utf8)
            let binary = folder.appendingPathComponent("harness")
            let compiled = try run(ProcessInfo.processInfo.environment["CC"] ?? "cc", ["-O1", "-std=c11", "-w", "-I", Self.headers.path, source.path, "-o", binary.path])
            XCTAssertEqual(compiled.status, 0, compiled.output)
            let checked = try run(binary.path, [])
            let keys = plain.components(separatedBy: "\n").filter { $0.hasPrefix("    ") && $0.hasSuffix(",") }.count
            XCTAssertEqual(checked.output, "wrong 0 jumps \(keys)\n", "seed \(seed): each key jumps once, nothing else does")
            XCTAssertEqual(checked.status, 0, "seed \(seed)")
        }
    }

    /// What the step cannot prove the same for: refused with one line naming the file and what was
    /// found, and the file left byte for byte as it was.
    func testWhatTheSwitchCannotProveIsRefusedAndTheFileLeftAsItWas() throws {
        let text = """
            #include "tree_sitter/parser.h"

            static bool ts_lex(TSLexer *lexer, TSStateId state) {
              START_LEXER();
              switch (state) {
                case 0:
                  ADVANCE_MAP(
                    '!', 1813,
                    '\\\\', 1795,
                    0xfe0f, 12,
                  );
                  END_STATE();
              }
            }

            """
        let folder = try temporaryFolder()
        let accepted = try adapt(text, in: folder)
        XCTAssertEqual(accepted.status, 0, accepted.errors)
        XCTAssertTrue(accepted.file.contains("        case 92: state = 1795; goto next_state;\n"), accepted.file)
        let cases: [(change: (String) -> String, says: String)] = [
            ({ $0.replacingOccurrences(of: "0xfe0f, 12,", with: "'!', 12,") }, "appears twice"),
            ({ $0.replacingOccurrences(of: "0xfe0f, 12,", with: "0x1f600, 12,") }, "16 bits"),
            ({ $0.replacingOccurrences(of: "0xfe0f, 12,", with: "0xfe0f, 70000,") }, "16 bits"),
            ({ $0.replacingOccurrences(of: "'!', 1813,", with: "'!', 1813, '#', 4,") }, "is not one 'KEY, STATE,' pair"),
            ({ $0.replacingOccurrences(of: "0xfe0f, 12,", with: "0xfe0f,") }, "is not one 'KEY, STATE,' pair"),
            ({ $0.replacingOccurrences(of: "'!', 1813,", with: "'\\e', 1813,") }, "not one this step reads"),
            ({ $0.replacingOccurrences(of: "ADVANCE_MAP(\n", with: "ADVANCE_MAP('a', 1,\n") }, "generator's layout"),
        ]
        for (change, says) in cases {
            let broken = change(text)
            XCTAssertNotEqual(broken, text, "the case changes nothing: \(says)")
            let run = try adapt(broken, in: folder)
            XCTAssertEqual(run.status, 1, says)
            XCTAssertEqual(run.file, broken, "the file was changed though refused: \(says)")
            XCTAssertTrue(run.errors.contains("parser.c: "), run.errors)
            XCTAssertTrue(run.errors.contains(says), "\(says) not in: \(run.errors)")
            XCTAssertEqual(run.errors.split(separator: "\n").count, 1, run.errors)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["parser.c"], "no temporary file left behind")
        }
    }
}
