import ArgumentParser
import Audit
import AuditRules
import Foundation
import TreeSitter

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List the rules: id, severity, fix class, component and replacement.",
        discussion: helpProse("""
        Shows the built-in loading-migration rules, or those of --rules files, after validation: a good way
        to check a rules file you are writing. The format is documented in rules/README.md.

        EXAMPLES
          loadaudit rules
          loadaudit rules --rules design-system.yml
        """)
    )

    @OptionGroup var rules: RuleOptions

    func run() throws {
        let (_, ruleSet) = try Audit.loadRules(rules.setup(CurrentTerminal.terminal), paths: [])
        let terminal = CurrentTerminal.terminal
        let idWidth = ruleSet.rules.map(\.id.count).max() ?? 0
        for rule in ruleSet.rules {
            let id = rule.id.padding(toLength: idWidth, withPad: " ", startingAt: 0)
            let replacement = rule.replacement.map { "-> \($0.source)" } ?? "(no automatic rewrite)"
            terminal.write("\(id)  \(rule.severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0))  \(rule.fix.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0))  \(rule.component) \(replacement)\n")
        }
        if !ruleSet.newComponents.isEmpty {
            terminal.write("\nnever reported (new): \(ruleSet.newComponents.sorted().joined(separator: ", "))\n")
        }
        if !ruleSet.kept.isEmpty {
            terminal.write("never reported (kept): \(ruleSet.kept.keys.sorted().joined(separator: ", "))\n")
        }
    }
}

struct Syntax: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "syntax",
        abstract: "Print the syntax tree of a Swift file, as the rules see it.",
        discussion: helpProse("""
        One node per line, indented, with its field name, kind, position (line:column) and, for leaves,
        the text. A node the parser could not read is ERROR; one it had to invent to go on (a zero-width
        token the code lacks) is marked MISSING. Useful when a rule does not match what you expect.

        EXAMPLE
          loadaudit syntax Features/Games/GamesHistoryView.swift
        """)
    )

    @Argument(help: ArgumentHelp("The Swift file.", valueName: "file"))
    var file: String

    func run() throws {
        let terminal = CurrentTerminal.terminal
        let path = file.hasPrefix("/") ? file : terminal.currentDirectory + "/" + file
        let source: SourceText
        switch SourceReader.read(path, maximumSize: ProjectScanner.maximumFileSize) {
        case .success(let read): source = SourceText(bytes: read.0)
        case .failure(let failure):
            throw CommandFailure(message: "\(file): \(FileManager.default.fileExists(atPath: path) ? failure.detail : "no such file")")
        }
        let tree = try Parser().parse(source)
        // Iterative, so deeply nested code cannot overflow the stack.
        var output = ""
        var pending: [(node: Node, depth: Int, field: String?)] = [(tree.rootNode, 0, nil)]
        while let (node, depth, field) = pending.popLast() {
            output += String(repeating: "  ", count: depth)
            if let field { output += "\(field): " }
            if node.isMissing { output += "MISSING " }
            output += node.isNamed ? node.type : "\"\(node.type)\""
            output += " \(node.startPosition)"
            if node.childCount == 0, node.isNamed { output += " \(node.text.debugDescription)" }
            output += "\n"
            for (child, field) in node.childrenWithFields.reversed() {
                pending.append((child, depth + 1, field))
            }
        }
        terminal.write(output)
    }
}

import AuditScan
