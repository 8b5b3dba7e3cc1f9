import Foundation

/// Where the commands write. The real process writes to its standard streams; tests capture both.
public final class Terminal: @unchecked Sendable {
    public private(set) var standardOutput = ""
    public private(set) var standardError = ""
    private let capturing: Bool
    /// Whether standard output is a terminal (colour and carets are for people).
    public let outputIsTerminal: Bool
    /// Whether standard error is a terminal (progress lines are for people).
    public let errorIsTerminal: Bool
    public let environment: [String: String]
    public let currentDirectory: String
    /// What a capturing terminal's standard input holds (the real one reads the process's).
    public var standardInput = Data()

    public init(capturing: Bool, outputIsTerminal: Bool, errorIsTerminal: Bool = false, environment: [String: String], currentDirectory: String) {
        self.capturing = capturing
        self.outputIsTerminal = outputIsTerminal
        self.errorIsTerminal = errorIsTerminal
        self.environment = environment
        self.currentDirectory = currentDirectory
    }

    /// A path the user gave, made absolute against the folder loadaudit runs in.
    public func absolutePath(_ path: String) -> String { path.hasPrefix("/") ? path : currentDirectory + "/" + path }

    public static func process() -> Terminal {
        Terminal(capturing: false, outputIsTerminal: isatty(STDOUT_FILENO) == 1, errorIsTerminal: isatty(STDERR_FILENO) == 1,
                 environment: ProcessInfo.processInfo.environment, currentDirectory: FileManager.default.currentDirectoryPath)
    }

    public func write(_ text: String) {
        if capturing { standardOutput += text } else { FileHandle.standardOutput.write(Data(text.utf8)) }
    }

    public func writeError(_ text: String) {
        if capturing { standardError += text } else { FileHandle.standardError.write(Data(text.utf8)) }
    }

    /// Standard input, to its end.
    public func readStandardInput() -> Data {
        capturing ? standardInput : FileHandle.standardInput.readDataToEndOfFile()
    }

    /// `loadaudit: error: ...` on standard error; a message of several lines (a rules file's mistakes)
    /// is one error a line.
    public func error(_ message: String) {
        writeError(message.split(separator: "\n", omittingEmptySubsequences: false).map { "loadaudit: error: \($0)\n" }.joined())
    }

    public func warning(_ message: String) {
        writeError("loadaudit: warning: \(message)\n")
    }

    /// Colour only for a terminal, and never when NO_COLOR is set (https://no-color.org).
    public func wantsColour(_ choice: ColourChoice) -> Bool {
        switch choice {
        case .always: return true
        case .never: return false
        case .auto: return outputIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty
        }
    }
}

public enum ColourChoice: String, CaseIterable, Sendable {
    case auto, always, never
}

/// The current terminal of the running command. Commands run one at a time, so one slot is enough.
enum CurrentTerminal {
    nonisolated(unsafe) static var terminal = Terminal.process()
}
