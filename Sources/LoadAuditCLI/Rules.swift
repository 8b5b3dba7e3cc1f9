import ArgumentParser
import Audit
import AuditBaseline
import AuditProject
import AuditRotation
import AuditRules
import Foundation
import TreeSitter

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List, test or explain the rules.",
        discussion: helpProse("""
        Without a subcommand, lists the rules (as `rules list`). The rules file format is documented in
        rules/README.md; the built-in files are loading-migration (the default), swiftui-deprecations
        (`--rules swiftui-deprecations`) and skeleton-first (`--rules skeleton-first`: spinners that stand
        in for content, which a skeleton should replace).

        EXAMPLES
          loadaudit rules
          loadaudit rules --rules design-system.yml
          loadaudit rules test design-system.yml
          loadaudit rules explain foreground-color --rules swiftui-deprecations
        """),
        subcommands: [RulesList.self, RulesTest.self, RulesExplain.self],
        defaultSubcommand: RulesList.self
    )
}

struct RulesList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the rules: id, severity, fix class, what each finds and its replacement.",
        usage: "loadaudit rules list [<options>]",
        discussion: helpProse("""
        Shows the built-in loading-migration rules, or those of --rules files, after validation: a good way
        to check a rules file you are writing. Every mistake of the files is reported, one error a line,
        at its file:line:column with the text there (exit 2).
        """)
    )

    @OptionGroup var rules: RuleOptions

    func run() throws {
        let (_, ruleSet) = try Audit.loadRules(rules.setup(CurrentTerminal.terminal), paths: [])
        let terminal = CurrentTerminal.terminal
        let idWidth = ruleSet.rules.map(\.id.count).max() ?? 0
        for rule in ruleSet.rules {
            let id = rule.id.padding(toLength: idWidth, withPad: " ", startingAt: 0)
            let finds: String
            switch rule.matcher {
            case .pattern(let pattern):
                finds = "\(pattern.pattern.text) " + Self.whereText(pattern.relations) + (pattern.rewrite.map { "-> \($0.text)" } ?? "(no automatic rewrite)")
            case .component(let component):
                finds = "\(component.name) " + Self.whereText(component.relations) + (component.replacement.map { "-> \($0.source)" } ?? "(no automatic rewrite)")
            case .rotatingText, .labelStyle:
                // No name to show and no rewrite: the name's place stays blank.
                finds = " (no automatic rewrite)"
            }
            terminal.write("\(id)  \(rule.severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0))  \(rule.fix.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0))  \(finds)\n")
        }
        if !ruleSet.newComponents.isEmpty {
            terminal.write("\nnever reported (new): \(ruleSet.newComponents.sorted().joined(separator: ", "))\n")
        }
        if !ruleSet.kept.isEmpty {
            terminal.write("never reported (kept): \(ruleSet.kept.keys.sorted().joined(separator: ", "))\n")
        }
    }
}

extension RulesList {
    /// `(inside List) ` for a rule with relations, else nothing.
    static func whereText(_ relations: [some CustomStringConvertible]) -> String {
        relations.isEmpty ? "" : "(" + relations.map(\.description).joined(separator: "; ") + ") "
    }
}

struct RulesTest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run the examples rules files carry: exit 1 when a rule gets one wrong.",
        discussion: helpProse("""
        Each rule runs alone on each of its examples. A `match` example must give a finding at each ↓
        and nowhere else, also after a line of non-ASCII text, and none when the same code is in comments
        or in a string literal; a `no-match` example must give none; a `fix` example's `before` must
        become its `after` exactly (the imports the fix adds left out; `imports: [X]` checks them), and
        fixing `after` again must change nothing (with a `class`, the
        findings in `before` must all have that fix class). Then every rule of the
        file runs on each `match` example together, as a scan runs them (one finding per piece of code):
        a rule whose own example another rule reports instead fails, and a rule that reports its example
        over others that match it too prints an OVERLAP line (not a failure). Without FILE, the rules
        files a scan here would read are tested, as .loadaudit.yml chooses them: the built-in files
        (unless built-in-rules: false), then the configuration's rules files.

        EXAMPLES
          loadaudit rules test design-system.yml
          loadaudit rules test
        """)
    )

    @Argument(help: ArgumentHelp("Rules files, or the name of a built-in one (default: every built-in file).", valueName: "file"))
    var files: [String] = []

    func run() throws {
        let terminal = CurrentTerminal.terminal
        let names: [(name: String, folder: String)]
        if files.isEmpty {
            do { names = try Audit.rulesFilesToTest(from: terminal.currentDirectory) } catch let error as RulesFileError {
                throw CommandFailure(message: error.shown(from: terminal.currentDirectory))
            }
        } else {
            names = files.map { (name: $0, folder: terminal.currentDirectory) }
        }
        // The configuration's files are named from the current folder, as given files are.
        let shownName = { (name: String) in name.hasPrefix("/") && !files.contains(name) ? RelativePath.from(terminal.currentDirectory, to: name) : name }
        var failed = false
        for (name, folder) in names {
            let ruleSet: RuleSet
            do { ruleSet = try Audit.rulesFiles([name], from: folder) } catch let error as RulesFileError {
                throw CommandFailure(message: error.shown(from: terminal.currentDirectory))
            }
            let outcome = try RuleExampleChecks.run(ruleSet)
            // Rules files are named as given: relative to the current folder.
            let cwd = terminal.currentDirectory.hasSuffix("/") ? terminal.currentDirectory : terminal.currentDirectory + "/"
            let shown = { (line: String) in line.hasPrefix(cwd) ? String(line.dropFirst(cwd.count)) : line }
            for failure in outcome.failures {
                failed = true
                terminal.write("FAIL \(shown(failure.description))\n")
                if let expected = failure.expected { terminal.write(Self.indented("expected", expected)) }
                if let actual = failure.actual { terminal.write(Self.indented("actual", actual)) }
            }
            for overlap in outcome.overlaps { terminal.write("OVERLAP \(shown(overlap.description))\n") }
            let rules = ruleSet.rules.count
            let without = rules - outcome.rulesWithExamples
            let verdict = outcome.failures.isEmpty ? "all pass" : "\(outcome.failures.count) failed"
            terminal.write("\(shownName(name)): \(outcome.checks) checks of \(outcome.rulesWithExamples) rules: \(verdict)"
                           + (without > 0 ? " (\(without) of \(rules) rules have no examples)" : "") + "\n")
        }
        if failed { throw ExitCode(ExitStatus.findings.rawValue) }
    }

    static func indented(_ title: String, _ code: String) -> String {
        "  \(title):\n" + code.split(separator: "\n", omittingEmptySubsequences: false).map { "    | " + $0 }.joined(separator: "\n") + "\n"
    }
}

struct RulesExplain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Print one rule: what it finds (for rotating text: the calls it follows), what replaces it, why, and its first examples.",
        usage: "loadaudit rules explain [<options>] <id>",
        discussion: helpProse("""
        EXAMPLES
          loadaudit rules explain raw-progress-view
          loadaudit rules explain navigation-view --rules swiftui-deprecations
        """)
    )

    @Argument(help: ArgumentHelp("The rule's id.", valueName: "id"))
    var id: String

    @OptionGroup var rules: RuleOptions

    func run() throws {
        let (_, ruleSet) = try Audit.loadRules(rules.setup(CurrentTerminal.terminal), paths: [])
        guard let rule = ruleSet.rules.first(where: { $0.id == id }) else {
            throw CommandFailure(message: "\(id): no such rule (known: \(ruleSet.rules.map(\.id).joined(separator: ", ")))")
        }
        var text = "\(rule.id) (\(rule.kind.rawValue), \(rule.severity.rawValue), fix: \(rule.fix.rawValue)) from \(rule.origin)\n\n"
        text += rule.message + "\n"
        if let help = rule.help, !help.isEmpty { text += help + "\n" }
        switch rule.matcher {
        case .pattern(let pattern):
            text += "\nfinds:    \(pattern.pattern.text)\n" + Self.relations(pattern.relations)
                + (pattern.rewrite.map { "replaces: \($0.text)\n" } ?? "replaces: nothing (a person decides)\n")
        case .component(let component):
            text += "\nfinds:    \(component.name)\n" + Self.relations(component.relations)
                + (component.replacement.map { "replaces: \($0.source)\n" } ?? "replaces: nothing (a person decides)\n")
            if let size = component.size { text += Self.sizes(size) }
        case .rotatingText(let names):
            text += "\n" + Self.rotationDefinition + "\n" + Self.rotationNames(names)
        case .labelStyle:
            break
        }
        text += Self.examples(rule.examples, of: rule)
        CurrentTerminal.terminal.write(text)
    }

    /// How many examples of each kind `explain` shows: the built-in rules keep their tests among their
    /// examples, dozens for some, which would bury the rule. The file's first ones are shown, the
    /// rest counted.
    static let shownExamples = 3

    /// A rule's first examples of each kind (a fix with its class when it gives one), and how many more
    /// its file holds.
    static func examples(_ examples: RuleExamples, of rule: Rule) -> String {
        var text = ""
        for (index, example) in examples.matching.prefix(shownExamples).enumerated() {
            text += "\n" + RulesTest.indented("finds (\(index + 1))", example.trimmingCharacters(in: .newlines))
        }
        for (index, example) in examples.notMatching.prefix(shownExamples).enumerated() {
            text += "\n" + RulesTest.indented("leaves alone (\(index + 1))", example.trimmingCharacters(in: .newlines))
        }
        for (index, pair) in examples.fixes.prefix(shownExamples).enumerated() {
            text += "\n" + RulesTest.indented("before (\(index + 1)\(pair.fixClass.map { ", \($0.rawValue)" } ?? ""))", pair.before.trimmingCharacters(in: .newlines))
            text += pair.after == pair.before ? "  after: the same\n" : RulesTest.indented("after", pair.after.trimmingCharacters(in: .newlines))
        }
        let more = [(examples.matching.count, "finds"), (examples.notMatching.count, "leaves alone"), (examples.fixes.count, "before and after")]
            .filter { $0.0 > shownExamples }.map { "\($0.0 - shownExamples) more of \"\($0.1)\"" }
        if !more.isEmpty {
            text += "\n" + more.joined(separator: ", ") + " in \(rule.origin): `loadaudit rules test` runs them all\n"
        }
        return text
    }

    /// Where a component rule's `{size}` comes from, in order, with each size context's examples.
    static func sizes(_ size: SizeSource) -> String {
        var lines: [String] = []
        if !size.arguments.isEmpty { lines.append("the argument " + size.arguments.map { "\($0):" }.joined(separator: " or ") + " (points), the nearest size") }
        if let modifier = size.controlSizeModifier { lines.append(".\(modifier)(...) on the call: the size its control size maps to") }
        if let modifier = size.scaleModifier, let points = size.scalePoints {
            lines.append(".\(modifier)(k) on the call: the size nearest to \(points.formatted()) pt × k")
        }
        for place in size.context {
            lines.append("\(place.size)\(place.why.isEmpty ? "" : " (\(place.why))") where " + place.relations.map(\.description).joined(separator: " and "))
        }
        lines.append("else \(size.defaultSize)")
        var text = "size:     " + lines.joined(separator: "\n          ") + "\n"
        for (index, place) in size.context.enumerated() where !place.examples.isEmpty {
            let title = "size \(place.size)\(place.why.isEmpty ? "" : ", \(place.why)")"
            for (number, example) in place.examples.matching.enumerated() {
                text += "\n" + RulesTest.indented("\(title) (context \(index + 1), \(number + 1))", example.trimmingCharacters(in: .newlines))
            }
            for (number, example) in place.examples.notMatching.enumerated() {
                text += "\n" + RulesTest.indented("not \(title) (context \(index + 1), \(number + 1))", example.trimmingCharacters(in: .newlines))
            }
            for (number, pair) in place.examples.fixes.enumerated() {
                text += "\n" + RulesTest.indented("before (context \(index + 1), \(number + 1))", pair.before.trimmingCharacters(in: .newlines))
                text += RulesTest.indented("after", pair.after.trimmingCharacters(in: .newlines))
            }
        }
        return text
    }

    /// A rule's relations, one per line: `where:    inside List or ScrollView`.
    static func relations(_ relations: [some CustomStringConvertible]) -> String {
        relations.enumerated().map { "\($0.offset == 0 ? "where:   " : "and:     ") \($0.element)\n" }.joined()
    }

    /// What a rotating-text rule finds, for people (docs/rotating-text.md says it at length).
    static let rotationDefinition = """
        Text shown to the user is a rotating message when the value shown is chosen among two or more
        fixed messages by the passage of time: an index, pick or case that a clock moves on (a counter,
        a step, a random pick, the next case of an enum), or a comparison on elapsed time or on a
        time-driven view's date. It is not when the clock only starts work and the text follows the
        work's results (a value set after an await, or two cases stepped in one tick), nor when the text
        is the time or a count itself (a countdown, a date with a style, a percentage), nor when nothing
        shown depends on it. Values are followed by type: a member of the type around the code, a
        property of stated type, a global, within the modules a file sees.
        """

    /// A rotating-text rule's names, one part per line (`clocks:` as the rules file gives them).
    static func rotationNames(_ names: RotationVocabulary) -> String {
        func list(_ table: [String: String]) -> String {
            table.sorted { $0.key < $1.key }.map { $0.key == $0.value ? $0.key : "\($0.key) (\($0.value))" }.joined(separator: ", ")
        }
        let parts: [(String, String)] = [
            ("shown by", names.displayCalls.sorted().joined(separator: ", ")),
            ("set on views", names.displayProperties.sorted().joined(separator: ", ")),
            ("set by", names.displaySetters.sorted().joined(separator: ", ")),
            ("closures", list(names.closureClocks)), ("targets", list(names.targetClocks)), ("waits", list(names.waitClocks)),
            ("publishers", list(names.publishers)), ("receivers", names.receivers.sorted().joined(separator: ", ")),
            ("time-driven views", list(names.timeDrivenViews)), ("sequences", list(names.sequences)), ("random picks", names.randomPicks.sorted().joined(separator: ", ")),
            ("observable state", names.observableState.sorted().joined(separator: ", ")),
        ]
        return parts.filter { !$0.1.isEmpty }.map { "\(($0.0 + ":").padding(toLength: 19, withPad: " ", startingAt: 0))\($0.1)\n" }.joined()
    }
}

struct Syntax: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "syntax",
        abstract: "Print the syntax tree of a Swift file, or a project's modules, as the rules see them.",
        usage: "loadaudit syntax [<options>] [<file>]",
        discussion: helpProse("""
        With a file: one node per line, indented, with its field name, kind, position (line:column) and,
        for leaves, the text. A node the parser could not read is ERROR; one it had to invent to go on (a
        zero-width token the code lacks) is marked MISSING. Useful when a rule does not match what you
        expect.

        With --project: the project model a scan of that folder uses (docs/project-model.md): each
        module (a Package.swift target, an Xcode project's folder, or a project folder) with its folder,
        what its files import and what it declares, then each file with its module and imports. A rule's
        module: counts where the file sees that module. Useful when a finding is not where you expect it,
        and for bug reports.

        EXAMPLES
          loadaudit syntax Features/Games/GamesHistoryView.swift
          loadaudit syntax --project .
        """)
    )

    @Argument(help: ArgumentHelp("The Swift file.", valueName: "file"))
    var file: String?

    @Option(help: ArgumentHelp("Print the project model of this folder (or of the project around this file) instead.", valueName: "folder"))
    var project: String?

    @OptionGroup var options: ProjectOptions

    func validate() throws {
        if (file == nil) == (project == nil) { throw ValidationError("give a Swift file, or --project FOLDER") }
    }

    func run() throws {
        if let project { return try printProject(project) }
        let file = self.file!
        let terminal = CurrentTerminal.terminal
        let path = terminal.absolutePath(file)
        // Read and parsed as a scan reads a file (Audit); the tree itself is what this command shows.
        let tree = try Audit.syntaxTree(ofFile: path, shownAs: file)
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

    private func printProject(_ folder: String) throws {
        let terminal = CurrentTerminal.terminal
        let description: ProjectDescription
        do {
            description = try options.audit(paths: [folder]).describeProject([folder])
        } catch let error as AuditError {
            throw CommandFailure(message: error.message)
        }
        terminal.write(ProjectModelText.render(description, base: terminal.currentDirectory))
    }
}

/// `syntax --project`'s text: the modules, then the files.
enum ProjectModelText {
    static func render(_ description: ProjectDescription, base: String) -> String {
        let model = description.model
        let filesByModule = model.filesByModule
        let importsByFile = Dictionary(description.files.map { ($0.file, $0.imports) }, uniquingKeysWith: { first, _ in first })
        func shown(_ folder: String) -> String {
            folder == base ? "." : folder.hasPrefix(base + "/") ? String(folder.dropFirst(base.count + 1)) + "/" : folder + "/"
        }
        var output = "\(model.modules.count) \(model.modules.count == 1 ? "module" : "modules"), \(description.files.count) \(description.files.count == 1 ? "file" : "files")\n"
        let order = model.modules.indices.sorted { (shown(model.modules[$0].folder), model.modules[$0].name) < (shown(model.modules[$1].folder), model.modules[$1].name) }
        for index in order {
            let module = model.modules[index]
            let files = filesByModule[index] ?? []
            guard !files.isEmpty else { continue }
            output += "\nmodule \(module.name) (\(module.kind.rawValue)) \(shown(module.folder)), \(files.count) \(files.count == 1 ? "file" : "files")"
            if module.workspace != module.folder { output += ", in \(shown(module.workspace))" }
            output += "\n"
            let imports = Set(files.flatMap { importsByFile[$0] ?? [] })
            let inTree = imports.filter { model.isInTree($0, from: index) }.sorted(), external = imports.filter { !model.isInTree($0, from: index) }.sorted()
            if !inTree.isEmpty { output += "  imports modules of the project: \(inTree.joined(separator: ", "))\n" }
            if !external.isEmpty { output += "  imports other modules: \(external.joined(separator: ", "))\n" }
            let declared = model.declarations.filter { $0.value.contains { $0.module == index && $0.isType } }.keys.sorted()
            if !declared.isEmpty { output += "  declares types: \(declared.joined(separator: ", "))\n" }
            let extended = model.extendedTypes[index].sorted()
            if !extended.isEmpty { output += "  extends: \(extended.joined(separator: ", "))\n" }
            for file in files {
                let fileImports = importsByFile[file] ?? []
                output += "  \(file)\(fileImports.isEmpty ? "" : "  imports \(fileImports.joined(separator: ", "))")\n"
            }
        }
        return output
    }
}

