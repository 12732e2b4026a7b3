#!/usr/bin/env bash
# Installs the official Anthropic and OpenAI TypeScript SDKs and the TypeScript 7 compiler that
# check.mjs type-checks rendered requests with, exactly as pinned in package-lock.json, into
# DIR/node (default DIR: target/sdk-check at the workspace root). Skips the install when
# DIR/node/node_modules/.bin/tsc exists and the lock file is the one installed last time.
# Prints the node_modules folder on success (pass it to check.mjs as SDK_CHECK_NODE_MODULES).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dir="${1:-$root/target/sdk-check}"
node_dir="$dir/node"

for tool in node npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "sdk-check: '$tool' is not on PATH; install Node.js (with npm) to run the SDK type check" >&2
    exit 2
  fi
done

mkdir -p "$node_dir"
if [ -x "$node_dir/node_modules/.bin/tsc" ] && [ -f "$node_dir/package-lock.json" ] \
  && cmp -s "$here/package-lock.json" "$node_dir/package-lock.json" \
  && cmp -s "$here/package.json" "$node_dir/package.json"; then
  echo "sdk-check: up to date in $node_dir/node_modules"
  exit 0
fi

cp "$here/package.json" "$node_dir/package.json"
cp "$here/package-lock.json" "$node_dir/package-lock.json"
if ! (cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null); then
  # A half-finished install must not look up to date next time.
  rm -f "$node_dir/package-lock.json"
  echo "sdk-check: npm ci failed in $node_dir (see the npm output above)" >&2
  exit 1
fi
if [ ! -x "$node_dir/node_modules/.bin/tsc" ]; then
  rm -f "$node_dir/package-lock.json"
  echo "sdk-check: npm ci finished but $node_dir/node_modules/.bin/tsc is missing" >&2
  exit 1
fi
echo "sdk-check: installed in $node_dir/node_modules"
