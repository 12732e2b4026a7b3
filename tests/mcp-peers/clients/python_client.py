"""Drives `toolreg mcp serve` with the Python MCP SDK (ClientSession over stdio_client) and
prints what it saw as one JSON object.

    python python_client.py MODE READ_FILE -- COMMAND ARGS...

MODE is `search` or `direct`. The script: initializes, lists the tools, finds the time tool
(with search_tools in search mode, in the list in direct mode), calls it, reads READ_FILE with
the built-in Read, and calls the denied Write.
"""

import json
import sys

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client


def result_json(result):
    return {
        "is_error": bool(result.is_error),
        "text": "\n".join(block.text for block in result.content if getattr(block, "type", "") == "text"),
        "structured": result.structured_content,
    }


async def main():
    mode, read_file = sys.argv[1], sys.argv[2]
    command = sys.argv[sys.argv.index("--") + 1 :]
    params = StdioServerParameters(command=command[0], args=command[1:])
    seen = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            seen["protocol"] = init.protocol_version
            seen["server"] = init.server_info.name
            listed = await session.list_tools()
            seen["tools"] = [tool.name for tool in listed.tools]
            seen["meta"] = {tool.name: tool.meta for tool in listed.tools if tool.meta}
            again = await session.list_tools()
            seen["list_is_stable"] = [t.name for t in again.tools] == seen["tools"]

            async def call(name, arguments):
                if mode == "search":
                    return await session.call_tool("call_tool", {"name": name, "arguments": arguments})
                return await session.call_tool(name, arguments)

            if mode == "search":
                found = await session.call_tool("search_tools", {"query": "current time timezone"})
                seen["search"] = [tool["name"] for tool in found.structured_content["tools"]]
            seen["time"] = result_json(await call("mcp__time__get_current_time", {"timezone": "UTC"}))
            seen["read"] = result_json(await call("Read", {"file_path": read_file}))
            seen["denied"] = result_json(await call("Write", {"file_path": read_file, "content": "x"}))
    print(json.dumps(seen))


anyio.run(main)
