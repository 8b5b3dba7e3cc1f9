import Foundation
import LoadAuditCLI
import XCTest

/// The built-in table `skeleton-first` (rules/skeleton-first.yml): a second loading philosophy written
/// as data, with no Swift of its own. A spinner that stands in for content is reported; one that marks a
/// discrete action (a button's label, beside a field, a toolbar, a sheet's save) is not.
final class SkeletonFirstTests: XCTestCase {
    let fixture = Repository.root.appendingPathComponent("fixtures/SkeletonFirst")

    /// fixtures/SkeletonFirst against its hand-written table (fixtures/expected-skeleton-first.tsv).
    func testTheFixtureGivesTheTable() throws {
        let run = CLIRun(["scan", "--no-config", "--rules", "skeleton-first", "--format", "json", "."], in: fixture.path)
        XCTAssertEqual(run.status, 1, run.errors)
        let actual = try findings(run).map { finding in
            ["\(finding["file"]!)", "\(finding["line"]!)", "\(finding["column"]!)", "\(finding["ruleId"]!)", "\(finding["fix"]!)", (finding["replacement"] as? String) ?? ""]
                .joined(separator: "\t")
        }
        XCTAssertEqual(actual, try expectedRows("expected-skeleton-first.tsv"))
    }

    /// A fresh SwiftPM app: content spinners in the loading branches of a List and a ScrollView are
    /// reported, and only they; the spinners of a Button's label, beside a field, in a toolbar, in a
    /// sheet's save and a determinate bar are not.
    func testAFreshAppGetsExactlyItsContentSpinners() throws {
        let tree = try TemporaryTree([
            "Package.swift": """
            // swift-tools-version:5.9
            import PackageDescription

            let package = Package(
                name: "Pantry",
                platforms: [.iOS(.v17)],
                targets: [.executableTarget(name: "Pantry")]
            )

            """,
            "Sources/Pantry/RecipesView.swift": """
            import SwiftUI

            struct RecipesView: View {
                @State private var recipes: [Recipe] = []
                @State private var isLoading = true
                @State private var isImporting = false
                @State private var importURL = ""

                var body: some View {
                    NavigationStack {
                        List {
                            Section {
                                HStack {
                                    TextField("Import from URL", text: $importURL)
                                    if isImporting {
                                        ProgressView()
                                    }
                                }
                            }
                            if isLoading {
                                ProgressView("Loading recipes…")
                            } else {
                                ForEach(recipes) { RecipeRow(recipe: $0) }
                            }
                        }
                        .navigationTitle("Recipes")
                        .toolbar {
                            ToolbarItem {
                                Button {
                                    isImporting = true
                                } label: {
                                    if isImporting { ProgressView() } else { Image(systemName: "square.and.arrow.down") }
                                }
                            }
                        }
                    }
                }
            }

            """,
            "Sources/Pantry/ShoppingListView.swift": """
            import SwiftUI

            struct ShoppingListView: View {
                @ObservedObject var list: ShoppingList
                @State private var showsCheckout = false

                var body: some View {
                    ScrollView {
                        VStack(alignment: .leading) {
                            if list.items == nil {
                                ProgressView()
                                    .frame(maxWidth: .infinity, minHeight: 200)
                            } else {
                                ForEach(list.items ?? []) { ItemCard(item: $0) }
                            }
                            Button {
                                showsCheckout = true
                            } label: {
                                HStack {
                                    if list.isOrdering { ProgressView() }
                                    Text("Order groceries")
                                }
                            }
                            ProgressView(value: list.budgetUsed, total: list.budget)
                        }
                    }
                    .sheet(isPresented: $showsCheckout) {
                        VStack {
                            Text("Placing your order")
                            if list.isOrdering {
                                ProgressView("Sending order…")
                            }
                        }
                    }
                }
            }

            """,
        ])
        let run = CLIRun(["scan", "--no-config", "--rules", "skeleton-first", "--format", "json", "."], in: tree.path)
        XCTAssertEqual(run.status, 1, run.errors)
        XCTAssertEqual(try findings(run).map { "\($0["file"]!):\($0["line"]!):\($0["column"]!) \($0["ruleId"]!) \(($0["replacement"] as? String) ?? "-")" }, [
            "Sources/Pantry/RecipesView.swift:21:21 content-spinner-in-list LoadingPlaceholder.listRow",
            "Sources/Pantry/ShoppingListView.swift:11:21 content-spinner-in-scroll-view LoadingPlaceholder.card",
        ])
        // The same app with the default table: every spinner there is a raw ProgressView, the
        // determinate bar aside (the skeleton-first table leaves the action ones alone, not the tool).
        let migration = CLIRun(["scan", "--no-config", "--rule", "raw-progress-view", "--format", "json", "."], in: tree.path)
        XCTAssertEqual(try findings(migration).count, 6, migration.output)
    }

    /// Its examples pass `rules test`; the overlap between the scaled-spinner rule and the list rule is
    /// reported as such (the one with more conditions reports the spinner), not as a failure.
    func testItsExamplesPassAndItsOverlapIsNamed() {
        let run = CLIRun(["rules", "test", "skeleton-first"])
        XCTAssertEqual(run.status, 0, run.output + run.errors)
        XCTAssertTrue(run.output.contains("scaled-content-spinner: match 1: content-spinner-in-list matches it too; scaled-content-spinner reports it"), run.output)
        XCTAssertTrue(run.output.hasSuffix("skeleton-first: 35 checks of 4 rules: all pass\n"), run.output)
    }

    /// With the migration table too, each spinner is reported once: a content spinner by the more
    /// specific skeleton-first rule, the others by raw-progress-view.
    func testWithTheMigrationTableEachSpinnerIsReportedOnce() throws {
        let run = CLIRun(["scan", "--no-config", "--rules", "loading-migration", "--rules", "skeleton-first", "--format", "json", "Sources/Notes/NotesListView.swift"], in: fixture.path)
        XCTAssertEqual(try findings(run).map { "\($0["line"]!) \($0["ruleId"]!)" }, [
            "11 content-spinner-in-list", "20 content-spinner-in-list", "30 raw-progress-view", "38 raw-progress-view", "66 raw-progress-view",
        ])
    }

    private func findings(_ run: CLIRun) throws -> [[String: Any]] {
        let report = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as! [String: Any]
        return report["findings"] as! [[String: Any]]
    }
}
