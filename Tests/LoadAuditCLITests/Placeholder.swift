import XCTest
final class LoadAuditCLITestsPlaceholder: XCTestCase {}
