"""Drives `toolreg mcp serve --builtins Bash` with the Python MCP SDK (ClientSession over
stdio_client) and prints what it saw as one JSON object.

    python bash_client.py COMMANDS_JSON -- COMMAND ARGS...

COMMANDS_JSON is a JSON array of shell command lines. The script initializes, lists the tools
(keeping Bash's annotations), calls Bash once per command line, and prints each result.
"""

import json
import sys

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client


async def main():
    commands = json.loads(sys.argv[1])
    command = sys.argv[sys.argv.index("--") + 1 :]
    params = StdioServerParameters(command=command[0], args=command[1:])
    seen = {"results": []}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            listed = await session.list_tools()
            seen["annotations"] = {
                tool.name: tool.annotations.model_dump(by_alias=True, exclude_none=True) if tool.annotations else None
                for tool in listed.tools
            }
            for line in commands:
                result = await session.call_tool("Bash", {"command": line})
                text = "\n".join(b.text for b in result.content if getattr(b, "type", "") == "text")
                seen["results"].append({"command": line, "is_error": bool(result.is_error), "text": text})
    print(json.dumps(seen))


anyio.run(main)
