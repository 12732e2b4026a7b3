#!/usr/bin/env python3
"""Converts API-Bank (AlibabaResearch/DAMO-ConvAI, folder `api-bank/`) into the retrieval-set format
of data/eval: tools.jsonl from the API classes of `apis/*.py`, queries.jsonl from the dialogues of
`lv1-lv2-samples/` (`level-1-given-desc/` and `level-2-toolsearcher/`, files in name order).

Usage: python3 convert.py API_BANK_DIR OUT_DIR

The rules, fixed before any strategy ran on the result:
- a tool is an API class of `apis/` with a `description` (its class name, the description, and
  its `input_parameters` as a JSON schema's properties); `ToolSearcher`, the benchmark's own tool
  search, is left out: here the search is the thing measured;
- a request is the text of the user's turns since the previous API call (ToolSearcher's calls do
  not count as one), joined by spaces; its relevant tools are the APIs called after those turns
  and before the user speaks again, in order, each once. A stretch of user turns followed by no
  API call gives no request;
- the lines keep the dialogues' order, so that the odd/even halves of data/eval are fixed by it.
"""

import ast
import json
import sys
from pathlib import Path

TYPES = {"str": "string", "int": "integer", "float": "number", "bool": "boolean",
         "list": "array", "dict": "object"}
SEARCHER = "ToolSearcher"


def literal(node):
    try:
        return ast.literal_eval(node)
    except ValueError:
        return None


def tools(apis: Path):
    out = []
    for path in sorted(apis.glob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(node, ast.ClassDef):
                continue
            fields = {}
            for item in node.body:
                if isinstance(item, ast.Assign) and len(item.targets) == 1 \
                        and isinstance(item.targets[0], ast.Name):
                    fields[item.targets[0].id] = literal(item.value)
            description = fields.get("description")
            if not isinstance(description, str) or node.name == SEARCHER:
                continue
            properties = {}
            for name, spec in (fields.get("input_parameters") or {}).items():
                spec = spec if isinstance(spec, dict) else {}
                prop = {"type": TYPES.get(spec.get("type"), "string")}
                if isinstance(spec.get("description"), str):
                    prop["description"] = spec["description"]
                properties[name] = prop
            out.append({
                "id": node.name,
                "name": node.name,
                "description": description,
                "extra": {
                    "file": f"apis/{path.name}",
                    "input_schema": {"type": "object", "properties": properties},
                },
            })
    return out


def requests(dialogue: Path):
    turns = [json.loads(line) for line in dialogue.read_text(encoding="utf-8").splitlines()
             if line.strip()]
    said, called = [], []
    for turn in turns + [{"role": "User", "text": ""}]:
        role = turn.get("role")
        if role == "User":
            if called:
                yield " ".join(said), called
                said, called = [], []
            if turn.get("text"):
                said.append(turn["text"].strip())
        elif role == "API":
            name = turn.get("api_name")
            if name and name != SEARCHER and name not in called:
                called.append(name)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    source, out = Path(sys.argv[1]), Path(sys.argv[2])
    pool = tools(source / "apis")
    ids = {tool["id"] for tool in pool}
    queries = []
    for folder in ["level-1-given-desc", "level-2-toolsearcher"]:
        for dialogue in sorted((source / "lv1-lv2-samples" / folder).glob("*.jsonl")):
            for i, (text, called) in enumerate(requests(dialogue)):
                missing = [name for name in called if name not in ids]
                if missing:
                    sys.exit(f"{dialogue.name}: {missing} not among the tools")
                if not text:
                    continue
                queries.append({
                    "qid": f"{folder}/{dialogue.stem}/{i}",
                    "query": text,
                    "relevant": called,
                })
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "tools.jsonl", "w", encoding="utf-8") as f:
        for tool in pool:
            f.write(json.dumps(tool, ensure_ascii=False) + "\n")
    with open(out / "queries.jsonl", "w", encoding="utf-8") as f:
        for query in queries:
            f.write(json.dumps(query, ensure_ascii=False) + "\n")
    print(f"{len(pool)} tools, {len(queries)} requests")


if __name__ == "__main__":
    main()
