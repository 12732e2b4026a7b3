"""Drives `toolreg mcp serve --http` with the Python MCP SDK (ClientSession over
streamable_http_client) and prints what it saw as one JSON object.

    python python_http_client.py URL TOKEN

The script: initializes, lists the tools, searches with search_tools, calls the time server's
tool and the built-in Glob through call_tool, and checks /health and a request without the
token (which must get 401).
"""

import json
import sys
import urllib.error
import urllib.request

import anyio
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


def result_json(result):
    return {
        "is_error": bool(result.is_error),
        "text": "\n".join(block.text for block in result.content if getattr(block, "type", "") == "text"),
    }


def status_of(url, headers):
    request = urllib.request.Request(url, data=b"{}", headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


async def main():
    url, token = sys.argv[1], sys.argv[2]
    seen = {}
    client = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    async with client:
        async with streamable_http_client(url, http_client=client) as (read, write, *_):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                seen["protocol"] = init.protocol_version
                listed = await session.list_tools()
                seen["tools"] = [tool.name for tool in listed.tools]
                found = await session.call_tool("search_tools", {"query": "current time timezone"})
                seen["search"] = [tool["name"] for tool in found.structured_content["tools"]]
                seen["time"] = result_json(await session.call_tool(
                    "call_tool", {"name": "mcp__time__get_current_time", "arguments": {"timezone": "UTC"}}))
                seen["glob"] = result_json(await session.call_tool(
                    "call_tool", {"name": "Glob", "arguments": {"pattern": "*.json"}}))
    with urllib.request.urlopen(url.rsplit("/", 1)[0] + "/health") as response:
        seen["health"] = response.status
    seen["no_token"] = status_of(url, {"Content-Type": "application/json"})
    seen["wrong_token"] = status_of(url, {"Content-Type": "application/json", "Authorization": "Bearer " + "x" * 32})
    print(json.dumps(seen))


anyio.run(main)
