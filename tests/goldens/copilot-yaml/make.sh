#!/usr/bin/env bash
# Golden front matter for the copilot reader, from Copilot CLI 1.0.102 itself: the
# inputs (inputs.py) become agent files of two workspaces (case/: YAML and fields;
# tools-case/: tool names), and the conformance oracle (shared/oracle/copilot, the
# real CLI run offline) writes what the CLI made of each into CASE/expected.json
# (loaded fields, errors with the tool's own messages, warnings).
# tests/it/copilot_yaml_goldens.rs reads each workspace agentry's way and compares.
#   usage: make.sh [SHARED]   (SHARED defaults to /work/shared)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
SHARED="${1:-/work/shared}"
python3 "$HERE/inputs.py"
bash "$SHARED/oracle/copilot/setup.sh" >/dev/null
for case in case tools-case; do
  (cd "$HERE/$case" && python3 "$SHARED/oracle/copilot/oracle.py" --project project --home home > expected.json.tmp \
     && mv expected.json.tmp expected.json) || { rm -f "$HERE/$case/expected.json.tmp"; echo "FAILED: $case" >&2; exit 1; }
  echo "wrote $HERE/$case/expected.json"
done
