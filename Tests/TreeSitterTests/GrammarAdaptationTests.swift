import Foundation
import TreeSitter
import XCTest

/// scripts/adapt-grammar-abi14, the bootstrap step that turns the registry's ABI-15 parser.c into the
/// ABI-14 parser Debian's runtime loads: on a small parser.c of the same shape, what it rewrites, and
/// that it refuses (leaving the file as it was) whatever ABI 14 cannot express.
final class GrammarAdaptationTests: XCTestCase {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/adapt-grammar-abi14")

    /// The parts of a generated ABI-15 parser.c the step reads, in the generator's layout.
    static let abi15 = """
        #include "tree_sitter/parser.h"

        #define LANGUAGE_VERSION 15
        #define STATE_COUNT 3
        #define MAX_RESERVED_WORD_SET_SIZE 0
        #define PRODUCTION_ID_COUNT 2
        #define SUPERTYPE_COUNT 0

        static const TSMapSlice ts_field_map_slices[PRODUCTION_ID_COUNT] = {
          [1] = {.index = 0, .length = 1},
        };

        static const TSLexerMode ts_lex_modes[STATE_COUNT] = {
          [0] = {.lex_state = 0, .external_lex_state = 1},
          [1] = {.lex_state = 763, .external_lex_state = 2},
          [2] = {.lex_state = 33},
        };

        TS_PUBLIC const TSLanguage *tree_sitter_swift(void) {
          static const TSLanguage language = {
            .abi_version = LANGUAGE_VERSION,
            .state_count = STATE_COUNT,
            .supertype_count = SUPERTYPE_COUNT,
            .field_map_slices = ts_field_map_slices,
            .lex_modes = (const void*)ts_lex_modes,
            .lex_fn = ts_lex,
            .external_scanner = {
              &ts_external_scanner_states[0][0],
              ts_external_scanner_symbol_map,
            },
            .primary_state_ids = ts_primary_state_ids,
            .name = "swift",
            .max_reserved_word_set_size = 0,
            .metadata = {
              .major_version = 0,
              .minor_version = 7,
              .patch_version = 4,
            },
          };
          return &language;
        }

        """

    struct Run {
        let status: Int32
        let errors: String
        let file: String
    }

    /// Runs the step on a copy of `text` in a temporary folder.
    func adapt(_ text: String) throws -> Run {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/python3") else {
            throw XCTSkip("python3 is not installed (scripts/bootstrap needs it anyway)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("adapt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let parser = folder.appendingPathComponent("parser.c")
        try text.write(to: parser, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path, parser.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        XCTAssertEqual(left, ["parser.c"], "the step leaves no temporary file behind")
        return Run(status: process.terminationStatus, errors: message, file: try String(contentsOf: parser, encoding: .utf8))
    }

    func testAnABI15ParserBecomesTheABI14ParserItDiffersFromOnlyInNames() throws {
        let run = try adapt(Self.abi15)
        XCTAssertEqual(run.status, 0, run.errors)
        let expected = Self.abi15
            .replacingOccurrences(of: "#define LANGUAGE_VERSION 15", with: "#define LANGUAGE_VERSION 14")
            .replacingOccurrences(of: "static const TSMapSlice", with: "static const TSFieldMapSlice")
            .replacingOccurrences(of: "static const TSLexerMode", with: "static const TSLexMode")
            .replacingOccurrences(of: ".abi_version = LANGUAGE_VERSION", with: ".version = LANGUAGE_VERSION")
            .replacingOccurrences(of: "    .supertype_count = SUPERTYPE_COUNT,\n", with: "")
            .replacingOccurrences(of: """
                    .name = "swift",
                    .max_reserved_word_set_size = 0,
                    .metadata = {
                      .major_version = 0,
                      .minor_version = 7,
                      .patch_version = 4,
                    },

                """, with: "")
        XCTAssertEqual(run.file, expected)
        XCTAssertTrue(run.errors.contains("adapted to language ABI 14"), run.errors)
    }

    /// Each change a future generator could make that ABI 14 cannot carry: refused with a message
    /// naming the file and what was found, and the file left byte for byte as it was.
    func testWhatABI14CannotExpressIsRefusedAndTheFileLeftAsItWas() throws {
        let cases: [(change: (String) -> String, says: String)] = [
            ({ $0.replacingOccurrences(of: "{.lex_state = 33}", with: "{.lex_state = 33, .reserved_word_set_id = 1}") }, "reserved_word_set_id"),
            ({ $0.replacingOccurrences(of: "#define SUPERTYPE_COUNT 0", with: "#define SUPERTYPE_COUNT 4") }, "SUPERTYPE_COUNT 0"),
            ({ $0.replacingOccurrences(of: "#define MAX_RESERVED_WORD_SET_SIZE 0", with: "#define MAX_RESERVED_WORD_SET_SIZE 3") }, "MAX_RESERVED_WORD_SET_SIZE 0"),
            ({ $0.replacingOccurrences(of: "    .lex_fn = ts_lex,\n", with: "    .lex_fn = ts_lex,\n    .supertype_symbols = ts_supertype_symbols,\n") }, "ts_supertype"),
            ({ $0.replacingOccurrences(of: "    .lex_fn = ts_lex,\n", with: "    .lex_fn = ts_lex,\n    .keyword_tables = ts_keyword_tables,\n") }, ".keyword_tables"),
            ({ $0.replacingOccurrences(of: ".max_reserved_word_set_size = 0", with: ".max_reserved_word_set_size = 2") }, ".max_reserved_word_set_size"),
            ({ $0.replacingOccurrences(of: "#define LANGUAGE_VERSION 15", with: "#define LANGUAGE_VERSION 14") }, "LANGUAGE_VERSION 15"),
            ({ $0.replacingOccurrences(of: "static const TSLexerMode ts_lex_modes", with: "static const TSLexerModeV2 ts_lex_modes") }, "TSLexerMode"),
            ({ $0.replacingOccurrences(of: ".lex_modes = (const void*)ts_lex_modes", with: ".lex_modes = (const TSLexerMode *)ts_lex_modes") }, "TSLexerMode is used 2 times"),
            ({ $0.replacingOccurrences(of: "    .primary_state_ids = ts_primary_state_ids,\n", with: "    .primary_state_ids = ts_primary_state_ids,\n    // a comment\n") }, "unexpected line"),
        ]
        for (change, says) in cases {
            let broken = change(Self.abi15)
            XCTAssertNotEqual(broken, Self.abi15, "the case changes nothing: \(says)")
            let run = try adapt(broken)
            XCTAssertEqual(run.status, 1, says)
            XCTAssertEqual(run.file, broken, "the file was changed though refused: \(says)")
            XCTAssertTrue(run.errors.contains("parser.c: "), run.errors)
            XCTAssertTrue(run.errors.contains(says), "\(says) not in: \(run.errors)")
            XCTAssertEqual(run.errors.split(separator: "\n").count, 1, run.errors)
        }
    }

    /// What the step made is what the runtime loads: the grammar linked in is ABI 14.
    func testTheLinkedGrammarIsABI14() {
        XCTAssertEqual(Language.swift.abiVersion, 14)
    }
}
