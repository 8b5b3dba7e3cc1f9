import Foundation
import XCTest

/// Validates SARIF documents against the official SARIF 2.1.0 JSON schema (draft-04) with Python's
/// `jsonschema`, in a subprocess. The schema lives outside the repository, beside it:
/// `../shared/data/sarif-schema-2.1.0.json`. Shared by the test targets that produce SARIF.
public enum SARIFSchemaValidation {
    static let repositoryRoot = RepositoryFolder.root
    static let schemaFile = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data/sarif-schema-2.1.0.json")

    private static let script = """
    import json, sys
    try:
        import jsonschema
    except ImportError:
        sys.exit(3)
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    with open(sys.argv[2], encoding="utf-8") as f:
        document = json.load(f)
    errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(document), key=lambda e: list(map(str, e.absolute_path)))
    for error in errors:
        print("/".join(map(str, error.absolute_path)) + ": " + error.message)
    sys.exit(1 if errors else 0)
    """

    /// The schema errors of `sarif`, one per line (empty when valid). Skips the test when the schema,
    /// python3 or jsonschema is missing.
    public static func errors(in sarif: String) throws -> [String] {
        guard FileManager.default.fileExists(atPath: schemaFile.path) else {
            throw XCTSkip("../shared/data/sarif-schema-2.1.0.json is absent: SARIF not validated")
        }
        let document = FileManager.default.temporaryDirectory.appendingPathComponent("loadaudit-\(UUID().uuidString).sarif")
        try Data(sarif.utf8).write(to: document)
        defer { try? FileManager.default.removeItem(at: document) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, schemaFile.path, document.path]
        let output = Pipe()
        let errorOutput = Pipe()
        process.standardOutput = output
        process.standardError = errorOutput
        do {
            try process.run()
        } catch {
            throw XCTSkip("cannot run /usr/bin/env python3 (\(error)): SARIF not validated")
        }
        // Read before waiting, so a long error list cannot fill the pipe and block the child.
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complaints = String(decoding: errorOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        switch process.terminationStatus {
        case 0:
            return []
        case 1 where !printed.isEmpty:
            return printed.split(separator: "\n").map(String.init)
        case 3:
            throw XCTSkip("the Python module jsonschema is not installed (pip install jsonschema): SARIF not validated")
        case 126, 127:
            throw XCTSkip("python3 is not installed: SARIF not validated")
        default:
            XCTFail("the validator failed (status \(process.terminationStatus)): \(complaints)")
            return ["the validator failed"]
        }
    }

    public static func assertValid(_ sarif: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let errors = try errors(in: sarif)
        XCTAssertEqual(errors, [], "SARIF does not match the 2.1.0 schema", file: file, line: line)
    }
}
