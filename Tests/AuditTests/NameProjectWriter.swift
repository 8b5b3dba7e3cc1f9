import Foundation

/// Writes the code of one combination of `NameAxes`: the manifests, each declaring module's type of
/// the name, and one screen in the site module holding the use. The use's line carries `⟦D⟧` when
/// `NameLookup` resolves it to the deprecated type; the mark is taken out and the line becomes the label.
struct NameProjectWriter {
    let choice: [String: String]
    private var lookup: NameLookup { NameLookup(choice) }

    func project() -> NameProject {
        let lookup = lookup
        var files: [String: String] = ["Package.swift": rootManifest()]
        for module in lookup.modules where module != "App" {
            files["Packages/\(module)/Package.swift"] = packageManifest(module)
        }
        for (module, kind) in lookup.declarations ?? [:] {
            files["\(folder(of: module))/\(lookup.name).swift"] = declaration(kind, public: module != "App")
        }
        let site = lookup.siteModule ?? "App"
        let useFile = "\(folder(of: site))/TrailScreen.swift"
        files[useFile] = screen()
        var expected = Set<String>()
        var lines = files[useFile]!.components(separatedBy: "\n")
        for index in lines.indices where lines[index].contains("⟦D⟧") {
            expected.insert("\(useFile):\(index + 1)")
            lines[index] = lines[index].replacingOccurrences(of: "⟦D⟧", with: "")
        }
        files[useFile] = lines.joined(separator: "\n")
        return NameProject(choices: NameAxes.all.map { (axis: $0.0, option: choice[$0.0]!) }, files: files, useFile: useFile,
                           expected: expected, ruleId: lookup.isPattern ? "navigation-view" : "loading-overlay")
    }

    private func folder(of module: String) -> String {
        module == "App" ? "Sources/App" : "Packages/\(module)/Sources/\(module)"
    }

    // MARK: - Manifests

    private func rootManifest() -> String {
        let packages = lookup.dependencies(of: "App")
        let dependencies = packages.isEmpty ? "" : "\n    dependencies: [\(packages.map { ".package(path: \"Packages/\($0)\")" }.joined(separator: ", "))],"
        let products = packages.map { ".product(name: \"\($0)\", package: \"\($0)\")" }.joined(separator: ", ")
        return """
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "Trails",
            platforms: [.iOS(.v17)],\(dependencies)
            targets: [
                .executableTarget(name: "App"\(packages.isEmpty ? "" : ", dependencies: [\(products)]")),
            ]
        )

        """
    }

    private func packageManifest(_ module: String) -> String {
        let packages = lookup.dependencies(of: module)
        let dependencies = packages.isEmpty ? "" : "\n    dependencies: [\(packages.map { ".package(path: \"../\($0)\")" }.joined(separator: ", "))],"
        let products = packages.map { ".product(name: \"\($0)\", package: \"\($0)\")" }.joined(separator: ", ")
        return """
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "\(module)",
            platforms: [.iOS(.v17)],
            products: [.library(name: "\(module)", targets: ["\(module)"])],\(dependencies)
            targets: [
                .target(name: "\(module)"\(packages.isEmpty ? "" : ", dependencies: [\(products)]")),
            ]
        )

        """
    }

    // MARK: - Declarations

    private func declaration(_ kind: NameLookup.Kind, public isPublic: Bool) -> String {
        let pub = isPublic ? "public " : ""
        switch (kind, lookup.isPattern) {
        case (.view, false):
            return """
            import SwiftUI

            /// The old full-screen loading cover.
            \(pub)struct LoadingOverlay: View {
                let title: String
                \(pub)init(_ title: String) { self.title = title }
                \(pub)var body: some View {
                    ZStack {
                        Color.black.opacity(0.4)
                        Text(title)
                    }
                }
            }

            """
        case (.view, true):
            return """
            import SwiftUI

            /// The stand-in kept while the app still ran on iOS 15: a stack now.
            \(pub)struct NavigationView: View {
                let content: AnyView
                \(pub)init<Content: View>(@ViewBuilder content: () -> Content) { self.content = AnyView(content()) }
                \(pub)var body: some View { NavigationStack { content } }
            }

            """
        case (.other, false):
            return """
            import MapKit

            /// Trail tiles drawn while the map loads.
            \(pub)final class LoadingOverlay: MKTileOverlay {
                \(pub)var fadeIn = true
            }

            """
        case (.other, true):
            return """
            import UIKit

            /// The timetable's own title bar.
            \(pub)final class NavigationView: UIView {
                \(pub)var title = ""
            }

            """
        }
    }

    // MARK: - The use

    private func screen() -> String {
        let lookup = lookup
        var imports: [String] = []
        for module in lookup.importedModules {
            switch choice["imports"]! {
            case "testable": imports.append("@testable import \(module)")
            case "importStruct":
                if let kind = lookup.declarations?[module] {
                    imports.append("import \(kind == .view ? "struct" : "class") \(module).\(lookup.name)")
                } else {
                    imports.append("import \(module)")
                }
            default: imports.append("import \(module)")
            }
        }
        if lookup.external == "LoadingKit" { imports.append("import LoadingKit") }
        if lookup.resolution?.kind == .other { imports.append(lookup.isPattern ? "import UIKit" : "import MapKit") }
        imports.append("import SwiftUI")
        let written = choice["qualified"] == "qualified" ? "\(lookup.qualifier!).\(lookup.name)" : lookup.name
        let mark = lookup.isDeprecated ? "⟦D⟧" : ""
        let isView = lookup.resolution?.kind == .view
        var members: [String] = []
        var after: [String] = []
        switch choice["form"]! {
        case "call":
            if isView {
                members.append(lookup.isPattern ? "var body: some View {\n        \(written) { Text(\"Trails\") }\(mark)\n    }"
                                                : "var body: some View {\n        \(written)(\"Loading trails\")\(mark)\n    }")
            } else {
                members.append("var body: some View { Text(\"Trails\") }")
                members.append(lookup.isPattern ? "func titleBar() -> UIView {\n        \(written)(frame: .zero)\(mark)\n    }"
                                                : "func tiles() -> MKTileOverlay {\n        \(written)(urlTemplate: nil)\(mark)\n    }")
            }
        case "annotation":
            members.append("let cover: \(written)?\(mark)")
            members.append("var body: some View { Text(\"Trails\") }")
        case "cast":
            members.append("var body: some View { Text(\"Trails\") }")
            members.append("func cover(of content: Any) -> Any? { content as? \(written) }\(mark)")
        case "genericArgument":
            members.append("let covers = Array<\(written)>()\(mark)")
            members.append("var body: some View { Text(\"Trails\") }")
        default:
            members.append("var body: some View { Text(\"Trails\") }")
            after.append("extension \(written) {\(mark)\n    static let trailsTitle = \"Trails\"\n}")
        }
        return imports.sorted().joined(separator: "\n") + "\n\nstruct TrailScreen: View {\n"
            + members.map { "    " + $0 }.joined(separator: "\n") + "\n}\n"
            + after.map { "\n" + $0 + "\n" }.joined()
    }
}
