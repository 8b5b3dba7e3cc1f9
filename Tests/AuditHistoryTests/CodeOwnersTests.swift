@testable import AuditHistory
import XCTest

/// CODEOWNERS as GitHub reads it: last match wins, anchoring, folders, bad lines skipped with their number.
final class CodeOwnersTests: XCTestCase {
    func testTheLastMatchingLineWinsWithGitHubsAnchoring() {
        let owners = CodeOwners(text: """
        # Everyone's by default.
        *                   @org/mobile
        *.swift             @swift-team
        /App/               @app-team
        Features/           @features
        docs/*              @docs
        /Kit/**/Legacy      @legacy legacy@example.com
        Games.swift         @games
        """, file: "CODEOWNERS")
        XCTAssertEqual(owners.problems, [])
        XCTAssertEqual(owners.owners(of: "README.md"), ["@org/mobile"])
        XCTAssertEqual(owners.owners(of: "Kit/A.swift"), ["@swift-team"])
        XCTAssertEqual(owners.owners(of: "App/Main.swift"), ["@app-team"])
        XCTAssertEqual(owners.owners(of: "Lib/App/Main.swift"), ["@swift-team"], "/App/ is anchored at the top")
        XCTAssertEqual(owners.owners(of: "Lib/Features/A.swift"), ["@features"], "Features/ is at any depth")
        XCTAssertEqual(owners.owners(of: "docs/a.md"), ["@docs"])
        XCTAssertEqual(owners.owners(of: "docs/deep/a.md"), ["@org/mobile"], "docs/* does not reach into subfolders")
        XCTAssertEqual(owners.owners(of: "Kit/Net/Legacy/Old.swift"), ["@legacy", "legacy@example.com"])
        XCTAssertEqual(owners.owners(of: "Kit/Legacy/Old.swift"), ["@legacy", "legacy@example.com"], "** may be no folder at all")
        XCTAssertEqual(owners.owners(of: "App/Screens/Games.swift"), ["@games"])
    }

    /// A space in a path is written `\\ `: it stays in the pattern rather than ending it.
    func testAnEscapedSpaceIsPartOfThePath() {
        let owners = CodeOwners(text: "*  @org/mobile\n/Features/Trip\\ Planner/  @trips\n", file: "CODEOWNERS")
        XCTAssertEqual(owners.problems, [])
        XCTAssertEqual(owners.owners(of: "Features/Trip Planner/Map.swift"), ["@trips"])
        XCTAssertEqual(owners.owners(of: "Features/Trip/Map.swift"), ["@org/mobile"])
    }

    func testALineGitHubWouldRejectIsSkippedAndReportedWithItsNumber() {
        let owners = CodeOwners(text: "*.swift @swift\n!Legacy/ @nobody\nApp/[AB]*.swift @ab\nKit/ team-without-at\nApp/ @app # the app\n", file: ".github/CODEOWNERS")
        XCTAssertEqual(owners.problems, [
            ".github/CODEOWNERS:2: '!Legacy/': negation ('!') is not supported in CODEOWNERS: line skipped",
            ".github/CODEOWNERS:3: 'App/[AB]*.swift': character ranges ('[...]') are not supported in CODEOWNERS: line skipped",
            ".github/CODEOWNERS:4: 'team-without-at' is not an owner (@user, @org/team or an e-mail address): line skipped",
        ])
        XCTAssertEqual(owners.owners(of: "Kit/A.swift"), ["@swift"])
        XCTAssertEqual(owners.owners(of: "App/A.swift"), ["@app"], "a comment after the owners is no owner")
    }
}
