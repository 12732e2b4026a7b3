// Drives `toolreg mcp serve --http` with the TypeScript MCP SDK (Client over
// StreamableHTTPClientTransport, a bearer token in its headers) and prints what it saw as one
// JSON object: the same script as python_http_client.py, without the raw HTTP checks.
//
//     node ts_http_client.mjs URL TOKEN

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, token] = process.argv.slice(2, 4);
const resultJson = (result) => ({
  is_error: Boolean(result.isError),
  text: result.content.filter((b) => b.type === "text").map((b) => b.text).join("\n"),
});

const client = new Client({ name: "toolreg-ts-http-test", version: "1.0.0" });
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
await client.connect(transport);
const seen = {};
seen.protocol = transport.protocolVersion ?? null;
seen.tools = (await client.listTools()).tools.map((t) => t.name);
const found = await client.callTool({ name: "search_tools", arguments: { query: "current time timezone" } });
seen.search = found.structuredContent.tools.map((t) => t.name);
seen.time = resultJson(await client.callTool({
  name: "call_tool", arguments: { name: "mcp__time__get_current_time", arguments: { timezone: "UTC" } },
}));
seen.glob = resultJson(await client.callTool({
  name: "call_tool", arguments: { name: "Glob", arguments: { pattern: "*.json" } },
}));
await client.close();
console.log(JSON.stringify(seen));
