"""Build tools.jsonl of the mcp_servers set from the captured MCP fixtures.

Run from the repository root:  python3 data/eval/mcp_servers/convert.py

One line per tool, servers in file-name order, tools in the order each server
listed them. The description is the server's text, unchanged; the input schema
goes to `extra.input_schema`, so the pool has the parameters a live server sends.
"""
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "data" / "mcp-fixtures"
OUT = pathlib.Path(__file__).resolve().parent / "tools.jsonl"

with OUT.open("w", encoding="utf-8") as out:
    for path in sorted(FIXTURES.glob("*.json")):
        server = path.stem
        for tool in json.loads(path.read_text(encoding="utf-8")):
            row = {
                "id": f"{server}::{tool['name']}",
                "name": tool["name"],
                "description": tool["description"],
                "extra": {"tool_name": server, "input_schema": tool.get("inputSchema", {})},
            }
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
