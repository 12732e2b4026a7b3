#!/usr/bin/env bash
# Proves that check.mjs can fail: the valid cases in selftest/ must pass together, and each
# selftest/bad-<rule>.json, alone, must fail with exactly one failure naming that rule (or the
# expected TypeScript error). Also checks a generated case over the 10,000-deferred-tools limit, all
# the bad cases at once, and that missing SDK types stop the check (exit 2) instead of passing.
# Work files go to target/sdk-check/selftest at the workspace root.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$root/target/sdk-check/selftest"
check="$here/check.mjs"

bash "$here/install.sh" >/dev/null
rm -rf "$work"
mkdir -p "$work"
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "selftest FAIL: $*" >&2; }

# run NAME FILE... : copies the files into a fresh cases dir, runs the check; sets $out and $rc.
run() {
  local dir="$work/$1/cases"
  shift
  mkdir -p "$dir"
  cp "$@" "$dir/"
  rc=0
  out="$(node "$check" "$dir" 2>&1)" || rc=$?
}

# The type errors each bad-type-*.json must cause; a bad-<rule>.json must cause `rule <rule>`.
declare -A expected=(
  [type-defer-loading]="type TS2322 at body\.tools\[3\]\.defer_loading: .*boolean"
  [type-betas]="type TS2353 at body\.betas: .*betas"
  [type-chat-tool-type]="type TS2322 at body\.tools\[1\]: .*Property 'type' is missing"
  [type-responses-strict-missing]="type TS2322 at body\.tools\[2\]: .*Property 'strict' is missing"
  [type-headers]="type TS2322 at headers\[\"x-toolreg-trace\"\]"
)

# 1. The valid cases pass, with the one-line summary.
run valid "$here"/selftest/ok-*.json
summary='^sdk-check: 9 cases \(3 anthropic, 1 anthropic beta, 1 anthropic response, 1 chat response, 1 responses response, 1 chat, 1 responses\) type-check and keep the API rules$'
if [ "$rc" -eq 0 ] && grep -Eq "$summary" <<<"$out"; then ok; else bad "valid cases: exit $rc: $out"; fi

# 2. A case over the deferred-tools limit (generated: 10,001 deferred tools and one loaded tool).
mkdir -p "$work/generated"
node -e '
  const tools = [{ name: "loaded", input_schema: { type: "object" } }];
  for (let i = 0; i < 10001; i++) tools.push({ name: `t${i}`, input_schema: { type: "object" }, defer_loading: true });
  const body = { model: "claude-sonnet-4-5", max_tokens: 16, messages: [{ role: "user", content: "hi" }], tools };
  console.log(JSON.stringify({ name: "anthropic/selftest/bad-anthropic-max-deferred/first-party/plain", api: "anthropic", headers: {}, body }));
' >"$work/generated/bad-anthropic-max-deferred.json"

# 3. Each bad case alone fails with exactly one failure, the expected one.
for file in "$here"/selftest/bad-*.json "$work/generated/bad-anthropic-max-deferred.json"; do
  id="$(basename "$file" .json)"
  id="${id#bad-}"
  pattern="${expected[$id]:-rule $id at }"
  run "bad-$id" "$file"
  fails="$(grep -c '^sdk-check: FAIL ' <<<"$out" || true)"
  if [ "$rc" -eq 1 ] && [ "$fails" -eq 1 ] && grep -Eq "^sdk-check: FAIL .*: $pattern" <<<"$out"; then
    ok
  else
    bad "bad-$id.json: expected exit 1 and one '$pattern' failure, got exit $rc: $out"
  fi
done

# 4. All the bad cases together: each is named in a failure line (the shared literals map back).
run all-bad "$here"/selftest/bad-*.json "$here"/selftest/ok-*.json
missing=""
for file in "$here"/selftest/bad-*.json; do
  name="$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).name' "$file")"
  grep -Fq "sdk-check: FAIL $name: " <<<"$out" || missing="$missing $name"
done
if [ "$rc" -eq 1 ] && [ -z "$missing" ] && ! grep -q 'FAIL [a-z-]*/selftest/ok/' <<<"$out"; then ok; else bad "all bad cases: exit $rc, not reported:$missing"; fi

# 5. Without the SDKs (only tsc installed) the check stops with exit 2 rather than passing.
nm="$root/target/sdk-check/node/node_modules"
mkdir -p "$work/no-sdk/node_modules/.bin"
ln -s "$nm/typescript" "$work/no-sdk/node_modules/typescript"
ln -s "$nm/@typescript" "$work/no-sdk/node_modules/@typescript"
ln -s ../typescript/bin/tsc "$work/no-sdk/node_modules/.bin/tsc"
rc=0
mkdir -p "$work/no-sdk/cases"
cp "$here"/selftest/ok-*.json "$work/no-sdk/cases/"
out="$(SDK_CHECK_NODE_MODULES="$work/no-sdk/node_modules" node "$check" "$work/no-sdk/cases" 2>&1)" || rc=$?
if [ "$rc" -eq 2 ] && grep -q 'tsc failed outside the cases' <<<"$out"; then ok; else bad "without the SDKs: exit $rc: $out"; fi

# 6. Usage errors exit 2.
rc=0
node "$check" >/dev/null 2>&1 || rc=$?
if [ "$rc" -eq 2 ]; then ok; else bad "no arguments: exit $rc"; fi

echo "selftest: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
