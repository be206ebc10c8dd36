#!/usr/bin/env bash
# Re-run the tsugite oracle over agentry's own tsugite cases (same as the shared
# fixtures' regen.sh: a case's builtin/ stands in for the package's built-ins).
#   bash regen.sh [CASE...]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
oracle="$here/../../../../shared/oracle/tsugite/oracle.py"
python="${ORACLE_PYTHON:-$HOME/.cache/agentry-oracle/tsugite/bin/python}"
empty="$(mktemp -d)"; trap 'rm -rf "$empty"' EXIT
cd "$here"
cases=("$@"); [ ${#cases[@]} -gt 0 ] || for d in */; do cases+=("${d%/}"); done
for c in "${cases[@]}"; do
  args=(--project "$c/project" --home "$c/home")
  [ -d "$c/xdg" ] && args+=(--xdg-config "$c/xdg")
  if [ -d "$c/builtin" ]; then args+=(--builtins "$c/builtin"); else args+=(--builtins "$empty"); fi
  "$python" "$oracle" "${args[@]}" > "$c/expected.json.tmp" && mv "$c/expected.json.tmp" "$c/expected.json"
  echo "regenerated $c"
done
