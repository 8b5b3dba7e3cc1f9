import XCTest
final class AuditScanTestsPlaceholder: XCTestCase {}
