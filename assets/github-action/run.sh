#!/usr/bin/env bash
# The GitHub Action's step. Gets agentry AGENTRY_VERSION (unless AGENTRY_BIN names a
# binary): from the runner's tool cache, else the release archive for this runner
# (checksum verified by assets/release/install.sh, then kept in the tool cache),
# else, only when the release has no archive for this runner, `cargo install` from
# the action's own source tree. Then runs `agentry check`. With AGENTRY_FORMAT=sarif
# the log goes to AGENTRY_SARIF (default: $RUNNER_TEMP/agentry.sarif, outside the
# checkout) and its absolute path to $GITHUB_OUTPUT; with `github` the annotations go
# to standard output. The exit code is check's: 0 clean, 1 a finding --fail-on
# names, 2 a usage error; a failed install is 1 with its reason on standard error.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
format="${AGENTRY_FORMAT:-sarif}"
fail_on="${AGENTRY_FAIL_ON:-error}"
version="${AGENTRY_VERSION:-0.1.0}"
version="${version#v}"
if [ -n "${AGENTRY_SARIF:-}" ]; then
  sarif="$AGENTRY_SARIF"
elif [ -n "${RUNNER_TEMP:-}" ]; then
  sarif="$RUNNER_TEMP/agentry.sarif"
else
  sarif=agentry.sarif
fi

say() { echo "agentry action: $*" >&2; }

# Prints the path of agentry $version, installing it in the tool cache first.
get_agentry() {
  local arch cache bin status=0
  arch="$(uname -m)"
  case "$arch" in x86_64 | amd64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; esac
  # The layout of @actions/tool-cache: TOOL/VERSION/ARCH, with a .complete marker.
  cache="${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}}/agentry/$version/$arch"
  bin="$cache/agentry"
  case "$(uname -s)" in MINGW* | MSYS* | CYGWIN*) bin="$cache/agentry.exe" ;; esac
  if [ -f "$cache.complete" ] && [ -x "$bin" ]; then
    say "agentry $version from the tool cache ($cache)"
    echo "$bin"
    return 0
  fi
  AGENTRY_VERSION="$version" AGENTRY_INSTALL_DIR="$cache" sh "$here/../release/install.sh" >&2 || status=$?
  case "$status" in
    0) ;;
    3)
      say "no release archive of agentry $version for this runner: building it with cargo install"
      if ! command -v cargo >/dev/null 2>&1; then
        say "cargo is not on PATH: add a Rust toolchain step (e.g. dtolnay/rust-toolchain) or use a runner the release has an archive for"
        return 1
      fi
      local root="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/agentry-cargo"
      # Builds outside the checkout and the action's folder.
      CARGO_TARGET_DIR="$root/target" cargo install --locked --quiet --root "$root" \
        --path "${AGENTRY_SOURCE:?AGENTRY_SOURCE names the agentry source tree}" >&2 || return 1
      mkdir -p "$cache"
      cp "$root/bin/$(basename "$bin")" "$bin"
      ;;
    *)
      say "agentry $version was not installed (see above)"
      return 1
      ;;
  esac
  touch "$cache.complete"
  echo "$bin"
}

bin="${AGENTRY_BIN:-}"
if [ -z "$bin" ]; then
  bin="$(get_agentry)" || exit 1
fi

args=(check --format "$format" --fail-on "$fail_on")
if [ -n "${AGENTRY_BASELINE:-}" ]; then
  args+=(--baseline "$AGENTRY_BASELINE")
fi
# Tools as `-e` values, comma or space separated.
tools="${AGENTRY_TOOLS:-}"
for tool in ${tools//,/ }; do
  args+=(-e "$tool")
done
if [ -n "${AGENTRY_CWD:-}" ]; then
  args+=(--cwd "$AGENTRY_CWD")
fi
case "${AGENTRY_UNTRUSTED:-false}" in
  true) args+=(--untrusted) ;;
  false | "") ;;
  *)
    say "untrusted must be true or false, not '$AGENTRY_UNTRUSTED'"
    exit 2
    ;;
esac
# Extra arguments, split at white space.
read -r -a extra <<<"${AGENTRY_ARGS:-}"
args+=(${extra[@]+"${extra[@]}"})

case "$format" in
  sarif)
    mkdir -p "$(dirname "$sarif")"
    status=0
    "$bin" "${args[@]}" >"$sarif" || status=$?
    if [ -n "${GITHUB_OUTPUT:-}" ]; then
      echo "sarif-file=$(cd "$(dirname "$sarif")" && pwd)/$(basename "$sarif")" >>"$GITHUB_OUTPUT"
    fi
    exit "$status"
    ;;
  github | text | json)
    exec "$bin" "${args[@]}"
    ;;
  *)
    say "unknown format '$format' (sarif or github)"
    exit 2
    ;;
esac
