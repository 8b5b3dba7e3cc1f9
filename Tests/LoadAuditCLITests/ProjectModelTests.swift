import Foundation
import XCTest

/// Whose name a rule sees: the modular fixture (fixtures/ModularLedger: LegacyDesignSystem, DesignSystem,
/// ChartKit with a DSButton of its own, LedgerApp), folders of unrelated apps, and the gate over
/// rules files.
final class ProjectModelTests: XCTestCase {
    static let ledger = Repository.root.appendingPathComponent("fixtures/ModularLedger")

    /// A copy of the fixture to change.
    private func ledgerCopy() throws -> TemporaryTree {
        let tree = try TemporaryTree()
        for file in try FileManager.default.subpathsOfDirectory(atPath: Self.ledger.path) {
            var isDirectory: ObjCBool = false
            let source = Self.ledger.appendingPathComponent(file)
            guard FileManager.default.fileExists(atPath: source.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            try tree.write(file, try Data(contentsOf: source))
        }
        return tree
    }

    private func findings(_ run: CLIRun) throws -> [String] {
        let report = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as! [String: Any]
        return (report["findings"] as! [[String: Any]]).map { "\($0["file"]!):\($0["line"]!) \($0["ruleId"]!) \($0["fix"]!)" }
    }

    func testEachRuleCountsWhereItsModuleIsSeenAndNotInTheModulesOwnCode() throws {
        let run = CLIRun(["scan", "--format", "json", "."], in: Self.ledger.path)
        XCTAssertEqual(run.status, 1, run.errors)
        XCTAssertEqual(try findings(run), [
            // Imports LegacyDesignSystem only: every use, the qualified HUD and DSButton.init included.
            "Sources/LedgerApp/Accounts/AccountsView.swift:16 legacy-brand-orange safe",
            "Sources/LedgerApp/Accounts/AccountsView.swift:17 legacy-primary-button safe",
            "Sources/LedgerApp/Accounts/AccountsView.swift:19 legacy-card-style safe",
            "Sources/LedgerApp/Accounts/AccountsView.swift:22 legacy-secondary-button safe",
            "Sources/LedgerApp/Accounts/AccountsView.swift:31 legacy-hud safe",
            // Imports both modules that declare DSButton: ambiguous.
            "Sources/LedgerApp/Budget/BudgetView.swift:12 legacy-primary-button unsafe",
            "Sources/LedgerApp/Settings/SettingsView.swift:14 legacy-secondary-button safe",
            "Sources/LedgerApp/Settings/SettingsView.swift:16 legacy-brand-orange safe",
            "Sources/LedgerApp/Settings/SettingsView.swift:20 legacy-hud safe",
        ])
        // Not in ChartKit (its own DSButton), not where only ChartKit is imported (SpendingScreen), not
        // in LegacyDesignSystem's declarations, extensions and previews.
        let text = CLIRun(["scan", "."], in: Self.ledger.path).output
        XCTAssertTrue(text.contains("(DSButton is declared by LegacyDesignSystem and by ChartKit, both imported here: check which this is; the fix adds import DesignSystem)"), text)
        XCTAssertTrue(text.contains("Color.brandOrange is replaced by Theme.accent. (the fix adds import DesignSystem) [legacy-brand-orange]"), text)
    }

    func testAFixAddsTheImportOnceLeavesOtherModulesAloneAndSettles() throws {
        let tree = try ledgerCopy()
        let untouched = ["Sources/LegacyDesignSystem/DSButton.swift", "Sources/LegacyDesignSystem/Styles.swift", "Sources/ChartKit/DSButton.swift",
                         "Sources/ChartKit/SpendingChart.swift", "Sources/LedgerApp/Charts/SpendingScreen.swift", "Sources/LedgerApp/Budget/BudgetView.swift"]
        let before = try untouched.map { try String(contentsOf: tree.url.appendingPathComponent($0), encoding: .utf8) }
        let fix = CLIRun(["fix", "."], in: tree.path)
        XCTAssertEqual(fix.status, 0, fix.errors)
        XCTAssertEqual(try untouched.map { try String(contentsOf: tree.url.appendingPathComponent($0), encoding: .utf8) }, before)
        let accounts = try String(contentsOf: tree.url.appendingPathComponent("Sources/LedgerApp/Accounts/AccountsView.swift"), encoding: .utf8)
        // Nothing of LegacyDesignSystem is left in it: its import goes, DesignSystem's comes.
        XCTAssertTrue(accounts.contains("import SwiftUI\nimport DesignSystem\n\nstruct AccountsView"), accounts)
        XCTAssertEqual(accounts.components(separatedBy: "import DesignSystem").count, 2)
        for line in ["PrimaryButton(\"Transfer\", action: { transfer(from: account) })", "SecondaryButton(\"Reset\", action: reset)",
                     ".foregroundStyle(Theme.accent)", ".surfaceCard()", "Toast.show(\"Resetting...\")"] {
            XCTAssertTrue(accounts.contains(line), line)
        }
        let settings = try String(contentsOf: tree.url.appendingPathComponent("Sources/LedgerApp/Settings/SettingsView.swift"), encoding: .utf8)
        XCTAssertEqual(settings.components(separatedBy: "import DesignSystem").count, 2, "already imported: no second import")
        XCTAssertFalse(settings.contains("import LegacyDesignSystem"), settings)
        // Every rewritten file parses (the fix checks), and a second fix has nothing left to do.
        let again = CLIRun(["fix", "--dry-run", "."], in: tree.path)
        XCTAssertEqual(again.status, 0, again.output + again.errors)
        XCTAssertEqual(again.output, "")
        let left = try findings(CLIRun(["scan", "--format", "json", "."], in: tree.path))
        XCTAssertEqual(left, ["Sources/LedgerApp/Budget/BudgetView.swift:12 legacy-primary-button unsafe"])
    }

    func testSyntaxProjectPrintsTheModules() throws {
        let run = CLIRun(["syntax", "--project", "."], in: Self.ledger.path)
        XCTAssertEqual(run.status, 0, run.errors)
        let modules = run.output.split(separator: "\n").filter { $0.hasPrefix("module ") }
        XCTAssertEqual(modules, [
            "module ModularLedger (folder) ., 1 file",
            "module ChartKit (package target) Sources/ChartKit/, 2 files, in .",
            "module DesignSystem (package target) Sources/DesignSystem/, 2 files, in .",
            "module LedgerApp (package target) Sources/LedgerApp/, 5 files, in .",
            "module LegacyDesignSystem (package target) Sources/LegacyDesignSystem/, 3 files, in .",
        ])
        XCTAssertTrue(run.output.contains("  declares types: DSButton, HUD\n"), run.output)
        XCTAssertTrue(run.output.contains("  extends: Color, View\n"), run.output)
        XCTAssertTrue(run.output.contains("  Sources/LedgerApp/Budget/BudgetView.swift  imports ChartKit, LegacyDesignSystem, SwiftUI\n"), run.output)
    }

    /// Two apps in one folder (a monorepo of unrelated apps, or a folder of checkouts): one declares
    /// a UIKit `ProgressView` of its own. Each app's findings are what a scan of it alone gives.
    func testAFolderOfAppsGivesEachAppsOwnAnswer() throws {
        let swiftUIScreen = "import SwiftUI\n\nstruct Loading: View {\n    var body: some View { ProgressView() }\n}\n"
        let tree = try TemporaryTree([
            "Notes/Notes.xcodeproj/project.pbxproj": "// Xcode project\n",
            "Notes/Notes/Loading.swift": swiftUIScreen,
            "Uploader/Uploader.xcodeproj/project.pbxproj": "// Xcode project\n",
            "Uploader/Uploader/ProgressView.swift": "import UIKit\n\nfinal class ProgressView: UIView {}\n",
            "Uploader/Uploader/Loading.swift": "import SwiftUI\nimport UIKit\n\nstruct Loading: View {\n    var body: some View { ProgressView() }\n}\n",
            "Uploader/Uploader/Upload.swift": "import UIKit\n\nfinal class Upload: UIViewController {\n    let hud = ProgressView()\n}\n",
        ])
        let together = try findings(CLIRun(["scan", "--format", "json", "--no-config", "."], in: tree.path))
        var apart: [String] = []
        for app in ["Notes", "Uploader"] {
            apart += try findings(CLIRun(["scan", "--format", "json", "--no-config", "."], in: tree.url.appendingPathComponent(app).path)).map { "\(app)/" + $0 }
        }
        XCTAssertEqual(together, apart.sorted())
        XCTAssertEqual(together, [
            "Notes/Notes/Loading.swift:4 raw-progress-view safe",
            "Uploader/Uploader/Loading.swift:5 raw-progress-view unsafe",
        ])
    }

    /// The gate covers the rules files the configuration names: switching a rule off there, or
    /// narrowing its match, in the same change as a new use, fails.
    func testSwitchingARuleOffInARulesFileWeakensTheGate() throws {
        let tree = try ledgerCopy()
        try tree.git(["init", "-q"])
        try tree.git(["add", "-A"])
        try tree.git(["commit", "-qm", "base"])
        let rulesFile = tree.url.appendingPathComponent("ledger-migration.yml")
        var rules = try String(contentsOf: rulesFile, encoding: .utf8)
        rules = rules.replacingOccurrences(of: "  - id: legacy-hud\n    kind: pattern\n", with: "  - id: legacy-hud\n    enabled: false\n    kind: pattern\n")
        rules = rules.replacingOccurrences(of: "match: '$CONTENT.cardStyle()'", with: "match: '$CONTENT.cardStyle(compact: true)'")
        try tree.write("ledger-migration.yml", rules)
        let settings = tree.url.appendingPathComponent("Sources/LedgerApp/Settings/SettingsView.swift")
        try tree.write("Sources/LedgerApp/Settings/SettingsView.swift",
                       try String(contentsOf: settings, encoding: .utf8).replacingOccurrences(of: "        HUD.show(\"Signing out...\", in: nil)\n",
                                                                                        with: "        HUD.show(\"Signing out...\", in: nil)\n        HUD.show(\"Bye\", in: nil)\n"))
        try tree.git(["commit", "-qam", "switch the HUD rule off"])
        let run = CLIRun(["scan", "--diff-base", "HEAD~1", "--format", "json", "."], in: tree.path)
        XCTAssertEqual(run.status, 1, run.output + run.errors)
        let weakened = try findings(run).filter { $0.contains("gate-weakened") }
        // The switched-off rule is shown at its `enabled: false` line (the line that does it), not at its `id:`.
        let hudLine = rules.components(separatedBy: "\n").firstIndex(of: "    enabled: false")! + 1
        let cardLine = rules.components(separatedBy: "\n").firstIndex(of: "  - id: legacy-card-style")! + 1
        XCTAssertEqual(weakened, ["ledger-migration.yml:\(hudLine) gate-weakened manual", "ledger-migration.yml:\(cardLine) gate-weakened manual"])
        let text = CLIRun(["scan", "--diff-base", "HEAD~1", "."], in: tree.path).output
        XCTAssertTrue(text.contains("(the rule legacy-hud is switched off; --allow-gate-changes if intended)"), text)
        XCTAssertTrue(text.contains("(the rule legacy-card-style changed and no longer reports what it reported at the merge base: Sources/LedgerApp/Accounts/AccountsView.swift:19;"), text)
        XCTAssertEqual(CLIRun(["scan", "--diff-base", "HEAD~1", "--allow-gate-changes", "--fail-on", "never", "."], in: tree.path).status, 0)
    }
}
