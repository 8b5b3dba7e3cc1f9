import Foundation

/// Trees of Swift files written for a test, in the temporary folder (the caller removes them).
public enum GeneratedTrees {
    /// A deterministic tree of SwiftUI-like files, a few of which use deprecated indicators.
    public static func swiftUIScreens() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("generated-\(UUID().uuidString)")
        for index in 0..<120 {
            let folder = root.appendingPathComponent("Feature\(index % 9)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var body = "import SwiftUI\n\nstruct Screen\(index): View {\n    @State private var items: [String] = []\n    var body: some View {\n        List(items, id: \\.self) { Text($0) }\n"
            switch index % 20 {
            case 3: body += "            .overlay { ProgressView().controlSize(.small) }\n"
            case 7: body += "            .overlay { ThemedSpinner(size: 20) }\n"
            case 11: body += "            .overlay { LoadingSpinner(size: .small, label: \"Hang tight!\") }\n"
            case 13: body += "            // loadaudit:ignore loading-dots\n            .overlay { LoadingDots() }\n"
            default: break
            }
            body += "    }\n}\n"
            if index == 17 { body += "let tips\(index) = [\"One\", \"Two\"]\n" }
            if index == 18 { body += "struct Tip: View { @State var tipIndex = 0\n var body: some View { Text(tips17[tipIndex]).onAppear { Timer.scheduledTimer(withTimeInterval: 2, repeats: true) { _ in tipIndex += 1 } } } }\n" }
            try body.write(to: folder.appendingPathComponent("Screen\(index).swift"), atomically: true, encoding: .utf8)
        }
        return root
    }
}
