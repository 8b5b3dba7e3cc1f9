import Foundation
import XCTest

/// scripts/adapt-grammar-advance-maps, the bootstrap step that writes the lexer's ADVANCE_MAP lists as
/// switches (docs/grammar.md): on generated parser.c files, each rewritten map picks the state
/// parser.h's loop picks (or none) for every lookahead; and a map the step cannot prove that for is
/// refused and the file left as it was.
final class GrammarAdvanceMapTests: XCTestCase {
    static let script = GrammarStepTesting.root.appendingPathComponent("scripts/adapt-grammar-advance-maps")

    typealias Random = GrammarStepTesting.Random

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
            for key in keys { text += "    \(GrammarStepTesting.literal(key, &random)), \(random.below(0x10000)),\n" }
            text += "  );\n  return -1;\nnext_state:\n  return state;\n}\n\n"
        }
        return text
    }

    func adapt(_ text: String, in folder: URL) throws -> GrammarStepTesting.StepRun {
        try GrammarStepTesting.adapt(text, with: Self.script, in: folder)
    }

    func temporaryFolder() throws -> URL { try temporaryGrammarStepFolder("advance-maps") }

    func testEachSwitchPicksTheStateTheMapsLoopPicks() throws {
        try GrammarStepTesting.requireHeaders()
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
            let (compiled, ran) = try GrammarStepTesting.compileAndRun(harness, in: folder)
            XCTAssertEqual(compiled.status, 0, compiled.output)
            let checked = try XCTUnwrap(ran)
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
