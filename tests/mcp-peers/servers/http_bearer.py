"""A Python `mcp` SDK (2.3.x) server over Streamable HTTP, stateless, behind a bearer check.

    MCP_TOKEN=secret PORT=8765 [API_KEY=k] [NO_CHALLENGE=1] [STATEFUL=1] [LEGACY=1] python http_bearer.py

Serves http://127.0.0.1:$PORT/mcp. Every request needs `Authorization: Bearer $MCP_TOKEN`
(401 otherwise, with `WWW-Authenticate: Bearer ...` unless NO_CHALLENGE=1); with API_KEY
set it also needs `X-Api-Key: $API_KEY` (403 otherwise). STATEFUL=1 serves with
`stateless_http=False` (Mcp-Session-Id sessions, a standalone GET stream on 2025-11-25).
LEGACY=1 serves 2025-11-25 only: a request that names a newer protocol version in its
`MCP-Protocol-Version` header (a `server/discover` probe) gets HTTP 400 with JSON-RPC -32601,
as a server that predates 2026-07-28 answers, so the client falls back to `initialize`.
"""

import hmac
import json
import os
import sys

import uvicorn
from mcp.server.mcpserver import Context, MCPServer

TOKEN = os.environ.get("MCP_TOKEN", "secret-token")
API_KEY = os.environ.get("API_KEY")
NO_CHALLENGE = os.environ.get("NO_CHALLENGE") == "1"
PORT = int(os.environ.get("PORT", "8765"))
STATEFUL = os.environ.get("STATEFUL") == "1"
LEGACY = os.environ.get("LEGACY") == "1"

server = MCPServer("py-bearer")


@server.tool()
def add(a: int, b: int) -> int:
    """Adds two integers."""
    return a + b


@server.tool()
def seen_headers(ctx: Context) -> str:
    """The HTTP request headers this call arrived with (authorization redacted)."""
    request = getattr(ctx.request_context, "request", None)
    if request is None:
        return "{}"
    headers = {k: v for k, v in request.headers.items()}
    if "authorization" in headers:
        headers["authorization"] = headers["authorization"][:7] + "<redacted>"
    return json.dumps(headers, sort_keys=True)


@server.tool()
async def add_tool(name: str, ctx: Context) -> str:
    """Adds a tool called `name` and announces `tools/list_changed` (to subscriptions/listen
    streams on 2026-07-28; a stateless 2025-11-25 server has no stream to send it on)."""

    def added() -> str:
        return f"{name} is here"

    server.add_tool(added, name=name, description=f"The tool {name}, added while running")
    await ctx.notify_tools_changed()
    # 2025-11-25 (stateful) sessions: a plain notification, on the session's GET stream.
    try:
        await ctx.request_context.session.send_tool_list_changed()
    except Exception as error:  # stateless / 2026-07-28: no session stream
        print(f"send_tool_list_changed: {error!r}", file=sys.stderr, flush=True)
    return f"added {name}"


@server.tool()
async def remove_tool(name: str, ctx: Context) -> str:
    """Removes the tool called `name` and announces `tools/list_changed`, as `add_tool` does."""
    server.remove_tool(name)
    await ctx.notify_tools_changed()
    try:
        await ctx.request_context.session.send_tool_list_changed()
    except Exception as error:  # stateless / 2026-07-28: no session stream
        print(f"send_tool_list_changed: {error!r}", file=sys.stderr, flush=True)
    return f"removed {name}"


ACCEPTED = {"token": TOKEN}


@server.tool()
def revoke_token() -> str:
    """From now on the server accepts only the token `rotated` (to test a mid-session 401)."""
    ACCEPTED["token"] = "rotated"
    return "revoked"


class BearerAuth:
    """Pure ASGI middleware (safe for SSE streaming, unlike BaseHTTPMiddleware)."""

    def __init__(self, app, token: str, api_key: str | None, challenge: bool):
        self.app = app
        self.api_key = api_key.encode() if api_key else None
        self.challenge = challenge

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope["headers"])
        got = headers.get(b"authorization", b"")
        if not hmac.compare_digest(got, f"Bearer {ACCEPTED['token']}".encode()):
            error = b'Bearer error="invalid_token"' if got else b"Bearer"
            extra = [] if not self.challenge else [(b"www-authenticate", error)]
            print(f"401 {scope['method']} {scope['path']} (authorization {'wrong' if got else 'missing'})",
                  file=sys.stderr, flush=True)
            return await respond(send, 401, b'{"error":"unauthorized"}', extra)
        if self.api_key is not None and not hmac.compare_digest(headers.get(b"x-api-key", b""), self.api_key):
            return await respond(send, 403, b'{"error":"bad api key"}', [])
        version = headers.get(b"mcp-protocol-version", b"")
        if LEGACY and version and version not in LEGACY_VERSIONS:
            body = b'{"jsonrpc":"2.0","id":"server-error","error":{"code":-32601,"message":"Method not found"}}'
            return await respond(send, 400, body, [])
        return await self.app(scope, receive, send)


LEGACY_VERSIONS = {b"2024-11-05", b"2025-03-26", b"2025-06-18", b"2025-11-25"}


async def respond(send, status, body, extra):
    await send({
        "type": "http.response.start",
        "status": status,
        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())] + extra,
    })
    await send({"type": "http.response.body", "body": body})


app = server.streamable_http_app(stateless_http=not STATEFUL, host="127.0.0.1")
app.add_middleware(BearerAuth, token=TOKEN, api_key=API_KEY, challenge=not NO_CHALLENGE)

if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=PORT, log_level="warning")
