// swift-tools-version:5.9
import Foundation
import PackageDescription

// scripts/bootstrap builds the Swift grammar into .tree-sitter/lib beside this file; the absolute path
// lets plain `swift build` / `swift test` link it from any working directory, with no environment.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
let grammarLibrary = "\(packageRoot)/.tree-sitter/lib"

let treeSitterLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(["-L\(grammarLibrary)"]),
    // Homebrew's tree-sitter on macOS (Apple silicon and Intel prefixes).
    .unsafeFlags(["-L/opt/homebrew/lib", "-L/usr/local/lib"], .when(platforms: [.macOS])),
]
let treeSitterSwiftSettings: [SwiftSetting] = [
    .unsafeFlags(["-Xcc", "-I/opt/homebrew/include", "-Xcc", "-I/usr/local/include"], .when(platforms: [.macOS])),
]

let package = Package(
    name: "loadaudit",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "loadaudit", targets: ["loadaudit"]),
        .library(name: "LoadAuditKit", targets: ["LoadAuditCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
    ],
    targets: [
        // The C API of tree-sitter and the Swift grammar: the only place that names C symbols.
        .systemLibrary(name: "CTreeSitter", path: "Sources/CTreeSitter"),
        // tree-sitter's allocator during a scan's parses: a per-thread arena taken back at once.
        .target(
            name: "CParseArena",
            cSettings: [.unsafeFlags(["-O3"]), .unsafeFlags(["-I/opt/homebrew/include", "-I/usr/local/include"], .when(platforms: [.macOS]))]
        ),
        // A thin, memory-safe Swift binding: parser, tree, node, cursor, positions.
        .target(
            name: "TreeSitter",
            dependencies: ["CTreeSitter", "CParseArena"],
            swiftSettings: treeSitterSwiftSettings,
            linkerSettings: treeSitterLinkerSettings
        ),
        // Findings, positions, severities, fix classes: the plain model every later stage shares.
        .target(name: "AuditModel"),
        // Swift-grammar knowledge: calls, arguments, modifier chains, literals, imports, declarations.
        .target(name: "SwiftGrammar", dependencies: ["TreeSitter", "AuditModel"]),
        // Rules as data: the YAML format, its validation, and the engine that matches rules on a tree.
        .target(
            name: "AuditRules",
            dependencies: ["AuditModel", "SwiftGrammar", "TreeSitter", .product(name: "Yams", package: "Yams")]
        ),
        // The word screen's byte loop, in C for the machine's vector instructions.
        .target(name: "CWordStarts", cSettings: [.unsafeFlags(["-O3"])]),
        // The select step: which files need parsing, now and in later rounds, from what the rules need.
        .target(name: "AuditSelect", dependencies: ["AuditRules", "AuditModel", "SwiftGrammar", "TreeSitter", "CWordStarts"]),
        // Running a program (git) and collecting its output, without Foundation's polling.
        .target(name: "ChildProcess"),
        // Walking source trees, ignore files, reading files, and running the rules on each.
        .target(name: "AuditScan", dependencies: ["AuditModel", "AuditRules", "AuditSelect", "SwiftGrammar", "TreeSitter", "ChildProcess"]),
        // Planning edits and unified diffs: pure byte work on the plain model.
        .target(name: "AuditFix", dependencies: ["AuditModel"]),
        // .loadaudit.yml: scope globs, extra rules, per-rule severities, baseline path, failing severity.
        .target(name: "AuditConfig", dependencies: ["AuditModel", "AuditRules", .product(name: "Yams", package: "Yams")]),
        // Fingerprints, baseline files, and what changed since a git ref: which findings are new.
        .target(name: "AuditBaseline", dependencies: ["AuditModel", "ChildProcess"]),
        // Turning findings into text and JSON reports.
        .target(name: "AuditReport", dependencies: ["AuditModel", "AuditProgress"]),
        // The scan and the fix as named steps, from the command line's choices to a result; never
        // prints, never writes.
        // A migration's progress over history: the plain model and its renderers (text, JSON, CSV).
        .target(name: "AuditProgress"),
        .target(
            name: "Audit",
            dependencies: ["AuditModel", "AuditRules", "AuditSelect", "AuditScan", "AuditFix", "AuditBaseline", "AuditConfig",
                           "AuditProgress", "ChildProcess", "SwiftGrammar", "TreeSitter"]
        ),
        // The command line: arguments, rendering, the one atomic writer, exit codes. Runs in-process from tests.
        .target(
            name: "LoadAuditCLI",
            dependencies: [
                "Audit", "AuditModel", "AuditRules", "AuditScan", "AuditReport", "AuditFix", "AuditBaseline", "AuditProgress", "TreeSitter",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "loadaudit", dependencies: ["LoadAuditCLI"]),

        // What several test targets share (the SARIF schema check).
        .target(name: "LoadAuditTestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "TreeSitterTests", dependencies: ["TreeSitter"]),
        .testTarget(name: "AuditRulesTests", dependencies: ["AuditRules", "AuditModel", "TreeSitter", "SwiftGrammar", "LoadAuditTestSupport"]),
        .testTarget(name: "AuditSelectTests", dependencies: ["AuditSelect", "AuditRules", "AuditModel", "TreeSitter", "SwiftGrammar", "LoadAuditTestSupport"]),
        .testTarget(name: "AuditScanTests", dependencies: ["AuditScan", "AuditSelect", "AuditRules", "AuditModel", "TreeSitter", "LoadAuditTestSupport"]),
        .testTarget(name: "AuditReportTests", dependencies: ["AuditReport", "AuditModel", "AuditProgress", "LoadAuditTestSupport"]),
        .testTarget(name: "AuditConfigTests", dependencies: ["AuditConfig", "AuditRules", "AuditModel"]),
        .testTarget(name: "AuditBaselineTests", dependencies: ["AuditBaseline", "AuditModel", "AuditRules", "TreeSitter", "ChildProcess"]),
        .testTarget(name: "AuditFixTests", dependencies: ["AuditFix", "AuditModel"]),
        .testTarget(name: "AuditProgressTests", dependencies: ["AuditProgress"]),
        .testTarget(name: "AuditTests", dependencies: ["Audit", "AuditSelect", "AuditFix", "AuditModel", "AuditScan", "AuditRules", "TreeSitter", "SwiftGrammar", "LoadAuditTestSupport"]),
        .testTarget(name: "LoadAuditCLITests", dependencies: ["LoadAuditCLI", "AuditModel", "LoadAuditTestSupport", .product(name: "Yams", package: "Yams")]),
    ]
)
