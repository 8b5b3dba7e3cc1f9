"""A small LSP client over a child process's standard input and output (standard library only), for
the end-to-end tests of `loadaudit lsp`."""
import json
import os
import queue
import subprocess
import threading
import time


def uri(path):
    from urllib.parse import quote
    return "file://" + quote(os.path.abspath(path))


class Client:
    def __init__(self, binary, cwd):
        self.process = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, cwd=cwd)
        self.messages = queue.Queue()
        self.notifications = []      # every notification from the server, in order
        self.responses = {}
        self.lock = threading.Condition()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        stream = self.process.stdout
        while True:
            headers = {}
            while True:
                line = stream.readline()
                if not line:
                    with self.lock:
                        self.closed = True
                        self.lock.notify_all()
                    return
                line = line.decode("ascii").strip()
                if not line:
                    break
                name, value = line.split(":", 1)
                headers[name.strip().lower()] = value.strip()
            body = stream.read(int(headers["content-length"]))
            message = json.loads(body)
            with self.lock:
                if "method" in message and "id" not in message:
                    self.notifications.append(message)
                elif "method" in message:
                    self.notifications.append(message)   # a request of the server (registerCapability)
                    try:
                        self.write({"jsonrpc": "2.0", "id": message["id"], "result": None})
                    except (ValueError, BrokenPipeError):
                        pass   # the test closed the server's input on purpose
                else:
                    self.responses[json.dumps(message.get("id"))] = message
                self.lock.notify_all()

    closed = False

    def write(self, message):
        self.write_raw(json.dumps(message).encode())

    def write_raw(self, body, header=None):
        data = (header if header is not None else b"Content-Length: %d\r\n\r\n" % len(body)) + body
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def request(self, method, params=None, timeout=60):
        self.next_id += 1
        ident = self.next_id
        self.write({"jsonrpc": "2.0", "id": ident, "method": method, "params": params or {}})
        return self.response(ident, timeout)

    def response(self, ident, timeout=60):
        key = json.dumps(ident)
        deadline = time.time() + timeout
        with self.lock:
            while key not in self.responses:
                if self.closed or time.time() > deadline:
                    raise AssertionError("no response to request %r" % (ident,))
                self.lock.wait(deadline - time.time())
            return self.responses.pop(key)

    def notify(self, method, params=None):
        self.write({"jsonrpc": "2.0", "method": method, "params": params or {}})

    def wait_for(self, predicate, timeout=60, start=0):
        """The first notification from index `start` on that `predicate` accepts (and its index)."""
        deadline = time.time() + timeout
        with self.lock:
            while True:
                for index in range(start, len(self.notifications)):
                    if predicate(self.notifications[index]):
                        return self.notifications[index], index
                if self.closed or time.time() > deadline:
                    raise AssertionError("no such notification; got %s" % [n.get("method") for n in self.notifications])
                self.lock.wait(max(0.01, deadline - time.time()))

    def diagnostics(self, path, version=None, timeout=60, start=0):
        """The next diagnostics published for `path` (of `version`, when given) from index `start` on."""
        def wanted(message):
            params = message.get("params", {})
            return (message.get("method") == "textDocument/publishDiagnostics" and params.get("uri") == uri(path)
                    and (version is None or params.get("version") == version))
        message, index = self.wait_for(wanted, timeout, start)
        return message["params"], index

    def initialize(self, root, dynamic_watch=True):
        response = self.request("initialize", {
            "processId": os.getpid(), "rootUri": uri(root),
            "workspaceFolders": [{"uri": uri(root), "name": "root"}],
            "capabilities": {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": dynamic_watch}}},
        })
        self.notify("initialized", {})
        return response

    def open(self, path, text, version=1):
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri(path), "languageId": "swift", "version": version, "text": text}})

    def change(self, path, text, version):
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri(path), "version": version}, "contentChanges": [{"text": text}]})

    def finish(self, timeout=30):
        """shutdown, exit; the exit status."""
        self.request("shutdown")
        self.notify("exit")
        return self.process.wait(timeout)

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def apply_edits(text, edits):
    """Applies LSP text edits (UTF-16 positions) to `text`, last first."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(position):
        if position["line"] >= len(lines):
            return len(text)
        line = lines[position["line"]]
        units, index = 0, 0
        while index < len(line) and units < position["character"]:
            units += 2 if ord(line[index]) > 0xFFFF else 1
            index += 1
        return starts[position["line"]] + index

    for edit in sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]), reverse=True):
        start, end = offset(edit["range"]["start"]), offset(edit["range"]["end"])
        text = text[:start] + edit["newText"] + text[end:]
    return text
