// Drives `toolreg mcp serve` with the TypeScript MCP SDK (Client over StdioClientTransport)
// and prints what it saw as one JSON object.
//
//     node ts_client.mjs MODE READ_FILE -- COMMAND ARGS...
//
// The same script as python_client.py.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [mode, readFile] = process.argv.slice(2, 4);
const command = process.argv.slice(process.argv.indexOf("--") + 1);

const resultJson = (result) => ({
  is_error: Boolean(result.isError),
  text: result.content.filter((b) => b.type === "text").map((b) => b.text).join("\n"),
  structured: result.structuredContent ?? null,
});

const client = new Client({ name: "toolreg-ts-test", version: "1.0.0" });
const transport = new StdioClientTransport({ command: command[0], args: command.slice(1), stderr: "inherit" });
await client.connect(transport);
const seen = {};
seen.server = client.getServerVersion().name;
const listed = await client.listTools();
seen.tools = listed.tools.map((t) => t.name);
seen.meta = Object.fromEntries(listed.tools.filter((t) => t._meta).map((t) => [t.name, t._meta]));
const again = await client.listTools();
seen.list_is_stable = JSON.stringify(again.tools.map((t) => t.name)) === JSON.stringify(seen.tools);

const call = (name, args) =>
  mode === "search"
    ? client.callTool({ name: "call_tool", arguments: { name, arguments: args } })
    : client.callTool({ name, arguments: args });

if (mode === "search") {
  const found = await client.callTool({ name: "search_tools", arguments: { query: "current time timezone" } });
  seen.search = found.structuredContent.tools.map((t) => t.name);
}
seen.time = resultJson(await call("mcp__time__get_current_time", { timezone: "UTC" }));
seen.read = resultJson(await call("Read", { file_path: readFile }));
seen.denied = resultJson(await call("Write", { file_path: readFile, content: "x" }));
await client.close();
console.log(JSON.stringify(seen));
