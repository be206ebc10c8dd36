#!/usr/bin/env bash
# Golden front matter for the copilot reader, from Copilot CLI 1.0.102 itself: the
# inputs (inputs.py) become agent files of one workspace, and the conformance
# oracle (shared/oracle/copilot, the real CLI run offline) writes what the CLI made
# of each into case/expected.json (loaded fields, errors with the tool's messages,
# warnings). tests/copilot_yaml_goldens.rs parses each input agentry's way and
# compares.   usage: make.sh [SHARED]   (SHARED defaults to /work/shared)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
SHARED="${1:-/work/shared}"
python3 "$HERE/inputs.py"
bash "$SHARED/oracle/copilot/setup.sh" >/dev/null
cd "$HERE/case"
python3 "$SHARED/oracle/copilot/oracle.py" --project project --home home > expected.json.tmp
mv expected.json.tmp expected.json
echo "wrote $HERE/case/expected.json"
