"""A raw JSON-RPC MCP server (no SDK) for toolreg's tests: it speaks the 2025-11-25
handshake and lists tools exactly as given, so a test can send what no SDK would.

    python raw.py TOOLS_JSON [CURSOR]

With CURSOR, every page of tools/list says `nextCursor: CURSOR`: a server that never ends.
"""

import json
import sys

TOOLS = json.loads(sys.argv[1])
CURSOR = sys.argv[2] if len(sys.argv) > 2 else None


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    try:
        request = json.loads(line)
    except ValueError:
        continue
    method, rid = request.get("method"), request.get("id")
    if rid is None:
        continue
    if method == "initialize":
        result = {
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "raw", "version": "0"},
        }
    elif method == "tools/list":
        result = {"tools": TOOLS}
        if CURSOR is not None:
            result["nextCursor"] = CURSOR
    elif method == "tools/call":
        result = {"content": [{"type": "text", "text": request["params"]["name"] + " ran"}]}
    else:
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "method not found"}})
        continue
    send({"jsonrpc": "2.0", "id": rid, "result": result})
