"""End-to-end tests of `loadaudit lsp`: the real binary as a server, spoken to over LSP by lspclient.
Run by scripts/test-lsp (and .ci/run): LOADAUDIT_BINARY names the binary."""
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from lspclient import Client, apply_edits, uri  # noqa: E402

BINARY = os.environ.get("LOADAUDIT_BINARY") or os.path.join(os.path.dirname(__file__), "../../.build/debug/loadaudit")

CONFIG = "rules: [team-rules.yml]\n"
RULES = """version: 1
name: team
rules:
  - id: old-badge
    kind: pattern
    match: "OldBadge(count: $N)"
    replace: "Badge($N)"
    replacement-module: DesignKit
    fix: safe
    message: OldBadge is gone; use Badge.
    help-uri: https://example.com/rules/old-badge
  - id: card-shadow
    kind: pattern
    match: $VIEW.cardShadow($RADIUS)
    replace: "$VIEW.elevation(.card, radius: $RADIUS)"
    fix: unsafe
    message: cardShadow is replaced by elevation(.card).
"""
# On disk; the tests open the buffer with other text (unsaved).
ON_DISK = """import SwiftUI

struct InboxRow: View {
    var body: some View {
        Text("Inbox")
    }
}
"""
# Non-ASCII before the finding on its line: é and ☕ are one UTF-16 unit each, 🎉 two; in UTF-8, 2, 3 and 4 bytes.
BUFFER = """import SwiftUI

struct InboxRow: View {
    let title: String
    let unread: Int
    @State private var syncing = false

    var body: some View {
        HStack {
            Text("Café ☕ 🎉 \\(title)"); OldBadge(count: unread)
            if syncing {
                ProgressView()
            }
            LoadingDots()
        }
        .cardShadow(4)
    }
}
"""


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as file:
        file.write(text)


def read(path):
    with open(path, encoding="utf-8") as file:
        return file.read()


class Project:
    """A workspace of its own in a temporary folder."""

    def __init__(self):
        self.root = os.path.realpath(tempfile.mkdtemp(prefix="loadaudit-lsp-test-"))
        write(os.path.join(self.root, ".loadaudit.yml"), CONFIG)
        write(os.path.join(self.root, "team-rules.yml"), RULES)
        self.row = os.path.join(self.root, "Sources/App/InboxRow.swift")
        write(self.row, ON_DISK)

    def fix_on_disk(self, text, *arguments):
        """What `loadaudit fix ARGUMENTS` writes for a file of text `text` (in a copy of the project)."""
        copy = tempfile.mkdtemp(prefix="loadaudit-lsp-fix-")
        try:
            shutil.copytree(self.root, copy, dirs_exist_ok=True)
            path = os.path.join(copy, os.path.relpath(self.row, self.root))
            write(path, text)
            subprocess.run([BINARY, "fix", *arguments, path], cwd=copy, capture_output=True)
            return read(path)
        finally:
            shutil.rmtree(copy)

    def remove(self):
        shutil.rmtree(self.root, ignore_errors=True)


class LanguageServerTestCase(unittest.TestCase):
    def setUp(self):
        self.project = Project()
        self.client = Client(BINARY, self.project.root)

    def tearDown(self):
        self.client.kill()
        self.project.remove()

    def start(self, text=BUFFER):
        self.client.initialize(self.project.root)
        self.client.open(self.project.row, text)
        diagnostics, _ = self.client.diagnostics(self.project.row, version=1)
        return diagnostics["diagnostics"]

    def actions(self, diagnostic=None, only=None, version_text=BUFFER):
        whole = {"start": {"line": 0, "character": 0}, "end": {"line": 10000, "character": 0}}
        context = {"diagnostics": [diagnostic] if diagnostic else []}
        if only:
            context["only"] = only
        response = self.client.request("textDocument/codeAction", {
            "textDocument": {"uri": uri(self.project.row)}, "range": diagnostic["range"] if diagnostic else whole, "context": context})
        self.assertNotIn("error", response)
        return response["result"]


class LifecycleTests(LanguageServerTestCase):
    def test_requests_before_initialize_after_shutdown_unknown_methods_and_exit_status(self):
        early = self.client.request("textDocument/codeAction", {})
        self.assertEqual(early["error"]["code"], -32002)
        response = self.client.initialize(self.project.root)
        capabilities = response["result"]["capabilities"]
        self.assertEqual(capabilities["textDocumentSync"]["change"], 1)   # full text on every change
        self.assertTrue(capabilities["textDocumentSync"]["openClose"])
        self.assertIn("source.fixAll.loadaudit", capabilities["codeActionProvider"]["codeActionKinds"])
        self.assertEqual(self.client.request("initialize", {})["error"]["code"], -32600)
        self.assertEqual(self.client.request("textDocument/hover", {})["error"]["code"], -32601)
        self.client.notify("$/someNotification", {})   # ignored
        self.assertIsNone(self.client.request("shutdown")["result"])
        self.assertEqual(self.client.request("textDocument/codeAction", {})["error"]["code"], -32600)
        self.client.notify("exit")
        self.assertEqual(self.client.process.wait(30), 0)

    def test_exit_without_shutdown_is_status_1(self):
        self.client.initialize(self.project.root)
        self.client.notify("exit")
        self.assertEqual(self.client.process.wait(30), 1)

    def test_end_of_input_without_shutdown_is_status_1(self):
        self.client.initialize(self.project.root)
        self.client.process.stdin.close()
        self.assertEqual(self.client.process.wait(30), 1)

    def test_unreadable_messages_are_answered_and_the_server_goes_on(self):
        self.client.write_raw(b"{this is not json")
        self.assertEqual(self.client.response(None)["error"]["code"], -32700)
        self.client.write_raw(b"\xff\xfe\x00garbage\x80", header=b"Content-Type: nothing\r\n\r\n")
        self.assertEqual(self.client.response(None)["error"]["code"], -32700)
        self.client.write_raw(b"[1, 2, 3]")
        self.assertEqual(self.client.response(None)["error"]["code"], -32700)
        self.assertIn("capabilities", self.client.initialize(self.project.root)["result"])
        self.assertEqual(self.client.finish(), 0)


class DiagnosticTests(LanguageServerTestCase):
    def test_the_unsaved_buffer_is_judged_with_rule_code_help_link_severity_replacement_and_utf16_range(self):
        diagnostics = self.start()
        by_code = {d["code"]: d for d in diagnostics}
        self.assertEqual(sorted(by_code), ["card-shadow", "loading-dots", "old-badge", "raw-progress-view"])
        badge = by_code["old-badge"]
        line = BUFFER.splitlines()[9]
        # The character offset in UTF-16 units: 🎉 counts 2, é and ☕ 1 each.
        start = len(line[:line.index("OldBadge")].encode("utf-16-le")) // 2
        self.assertEqual(badge["range"], {"start": {"line": 9, "character": start},
                                          "end": {"line": 9, "character": start + len("OldBadge(count: unread)")}})
        self.assertEqual(start, line.index("OldBadge") + 1)  # one more than the code points: the emoji's second unit
        self.assertEqual(badge["severity"], 2)
        self.assertEqual(badge["codeDescription"], {"href": "https://example.com/rules/old-badge"})
        self.assertIn("Badge(unread)", badge["message"])
        self.assertNotIn("codeDescription", by_code["raw-progress-view"])
        self.assertIn("LoadingSpinner(size: .small)", by_code["raw-progress-view"]["message"])
        self.assertEqual(by_code["raw-progress-view"]["range"]["start"], {"line": 11, "character": 16})

    def test_changes_are_judged_and_an_older_version_is_never_published_after_a_newer(self):
        self.start()
        client = self.client
        _, mark = client.diagnostics(self.project.row, version=1)
        texts = {}
        for version in range(2, 12):
            # Each version has `version - 1` raw spinners, so a diagnostic list tells its version.
            texts[version] = BUFFER.replace("ProgressView()", "\n".join(["ProgressView()"] * (version - 1)))
            client.change(self.project.row, texts[version], version)
        last, _ = client.diagnostics(self.project.row, version=11)
        self.assertEqual(len([d for d in last["diagnostics"] if d["code"] == "raw-progress-view"]), 10)
        published = [n["params"]["version"] for n in client.notifications[mark:]
                     if n.get("method") == "textDocument/publishDiagnostics" and n["params"]["uri"] == uri(self.project.row)]
        self.assertEqual(published, sorted(published))
        self.assertLess(len(published), 10, "the changes sent together are judged fewer times (debounce)")
        for notification in client.notifications[mark:]:
            params = notification.get("params", {})
            if notification.get("method") == "textDocument/publishDiagnostics" and params.get("version") in texts:
                spinners = len([d for d in params["diagnostics"] if d["code"] == "raw-progress-view"])
                self.assertEqual(spinners, params["version"] - 1, "diagnostics of the version they claim")
        self.assertEqual(client.finish(), 0)

    def test_save_and_close(self):
        self.start()
        write(self.project.row, BUFFER)
        _, mark = self.client.diagnostics(self.project.row, version=1)
        self.client.notify("textDocument/didSave", {"textDocument": {"uri": uri(self.project.row)}})
        again, mark = self.client.diagnostics(self.project.row, start=mark + 1)
        self.assertEqual(len(again["diagnostics"]), 4)
        self.client.notify("textDocument/didClose", {"textDocument": {"uri": uri(self.project.row)}})
        closed, _ = self.client.diagnostics(self.project.row, start=mark + 1)
        self.assertEqual(closed["diagnostics"], [])


    def test_the_other_open_buffers_count_for_the_projects_facts(self):
        # An unsaved buffer declares the project's own ProgressView: the other file's ProgressView() is that one.
        own = os.path.join(self.project.root, "Sources/App/OwnProgress.swift")
        write(own, "import SwiftUI\n")
        self.client.initialize(self.project.root)
        self.client.open(own, "import SwiftUI\n\nstruct ProgressView: View {\n    var body: some View { Text(\"busy\") }\n}\n")
        self.client.diagnostics(own, version=1)
        self.client.open(self.project.row, BUFFER)
        diagnostics, _ = self.client.diagnostics(self.project.row, version=1)
        self.assertEqual(sorted(d["code"] for d in diagnostics["diagnostics"]), ["card-shadow", "loading-dots", "old-badge"])


class CodeActionTests(LanguageServerTestCase):
    def test_a_quick_fix_is_the_text_fix_writes_with_the_import_of_the_replacement_module(self):
        diagnostics = self.start()
        badge = next(d for d in diagnostics if d["code"] == "old-badge")
        actions = self.actions(badge, only=["quickfix"])
        fixes = [a for a in actions if "replace" in a["title"]]
        self.assertEqual(len(fixes), 1)
        self.assertTrue(fixes[0]["isPreferred"])
        fixed = apply_edits(BUFFER, fixes[0]["edit"]["changes"][uri(self.project.row)])
        self.assertEqual(fixed, self.project.fix_on_disk(BUFFER, "--rule", "old-badge"))
        self.assertIn("import DesignKit\n", fixed)
        self.assertIn("Badge(unread)", fixed)
        self.assertIn("ProgressView()", fixed, "only this finding is fixed")

    def test_an_unsafe_fix_is_titled_so_and_a_manual_finding_offers_no_edit_but_the_suppression(self):
        diagnostics = self.start()
        shadow = next(d for d in diagnostics if d["code"] == "card-shadow")
        unsafe = [a for a in self.actions(shadow) if "replace" in a["title"]]
        self.assertEqual(len(unsafe), 1)
        self.assertIn("unsafe", unsafe[0]["title"])
        self.assertFalse(unsafe[0]["isPreferred"])
        self.assertEqual(apply_edits(BUFFER, unsafe[0]["edit"]["changes"][uri(self.project.row)]),
                         self.project.fix_on_disk(BUFFER, "--unsafe", "--rule", "card-shadow"))
        dots = next(d for d in diagnostics if d["code"] == "loading-dots")
        actions = self.actions(dots, only=["quickfix"])
        self.assertEqual([a["title"] for a in actions], ["loadaudit: ignore loading-dots on this line (suppression comment)"])
        suppressed = apply_edits(BUFFER, actions[0]["edit"]["changes"][uri(self.project.row)])
        self.assertIn("            // loadaudit:ignore-next-line loading-dots\n            LoadingDots()", suppressed)
        self.client.change(self.project.row, suppressed, 2)
        after, _ = self.client.diagnostics(self.project.row, version=2)
        self.assertEqual(sorted(d["code"] for d in after["diagnostics"]), ["card-shadow", "old-badge", "raw-progress-view"])

    def test_fix_all_applies_the_safe_fixes_of_the_file_as_fix_does(self):
        self.start()
        actions = self.actions(only=["source.fixAll"])
        self.assertEqual([a["kind"] for a in actions], ["source.fixAll.loadaudit"])
        fixed = apply_edits(BUFFER, actions[0]["edit"]["changes"][uri(self.project.row)])
        self.assertEqual(fixed, self.project.fix_on_disk(BUFFER))
        self.assertIn("LoadingSpinner(size: .small)", fixed)
        self.assertIn(".cardShadow(4)", fixed, "the unsafe fix is not applied")


class ConfigurationTests(LanguageServerTestCase):
    def test_a_bad_rules_file_is_a_diagnostic_on_it_and_a_fixed_one_judges_the_buffers_again(self):
        self.start()
        rules = os.path.join(self.project.root, "team-rules.yml")
        write(rules, RULES.replace("    fix: unsafe\n", "    fix: sometimes\n"))
        _, mark = self.client.diagnostics(self.project.row, version=1)
        self.client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": uri(rules), "type": 2}]})
        bad, mark = self.client.diagnostics(rules, start=mark)
        self.assertEqual(len(bad["diagnostics"]), 1)
        self.assertEqual(bad["diagnostics"][0]["range"]["start"]["line"], RULES.splitlines().index("    fix: unsafe"))
        self.assertIn("sometimes", bad["diagnostics"][0]["message"])
        buffer, _ = self.client.diagnostics(self.project.row, start=mark)
        self.assertIn("team-rules.yml", buffer["diagnostics"][0]["message"])
        self.assertEqual(self.actions(), [])          # alive, with nothing to offer
        # The rules file fixed and saved: its diagnostics go, the buffer is judged with its rules again.
        write(rules, RULES.replace("cardShadow is replaced", "cardShadow is gone"))
        self.client.notify("textDocument/didSave", {"textDocument": {"uri": uri(rules)}})
        cleared, mark = self.client.diagnostics(rules, start=mark + 1)
        self.assertEqual(cleared["diagnostics"], [])
        again, _ = self.client.diagnostics(self.project.row, start=mark)
        self.assertIn("cardShadow is gone", " ".join(d["message"] for d in again["diagnostics"]))
        self.assertEqual(self.client.finish(), 0)

    def test_the_configuration_turning_a_rule_off_is_followed(self):
        self.start()
        _, mark = self.client.diagnostics(self.project.row, version=1)
        config = os.path.join(self.project.root, ".loadaudit.yml")
        write(config, CONFIG + "severity:\n  loading-dots: off\n  raw-progress-view: error\n")
        self.client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": uri(config), "type": 2}]})
        again, _ = self.client.diagnostics(self.project.row, start=mark + 1)
        codes = {d["code"]: d["severity"] for d in again["diagnostics"]}
        self.assertNotIn("loading-dots", codes)
        self.assertEqual(codes["raw-progress-view"], 1)


class RobustnessTests(LanguageServerTestCase):
    def test_any_text_a_huge_buffer_and_a_file_outside_the_workspace_get_answers(self):
        self.client.initialize(self.project.root)
        broken = "struct { \u0000 \ufffd ((( ProgressView() \"unterminated \udbff".encode("utf-8", "replace").decode("utf-8")
        self.client.open(self.project.row, broken)
        self.client.diagnostics(self.project.row, version=1)
        huge_path = os.path.join(self.project.root, "Sources/App/Generated.swift")
        # A generated table of 4 MB with one finding at its end.
        huge = "".join("    Entry(id: %d, name: \"entry %d\", weight: %d.5),\n" % (n, n, n) for n in range(80000))
        huge = "let table = [\n" + huge + "]\nlet spinner = ProgressView()\n"
        self.client.open(huge_path, huge)
        published, _ = self.client.diagnostics(huge_path, version=1, timeout=120)
        self.assertGreater(len(published["diagnostics"]), 0)
        outside = tempfile.mkdtemp(prefix="loadaudit-lsp-outside-")
        try:
            path = os.path.join(outside, "Loose.swift")
            self.client.open(path, "import SwiftUI\nlet spinner = ProgressView()\n")
            loose, _ = self.client.diagnostics(path, version=1)
            self.assertEqual([d["code"] for d in loose["diagnostics"]], ["raw-progress-view"])
        finally:
            shutil.rmtree(outside)
        self.assertEqual(self.client.finish(), 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
