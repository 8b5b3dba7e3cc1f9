// swift-tools-version:5.9
import PackageDescription

// No build flags here (SwiftPM refuses a dependency with unsafe flags): the Swift grammar is a C target
// whose sources scripts/bootstrap puts in place, and tree-sitter's runtime is found by pkg-config
// (Debian's libtree-sitter-dev, Homebrew's tree-sitter). The project's scripts add `-Xcc -O3` for the C
// code and, on Linux, `-Xlinker -L.tree-sitter/lib` to link the runtime's static archive
// (docs/internals.md, "Building").

let package = Package(
    name: "loadaudit",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "loadaudit", targets: ["loadaudit"]),
        .library(name: "LoadAuditKit", targets: ["LoadAuditCLI"]),
        // `swift package loadaudit scan Sources` in a package that depends on this one.
        .plugin(name: "LoadAuditCommand", targets: ["LoadAuditCommand"]),
        // Findings as warnings at every build of a target (built from source here; without building
        // loadaudit, from the release's package: scripts/swiftpm-package, docs/install-swiftpm.md).
        .plugin(name: "LoadAuditBuildTool", targets: ["LoadAuditBuildTool"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
    ],
    targets: [
        // The C API of tree-sitter and the Swift grammar: the only place that names C symbols.
        .systemLibrary(
            name: "CTreeSitter", path: "Sources/CTreeSitter", pkgConfig: "tree-sitter",
            providers: [.apt(["libtree-sitter-dev"]), .brew(["tree-sitter"])]
        ),
        // The Swift grammar's parser.c and scanner.c, put in place by scripts/bootstrap (never committed).
        .target(name: "CTreeSitterSwift", path: "Sources/CTreeSitterSwift"),
        // tree-sitter's allocator during a scan's parses: a per-thread arena taken back at once.
        .target(name: "CParseArena", dependencies: ["CTreeSitter"]),
        // A thin, memory-safe Swift binding: parser, tree, node, cursor, positions.
        .target(name: "TreeSitter", dependencies: ["CTreeSitter", "CTreeSitterSwift", "CParseArena", "AuditModel"]),
        // Findings, positions, severities, fix classes: the plain model every later stage shares.
        .target(name: "AuditModel"),
        // The project model: modules (SwiftPM targets, Xcode projects, project folders), what each file
        // imports and each module declares, which modules a file sees. Plain data.
        .target(name: "AuditProject", dependencies: ["AuditModel"]),
        // Swift-grammar knowledge: calls, arguments, modifier chains, literals, imports, declarations, manifests.
        .target(name: "SwiftGrammar", dependencies: ["TreeSitter", "AuditModel", "AuditProject"]),
        // The rotating-text analysis: its vocabulary, each file's facts, the resolver that joins them.
        .target(name: "AuditRotation", dependencies: ["AuditModel", "AuditProject", "SwiftGrammar", "TreeSitter"]),
        // Rules as data: the YAML format, its validation, and the engine that matches rules on a tree.
        .target(
            name: "AuditRules",
            dependencies: ["AuditModel", "AuditProject", "AuditRotation", "SwiftGrammar", "TreeSitter", .product(name: "Yams", package: "Yams")]
        ),
        // The word screen's byte loop, in C for the machine's vector instructions.
        .target(name: "CWordStarts"),
        // The select step: which files need parsing, now and after the first parses, from what the rules need.
        .target(name: "AuditSelect", dependencies: ["AuditRules", "AuditRotation", "SwiftGrammar", "AuditModel", "CWordStarts"]),
        // Running a program (git) and collecting its output, without Foundation's polling.
        .target(name: "ChildProcess"),
        // Everything asked of git: ignored files, the changes since a base, history without a checkout.
        .target(name: "AuditGit", dependencies: ["ChildProcess"]),
        // A folder's entries with one system call fewer than opendir (Linux; elsewhere the walk uses readdir).
        .target(name: "CFolderEntries"),
        // Walking source trees, reading files, and running the rules on each.
        .target(name: "AuditScan", dependencies: ["AuditModel", "AuditProject", "AuditRules", "AuditRotation", "AuditSelect", "AuditGit", "TreeSitter", "CFolderEntries"]),
        // Planning edits and unified diffs: pure byte work on the plain model.
        .target(name: "AuditFix", dependencies: ["AuditModel"]),
        // .loadaudit.yml: scope globs, extra rules, per-rule severities, baseline path, failing severity.
        .target(name: "AuditConfig", dependencies: ["AuditModel", "AuditRules", .product(name: "Yams", package: "Yams")]),
        // Fingerprints, baseline files, and what changed since a git ref: which findings are new.
        .target(name: "AuditBaseline", dependencies: ["AuditModel", "AuditGit"]),
        // Turning findings into text and JSON reports.
        .target(name: "AuditReport", dependencies: ["AuditModel", "AuditProgress"]),
        // The scan and the fix as named steps, from the command line's choices to a result; never
        // prints, never writes.
        // A migration's progress over history: the plain model and its renderers (text, JSON, CSV).
        .target(name: "AuditProgress"),
        // What a repository's history and ownership say: the commits and samples `progress` reads, the
        // scope and grouping of a commit's files, CODEOWNERS. Shared by progress, fleet and fix --split-by.
        .target(name: "AuditHistory", dependencies: ["AuditGit", "AuditProgress", "AuditProject", "AuditModel"]),
        .target(
            name: "Audit",
            dependencies: ["AuditModel", "AuditProject", "AuditRules", "AuditSelect", "AuditScan", "AuditFix", "AuditBaseline", "AuditConfig",
                           "AuditProgress", "AuditHistory", "AuditGit", "SwiftGrammar", "TreeSitter"]
        ),
        // `loadaudit lsp`: the Language Server Protocol (framing, lifecycle, documents, diagnostics,
        // code actions) over Audit.
        .target(name: "LanguageServer", dependencies: ["Audit", "AuditModel"]),
        // The command line: arguments, rendering, the one atomic writer, exit codes. Runs in-process from tests.
        .target(
            name: "LoadAuditCLI",
            dependencies: [
                "Audit", "AuditModel", "AuditProject", "AuditRotation", "AuditRules", "AuditReport", "AuditBaseline", "AuditProgress", "AuditHistory", "TreeSitter",
                "LanguageServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "loadaudit", dependencies: ["LoadAuditCLI"]),
        .plugin(
            name: "LoadAuditCommand",
            capability: .command(
                intent: .custom(verb: "loadaudit", description: "Run loadaudit (scan, fix, baseline, rules, progress) on this package"),
                permissions: []
            ),
            dependencies: ["loadaudit"]
        ),
        .plugin(name: "LoadAuditBuildTool", capability: .buildTool(), dependencies: ["loadaudit"]),

        // What several test targets share (the SARIF schema check).
        .target(name: "LoadAuditTestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "TreeSitterTests", dependencies: ["TreeSitter"]),
        .testTarget(name: "AuditProjectTests", dependencies: ["AuditProject"]),
        .testTarget(name: "AuditRulesTests", dependencies: ["AuditRules", "AuditRotation", "AuditModel", "TreeSitter", "CTreeSitter", "SwiftGrammar", "LoadAuditTestSupport"]),
        // The select step, and that it never changes a scan's report (so the scanner and the reports too);
        // its C loop against the table of byte classes.
        .testTarget(name: "AuditSelectTests", dependencies: ["AuditSelect", "CWordStarts", "AuditScan", "AuditReport", "AuditRules", "AuditModel", "TreeSitter", "SwiftGrammar", "LoadAuditTestSupport"]),
        .testTarget(name: "AuditScanTests", dependencies: ["AuditScan", "AuditSelect", "AuditGit", "AuditReport", "AuditRules", "AuditModel", "TreeSitter", "LoadAuditTestSupport"]),
        .testTarget(name: "AuditReportTests", dependencies: ["AuditReport", "AuditModel", "AuditProgress", "LoadAuditTestSupport"]),
        .testTarget(name: "AuditConfigTests", dependencies: ["AuditConfig", "AuditRules", "AuditModel"]),
        .testTarget(name: "AuditBaselineTests", dependencies: ["AuditBaseline", "AuditModel", "AuditRules", "TreeSitter"]),
        .testTarget(name: "AuditGitTests", dependencies: ["AuditGit", "ChildProcess"]),
        .testTarget(name: "AuditFixTests", dependencies: ["AuditFix", "AuditModel", "LoadAuditTestSupport"]),
        .testTarget(name: "AuditProgressTests", dependencies: ["AuditProgress"]),
        .testTarget(name: "AuditHistoryTests", dependencies: ["AuditHistory", "AuditModel", "AuditConfig"]),
        .testTarget(name: "AuditTests", dependencies: ["Audit", "AuditSelect", "AuditFix", "AuditModel", "AuditScan", "AuditRules", "TreeSitter", "SwiftGrammar", "LoadAuditTestSupport"]),
        // docs/architecture.md's module graph against the imports of Sources/ and this file.
        .testTarget(name: "ArchitectureTests"),
        .testTarget(name: "LoadAuditCLITests", dependencies: ["LoadAuditCLI", "AuditModel", "LoadAuditTestSupport", .product(name: "Yams", package: "Yams")]),
    ]
)
