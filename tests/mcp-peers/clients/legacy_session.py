"""What a 2025-11-25 client's session does across two replicas of `toolreg mcp serve --http`:
opens a session on replica A with the `initialize` handshake, then sends `tools/list` in that
session to A and to B, and prints the statuses as one JSON object (plain urllib, no SDK: the
session header is what is under test).

    python legacy_session.py URL_A URL_B TOKEN
"""

import json
import sys
import urllib.error
import urllib.request

URL_A, URL_B, TOKEN = sys.argv[1], sys.argv[2], sys.argv[3]


def post(url, message, session=None):
    headers = {
        "Authorization": f"Bearer {TOKEN}",
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-11-25",
    }
    if session:
        headers["Mcp-Session-Id"] = session
    request = urllib.request.Request(url, data=json.dumps(message).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, response.headers.get("Mcp-Session-Id"), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, None, error.read().decode()


status, session, body = post(URL_A, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "legacy", "version": "0"}}})
seen = {"initialize": status, "session": session is not None, "protocol": None}
for line in body.splitlines():
    if line.startswith("data:") and line[5:].strip():
        seen["protocol"] = json.loads(line[5:])["result"]["protocolVersion"]
    elif line.startswith("{"):
        seen["protocol"] = json.loads(line)["result"]["protocolVersion"]
post(URL_A, {"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
seen["same_replica"] = post(URL_A, listing, session)[0]
seen["other_replica"] = post(URL_B, listing, session)[0]
print(json.dumps(seen))
