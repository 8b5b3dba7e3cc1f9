import AuditModel
import XCTest

/// `partitioningIndex`, the one binary search of the sorted tables (line starts, word offsets, edits,
/// report paths), against a search from the start.
final class SortedSearchTests: XCTestCase {
    func testItFindsWhatALinearSearchFinds() {
        var generator = SystemRandomNumberGenerator()
        for count in 0..<40 {
            for _ in 0..<20 {
                let values = (0..<count).map { _ in Int.random(in: 0..<12, using: &generator) }.sorted()
                for probe in -1...13 {
                    let expected = values.firstIndex { $0 >= probe } ?? values.endIndex
                    XCTAssertEqual(values.partitioningIndex { $0 >= probe }, expected, "\(values) >= \(probe)")
                    // A slice keeps its parent's indices.
                    let slice = values.dropFirst(count / 3)
                    XCTAssertEqual(slice.partitioningIndex { $0 > probe }, slice.firstIndex { $0 > probe } ?? slice.endIndex, "\(slice) > \(probe)")
                }
            }
        }
    }
}
