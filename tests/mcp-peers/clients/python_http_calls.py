"""Calls one tool through `toolreg mcp serve --http` with the Python MCP SDK (ClientSession over
streamable_http_client) and prints what it saw as one JSON object.

    python python_http_calls.py URL TOKEN TOOL COUNT PREFIX

The script: opens one session on the 2026-07-28 lane (`server/discover`, no `initialize`), calls TOOL through call_tool COUNT times, the k-th call with the
arguments {"by": "PREFIX-k"}, and prints the negotiated protocol and each call's result.
"""

import json
import sys

import anyio
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


async def main():
    url, token, tool, count, prefix = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
    seen = {"calls": []}
    client = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    async with client:
        async with streamable_http_client(url, http_client=client) as (read, write, *_):
            async with ClientSession(read, write) as session:
                # server/discover: the 2026-07-28 lane, every request stateless.
                await session.discover()
                seen["protocol"] = session.protocol_version
                for k in range(count):
                    result = await session.call_tool(
                        "call_tool", {"name": tool, "arguments": {"by": f"{prefix}-{k}"}})
                    seen["calls"].append({
                        "is_error": bool(result.is_error),
                        "text": "\n".join(block.text for block in result.content
                                          if getattr(block, "type", "") == "text"),
                    })
    print(json.dumps(seen))


anyio.run(main)
