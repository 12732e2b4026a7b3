"""An MCP server on the Python SDK's low-level API that lists its five tools two a page, for
toolreg's tests of `tools/list` pagination."""

import anyio
import mcp_types as types
from mcp.server.lowlevel.server import Server
from mcp.server.stdio import stdio_server

TOOLS = [
    types.Tool(name=f"tool_{i}", description=f"Tool number {i}", input_schema={"type": "object"})
    for i in range(5)
]
PAGE = 2


async def list_tools(ctx, params):
    start = int(params.cursor) if params is not None and params.cursor else 0
    end = start + PAGE
    return types.ListToolsResult(tools=TOOLS[start:end], next_cursor=str(end) if end < len(TOOLS) else None)


async def call_tool(ctx, params):
    return types.CallToolResult(content=[types.TextContent(type="text", text=f"{params.name} ran")])


server = Server("paging", on_list_tools=list_tools, on_call_tool=call_tool)


async def main():
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


anyio.run(main)
