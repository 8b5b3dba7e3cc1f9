import Foundation
import LoadAuditCLI
import XCTest

/// `fix --split-by owner|module|folder`: on a git repository of fixtures/Shopfront (whose teams own
/// its modules through .github/CODEOWNERS), each patch applies alone to the base, all of them
/// together are `fix`'s own result, and no patch touches another owner's files.
final class FixSplitTests: XCTestCase {
    /// A copy of the fixture as a git repository with one commit (the base the patches apply to).
    func repository(_ fixture: String = "fixtures/Shopfront") throws -> TemporaryTree {
        let tree = try TemporaryTree()
        let source = Repository.root.appendingPathComponent(fixture)
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: tree.url.appendingPathComponent(name))
        }
        try tree.git(["init", "-q"])
        try tree.git(["add", "-A"])
        try tree.git(["commit", "-q", "-m", "base"])
        return tree
    }

    func git(_ arguments: [String], in tree: TemporaryTree) throws -> (status: Int32, output: String) {
        try runProgram("/usr/bin/env", ["git"] + arguments, in: tree.url)
    }

    /// Every file of the work tree but .git's and the patches' folder, by path.
    func files(in tree: TemporaryTree, leaving: String = "patches") throws -> [String: Data] {
        var result: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: tree.path) where !path.hasPrefix(".git/") && !path.hasPrefix(leaving + "/") {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: tree.path + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[path] = try Data(contentsOf: tree.url.appendingPathComponent(path))
            }
        }
        return result
    }

    /// The files a patch changes, from its `+++ b/` lines.
    func changedFiles(_ patch: String) -> Set<String> {
        Set(patch.split(separator: "\n").filter { $0.hasPrefix("+++ b/") }.map { String($0.dropFirst(6)).trimmingCharacters(in: CharacterSet(charactersIn: "\t")) })
    }

    func testPatchesByOwnerApplyAloneAndTogetherEqualTheWholeFix() throws {
        for flags in [[String](), ["--unsafe"]] {
            let tree = try repository()
            let base = try files(in: tree)
            let run = CLIRun(["fix"] + flags + ["--split-by", "owner", "--output-dir", "patches", "."], in: tree.path)
            XCTAssertEqual(run.status, 0, run.output + run.errors)
            XCTAssertEqual(try files(in: tree), base, "--split-by changes no source file")
            let names = try FileManager.default.contentsOfDirectory(atPath: tree.path + "/patches").sorted()
            // Search's one fix is unsafe: its patch only with --unsafe.
            XCTAssertEqual(names, (flags.isEmpty ? [] : ["shopfront-catalog+shopfront-search.patch"])
                           + ["shopfront-catalog.patch", "shopfront-payments.patch", "shopfront-platform.patch", "unowned.patch"])
            var patches: [String: String] = [:]
            for name in names { patches[name] = try String(contentsOfFile: tree.path + "/patches/" + name, encoding: .utf8) }
            // Each team's files, as the CODEOWNERS says (the last matching line wins).
            XCTAssertEqual(changedFiles(patches["shopfront-payments.patch"]!), ["Sources/Checkout/CartView.swift", "Sources/Checkout/PaymentSheet.swift"])
            XCTAssertEqual(changedFiles(patches["shopfront-platform.patch"]!), ["Sources/Checkout/CheckoutSettings.swift", "Sources/Account/AccountSettings.swift"],
                           "*Settings.swift comes after /Sources/Checkout/")
            XCTAssertEqual(changedFiles(patches["shopfront-catalog.patch"]!), ["Sources/Catalog/ProductGrid.swift"])
            if !flags.isEmpty {
                XCTAssertEqual(changedFiles(patches["shopfront-catalog+shopfront-search.patch"]!), ["Sources/Catalog/Search/SearchResults.swift"],
                               "a file with two owners: the patch of both")
            }
            XCTAssertEqual(changedFiles(patches["unowned.patch"]!), ["Sources/Catalog/Legacy/OldBrowseView.swift", "Sources/Account/ProfileView.swift"],
                           "a line without owners, and no line at all")
            // No two patches share a file.
            let all = names.map { changedFiles(patches[$0]!) }
            XCTAssertEqual(all.map(\.count).reduce(0, +), Set(all.flatMap { $0 }).count)
            // Each applies alone to the base.
            for name in names {
                let check = try git(["apply", "--check", "patches/" + name], in: tree)
                XCTAssertEqual(check.status, 0, "\(name): \(check.output)")
            }
            // Together they are the whole fix: the same bytes as `fix` writes.
            for name in names {
                let apply = try git(["apply", "patches/" + name], in: tree)
                XCTAssertEqual(apply.status, 0, "\(name): \(apply.output)")
            }
            let fixed = try repository()
            let fix = CLIRun(["fix"] + flags + ["."], in: fixed.path)
            XCTAssertEqual(fix.status, 0, fix.output + fix.errors)
            XCTAssertEqual(try files(in: tree), try files(in: fixed))
            XCTAssertNotEqual(try files(in: tree), base)
            // And the patches are `fix --dry-run`'s diff, cut per file.
            let pristine = try repository()
            let dryRun = CLIRun(["fix", "--dry-run"] + flags + ["."], in: pristine.path)
            XCTAssertEqual(Set(dryRun.output.components(separatedBy: "--- a/").dropFirst()),
                           Set(names.flatMap { patches[$0]!.components(separatedBy: "--- a/").dropFirst() }))
            // The table: patch, owner, files, fixes by class, and the totals.
            XCTAssertTrue(run.output.hasPrefix("Wrote \(names.count) patches to patches (by owner):\n"), run.output)
            if flags.isEmpty {
                XCTAssertTrue(run.output.contains("\nshopfront-payments.patch  @shopfront/payments      2     3       0\n"), run.output)
                XCTAssertTrue(run.output.hasSuffix("\ntotal                                              7     8       0\n"), run.output)
            } else {
                XCTAssertTrue(run.output.contains("\nshopfront-catalog+shopfront-search.patch  @shopfront/catalog @shopfront/search      1     0       1\n"), run.output)
                XCTAssertTrue(run.output.contains("\nshopfront-payments.patch                  @shopfront/payments                       2     3       0\n"), run.output)
                XCTAssertTrue(run.output.hasSuffix("\ntotal                                                                               8     8       1\n"), run.output)
            }
        }
    }

    func testByModuleAndByFolderAndMaxFiles() throws {
        let tree = try repository()
        let modules = CLIRun(["fix", "--split-by", "module", "--output-dir", "patches", "."], in: tree.path)
        XCTAssertEqual(modules.status, 0, modules.output + modules.errors)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tree.path + "/patches").sorted(), ["Account.patch", "Catalog.patch", "Checkout.patch"])
        let catalog = try String(contentsOfFile: tree.path + "/patches/Catalog.patch", encoding: .utf8)
        XCTAssertEqual(changedFiles(catalog), ["Sources/Catalog/ProductGrid.swift", "Sources/Catalog/Legacy/OldBrowseView.swift"])

        let folders = CLIRun(["fix", "--split-by", "folder", "--dry-run", "Sources"], in: tree.path)
        XCTAssertEqual(folders.status, 1, "a dry run with changes")
        XCTAssertTrue(folders.output.hasPrefix("Would write 1 patch (by folder):\npatch          folder   files  safe  unsafe\nSources.patch  Sources      7     8       0\n"), folders.output)

        // At most 2 files a patch: the payments team's 2 in one, the unowned 2 in one, and so on; 3 files cut into 2 + 1.
        let cut = CLIRun(["fix", "--split-by", "module", "--max-files", "2", "--output-dir", "cut", "."], in: tree.path)
        XCTAssertEqual(cut.status, 0, cut.output + cut.errors)
        let names = try FileManager.default.contentsOfDirectory(atPath: tree.path + "/cut").sorted()
        XCTAssertEqual(names, ["Account.patch", "Catalog.patch", "Checkout-1.patch", "Checkout-2.patch"])
        let checkout = try names.filter { $0.hasPrefix("Checkout") }.map { try String(contentsOfFile: tree.path + "/cut/" + $0, encoding: .utf8) }
        XCTAssertEqual(checkout.map { changedFiles($0).count }, [2, 1])
        XCTAssertEqual(changedFiles(checkout[0]).union(changedFiles(checkout[1])),
                       ["Sources/Checkout/CartView.swift", "Sources/Checkout/CheckoutSettings.swift", "Sources/Checkout/PaymentSheet.swift"])
    }

    func testTheDryRunListsThePatchesAndWritesNothing() throws {
        let tree = try repository()
        let base = try files(in: tree, leaving: "none")
        let run = CLIRun(["fix", "--split-by", "owner", "--dry-run", "--output-dir", "patches", "."], in: tree.path)
        XCTAssertEqual(run.status, 1, run.output + run.errors)
        XCTAssertEqual(try files(in: tree, leaving: "none"), base)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tree.path + "/patches"))
        XCTAssertTrue(run.output.hasPrefix("Would write 4 patches (by owner):\n"), run.output)
        XCTAssertTrue(run.errors.contains("Would fix 7 files: 8 edits"), run.errors)
    }

    func testBadInputIsOneLineAndAnExitOfTwo() throws {
        let tree = try repository()
        try FileManager.default.removeItem(atPath: tree.path + "/.github/CODEOWNERS")
        let noOwners = CLIRun(["fix", "--split-by", "owner", "--output-dir", "patches", "."], in: tree.path)
        XCTAssertEqual(noOwners.status, 2)
        XCTAssertTrue(noOwners.errors.hasSuffix(": no CODEOWNERS (looked for .github/CODEOWNERS, CODEOWNERS and docs/CODEOWNERS) for --split-by owner\n"), noOwners.errors)
        XCTAssertEqual(noOwners.errors.split(separator: "\n").count, 1, noOwners.errors)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tree.path + "/patches"))

        try tree.write("patches", "a file where the folder should be\n")
        let onAFile = CLIRun(["fix", "--split-by", "module", "--output-dir", "patches", "."], in: tree.path)
        XCTAssertEqual(onAFile.status, 2)
        XCTAssertTrue(onAFile.errors.hasSuffix("loadaudit: error: patches: --output-dir is a file, not a folder\n"), onAFile.errors)
        XCTAssertEqual(try String(contentsOfFile: tree.path + "/patches", encoding: .utf8), "a file where the folder should be\n")

        for (arguments, message) in [
            (["--split-by", "owner", "."], "--split-by needs --output-dir DIR (or --dry-run to list the patches)"),
            (["--output-dir", "patches", "."], "--output-dir goes with --split-by"),
            (["--split-by", "team", "--dry-run", "."], "team"),
            (["--split-by", "owner", "--max-files", "0", "--dry-run", "."], "--max-files must be 1 or more, not 0"),
        ] {
            let run = CLIRun(["fix"] + arguments, in: tree.path)
            XCTAssertEqual(run.status, 2, "\(arguments)")
            XCTAssertTrue(run.errors.contains(message), run.errors)
        }
    }
}
