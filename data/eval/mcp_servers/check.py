"""Check the mcp_servers set's format and print its counts.

Run from anywhere:  python3 data/eval/mcp_servers/check.py
Exits non-zero if a check fails. Reads only the two files of the set.
"""
import collections
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
CATEGORIES = {"files", "code-search", "git", "github", "notes-memory", "web", "database",
              "time", "notion", "terminal-processes", "reasoning", "mcp-demo", "server-config"}
STYLES = {"keywords", "request", "task"}
QUERY_KEYS = {"qid", "query", "relevant", "category", "style"}
TOOL_KEYS = {"id", "name", "description", "extra"}

errors = []
tools = [json.loads(line) for line in (HERE / "tools.jsonl").open(encoding="utf-8")]
queries = [json.loads(line) for line in (HERE / "queries.jsonl").open(encoding="utf-8")]

tool_ids = set()
server_of = {}
for t in tools:
    if set(t) != TOOL_KEYS:
        errors.append(f"tool {t.get('id')}: keys {sorted(t)}")
    server = t["extra"].get("tool_name")
    if t["id"] != f"{server}::{t['name']}":
        errors.append(f"tool {t['id']}: id is not <server>::<name>")
    if t["id"] in tool_ids:
        errors.append(f"tool {t['id']}: duplicate id")
    tool_ids.add(t["id"])
    server_of[t["id"]] = server

seen_qids, seen_text = set(), set()
for q in queries:
    qid = q.get("qid")
    if set(q) != QUERY_KEYS:
        errors.append(f"{qid}: keys {sorted(q)}")
    if qid in seen_qids:
        errors.append(f"{qid}: duplicate qid")
    seen_qids.add(qid)
    text = q["query"].strip().lower()
    if text in seen_text:
        errors.append(f"{qid}: duplicate query text")
    seen_text.add(text)
    if not q["query"].strip():
        errors.append(f"{qid}: empty query")
    if q["category"] not in CATEGORIES:
        errors.append(f"{qid}: unknown category {q['category']!r}")
    if q["style"] not in STYLES:
        errors.append(f"{qid}: unknown style {q['style']!r}")
    if not q["relevant"] or len(set(q["relevant"])) != len(q["relevant"]):
        errors.append(f"{qid}: relevant is empty or has repeats")
    for r in q["relevant"]:
        if r not in tool_ids:
            errors.append(f"{qid}: relevant id {r!r} is not in tools.jsonl")

by_style = collections.Counter(q["style"] for q in queries)
by_cat = collections.Counter(q["category"] for q in queries)
by_server = collections.Counter()  # queries naming at least one tool of the server
tool_hits = collections.Counter()
for q in queries:
    for s in {server_of.get(r) for r in q["relevant"]}:
        by_server[s] += 1
    tool_hits.update(q["relevant"])

print(f"tools: {len(tools)}   queries: {len(queries)}")
print("per style:", ", ".join(f"{k} {by_style[k]}" for k in sorted(STYLES)))
print("per category:")
for k, v in sorted(by_cat.items(), key=lambda kv: (-kv[1], kv[0])):
    print(f"  {k:20} {v}")
print("per server (queries with a relevant tool of it / tools of it covered):")
servers = sorted({server_of[t] for t in tool_ids})
for s in servers:
    own = [t for t in tool_ids if server_of[t] == s]
    covered = sum(1 for t in own if tool_hits[t])
    print(f"  {s:20} {by_server[s]:4}   {covered}/{len(own)}")
covered = [t for t in tool_ids if tool_hits[t]]
print(f"tools covered: {len(covered)}/{len(tools)}")
missing = sorted(t for t in tool_ids if not tool_hits[t])
if missing:
    print("tools in no query:", ", ".join(missing))
sizes = collections.Counter(min(len(q["relevant"]), 5) for q in queries)
print("relevant per query:", ", ".join(f"{k}{'+' if k == 5 else ''}: {sizes[k]}" for k in sorted(sizes)))

if errors:
    print(f"\n{len(errors)} error(s):", file=sys.stderr)
    for e in errors:
        print("  " + e, file=sys.stderr)
    sys.exit(1)
print("ok")
