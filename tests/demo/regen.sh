#!/usr/bin/env bash
# Re-runs each framework's oracle over the demo workspace (assets/demo) and writes
# tests/demo/<framework>.expected.json, which tests/it/demo.rs compares agentry with.
# The demo's venv/ plays the seed frameworks' installed packages: each seed oracle
# gets its framework's built-in folder from there as --builtins (fast-agent has no
# built-ins). The coding-agent CLIs' oracles run the tools' own code (their setup
# installs it) from the system Python; their built-ins are compiled in.
#
#   regen.sh [FRAMEWORK...]      (default: all)
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
)
all=(openhands tsugite kimi fast-agent claude-code copilot opencode codex gemini-cli qwen-code kimi-code)
for fw in "${@:-${all[@]}}"; do
  if [ -n "${builtins[$fw]+seed}" ]; then
    py=$(bash "$oracles/$fw/setup.sh" | tail -n 1)
  else
    bash "$oracles/$fw/setup.sh" >/dev/null
    py=python3
  fi
  args=(--project project --home home --xdg-config home/.config)
  [ -n "${builtins[$fw]:-}" ] && args+=(--builtins "${builtins[$fw]}")
  # The skills, where the oracle reports them (FORMAT.md). Not the agent listing: its
  # text quotes built-in agents' own descriptions, which agentry does not copy.
  grep -q -- "--skills" "$oracles/$fw/oracle.py" && args+=(--skills)
  # An oracle that cannot decide the skills here (a tool that does not start, an
  # undecidable workspace) still reports the agents: the test then compares those.
  if ! (cd "$demo" && "$py" "$oracles/$fw/oracle.py" "${args[@]}" > "$here/$fw.expected.json.tmp" 2>/dev/null); then
    echo "$fw: the oracle cannot report skills here; agents only"
    args=("${args[@]/--skills}")
    (cd "$demo" && "$py" "$oracles/$fw/oracle.py" ${args[@]} > "$here/$fw.expected.json.tmp" 2>/dev/null)
  fi
  mv "$here/$fw.expected.json.tmp" "$here/$fw.expected.json"
  echo "wrote $fw.expected.json"
done
