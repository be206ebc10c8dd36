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
  [copilot]=
)
for fw in openhands tsugite kimi fast-agent kimi-code copilot; do
  py=$(bash "$oracles/$fw/setup.sh" | tail -n 1)
  # The kimi-code oracle is stdlib Python around Node, the copilot oracle runs the
  # CLI's own executable (what its setup prints) from Python.
  [ "$fw" = kimi-code ] || [ "$fw" = copilot ] && py=python3
  args=(--project project --home home --xdg-config home/.config)
  [ -n "${builtins[$fw]}" ] && args+=(--builtins "${builtins[$fw]}")
  (cd "$demo" && "$py" "$oracles/$fw/oracle.py" "${args[@]}" > "$here/$fw.expected.json.tmp" 2>/dev/null)
  mv "$here/$fw.expected.json.tmp" "$here/$fw.expected.json"
  echo "wrote $fw.expected.json"
done
# Gemini CLI's oracle runs the CLI's own JavaScript (built-ins compiled in: no --builtins).
bash "$oracles/gemini-cli/setup.sh" >/dev/null
(cd "$demo" && python3 "$oracles/gemini-cli/oracle.py" --project project --home home --xdg-config home/.config > "$here/gemini-cli.expected.json.tmp" 2>/dev/null)
mv "$here/gemini-cli.expected.json.tmp" "$here/gemini-cli.expected.json"
echo "wrote gemini-cli.expected.json"
# Codex: the oracle (python3, stdlib only) runs the real binary; built-ins are compiled in.
bash "$oracles/codex/setup.sh" >/dev/null
(cd "$demo" && python3 "$oracles/codex/oracle.py" --project project --home home --xdg-config home/.config > "$here/codex.expected.json.tmp" 2>/dev/null)
mv "$here/codex.expected.json.tmp" "$here/codex.expected.json"
echo "wrote codex.expected.json"
# OpenCode's oracle drives the real binary (setup.sh installs it) from Python 3.
bash "$oracles/opencode/setup.sh" > /dev/null
(cd "$demo" && python3 "$oracles/opencode/oracle.py" --project project --home home --xdg-config home/.config > "$here/opencode.expected.json.tmp" 2>/dev/null)
mv "$here/opencode.expected.json.tmp" "$here/opencode.expected.json"
echo "wrote opencode.expected.json"
# Qwen Code's oracle drives the CLI's own JavaScript (setup.sh installs it and Node);
# oracle.py runs on the system Python, and the built-ins are compiled in.
bash "$oracles/qwen-code/setup.sh" >/dev/null
(cd "$demo" && python3 "$oracles/qwen-code/oracle.py" --project project --home home --xdg-config home/.config > "$here/qwen-code.expected.json.tmp" 2>/dev/null)
mv "$here/qwen-code.expected.json.tmp" "$here/qwen-code.expected.json"
echo "wrote qwen-code.expected.json"
