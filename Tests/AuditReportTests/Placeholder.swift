import XCTest
final class AuditReportTestsPlaceholder: XCTestCase {}
