"""A small MCP server on the Python SDK for toolreg's tests: it adds tools at run time and
says so (`tools/list_changed`), reports progress, and records a cancellation.

    python changing.py [MARKER_FILE]

`slow` writes `cancelled` to MARKER_FILE when the client cancels it.
"""

import os
import pathlib
import sys
import threading

import anyio
from mcp.server.mcpserver import Context, MCPServer

server = MCPServer("changing")
marker = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else None


@server.tool()
def ping() -> str:
    """Answers pong."""
    return "pong"


@server.tool()
async def add_tool(name: str, ctx: Context) -> str:
    """Adds a tool called `name` and tells the client its tool list changed."""

    def added() -> str:
        return f"{name} is here"

    server.add_tool(added, name=name, description=f"The tool {name}, added while running")
    # 2026-07-28 sessions hear it on their subscription, 2025-11-25 sessions as a notification.
    await ctx.notify_tools_changed()
    try:
        await ctx.request_context.session.send_tool_list_changed()
    except Exception:
        pass
    return f"added {name}"


@server.tool()
async def slow(seconds: float, ctx: Context) -> str:
    """Works for `seconds`, reporting progress every tenth of a second."""
    steps = max(1, int(seconds * 10))
    try:
        for step in range(steps):
            await ctx.report_progress(step, steps, f"step {step}")
            await anyio.sleep(0.1)
    except anyio.get_cancelled_exc_class():
        if marker is not None:
            marker.write_text("cancelled")
        raise
    return "done"


@server.tool()
def exit_server() -> str:
    """Ends this server's process, as a crash would, shortly after answering."""
    threading.Timer(0.2, lambda: os._exit(0)).start()
    return "exiting"


server.run("stdio")
