import AuditProgress
import XCTest

/// The repository's name read off its `origin` remote: every way git writes a remote URL gives the
/// same owner/name.
final class ReportIdentityTests: XCTestCase {
    func testRemoteURLsReduceToOwnerAndName() {
        let cases: [(String, String?)] = [
            ("https://github.com/acme/trips-ios.git", "acme/trips-ios"),
            ("https://github.com/acme/trips-ios", "acme/trips-ios"),
            ("https://github.com/acme/trips-ios/", "acme/trips-ios"),
            ("https://github.com/acme/trips-ios.git/", "acme/trips-ios"),
            ("https://user:token@github.com/acme/trips-ios.git", "acme/trips-ios"),
            ("git@github.com:acme/trips-ios.git", "acme/trips-ios"),
            ("git@github.com:acme/trips-ios", "acme/trips-ios"),
            ("ssh://git@github.example.com:2222/acme/trips-ios.git", "acme/trips-ios"),
            ("https://gitlab.com/acme/mobile/trips-ios.git", "mobile/trips-ios"),
            ("/srv/git/acme/trips-ios.git", "acme/trips-ios"),
            ("../trips-ios", "trips-ios"),
            ("trips-ios.git", "trips-ios"),
            ("https://github.com/", nil),
            ("", nil),
        ]
        for (url, expected) in cases {
            XCTAssertEqual(ReportIdentity.repositoryName(fromRemote: url), expected, url)
        }
    }
}
