import Foundation
import LoadAuditTestSupport
import AuditProject
@testable import SwiftGrammar
import TreeSitter
import XCTest

/// A manifest read with the walk that skips the subtrees where no target function's word starts
/// (`SwiftPackageManifest.read`, docs/speed.md) gives the targets the plain walk of every node gives:
/// on generated manifests (every target function, written with a dot or with `Target.`, in arrays,
/// variables, helper functions and loops, look-alike calls of other names or types, broken code) and
/// on every manifest of the fixtures.
final class ManifestReadingTests: XCTestCase {
    func testSkippingTheWalkReadsTheTargetsThePlainWalkReads() throws {
        var random = SeededRandom(seed: 42)
        let functions = ["target", "executableTarget", "testTarget", "macro", "plugin", "systemLibrary", "binaryTarget",
                         "targets", "product", "library", "executable", "package"]
        func call() -> String {
            let function = random.pick(functions)
            let head = random.pick([".", ".", "Target.", "Product.", "PackageDescription.Target."])
            let name = random.pick(["App", "Core", "Kit\\(x)", "Tests", "Macros"]) + String(random.below(4))
            var arguments = [random.chance(85) ? "name: \"\(name)\"" : "name: prefix + \"\(name)\""]
            if random.chance(50) { arguments.append("dependencies: [\(random.chance(50) ? "\"Core\"" : ".product(name: \"Lib\", package: \"lib\")")]") }
            if random.chance(40) { arguments.append("path: \"Sources/\(name)\"") }
            return head + function + "(" + arguments.joined(separator: ", ") + ")"
        }
        var targets = 0
        for _ in 0..<400 {
            var parts = ["// swift-tools-version:5.9", "import PackageDescription"]
            if random.chance(40) { parts.append("let shared: [Target] = [\(call()), \(call())]") }
            if random.chance(30) { parts.append("func helper(_ x: String) -> Target { \(call()) }") }
            if random.chance(20) { parts.append("for x in [\"A\", \"B\"] { extra.append(\(call())) }") }
            let list = (0..<random.below(6)).map { _ in call() }.joined(separator: ",\n        ")
            parts.append("let package = Package(\n    name: \"Pkg\",\n    products: [.library(name: \"Lib\", targets: [\"Core\"])],\n    targets: [\n        \(list)\n    ]\n)")
            if random.chance(15) { parts.append(random.pick(["package.targets += [", "let broken = .target(name: \"X\"", "}"])) }
            let tree = try Parser().parse(SourceText(parts.joined(separator: "\n")))
            let skipping = SwiftPackageManifest.read(tree), plain = SwiftPackageManifest.read(tree, skipsUnmarkedSubtrees: false)
            XCTAssertEqual(skipping, plain, parts.joined(separator: "\n"))
            targets += plain.targets.count
        }
        XCTAssertGreaterThan(targets, 300)
        for name in ["TripNotices/Package.swift", "TripPlanner/Package.swift", "ModularLedger/Package.swift", "TrailMaps/MapTiles/Package.swift", "Shopfront/Package.swift"] {
            let data = try Data(contentsOf: RepositoryFolder.root.appendingPathComponent("fixtures/" + name))
            let tree = try Parser().parse(SourceText(bytes: Array(data)))
            let plain = SwiftPackageManifest.read(tree, skipsUnmarkedSubtrees: false)
            XCTAssertFalse(plain.targets.isEmpty, name)
            XCTAssertEqual(SwiftPackageManifest.read(tree), plain, name)
        }
    }
}
