import Foundation
import XCTest

/// Swift's name lookup for the rules without `module:` (the app's own deprecated components): the
/// component's home is where the tree declares it as a View; a module's own type of that name shadows
/// what it imports, and `M.Name` is M's (docs/project-model.md, rules/README.md "Whose name it is").
final class NameLookupTests: XCTestCase {
    static let trailMaps = Repository.root.appendingPathComponent("fixtures/TrailMaps")

    private func rows(_ run: CLIRun) throws -> [String] {
        let report = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as! [String: Any]
        return (report["findings"] as! [[String: Any]]).map { finding in
            ["\(finding["file"]!)", "\(finding["line"]!)", "\(finding["column"]!)", "\(finding["ruleId"]!)", "\(finding["fix"]!)", (finding["replacement"] as? String) ?? ""]
                .joined(separator: "\t")
        }
    }

    /// fixtures/TrailMaps: the package's own `LoadingOverlay` (its declaration, its two files' uses) and
    /// the app's `MapTiles.LoadingOverlay` (a declaration's type, an `as?` cast) are not reported; the
    /// app's deprecated view and its use beside them are.
    func testAPackagesOwnTypeOfTheSameNameIsNotTheAppsComponent() throws {
        let run = CLIRun(["scan", "--no-config", "--format", "json", "."], in: Self.trailMaps.path)
        XCTAssertEqual(run.status, 1, run.errors)
        XCTAssertEqual(try rows(run), try expectedRows("expected-name-lookup.tsv"))
    }

    /// The fix follows it: only the app's view is rewritten.
    func testTheFixLeavesThePackagesTypeAlone() {
        let run = CLIRun(["fix", "--dry-run", "--no-config", "--rule", "loading-overlay", "."], in: Self.trailMaps.path)
        XCTAssertEqual(run.status, 1, run.errors)
        XCTAssertTrue(run.output.contains("+                    LoadingSheet(label: \"Loading trail\")"), run.output)
        XCTAssertFalse(run.output.contains("MapTiles/"), run.output)
        XCTAssertEqual(run.output.components(separatedBy: "\n+ ").count, 2, run.output)  // one line added
    }

    /// Three package targets: DesignKit declares the deprecated view, MapKitExtras a class of the same
    /// name; the app's files import one, the other, both, or qualify the name.
    func testEachFileGetsTheModuleItSees() throws {
        let tree = try TemporaryTree([
            "Package.swift": """
            // swift-tools-version:5.9
            import PackageDescription

            let package = Package(
                name: "Harbor",
                targets: [
                    .target(name: "DesignKit"),
                    .target(name: "MapKitExtras"),
                    .executableTarget(name: "Harbor", dependencies: ["DesignKit", "MapKitExtras"]),
                ]
            )

            """,
            "Sources/DesignKit/LoadingOverlay.swift": """
            import SwiftUI

            public struct LoadingOverlay: View {
                public let message: String
                public init(message: String) { self.message = message }
                public var body: some View { Text(message) }
            }

            """,
            "Sources/MapKitExtras/LoadingOverlay.swift": """
            import MapKit

            public final class LoadingOverlay: MKTileOverlay {}

            """,
            "Sources/Harbor/DocksView.swift": """
            import DesignKit
            import SwiftUI

            struct DocksView: View {
                var body: some View { LoadingOverlay(message: "Loading docks") }
            }

            """,
            "Sources/Harbor/ChartView.swift": """
            import MapKitExtras
            import MapKit

            func chartOverlay() -> MKTileOverlay { LoadingOverlay(urlTemplate: nil) }

            """,
            "Sources/Harbor/BerthsView.swift": """
            import DesignKit
            import MapKitExtras
            import SwiftUI

            struct BerthsView: View {
                let tiles: MapKitExtras.LoadingOverlay?
                var body: some View {
                    VStack {
                        LoadingOverlay(message: "Loading berths")
                        DesignKit.LoadingOverlay(message: "Loading moorings")
                    }
                }
            }

            """,
        ])
        let run = CLIRun(["scan", "--no-config", "--rule", "loading-overlay", "--format", "json", "."], in: tree.path)
        XCTAssertEqual(run.status, 1, run.errors)
        XCTAssertEqual(try rows(run).map { $0.split(separator: "\t").prefix(5).joined(separator: " ") }, [
            "Sources/DesignKit/LoadingOverlay.swift 3 15 loading-overlay manual",
            "Sources/Harbor/BerthsView.swift 9 13 loading-overlay unsafe",
            "Sources/Harbor/BerthsView.swift 10 13 loading-overlay safe",
            "Sources/Harbor/DocksView.swift 5 27 loading-overlay safe",
        ])
        let text = CLIRun(["scan", "--no-config", "--rule", "loading-overlay", "."], in: tree.path).output
        XCTAssertTrue(text.contains("LoadingOverlay is declared by DesignKit (a View) and by MapKitExtras, both imported here: check which this is"), text)
    }

    /// A pattern rule without `module:` (SwiftUI's `NavigationView`) follows the same lookup: where the
    /// tree declares a view of the name (a back-deploy shim in CompatKit), a module with its own type
    /// of that name (ChromeKit's navigation bar) keeps it in its own files and as `ChromeKit.NavigationView`;
    /// the shim's uses and the app's unqualified use are still found; a file importing both is told why.
    func testAPatternRuleFollowsTheSameLookup() throws {
        let tree = try TemporaryTree([
            "Package.swift": """
            // swift-tools-version:5.9
            import PackageDescription

            let package = Package(
                name: "Ferry",
                platforms: [.iOS(.v16)],
                targets: [
                    .target(name: "CompatKit"),
                    .target(name: "ChromeKit"),
                    .executableTarget(name: "Ferry", dependencies: ["CompatKit", "ChromeKit"]),
                ]
            )

            """,
            "Sources/CompatKit/NavigationView.swift": """
            import SwiftUI

            /// The app's stand-in while it still supports iOS 15: a stack on 16 and later.
            public struct NavigationView: View {
                let content: AnyView
                public init<Content: View>(@ViewBuilder content: () -> Content) { self.content = AnyView(content()) }
                public var body: some View { NavigationStack { content } }
            }

            public extension NavigationView {
                static var empty: NavigationView { NavigationView { EmptyView() } }
            }

            """,
            "Sources/ChromeKit/NavigationView.swift": """
            import UIKit

            /// The ferry timetable's custom title bar.
            public final class NavigationView: UIView {
                public var title: String = ""
            }

            public func makeTitleBar(_ title: String) -> NavigationView {
                let bar = NavigationView(frame: .zero)
                bar.title = title
                return bar
            }

            """,
            "Sources/Ferry/SailingsScreen.swift": """
            import ChromeKit
            import CompatKit
            import SwiftUI
            import UIKit

            struct SailingsScreen: View {
                let bar: ChromeKit.NavigationView?
                var body: some View {
                    CompatKit.NavigationView {
                        Text("Sailings")
                    }
                }
                func attach(_ view: UIView) -> Bool { view is ChromeKit.NavigationView }
            }

            """,
            "Sources/Ferry/DeparturesScreen.swift": """
            import ChromeKit
            import CompatKit
            import SwiftUI

            struct DeparturesScreen: View {
                var body: some View {
                    NavigationView { Text("Departures") }
                }
            }

            """,
            "Sources/Ferry/PortsScreen.swift": """
            import CompatKit
            import SwiftUI

            struct PortsScreen: View {
                var body: some View {
                    NavigationView { Text("Ports") }
                }
            }

            """,
        ])
        let run = CLIRun(["scan", "--no-config", "--rules", "swiftui-deprecations", "--rule", "navigation-view", "--format", "json", "."], in: tree.path)
        XCTAssertEqual(run.status, 1, run.errors)
        XCTAssertEqual(try rows(run).map { $0.split(separator: "\t").prefix(4).joined(separator: " ") }, [
            "Sources/CompatKit/NavigationView.swift 10 18 navigation-view",
            "Sources/CompatKit/NavigationView.swift 11 23 navigation-view",
            "Sources/CompatKit/NavigationView.swift 11 40 navigation-view",
            "Sources/Ferry/DeparturesScreen.swift 7 9 navigation-view",
            "Sources/Ferry/PortsScreen.swift 6 9 navigation-view",
            "Sources/Ferry/SailingsScreen.swift 9 19 navigation-view",
        ])
        // A file that sees both (it would not build): kept, and the message says which two.
        let text = CLIRun(["scan", "--no-config", "--rules", "swiftui-deprecations", "--rule", "navigation-view", "."], in: tree.path).output
        XCTAssertTrue(text.contains("NavigationView is declared by CompatKit (a View) and by ChromeKit, both imported here: check which this is"), text)
        // The fix follows it: ChromeKit's bar is left alone.
        let fix = CLIRun(["fix", "--dry-run", "--unsafe", "--no-config", "--rules", "swiftui-deprecations", "--rule", "navigation-view", "."], in: tree.path)
        XCTAssertTrue(fix.output.contains("+        CompatKit.NavigationStack {"), fix.output)
        XCTAssertFalse(fix.output.contains("ChromeKit/"), fix.output)
        XCTAssertFalse(fix.output.contains("ChromeKit.NavigationStack"), fix.output)
    }
}
