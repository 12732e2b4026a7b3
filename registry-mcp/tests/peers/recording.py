"""A recording MCP server for toolreg's tests: plain JSON-RPC on stdio (no SDK, so it needs only
`python3` and answers fast), the 2025-11-25 handshake, the tools given, and a log of every call
it ran, so a test sees what reached the server and not only what the gateway answered.

    python3 recording.py NAME TOOLS_JSON LOG

TOOLS_JSON is a list of tool names (each gets `{"type": "object"}` as its input schema) or of
whole tool entries (`{"name": ..., "inputSchema": ...}`, listed as given). Every
`tools/call` appends one line `{"tool": ..., "arguments": ...}` to LOG and answers the text
`{"server": NAME, "tool": ..., "arguments": ...}`.
"""

import json
import sys

NAME, TOOLS, LOG = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]

log = open(LOG, "a")


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
            "serverInfo": {"name": NAME, "version": "0"},
        }
    elif method == "tools/list":
        result = {
            "tools": [
                tool
                if isinstance(tool, dict)
                else {"name": tool, "description": f"{tool} of {NAME}", "inputSchema": {"type": "object"}}
                for tool in TOOLS
            ]
        }
    elif method == "tools/call":
        params = request.get("params") or {}
        call = {"tool": params.get("name"), "arguments": params.get("arguments") or {}}
        log.write(json.dumps(call) + "\n")
        log.flush()
        call["server"] = NAME
        result = {"content": [{"type": "text", "text": json.dumps(call)}]}
    else:
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "method not found"}})
        continue
    send({"jsonrpc": "2.0", "id": rid, "result": result})
