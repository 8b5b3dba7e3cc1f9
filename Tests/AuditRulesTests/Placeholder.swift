import XCTest
final class AuditRulesTestsPlaceholder: XCTestCase {}
