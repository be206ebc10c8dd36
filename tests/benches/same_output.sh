#!/usr/bin/env bash
# Do two agentry binaries print the same bytes on a workspace? For refactors that must
# not change behaviour: `export` of every framework and of the RFC dialect, `list
# --json` and `check`, each compared byte for byte.
#
#   bash tests/benches/same_output.sh BEFORE AFTER [WORKSPACE]
#
# WORKSPACE holds project/, home/ and xdg/ (default: the benches' `large`, made by
# `cargo bench --bench suite` or `whole_process.sh`). Prints one line per command
# and exits 1 when any output differs (the first differing lines are shown).
set -uo pipefail
before=$1 after=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
ws=${3:-${AGENTRY_BENCH_CACHE:-$repo/target/bench-corpus-v2}/large}
empty=$(mktemp -d)
trap 'rm -rf "$empty" "$out"' EXIT
out=$(mktemp -d)
flags=(--project "$ws/project" --home "$ws/home" --xdg-config "$ws/xdg" --builtins "$empty")
ids=$("$after" list --json "${flags[@]}" 2>/dev/null | python3 -c 'import json,sys; print(" ".join(sorted({a.get("tool", a.get("ecosystem")) for a in json.load(sys.stdin)["agents"]})))' 2>/dev/null)
[ -n "$ids" ] || ids="openhands tsugite fast-agent kimi claude-code copilot opencode codex gemini-cli qwen-code kimi-code"
status=0
compare() {
  local label=$1; shift
  "$before" "$@" >"$out/b" 2>"$out/be"; local rb=$?
  "$after" "$@" >"$out/a" 2>"$out/ae"; local ra=$?
  if cmp -s "$out/b" "$out/a" && [ $rb = $ra ]; then
    echo "same       $label ($(wc -c <"$out/a") bytes, exit $ra)"
  else
    echo "DIFFERENT  $label (exit $rb vs $ra)"; diff "$out/b" "$out/a" | head -8; status=1
  fi
}
for id in $ids; do compare "export -e $id" export -e "$id" --json "${flags[@]}"; done
compare "export -e fast-agent --dialect agentcard-rfc" export -e fast-agent --dialect agentcard-rfc --json "${flags[@]}"
compare "list --json" list --json "${flags[@]}"
compare "check" check "${flags[@]}"
compare "check --format json --notes" check --format json --notes "${flags[@]}"
exit $status
