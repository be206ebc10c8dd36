#!/usr/bin/env bash
# Re-runs each framework's oracle over the demo workspace (assets/demo) and writes
# tests/demo/<framework>.expected.json, which tests/demo.rs compares agentry with.
# The demo's venv/ plays the installed packages; each oracle gets its framework's
# built-in folder from there as --builtins (fast-agent has no built-ins).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
demo=$here/../../assets/demo
oracles=${ORACLES:-$here/../../../shared/oracle}
site=venv/lib/python3.12/site-packages
declare -A builtins=(
  [openhands]=$site/openhands/tools/preset/subagents
  [tsugite]=$site/tsugite/builtin_agents
  [kimi]=$site/kimi_cli/agents
  [fast-agent]=
  [kimi-code]=
)
for fw in openhands tsugite kimi fast-agent kimi-code; do
  py=$(bash "$oracles/$fw/setup.sh" | tail -n 1)
  # The kimi-code oracle is stdlib Python around Node; its setup prints its folder.
  [ "$fw" = kimi-code ] && py=python3
  args=(--project project --home home --xdg-config home/.config)
  [ -n "${builtins[$fw]}" ] && args+=(--builtins "${builtins[$fw]}")
  (cd "$demo" && "$py" "$oracles/$fw/oracle.py" "${args[@]}" > "$here/$fw.expected.json.tmp" 2>/dev/null)
  mv "$here/$fw.expected.json.tmp" "$here/$fw.expected.json"
  echo "wrote $fw.expected.json"
done
