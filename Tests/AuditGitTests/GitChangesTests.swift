import AuditGit
import XCTest

final class GitChangesTests: XCTestCase {
    func testUnifiedZeroContextDiffsGiveTheChangedLines() {
        let diff = """
        diff --git a/App/A.swift b/App/A.swift
        --- a/App/A.swift
        +++ b/App/A.swift
        @@ -3,0 +4,2 @@ struct A {
        +x
        +y
        @@ -10 +12 @@
        -old
        +new
        @@ -20,3 +22,0 @@
        diff --git a/Gone.swift b/Gone.swift
        --- a/Gone.swift
        +++ /dev/null
        @@ -1,2 +0,0 @@
        --- a/My File.swift
        +++ b/My File.swift
        @@ -1 +1 @@

        """
        let lines = GitChanges.parse(diff, top: "/repo")
        XCTAssertEqual(lines["/repo/App/A.swift"], [4, 5, 12])
        XCTAssertNil(lines["/repo/Gone.swift"])
        XCTAssertEqual(lines["/repo/My File.swift"], [1])
    }
}
