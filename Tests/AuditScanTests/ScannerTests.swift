import AuditGit
import AuditModel
import AuditRules
@testable import AuditScan
import Foundation
import LoadAuditTestSupport
import XCTest

/// Walking real folders: what is scanned, what is skipped, and bad input that must not stop the run.
final class ScannerTests: XCTestCase {
    let spinner = "import SwiftUI\nlet spinner = ProgressView()\n"
    var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("scanner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        // Restore permissions first so the folder can be removed.
        _ = try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root.appendingPathComponent("Locked").path)
        try? FileManager.default.removeItem(at: root)
    }

    func write(_ path: String, _ data: Data) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    func write(_ path: String, _ text: String) throws {
        try write(path, Data(text.utf8))
    }

    func scan(_ paths: [String]? = nil, jobs: Int = 2, gitignore: Bool = true) throws -> ScanResult {
        let scanner = ProjectScanner(
            engine: RuleEngine(ruleSet: .builtIn()),
            discovery: SourceDiscovery(currentDirectory: root.path, honourGitignore: gitignore),
            jobs: jobs
        )
        return try scanner.scan(paths ?? [root.path])
    }

    /// The workers take files in the walk's order, the reports list them by path (the two differ where
    /// a folder is reached through a link or several paths are given): each analysis must stay with its
    /// own file, or a fix would write one file's edits into another. Two paths given in reverse order.
    func testFilesFoundInWalkOrderStayWithTheirAnalysesInPathOrder() throws {
        let names = ["a/b/c.swift", "a/b.swift", "a/b-c.swift", "a/b/a/z.swift", "a.swift", "A/x.swift", "a/b/c/d/e.swift"]
        for (number, name) in names.enumerated() {
            try write(name, "import SwiftUI\nlet spinner\(number) = ProgressView()\n")
        }
        for jobs in [1, 3] {
            let scanner = ProjectScanner(
                engine: RuleEngine(ruleSet: .builtIn()), discovery: SourceDiscovery(currentDirectory: root.path), jobs: jobs)
            let files = try scanner.scanFiles([root.appendingPathComponent("a").path, root.appendingPathComponent("A").path, root.appendingPathComponent("a.swift").path], keepSources: true).files
            XCTAssertEqual(files.map(\.reference.displayPath), names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            for file in files {
                XCTAssertEqual(file.analysis.file, file.reference.displayPath)
                let number = try XCTUnwrap(names.firstIndex(of: file.reference.displayPath))
                let text = file.source.map { String(decoding: $0.bytes, as: UTF8.self) }
                XCTAssertEqual(text, "import SwiftUI\nlet spinner\(number) = ProgressView()\n", file.reference.displayPath)
            }
        }
    }

    func testBuildProductsAndDependencyFoldersAreSkipped() throws {
        for folder in [".build", ".build-release", ".git", "Pods", "Carthage", "DerivedData", ".swiftpm", "SourcePackages"] {
            try write("\(folder)/Vendored.swift", spinner)
        }
        try write("App/Screen.swift", spinner)
        try write("App/notes.txt", "ProgressView()")
        let result = try scan()
        XCTAssertEqual(result.findings.map(\.file), ["App/Screen.swift"])
        XCTAssertEqual(result.filesScanned, 1)
    }

    /// Xcode's bundle folders (asset catalogs, project and workspace bundles) hold no compiled Swift: the
    /// walk passes them by, as a skipped name, but still notes an `.xcodeproj` for the project model. A
    /// folder or file inside one named on the command line is scanned; an `.lproj` folder is walked.
    func testXcodeBundleFoldersAreSkippedUnlessNamed() throws {
        try write("Assets.xcassets/Logo.imageset/Tint.swift", spinner)
        try write("Assets.xcassets/Contents.json", "{}")
        try write("App.xcodeproj/project.pbxproj", "// Xcode project\n")
        try write("App.xcodeproj/xcshareddata/Helper.swift", spinner)
        try write("App.xcworkspace/Sidecar.swift", spinner)
        try write("App/en.lproj/Localized.swift", spinner)
        try write("App/Screen.swift", spinner)
        XCTAssertEqual(try scan().findings.map(\.file), ["App/Screen.swift", "App/en.lproj/Localized.swift"])
        let walk = try SourceDiscovery(currentDirectory: root.path).discover([root.path])
        XCTAssertEqual(walk.projectFolders.xcodeProjects, [root.path: ["App"]])
        XCTAssertEqual(walk.projectFolders.markers, [root.path: [.xcodeProject, .xcodeWorkspace]])
        XCTAssertEqual(try scan([root.appendingPathComponent("Assets.xcassets").path]).findings.map(\.file), ["Assets.xcassets/Logo.imageset/Tint.swift"])
        XCTAssertEqual(try scan([root.appendingPathComponent("App.xcodeproj/xcshareddata/Helper.swift").path]).findings.map(\.file),
                       ["App.xcodeproj/xcshareddata/Helper.swift"])
    }

    func testGitignoreIsHonouredInsideAWorkTreeAndExplicitFilesAreAlwaysScanned() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git") else { throw XCTSkip("git is not installed") }
        try write(".gitignore", "Generated/\n*.generated.swift\n")
        try write("Generated/Mocks.swift", spinner)
        try write("App/Screen.generated.swift", spinner)
        try write("App/Screen.swift", spinner)
        try write("App/Nested/Deep.generated.swift", spinner)
        XCTAssertFalse(GitIgnored.mayBeInWorkTree(root.path), "a temporary folder outside any work tree")
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        git.arguments = ["-C", root.path, "init", "-q"]
        try git.run()
        git.waitUntilExit()
        XCTAssertTrue(GitIgnored.mayBeInWorkTree(root.appendingPathComponent("App/Nested").path))
        // A symbolic link from outside into the work tree: git goes up from where it leads.
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("link-\(UUID().uuidString)")
        try FileManager.default.createSymbolicLink(at: outside, withDestinationURL: root.appendingPathComponent("App"))
        defer { try? FileManager.default.removeItem(at: outside) }
        XCTAssertTrue(GitIgnored.mayBeInWorkTree(outside.path))
        // (Paths are relative to the current directory, the tree's root: the link, outside it, is absolute.)
        XCTAssertEqual(try scan([outside.path]).findings.map(\.file), [outside.appendingPathComponent("Screen.swift").path])
        XCTAssertEqual(try scan().findings.map(\.file), ["App/Screen.swift"])
        // A folder below the work tree's top: its .gitignore still counts.
        XCTAssertEqual(try scan([root.appendingPathComponent("App").path]).findings.map(\.file), ["App/Screen.swift"])
        XCTAssertEqual(try scan(gitignore: false).findings.map(\.file),
                       ["App/Nested/Deep.generated.swift", "App/Screen.generated.swift", "App/Screen.swift", "Generated/Mocks.swift"])
        XCTAssertEqual(try scan([root.appendingPathComponent("Generated/Mocks.swift").path]).findings.count, 1)
    }

    /// A scan of the project folder itself (what `loadaudit scan .` at a work tree's top does) asks git
    /// once what `.gitignore` leaves out: that process runs before the walk can start.
    func testAScanOfTheProjectFolderAsksGitOnceWhatItIgnores() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git") else { throw XCTSkip("git is not installed") }
        try write(".gitignore", "Generated/\n")
        try write("Generated/Mocks.swift", spinner)
        try write("App/Screen.swift", spinner)
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        git.arguments = ["-C", root.path, "init", "-q"]
        try git.run()
        git.waitUntilExit()
        // A git on PATH that notes each call, then runs the real one.
        let bin = root.appendingPathComponent(".tools")
        let log = root.appendingPathComponent(".tools/calls").path
        try write(".tools/git", "#!/bin/sh\necho \"$*\" >> '\(log)'\nexec /usr/bin/git \"$@\"\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin.appendingPathComponent("git").path)
        let path = ProcessInfo.processInfo.environment["PATH"]
        setenv("PATH", bin.path + ":" + (path ?? "/usr/bin"), 1)
        defer { if let path { setenv("PATH", path, 1) } else { unsetenv("PATH") } }
        let scanner = ProjectScanner(engine: RuleEngine(ruleSet: .builtIn()), discovery: SourceDiscovery(currentDirectory: root.path), jobs: 2)
        XCTAssertEqual(try scanner.scan([root.path], within: root.path).findings.map(\.file), ["App/Screen.swift"])
        let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(calls.filter { $0.contains("ls-files") }.count, 1, "\(calls)")
    }

    func testAMissingPathStopsTheRunWithItsName() throws {
        XCTAssertThrowsError(try scan(["Nope"])) { error in
            XCTAssertEqual("\(error)", "Nope: no such file or directory")
        }
    }

    func testFilesThatAreNotSwiftTextAreReportedAndTheRestIsScanned() throws {
        try write("Good.swift", spinner)
        try write("Empty.swift", "")
        try write("Latin1.swift", Data([0x2F, 0x2F, 0x20, 0x43, 0x61, 0x66, 0xE9, 0x0A]))
        try write("Image.swift", Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0x00, 0x1A, 0x0A]))
        let result = try scan()
        XCTAssertEqual(result.findings.map(\.file), ["Good.swift"])
        XCTAssertEqual(result.filesScanned, 2)
        XCTAssertEqual(result.problems.map(\.file), ["Image.swift", "Latin1.swift"])
        XCTAssertEqual(result.problems.map(\.kind), [.binary, .notUTF8])
        XCTAssertTrue(result.problems[1].detail.contains("offset 6"), result.problems[1].detail)
    }

    func testUnreadableFilesAndFoldersAreReported() throws {
        guard getuid() != 0 else { throw XCTSkip("running as root: permissions cannot make a file unreadable") }
        try write("Locked/Secret.swift", spinner)
        try write("Open.swift", spinner)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: root.appendingPathComponent("Locked").path)
        let result = try scan()
        XCTAssertEqual(result.findings.map(\.file), ["Open.swift"])
        XCTAssertEqual(result.problems.map(\.kind), [.unreadable])
    }

    func testSymbolicLinkLoopsAreReportedNotFollowedForever() throws {
        try write("App/Screen.swift", spinner)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("App/Again").path, withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("A.swift").path, withDestinationPath: "B.swift")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("B.swift").path, withDestinationPath: "A.swift")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("Gone.swift").path, withDestinationPath: "Missing.swift")
        let result = try scan()
        XCTAssertEqual(result.findings.map(\.file), ["App/Screen.swift"])
        XCTAssertEqual(result.problems.map(\.file), ["A.swift", "App/Again", "B.swift", "Gone.swift"])
        XCTAssertEqual(result.problems.map(\.kind), [.symlinkLoop, .symlinkLoop, .symlinkLoop, .unreadable])
    }

    func testALinkedFileIsScannedOnce() throws {
        try write("App/Screen.swift", spinner)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("Alias.swift").path, withDestinationPath: "App/Screen.swift")
        XCTAssertEqual(try scan().findings.count, 1)
    }

    /// The walk leaves telling a file reached twice to the scanner (from the descriptor it reads
    /// through): a hard link, a linked folder, a file named beside its folder are each scanned once,
    /// where the walk reaches them first, and a fix writes each once.
    func testAFileReachedTwiceIsScannedAndFixedOnce() throws {
        try write("App/Screen.swift", spinner)
        try write("App/Other.swift", "import SwiftUI\nlet dots = LoadingDots()\n")
        try FileManager.default.linkItem(atPath: root.appendingPathComponent("App/Screen.swift").path,
                                         toPath: root.appendingPathComponent("App/Twin.swift").path)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("Mirror").path, withDestinationPath: "App")
        let result = try scan()
        XCTAssertEqual(result.findings.map(\.file), ["App/Other.swift", "App/Screen.swift"])
        XCTAssertEqual(result.filesScanned, 2)
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(try scan(jobs: 1).findings, result.findings)
        let named = try scan([root.appendingPathComponent("App/Other.swift").path, root.path])
        XCTAssertEqual(named.findings.map(\.file), ["App/Other.swift", "App/Screen.swift"])
        XCTAssertEqual(named.filesScanned, 2)
        let discovered = try SourceDiscovery(currentDirectory: root.path).discover([root.path])
        XCTAssertEqual(discovered.files.map(\.displayPath), ["App/Other.swift", "App/Screen.swift"])
        let scanner = ProjectScanner(engine: RuleEngine(ruleSet: .builtIn()), discovery: SourceDiscovery(currentDirectory: root.path))
        let scanned = try scanner.scanFiles([root.path], keepSources: true).files
        XCTAssertEqual(scanned.map(\.reference.displayPath), ["App/Other.swift", "App/Screen.swift"])
    }

    func testSyntaxErrorsAreCountedAndLocated() throws {
        try write("Broken.swift", "import SwiftUI\nlet a = ProgressView()\nfunc f( {\n")
        let result = try scan()
        XCTAssertEqual(result.findings.map(\.start.line), [2])
        XCTAssertEqual(result.filesWithParseErrors, 1)
        XCTAssertEqual(result.problems.first?.kind, .syntaxError)
        XCTAssertEqual(result.problems.first?.line, 3)
    }

    func testResultsDoNotDependOnTheNumberOfWorkers() throws {
        for index in 0..<40 {
            try write("Feature\(index % 7)/View\(index).swift", index % 3 == 0 ? spinner : "import SwiftUI\nlet dots = LoadingDots()\n")
        }
        let one = try scan(jobs: 1)
        let four = try scan(jobs: 4)
        XCTAssertEqual(one.findings, four.findings)
        XCTAssertEqual(one.findings.count, 40)
    }

    func testAFileOverTheSizeLimitIsSkippedWithAReason() throws {
        let big = Data(repeating: UInt8(ascii: " "), count: ProjectScanner.maximumFileSize + 1)
        try write("Huge.swift", big)
        let result = try scan()
        XCTAssertEqual(result.problems.map(\.kind), [.tooLarge])
        XCTAssertEqual(result.filesScanned, 0)
    }

    /// The reader takes the size from `fstat` and reads into memory it does not clear first: it must
    /// give exactly the file's bytes at every size around its buffer's edges, and go on reading a file
    /// that holds more than `fstat` said (a file of `/proc` says 0).
    func testTheReaderGivesExactlyTheFilesBytes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = SeededRandom(seed: 7)
        for size in [0, 1, 2, 4095, 4096, 4097, 65_537] {
            let bytes = (0..<size).map { _ in UInt8(0x20 + random.below(0x5F)) }
            let file = folder.appendingPathComponent("File\(size).swift")
            try Data(bytes).write(to: file)
            guard case .success(let read) = SourceReader.read(file.path, maximumSize: 1 << 20) else { return XCTFail("\(size) bytes: not read") }
            XCTAssertEqual(read, bytes, "\(size) bytes")
        }
        #if os(Linux)
        guard case .success(let status) = SourceReader.read("/proc/self/status", maximumSize: 1 << 20) else { return XCTFail("/proc/self/status: not read") }
        XCTAssertTrue(status.starts(with: Array("Name:".utf8)), String(decoding: status.prefix(40), as: UTF8.self))
        XCTAssertEqual(status.last, UInt8(ascii: "\n"))
        XCTAssertGreaterThan(status.count, 200)
        #endif
    }

    /// Reports and baselines look up the absolute paths of the files findings name, their own and their
    /// related places'; other files are left out, and a display path is found by its place in report order.
    func testTheResultKnowsTheAbsolutePathsOfTheFilesFindingsName() {
        let files = ["A-B.swift", "A/B.swift", "App/Tips.swift", "App/View.swift", "Z.swift"]
            .sorted { $0.precedesInUTF8($1) }
            .map { SourceFileReference(absolutePath: "/repo/" + $0, displayPath: $0) }
        let point = SourcePoint(line: 1, column: 1, byteOffset: 0)
        var finding = Finding(ruleId: "rotating-text", severity: .warning, file: "App/View.swift", start: point, end: point,
                              symbol: "Text", message: "m", replacement: nil, fix: .manual)
        finding.related = [RelatedLocation(file: "App/Tips.swift", line: 1, column: 1, message: "the tips")]
        let other = Finding(ruleId: "raw-progress-view", severity: .warning, file: "A/B.swift", start: point, end: point,
                            symbol: "ProgressView", message: "m", replacement: nil, fix: .manual)
        let paths = ProjectScanner.absolutePaths(of: [finding, other, other], in: files)
        XCTAssertEqual(paths, ["App/View.swift": "/repo/App/View.swift", "App/Tips.swift": "/repo/App/Tips.swift", "A/B.swift": "/repo/A/B.swift"])
        XCTAssertEqual(ProjectScanner.absolutePaths(of: [finding], in: []), [:])
    }

    /// A file reached twice counts where the walk first reached it; a file whose identity is unknown
    /// always counts. Thousands of identities, some repeated, some colliding in the table's slots.
    func testTheFirstOfEachIdentityCounts() {
        var random = SeededRandom(seed: 11)
        var identities: [SourceDiscovery.FileIdentity?] = []
        var seen = Set<SourceDiscovery.FileIdentity>()
        var expected: [Bool] = []
        for _ in 0..<5_000 {
            guard !random.chance(3) else {
                identities.append(nil)
                expected.append(true)
                continue
            }
            var info = stat()
            info.st_dev = numericCast(random.below(3))
            info.st_ino = numericCast(random.chance(20) ? random.below(50) : random.below(1 << 40))
            let identity = SourceDiscovery.FileIdentity(info)
            identities.append(identity)
            expected.append(seen.insert(identity).inserted)
        }
        XCTAssertGreaterThan(expected.filter { !$0 }.count, 100, "repeats in the sample")
        XCTAssertEqual(SourceDiscovery.FileIdentity.firstOfEach(identities), expected)
        XCTAssertEqual(SourceDiscovery.FileIdentity.firstOfEach([]), [])
    }

    /// With a `/` after each folder's name in its sort, the walk finds a tree's files in the order of
    /// their paths (`-` and `.` sort before `/`), and the sort that puts them in report order has
    /// nothing to move.
    func testTheWalkFindsATreesFilesInPathOrder() throws {
        let names = ["a/b/c.swift", "a/b.swift", "a/b-c.swift", "a/b/a/z.swift", "a.swift", "A/x.swift", "a/b/c/d/e.swift", "a-b/c.swift", "a0.swift", "a.b/c.swift"]
        for name in names { try write(name, spinner) }
        let discovery = SourceDiscovery(currentDirectory: root.path)
        let walked = discovery.walk(try discovery.resolve([root.path])).files.map(\.displayPath)
        XCTAssertEqual(walked, names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    /// Empty folders, folders of images and data only, a folder named like a Swift file and a file
    /// named `.swift`: the walk reads each folder's entries once and keeps only what it scans.
    func testTheWalkKeepsOnlySwiftFilesWhateverElseAFolderHolds() throws {
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Empty/Deeper"), withIntermediateDirectories: true)
        try write("Assets/logo.png", Data([0x89, 0x50, 0x4E, 0x47]))
        try write("Assets/data.json", "{}")
        try write("Assets/swift", "not a Swift file")
        try write("Odd.swift/Inner.swift", spinner)
        try write(".swift", spinner)
        try write("App/Main.swift", spinner)
        let discovery = SourceDiscovery(currentDirectory: root.path)
        let walked = discovery.walk(try discovery.resolve([root.path])).files.map(\.displayPath)
        XCTAssertEqual(walked, [".swift", "App/Main.swift", "Odd.swift/Inner.swift"])
    }
}
