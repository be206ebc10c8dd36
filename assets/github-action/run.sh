#!/usr/bin/env bash
# The GitHub Action's step: installs agentry from the action's own source tree
# (unless AGENTRY_BIN names a binary or one is on PATH), then runs `agentry check`.
# With AGENTRY_FORMAT=sarif the log goes to AGENTRY_SARIF and its path to
# $GITHUB_OUTPUT; with `github` the annotations go to standard output. The exit code
# is check's: 0 clean, 1 a finding --fail-on names, 2 a usage error.
set -euo pipefail

format="${AGENTRY_FORMAT:-sarif}"
fail_on="${AGENTRY_FAIL_ON:-error}"
sarif="${AGENTRY_SARIF:-agentry.sarif}"

bin="${AGENTRY_BIN:-}"
if [ -z "$bin" ]; then
  if command -v agentry >/dev/null 2>&1; then
    bin=agentry
  else
    cargo install --locked --quiet --path "${AGENTRY_SOURCE:?AGENTRY_SOURCE names the agentry source tree}"
    bin=agentry
  fi
fi

args=(check --format "$format" --fail-on "$fail_on")
if [ -n "${AGENTRY_BASELINE:-}" ]; then
  args+=(--baseline "$AGENTRY_BASELINE")
fi

case "$format" in
  sarif)
    status=0
    "$bin" "${args[@]}" >"$sarif" || status=$?
    if [ -n "${GITHUB_OUTPUT:-}" ]; then
      echo "sarif-file=$sarif" >>"$GITHUB_OUTPUT"
    fi
    exit "$status"
    ;;
  github | text | json)
    exec "$bin" "${args[@]}"
    ;;
  *)
    echo "agentry action: unknown format '$format' (sarif or github)" >&2
    exit 2
    ;;
esac
