import ArgumentParser
import LanguageServer

struct LanguageServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsp",
        abstract: "Serve findings and quick fixes to an editor (Language Server Protocol on standard input and output).",
        discussion: helpProse("""
        Started by an editor, not by people: it speaks LSP on standard input and output. Each open Swift
        buffer is judged as the file at its path in its project (as `scan --stdin-filename` judges it),
        with the nearest .loadaudit.yml and its rules files; diagnostics carry the rule id, the severity,
        the message with the replacement and a link to the rule's help. Code actions: a quick fix per
        finding with a fix (the text `fix` would write, imports included; unsafe ones say so), the
        file's safe fixes (source.fixAll.loadaudit), and a suppression comment. When .loadaudit.yml or
        a rules file changes, every open buffer is judged again; a rules file that does not read is
        shown as diagnostics on that file. Set-ups for Neovim, VS Code, Helix and Zed: docs/editors.md.

        EXIT CODES
          0  exit after shutdown
          1  exit (or the end of the input) without shutdown
        """)
    )

    func run() throws {
        let status = LanguageServer(toolVersion: loadauditVersion).run()
        throw ExitCode(status)
    }
}
