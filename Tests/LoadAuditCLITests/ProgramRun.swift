import Foundation
import XCTest

/// Runs a program to its end (standard error discarded) and returns its standard output; a non-zero
/// exit status fails the calling test.
func runProgram(_ program: String, _ arguments: [String], in folder: URL? = nil,
                file: StaticString = #filePath, line: UInt = #line) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = folder }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "\(program) \(arguments)", file: file, line: line)
    return String(decoding: data, as: UTF8.self)
}
