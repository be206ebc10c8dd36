#!/usr/bin/env bash
# Packs the npm packages for this machine:
#   bash assets/npm/pack.sh BINARY OUT
# writes OUT/agentry-cli-<os>-<cpu>-VERSION.tgz (the platform package: BINARY under
# bin/, from the template platform/package.json) and OUT/agentry-VERSION.tgz (the
# wrapper, whose launcher finds the platform package). <os> and <cpu> are Node's
# process.platform and process.arch, which npm's `os` and `cpu` fields match.
set -euo pipefail

binary="${1:?usage: pack.sh BINARY OUT}"
out="${2:?usage: pack.sh BINARY OUT}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
[ -x "$binary" ] || { echo "pack.sh: $binary is not an executable" >&2; exit 1; }
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -n 1)"
wrapper_version="$(node -p "require('$here/agentry/package.json').version")"
if [ "$version" != "$wrapper_version" ]; then
  echo "pack.sh: Cargo.toml says $version, assets/npm/agentry/package.json $wrapper_version" >&2
  exit 1
fi

mkdir -p "$out"
out="$(cd "$out" && pwd)"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT

os="$(node -p process.platform)"
cpu="$(node -p process.arch)"
exe=agentry
[ "$os" = win32 ] && exe=agentry.exe

platform="$stage/platform"
mkdir -p "$platform/bin"
cp "$binary" "$platform/bin/$exe"
chmod 755 "$platform/bin/$exe"
cp "$root/LICENSE-MIT" "$root/LICENSE-APACHE" "$platform/"
OS="$os" CPU="$cpu" VERSION="$version" node -e '
  const fs = require("fs");
  const pkg = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
  const { OS, CPU, VERSION } = process.env;
  pkg.name = `@agentry/cli-${OS}-${CPU}`;
  pkg.version = VERSION;
  pkg.description = pkg.description.replace("OS CPU", `${OS} ${CPU}`);
  pkg.os = [OS];
  pkg.cpu = [CPU];
  fs.writeFileSync(process.argv[2], JSON.stringify(pkg, null, 2) + "\n");
' "$here/platform/package.json" "$platform/package.json"
printf '# @agentry/cli-%s-%s\n\nThe agentry binary for %s %s, installed by the `agentry` package.\n' \
  "$os" "$cpu" "$os" "$cpu" >"$platform/README.md"

wrapper="$stage/agentry"
cp -R "$here/agentry" "$wrapper"
cp "$root/README.md" "$root/LICENSE-MIT" "$root/LICENSE-APACHE" "$wrapper/"

(cd "$platform" && npm pack --silent --pack-destination "$out" >/dev/null)
(cd "$wrapper" && npm pack --silent --pack-destination "$out" >/dev/null)
ls "$out"/*.tgz
