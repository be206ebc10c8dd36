#!/usr/bin/env bash
# Builds the release archive of one target, as the release workflow does:
#   bash assets/release/build.sh OUT [TARGET]
# writes OUT/agentry-VERSION-TARGET.tar.gz (.zip for Windows) holding the stripped
# binary, the licences and README.md, and next to it OUT/<archive>.sha256, which
# `sha256sum -c` accepts when run from OUT. TARGET defaults to the host's; CARGO
# (default `cargo`) may name `cross` for targets the host cannot link.
set -euo pipefail

out="${1:?usage: build.sh OUT [TARGET]}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cargo="${CARGO:-cargo}"
host="$(rustc -vV | sed -n 's/^host: //p')"
target="${2:-$host}"
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -n 1)"
[ -n "$version" ] || { echo "build.sh: no version in Cargo.toml" >&2; exit 1; }

case "$target" in
  *windows*) exe=agentry.exe ;;
  *) exe=agentry ;;
esac

# The release profile strips symbols (Cargo.toml). The host's build is the ordinary
# target/release one (the tests' and `cargo install`'s); a named target has its own.
target_dir="${CARGO_TARGET_DIR:-$root/target}"
if [ "$#" -ge 2 ]; then
  (cd "$root" && "$cargo" build --release --locked --target "$target")
  binary="$target_dir/$target/release/$exe"
else
  (cd "$root" && "$cargo" build --release --locked)
  binary="$target_dir/release/$exe"
fi

name="agentry-$version-$target"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/$name"
cp "$binary" "$stage/$name/$exe"
cp "$root/LICENSE-MIT" "$root/LICENSE-APACHE" "$root/README.md" "$stage/$name/"

case "$target" in
  *windows*)
    archive="$name.zip"
    rm -f "$out/$archive"
    if command -v zip >/dev/null 2>&1; then
      (cd "$stage" && zip -qr "$out/$archive" "$name")
    elif command -v 7z >/dev/null 2>&1; then
      (cd "$stage" && 7z a -tzip -bd "$out/$archive" "$name" >/dev/null)
    else
      echo "build.sh: neither zip nor 7z found" >&2
      exit 1
    fi
    ;;
  *)
    archive="$name.tar.gz"
    # Owner and group of the build machine are no business of the archive's readers.
    tar -C "$stage" -czf "$out/$archive" --owner=0 --group=0 "$name" 2>/dev/null \
      || tar -C "$stage" -czf "$out/$archive" "$name"
    ;;
esac

# `<hash>  <file>` with the bare file name: `sha256sum -c` from OUT accepts it.
if command -v sha256sum >/dev/null 2>&1; then
  (cd "$out" && sha256sum "$archive" >"$archive.sha256")
else
  (cd "$out" && shasum -a 256 "$archive" >"$archive.sha256")
fi
echo "$out/$archive"
