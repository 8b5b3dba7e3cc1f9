// LoadAuditCLI: the command line, the outermost edge. It owns the arguments (swift-argument-parser),
// the help text, rendering results to the terminal, the one atomic writer (AtomicWriter: fixed
// sources, reports, baselines) and the exit codes. It must not decide findings or run the steps
// itself: it builds an `Audit` from the options, calls `scan` or `fix`, and shows what comes back.

import ArgumentParser
import Audit
import AuditModel
import Foundation

public let loadauditVersion = "0.1.0"

/// Exit codes, the same for every command.
public enum ExitStatus: Int32 {
    /// Nothing at or above the failing severity.
    case clean = 0
    /// Findings at or above the failing severity.
    case findings = 1
    /// Bad usage, bad rules, input paths that cannot be read, or no file to scan.
    case usage = 2
}

public struct LoadAudit: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "loadaudit",
        abstract: "Audits a Swift codebase for deprecated loading indicators and names their replacements.",
        discussion: helpProse("""
        loadaudit parses Swift sources with tree-sitter and reports every use of a deprecated loading
        component (ThemedSpinner, LoadingOverlay, raw ProgressView spinners, ...) with the replacement the
        migration table prescribes. Names in comments, strings and look-alike identifiers are never reported.

        EXAMPLES
          loadaudit scan ./App              Report every deprecated loading indicator
          loadaudit scan --format json ./App > report.json
          loadaudit scan --rule raw-progress-view Sources/Features
          loadaudit fix --dry-run ./App     Show the safe rewrites as a unified diff
          loadaudit fix ./App               Apply them (--unsafe: also those to review)
          loadaudit baseline .              Accept today's findings: CI fails on new
          loadaudit progress                Findings and adoption over the git history
          loadaudit scan --baseline .loadaudit-baseline.json \\
              --format sarif --output loadaudit.sarif .
          loadaudit rules                   The rules, their fix class and replacement
          loadaudit syntax View.swift       The syntax tree a rule sees
          loadaudit lsp                     Findings and quick fixes in an editor (docs/editors.md)

        EXIT CODES
          0  nothing at or above the failing severity (--fail-on, default: warning)
          1  findings at or above the failing severity
          2  bad usage, a bad rules file, an input path that cannot be read,
             or no .swift file to scan (--allow-empty lets that pass)
        """),
        version: loadauditVersion,
        subcommands: [Scan.self, Fix.self, Baseline.self, ProgressCommand.self, FleetCommand.self, Rules.self, Syntax.self, LanguageServerCommand.self],
        defaultSubcommand: Scan.self
    )

    public init() {}

    /// Runs loadaudit with `arguments` (without the program name) and returns its exit status.
    public static func main(arguments: [String], terminal: Terminal) -> Int32 {
        CurrentTerminal.terminal = terminal
        if let command = arguments.first, ["scan", "fix", "baseline", "progress", "rules", "lsp"].contains(command), !arguments.contains("--rules") {
            Audit.prepareBuiltInRules()
        }
        if let mistake = commandMistake(in: arguments, currentDirectory: terminal.currentDirectory) {
            terminal.error(mistake)
            return ExitStatus.usage.rawValue
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            return ExitStatus.clean.rawValue
        } catch let exit as ExitCode {
            return exit.rawValue
        } catch let failure as CommandFailure {
            terminal.error(failure.message)
            return ExitStatus.usage.rawValue
        } catch let failure as AuditError {
            for warning in failure.warnings { terminal.warning(warning) }
            terminal.error(failure.message)
            return ExitStatus.usage.rawValue
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                // --help and --version.
                terminal.write(fullMessage(for: error) + "\n")
                return ExitStatus.clean.rawValue
            }
            terminal.writeError(fullMessage(for: error) + "\n")
            return ExitStatus.usage.rawValue
        }
    }
}

extension LoadAudit {
    static var commandNames: [String] { configuration.subcommands.compactMap { $0.configuration.commandName } }

    /// What ArgumentParser would take the wrong way: `help nope` (it prints the overall help and exits
    /// 0), and a mistyped command (`scna`), which, `scan` being the default, it reads as a path that
    /// does not exist. Nil when the arguments are fine, or are a path that exists.
    static func commandMistake(in arguments: [String], currentDirectory: String) -> String? {
        guard let first = arguments.first else { return nil }
        if first == "help" {
            guard arguments.count > 1, !arguments[1].hasPrefix("-"), !commandNames.contains(arguments[1]) else { return nil }
            return "help: no command '\(arguments[1])'; the commands are \(commandNames.joined(separator: ", "))"
        }
        guard !first.hasPrefix("-"), !commandNames.contains(first), !first.contains("/"), !first.contains(".") else { return nil }
        guard !FileManager.default.fileExists(atPath: currentDirectory + "/" + first) else { return nil }
        guard let nearest = commandNames.min(by: { editDistance(first, $0) < editDistance(first, $1) }),
              editDistance(first, nearest) <= 2 else { return nil }
        return "\(first): no such file or directory, nor a command; did you mean '\(nearest)'?"
    }

    /// The Levenshtein distance of two words: the fewest insertions, deletions and substitutions.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, character) in a.enumerated() {
            var current = [i + 1]
            for j in b.indices {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (character == b[j] ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}

/// Help prose written with line breaks for the source's sake, made one line per paragraph, so that
/// ArgumentParser wraps it at the terminal's width (80 columns when piped) instead of breaking it
/// wherever the source did. Blank lines separate paragraphs; a line that starts with a space (an
/// example, a table row) or a heading in capitals stays a line of its own.
func helpProse(_ text: String) -> String {
    var lines: [String] = []
    var joining = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
        let ownLine = line.isEmpty || line.first == " " || line == line.uppercased()
        if !ownLine, joining, let last = lines.popLast() {
            lines.append(last + " " + line)
        } else {
            lines.append(line)
        }
        joining = !ownLine
    }
    return lines.joined(separator: "\n")
}

/// An error the user can act on; printed as one line, exit code 2.
struct CommandFailure: Error {
    let message: String
}
