import AuditProject
import TreeSitter

/// Reads a `Package.swift` as SwiftPM would declare it, without running it: every call of a target
/// function (`.target(name: "X", path: "Y")`, `Target.testTarget(...)`) whose `name:` is a plain
/// string literal. Targets made in loops or helper functions, and `path:` values that are not
/// literals, are out of reach (docs/project-model.md).
public enum SwiftPackageManifest {
    static let kinds: [String: PackageManifest.Target.Kind] = [
        "target": .regular, "executableTarget": .executable, "testTarget": .test, "macro": .macro,
        "plugin": .plugin, "systemLibrary": .system, "binaryTarget": .binary,
    ]

    /// Whether a file's path names a manifest (`Package.swift`, or `Package@swift-5.9.swift`). Asked of
    /// every file a scan reads: most names are told apart by their bytes (`mayBeManifest`), and only a
    /// name that starts with `Package` is compared as Swift compares strings (`isManifestByCharacters`).
    public static func isManifest(path: String) -> Bool {
        mayBeManifest(path: path) && isManifestByCharacters(path: path)
    }

    /// The plain test: the last path component, split and compared by characters.
    static func isManifestByCharacters(path: String) -> Bool {
        let name = path.split(separator: "/").last ?? ""
        return name == "Package.swift" || (name.hasPrefix("Package@swift-") && name.hasSuffix(".swift"))
    }

    /// False only when the path's last component cannot be a manifest: after its last `/` (a `/` with
    /// ASCII on both sides, so that it is a character of its own and splits the path), or the whole
    /// path without one, the bytes do not start with `Package`. Anything else (a `/` at the end or
    /// next to a multi-byte character, which may join it into one character) is left to the plain test.
    static func mayBeManifest(path: String) -> Bool {
        var path = path
        return path.withUTF8 { bytes in
            var start = 0
            if let slash = bytes.lastIndex(of: UInt8(ascii: "/")) {
                guard slash + 1 < bytes.count, bytes[slash + 1] < 0x80, slash == 0 || bytes[slash - 1] < 0x80 else { return true }
                start = slash + 1
            }
            let prefix: StaticString = "Package"
            guard bytes.count - start >= prefix.utf8CodeUnitCount else { return false }
            for offset in 0..<prefix.utf8CodeUnitCount where bytes[start + offset] != prefix.utf8Start[offset] { return false }
            return true
        }
    }

    /// The words every target function's name holds (`executableTarget` holds `Target`): a subtree
    /// where none starts holds no target call.
    static let targetWords = WordSet(["target", "Target", "macro", "plugin", "systemLibrary"].map { Array($0.utf8) })

    /// The manifest's targets. With `skipsUnmarkedSubtrees`, the walk goes only into the subtrees
    /// where a word of a target function's name (`targetWords`) starts, and a call's callee is read
    /// before its arguments; without, every node is read (the plain way, for `ManifestReadingTests`).
    public static func read(_ tree: Tree, skipsUnmarkedSubtrees: Bool = true) -> PackageManifest {
        var targets: [PackageManifest.Target] = []
        let offsets = skipsUnmarkedSubtrees ? WordOffsets(tree.source, words: targetWords) : .everywhere
        tree.rootNode.walk { node in
            guard offsets.anyStart(in: node.byteRange) else { return false }
            guard SwiftKinds.callExpression.contains(node), let callee = node.namedChild(at: 0), let name = Self.targetFunction(callee), let kind = kinds[name],
                  let call = SwiftCall(node), let nameArgument = call.argument(labelled: "name"),
                  let targetName = literal(nameArgument.value) else { return true }
            let path = call.argument(labelled: "path").flatMap { literal($0.value) }
            if !targets.contains(where: { $0.name == targetName }) { targets.append(PackageManifest.Target(name: targetName, kind: kind, path: path)) }
            return false
        }
        return PackageManifest(targets: targets)
    }

    /// `target` of `.target` or `Target.target` (not some other type's function of that name).
    static func targetFunction(_ callee: Node) -> String? {
        switch callee.type {
        case SwiftNodeType.prefixExpression:
            guard callee.child(byField: SwiftField.operation)?.text == ".", let name = callee.child(byField: SwiftField.target), name.type == SwiftNodeType.simpleIdentifier else { return nil }
            return name.text
        case SwiftNodeType.navigationExpression:
            guard callee.child(byField: SwiftField.target)?.text == "Target" else { return nil }
            return SwiftExpressions.lastName(of: callee)
        default:
            return nil
        }
    }

    /// The text of a one-line string literal without interpolation.
    static func literal(_ node: Node) -> String? {
        guard SwiftExpressions.isPlainStringLiteral(node) else { return nil }
        let text = node.text
        guard text.count >= 2 else { return nil }
        return String(text.dropFirst().dropLast())
    }
}
