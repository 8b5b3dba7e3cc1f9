import AuditConfig
import AuditHistory
import AuditModel
import XCTest

/// The one glob matcher in both its dialects, through the two readers that use it: `.loadaudit.yml`'s
/// `Glob` and `CodeOwners`. Each row: a pattern, a path, whether the configuration matches it, whether
/// a CODEOWNERS line with that pattern owns it.
final class PathGlobTests: XCTestCase {
    let cases: [(pattern: String, path: String, configuration: Bool, codeOwners: Bool)] = [
        // `*` stays within a folder; with no slash inside, the pattern is at any depth.
        ("*", "README.md", true, true), ("*", "App/Deep/A.swift", true, true),
        ("*.swift", "A.swift", true, true), ("*.swift", "App/Deep/A.swift", true, true), ("*.swift", "A.swifty", false, false),
        ("App/*.swift", "App/A.swift", true, true), ("App/*.swift", "App/Sub/A.swift", false, false),
        ("App/*.swift", "Lib/App/A.swift", false, false),
        // `**`: any characters; `**/`: any number of folders, none too.
        ("App/**", "App/Sub/A.swift", true, true), ("**/Tests/**", "Pkg/Tests/A.swift", true, true),
        ("App/**/*.swift", "App/A.swift", true, true), ("App/**/*.swift", "App/Sub/Deeper/A.swift", true, true),
        ("Kit/**/Legacy", "Kit/Legacy/Old.swift", true, true), ("Kit/**/Legacy", "Kit/Net/Legacy/Old.swift", true, true),
        // `**/` is whole folders: `OldLegacy` is not `Legacy` (CODEOWNERS used to take it).
        ("Kit/**/Legacy", "Kit/OldLegacy/A.swift", false, false), ("**/Legacy", "Kit/OldLegacy/A.swift", false, false),
        // A leading `/`: nothing in the configuration, anchored at the top in CODEOWNERS.
        ("/App", "App/A.swift", true, true), ("/App", "Lib/App/A.swift", true, false),
        ("/App/", "Lib/App/A.swift", true, false),
        // A trailing `/`: a file or folder in the configuration, a folder only in CODEOWNERS.
        ("Generated/", "Generated/A.swift", true, true), ("Generated/", "Lib/Generated/A.swift", true, true),
        ("Generated/", "Lib/Generated", true, false),
        // A folder's pattern covers all in it; a name is not a prefix.
        ("Generated", "App/Generated/A.swift", true, true), ("App", "Application/A.swift", false, false),
        ("Sources/App", "Sources/App/Deep/A.swift", true, true), ("Sources/App", "Lib/Sources/App/A.swift", false, false),
        // A trailing `/*`: all below in the configuration, only the files right in it in CODEOWNERS.
        ("docs/*", "docs/a.md", true, true), ("docs/*", "docs/deep/a.md", true, false),
        // `?` is one character, never a slash; a backslash takes the next one literally.
        ("?.swift", "A.swift", true, true), ("?.swift", "AB.swift", false, false), ("a?b", "a/b", false, false),
        ("\\*.swift", "*.swift", true, true), ("\\*.swift", "A.swift", false, false),
        ("Trip\\ Planner/", "Features/Trip Planner/Map.swift", true, true),
        // Braces are alternatives in the configuration, their own characters in CODEOWNERS.
        ("{Views,Models}/**", "Models/A.swift", true, false), ("{Views,Models}/**", "{Views,Models}/A.swift", false, true),
    ]

    func testBothDialectsOnTheSameCases() throws {
        for (pattern, path, configuration, codeOwners) in cases {
            XCTAssertEqual(try Glob(pattern).matches(path), configuration, ".loadaudit.yml: \(pattern) vs \(path)")
            XCTAssertEqual(try PathGlob(pattern, syntax: .configuration).matches(path), configuration, "\(pattern) vs \(path)")
            let owners = CodeOwners(text: "\(pattern) @owner\n", file: "CODEOWNERS")
            XCTAssertEqual(owners.problems, [], pattern)
            XCTAssertEqual(owners.owners(of: path) != nil, codeOwners, "CODEOWNERS: \(pattern) vs \(path)")
        }
    }

    /// CODEOWNERS: the last matching line wins, whatever its pattern's kind, including an earlier
    /// line that is more specific.
    func testTheLastMatchingCodeOwnersLineWins() {
        let owners = CodeOwners(text: """
        /Features/Trips/      @trips
        *.swift               @swift
        **/Tests/**           @qa
        /Features/            @features
        docs/*                @docs
        """, file: "CODEOWNERS")
        XCTAssertEqual(owners.owners(of: "Features/Trips/Map.swift"), ["@features"], "a later, wider line wins over an earlier, narrower one")
        XCTAssertEqual(owners.owners(of: "Kit/Tests/KitTests.swift"), ["@qa"])
        XCTAssertEqual(owners.owners(of: "Features/Tests/A.swift"), ["@features"])
        XCTAssertEqual(owners.owners(of: "docs/Guide.swift"), ["@docs"])
        XCTAssertEqual(owners.owners(of: "docs/deep/Guide.swift"), ["@swift"])
        XCTAssertNil(owners.owners(of: "README.md"))
    }

    /// What either dialect refuses is refused with the reason.
    func testRefusals() {
        for (pattern, syntax, reason) in [
            ("!Legacy/**", PathGlob.Syntax.configuration, "negation ('!') is not supported"), ("!Legacy/", .codeOwners, "negation ('!') is not supported"),
            ("App/[AB].swift", .codeOwners, "character ranges ('[...]') are not supported"), ("V[z-a].swift", .configuration, "the range 'z-a' is backwards"),
            ("./", .configuration, "an empty pattern matches nothing"), ("Views\\", .codeOwners, "a '\\' ends the pattern"),
        ] {
            XCTAssertThrowsError(try PathGlob(pattern, syntax: syntax), pattern) { XCTAssertEqual("\($0)", reason, pattern) }
        }
        XCTAssertEqual(CodeOwners(text: "Views\\\n", file: "CODEOWNERS").problems,
                       ["CODEOWNERS:1: the pattern 'Views\\' cannot be read (a '\\' ends the pattern): line skipped"])
    }
}
