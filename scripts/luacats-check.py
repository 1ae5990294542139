#!/usr/bin/env python3
"""Checks Lua files against their LuaCATS annotations with a real language server.

Usage: luacats-check.py SERVER WORKSPACE FILE...

Starts SERVER (emmylua_ls) on WORKSPACE (a folder whose .luarc.json names the
Lua API description as a library), opens each FILE and prints every diagnostic
the server publishes for it, one per line: `FILE:LINE:COL: SEVERITY CODE: MESSAGE`.
Exits 0 when it got an answer for every file (whatever the diagnostics), 2
when the server failed or stayed silent. The tests read the lines.
"""
import json, os, subprocess, sys, threading, time, queue
from pathlib import Path

def main():
    server, workspace, files = str(Path(sys.argv[1]).resolve()), Path(sys.argv[2]).resolve(), [Path(f).resolve() for f in sys.argv[3:]]
    proc = subprocess.Popen([server], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            cwd=workspace)
    inbox = queue.Queue()

    def reader():
        stream = proc.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    inbox.put(None); return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            inbox.put(json.loads(stream.read(length)))
    threading.Thread(target=reader, daemon=True).start()

    next_id = [0]
    def send(method, params, request=False):
        message = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            next_id[0] += 1
            message["id"] = next_id[0]
        body = json.dumps(message).encode()
        proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        proc.stdin.flush()
        return message.get("id")

    def answer(message):
        # The server asks for configuration and progress tokens: give empty answers.
        if "id" in message and "method" in message:
            body = json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": None}).encode()
            proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            proc.stdin.flush()

    root = workspace.as_uri()
    init = send("initialize", {"processId": os.getpid(), "rootUri": root,
                               "workspaceFolders": [{"uri": root, "name": workspace.name}],
                               "capabilities": {"textDocument": {"publishDiagnostics": {}}, "workspace": {"configuration": False}}},
                request=True)
    deadline = time.time() + 60
    while True:
        message = inbox.get(timeout=max(1, deadline - time.time()))
        if message is None:
            print("the language server stopped before answering initialize", file=sys.stderr); sys.exit(2)
        answer(message)
        if message.get("id") == init and "method" not in message:
            break
    send("initialized", {})
    uris = {}
    for path in files:
        uri = path.as_uri()
        uris[uri] = path
        send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "lua", "version": 1,
                                                       "text": path.read_text()}})
    # Diagnostics come when the workspace is loaded; a file may be published
    # more than once (first empty): keep the latest, wait until quiet.
    latest, quiet_since = {}, None
    deadline = time.time() + 90
    while time.time() < deadline:
        try:
            message = inbox.get(timeout=0.5)
        except queue.Empty:
            if len(latest) == len(uris) and quiet_since and time.time() - quiet_since > 2:
                break
            continue
        if message is None:
            break
        answer(message)
        if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] in uris:
            latest[message["params"]["uri"]] = message["params"]["diagnostics"]
            quiet_since = time.time()
    proc.kill()
    if len(latest) < len(uris):
        missing = [str(uris[u]) for u in uris if u not in latest]
        print("no diagnostics were published for: " + ", ".join(missing), file=sys.stderr); sys.exit(2)
    names = {1: "error", 2: "warning", 3: "information", 4: "hint"}
    for uri, diagnostics in sorted(latest.items()):
        for d in diagnostics:
            start = d["range"]["start"]
            print(f"{uris[uri]}:{start['line'] + 1}:{start['character'] + 1}: {names.get(d.get('severity'), '?')} "
                  f"{d.get('code', '')}: {d['message']}".replace("\n", " "))

if __name__ == "__main__":
    main()
