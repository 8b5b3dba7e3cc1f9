import ArgumentParser
import AuditModel
import AuditRules
import Foundation

public let loadauditVersion = "0.1.0"

/// Exit codes, the same for every command.
public enum ExitStatus: Int32 {
    /// Nothing at or above the failing severity.
    case clean = 0
    /// Findings at or above the failing severity.
    case findings = 1
    /// Bad usage, bad rules, or input paths that cannot be read.
    case usage = 2
}

public struct LoadAudit: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "loadaudit",
        abstract: "Audits a Swift codebase for deprecated loading indicators and names their replacements.",
        discussion: """
        loadaudit parses Swift sources with tree-sitter and reports every use of a deprecated loading
        component (ThemedSpinner, LoadingOverlay, raw ProgressView spinners, ...) with the replacement the
        migration table prescribes. Names in comments, strings and look-alike identifiers are never reported.

        EXAMPLES
          loadaudit scan ./App                      Report every deprecated loading indicator in ./App
          loadaudit scan --format json ./App > report.json
          loadaudit scan --rule raw-progress-view Sources/Features
          loadaudit fix --dry-run ./App             Show the safe rewrites as a unified diff
          loadaudit fix ./App                       Apply them (--unsafe for the ones that need a glance)
          loadaudit baseline .                      Accept today's findings; CI then fails only on new ones
          loadaudit scan --baseline .loadaudit-baseline.json --format sarif --output loadaudit.sarif .
          loadaudit rules                           List the rules, their fix class and replacement
          loadaudit syntax View.swift               Print the syntax tree (for rule authors)

        EXIT CODES
          0  nothing at or above the failing severity (--fail-on, default: warning)
          1  findings at or above the failing severity
          2  bad usage, a bad rules file, or an input path that cannot be read
        """,
        version: loadauditVersion,
        subcommands: [Scan.self, Fix.self, Baseline.self, Rules.self, Syntax.self],
        defaultSubcommand: Scan.self
    )

    public init() {}

    /// Runs loadaudit with `arguments` (without the program name) and returns its exit status.
    public static func main(arguments: [String], terminal: Terminal) -> Int32 {
        CurrentTerminal.terminal = terminal
        if let command = arguments.first, ["scan", "fix", "baseline", "rules"].contains(command), !arguments.contains("--rules") {
            RuleSet.prepareBuiltIn()
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

/// An error the user can act on; printed as one line, exit code 2.
struct CommandFailure: Error {
    let message: String
}
