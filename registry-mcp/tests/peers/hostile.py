"""A hostile MCP server for toolreg's tests: plain JSON-RPC on stdio (no SDK, which would not
misbehave on purpose), the 2025-11-25 handshake, then one misbehaviour:

    python3 hostile.py big-page BYTES         one page, one tool whose description has BYTES bytes
    python3 hostile.py endless                empty pages, each with a new cursor, forever
    python3 hostile.py heavy-pages BYTES      pages of one tool of BYTES bytes, new cursors forever
    python3 hostile.py big-result CHARS       `flood` answers CHARS characters of text
    python3 hostile.py blocks                 `flood` answers 60,000 chars, a 200,000-byte image, 60,000 chars
    python3 hostile.py progress SECONDS FILE  `slow` sends progress every 0.1 s for SECONDS, then
                                              nothing; writes `cancelled` to FILE when cancelled
    python3 hostile.py escapes                writes terminal escapes to stderr and in its
                                              handshake error, then exits
"""

import base64
import json
import sys
import threading
import time

MODE = sys.argv[1]
ARGS = sys.argv[2:]
OUT = threading.Lock()

ESCAPES = "\x1b[2J\x1b]0;pwned\x07\x1b[31mred\u009b31m\u202eevil\x7f"


def send(message):
    with OUT:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


def tool(name, description=""):
    return {"name": name, "description": description, "inputSchema": {"type": "object"}}


def list_page(cursor):
    if MODE == "big-page":
        return {"tools": [tool("big", "d" * int(ARGS[0]))]}
    if MODE == "endless":
        return {"tools": [], "nextCursor": str(int(cursor or 0) + 1)}
    if MODE == "heavy-pages":
        n = int(cursor or 0)
        return {"tools": [tool(f"heavy_{n}", "h" * int(ARGS[0]))], "nextCursor": str(n + 1)}
    return {"tools": [tool("flood"), tool("slow")]}


def call(rid, params):
    if MODE == "big-result":
        text = "x" * int(ARGS[0])
        send({"jsonrpc": "2.0", "id": rid, "result": {"content": [{"type": "text", "text": text}]}})
    elif MODE == "blocks":
        image = base64.b64encode(b"\0" * 150_000).decode()
        content = [
            {"type": "text", "text": "a" * 60_000},
            {"type": "image", "data": image, "mimeType": "image/png"},
            {"type": "text", "text": "b" * 60_000},
        ]
        send({"jsonrpc": "2.0", "id": rid, "result": {"content": content}})
    elif MODE == "progress":
        token = params.get("_meta", {}).get("progressToken")
        until = time.monotonic() + float(ARGS[0])

        def tick():
            n = 0
            while time.monotonic() < until and not cancelled.is_set():
                send({"jsonrpc": "2.0", "method": "notifications/progress",
                      "params": {"progressToken": token, "progress": n, "message": f"step {n}"}})
                n += 1
                time.sleep(0.1)

        threading.Thread(target=tick, daemon=True).start()


cancelled = threading.Event()

if MODE == "escapes":
    sys.stderr.write("starting " + ESCAPES + "\nsecond line\n")
    sys.stderr.flush()

for line in sys.stdin:
    try:
        request = json.loads(line)
    except ValueError:
        continue
    method, rid = request.get("method"), request.get("id")
    params = request.get("params") or {}
    if method == "notifications/cancelled" and MODE == "progress":
        cancelled.set()
        with open(ARGS[1], "w") as marker:
            marker.write("cancelled")
        continue
    if rid is None:
        continue
    if MODE == "escapes":
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32000, "message": "refused " + ESCAPES}})
        sys.exit(1)
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": rid, "result": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "hostile", "version": "0"},
        }})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": rid, "result": list_page(params.get("cursor"))})
    elif method == "tools/call":
        call(rid, params)
    else:
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "method not found"}})
