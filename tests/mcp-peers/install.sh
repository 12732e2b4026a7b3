#!/usr/bin/env bash
# Installs the real MCP peers the tests use into DIR (default: target/mcp-peers at the workspace
# root): the npm servers and the TypeScript SDK into DIR/node, the PyPI servers and the Python SDK
# into the virtual environment DIR/venv. Idempotent; a peer that cannot be installed is reported
# and left out (the tests that need it skip, saying why).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dir="${1:-$root/target/mcp-peers}"
mkdir -p "$dir/node"
status=0

cp "$here/package.json" "$dir/node/package.json"
[ -f "$here/package-lock.json" ] && cp "$here/package-lock.json" "$dir/node/package-lock.json"
if ! (cd "$dir/node" && npm install --no-audit --no-fund --loglevel=error >/dev/null); then
  echo "mcp-peers: npm install failed: the npm servers and the TypeScript client are missing" >&2
  status=1
fi

if [ ! -x "$dir/venv/bin/python" ]; then
  python3 -m venv "$dir/venv" || status=1
fi
if ! "$dir/venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"; then
  echo "mcp-peers: pip install failed: the PyPI servers and the Python client are missing" >&2
  status=1
fi
echo "mcp-peers: installed in $dir"
exit "$status"
