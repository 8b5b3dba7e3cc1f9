import Foundation
import XCTest

/// scripts/adapt-grammar-charsets, the bootstrap step that gives the lexer's character sets an ASCII
/// fast path (docs/grammar.md): on generated parser.c files, the rewritten calls answer every lookahead
/// (every code point, and negative values) exactly as parser.h's binary search and a plain scan of the
/// ranges do; and a file the step cannot prove it for is refused and left as it was.
final class GrammarCharsetFastPathTests: XCTestCase {
    static let script = GrammarStepTesting.root.appendingPathComponent("scripts/adapt-grammar-charsets")

    typealias Random = GrammarStepTesting.Random

    /// Sorted, disjoint ranges: dense below 128 (where the table answers), sparse up to 0x10FFFF.
    static func ranges(_ random: inout Random) -> [(Int, Int)] {
        var result: [(Int, Int)] = []
        var next = random.below(12)
        while next <= 0x10FFFF {
            let end = min(0x10FFFF, next + (next < 128 ? random.below(6) : random.below(3000)))
            result.append((next, end))
            next = end + 1 + (end < 128 ? 1 + random.below(8) : 1 + random.below(40_000))
        }
        return result
    }

    /// A parser.c with `count` sets in the generator's layout, each tested by a lexer-like function.
    static func parser(seed: UInt64, count: Int) -> (text: String, sets: [[(Int, Int)]]) {
        var random = Random(state: seed)
        var text = "#include \"tree_sitter/parser.h\"\n\n"
        var sets: [[(Int, Int)]] = []
        for index in 0..<count {
            let set = ranges(&random)
            sets.append(set)
            text += "static const TSCharacterRange sym_token_character_set_\(index)[] = {\n"
            for row in stride(from: 0, to: set.count, by: 8) {
                text += "  " + set[row..<min(row + 8, set.count)].map { "{\(GrammarStepTesting.literal($0.0, &random)), \(GrammarStepTesting.literal($0.1, &random))}," }.joined(separator: " ") + "\n"
            }
            text += "};\n\n"
        }
        for (index, set) in sets.enumerated() {
            text += """
                static bool lex_\(index)(int32_t lookahead) {
                  if (set_contains(sym_token_character_set_\(index), \(set.count), lookahead)) return true;
                  return false;
                }


                """
        }
        return (text, sets)
    }

    func adapt(_ text: String, in folder: URL) throws -> GrammarStepTesting.StepRun {
        try GrammarStepTesting.adapt(text, with: Self.script, in: folder)
    }

    func temporaryFolder() throws -> URL { try temporaryGrammarStepFolder("charsets") }

    func testTheFastPathAnswersEveryLookaheadAsTheBinarySearchDoes() throws {
        try GrammarStepTesting.requireHeaders()
        for seed: UInt64 in [1, 42, 2026] {
            let folder = try temporaryFolder()
            let (text, sets) = Self.parser(seed: seed, count: 4)
            let adapted = try adapt(text, in: folder)
            XCTAssertEqual(adapted.status, 0, adapted.errors)
            XCTAssertEqual(adapted.file.components(separatedBy: "loadaudit_set_contains(sym_token").count - 1, sets.count, "every call rewritten")
            XCTAssertFalse(adapted.file.contains(" set_contains(sym_token"), "no call left to the binary search alone")
            // The harness, appended after the step ran: for every lookahead, the rewritten lex_N (fast
            // path), parser.h's set_contains (plain) and a linear scan of the ranges must agree.
            var harness = adapted.file + "#include <stdio.h>\nint main(void) {\n  long wrong = 0, members = 0;\n"
            for (index, set) in sets.enumerated() {
                let name = "sym_token_character_set_\(index)"
                harness += """
                  for (int32_t c = -3; c <= 0x110002; c++) {
                    bool scan = false;
                    for (uint32_t i = 0; i < \(set.count); i++) if (c >= \(name)[i].start && c <= \(name)[i].end) scan = true;
                    bool plain = set_contains((TSCharacterRange *)\(name), \(set.count), c);
                    bool fast = lex_\(index)(c);
                    if (fast != plain || fast != scan) { if (wrong++ < 5) printf("set \(index): %d fast %d plain %d scan %d\\n", c, fast, plain, scan); }
                    members += fast;
                  }

                """
            }
            harness += "  printf(\"wrong %ld members %ld\\n\", wrong, members);\n  return wrong != 0;\n}\n"
            let (compiled, ran) = try GrammarStepTesting.compileAndRun(harness, in: folder)
            XCTAssertEqual(compiled.status, 0, compiled.output)
            let checked = try XCTUnwrap(ran)
            let expectedMembers = sets.joined().reduce(0) { $0 + $1.1 - $1.0 + 1 }
            XCTAssertEqual(checked.output, "wrong 0 members \(expectedMembers)\n", "seed \(seed)")
            XCTAssertEqual(checked.status, 0, "seed \(seed)")
        }
    }

    /// What the step cannot prove the same answer for: refused with one line naming the file and what
    /// was found, and the file left byte for byte as it was.
    func testWhatTheFastPathCannotProveIsRefusedAndTheFileLeftAsItWas() throws {
        let text = """
            #include "tree_sitter/parser.h"

            static const TSCharacterRange sym_set_1[] = {
              {'A', 'Z'}, {'_', '_'}, {'a', 'z'}, {0xa9, 0xaa},
            };

            static bool ts_lex(TSLexer *lexer, TSStateId state) {
              if (set_contains(sym_set_1, 4, lookahead)) ADVANCE(3);
            }

            """
        let folder = try temporaryFolder()
        XCTAssertEqual(try adapt(text, in: folder).status, 0, "the unbroken file is accepted")
        let cases: [(change: (String) -> String, says: String)] = [
            ({ $0.replacingOccurrences(of: "{'_', '_'}, {'a', 'z'}", with: "{'a', 'z'}, {'_', '_'}") }, "sorted and disjoint"),
            ({ $0.replacingOccurrences(of: "{'_', '_'}", with: "{'_', 'b'}") }, "sorted and disjoint"),
            ({ $0.replacingOccurrences(of: "{0xa9, 0xaa}", with: "{0xaa, 0xa9}") }, "ends before it starts"),
            ({ $0.replacingOccurrences(of: "sym_set_1, 4,", with: "sym_set_1, 5,") }, "has 4 ranges"),
            ({ $0.replacingOccurrences(of: "(sym_set_1, 4, lookahead)", with: "(sym_set_2, 4, lookahead)") }, "not declared"),
            ({ $0.replacingOccurrences(of: "(sym_set_1, 4, lookahead)", with: "(sym_set_1, 4, lexer->lookahead)") }, "not of the form"),
            ({ $0.replacingOccurrences(of: "{'A', 'Z'}", with: "{'\\e', 'Z'}") }, "not one this step reads"),
            ({ $0.replacingOccurrences(of: "static const TSCharacterRange sym_set_1[] = {", with: "static TSCharacterRange sym_set_1[] = {") }, "no 'static const TSCharacterRange"),
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
