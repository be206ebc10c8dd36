#!/bin/sh
# Installs agentry from a release archive:
#   curl -fsSL https://github.com/agentry-dev/agentry/releases/download/v0.1.0/install.sh | sh
# Downloads agentry-VERSION-TARGET for this machine, checks its SHA-256 against the
# release's .sha256, and puts the binary in AGENTRY_INSTALL_DIR (~/.local/bin).
#   AGENTRY_VERSION    the release (default: this script's own)
#   AGENTRY_BASE_URL   where the release's files are (a https:// or file:// address)
# Exit codes: 0 installed; 1 failed (e.g. a checksum that does not match);
# 3 no archive for this machine in the release (the GitHub Action then builds).
set -eu

version="${AGENTRY_VERSION:-0.1.0}"
version="${version#v}"
base="${AGENTRY_BASE_URL:-https://github.com/agentry-dev/agentry/releases/download/v$version}"
base="${base%/}"
dir="${AGENTRY_INSTALL_DIR:-$HOME/.local/bin}"

say() { printf 'agentry install: %s\n' "$*" >&2; }

os="$(uname -s)"
arch="$(uname -m)"
case "$arch" in
  x86_64 | amd64) arch=x86_64 ;;
  aarch64 | arm64) arch=aarch64 ;;
esac
exe=agentry
ext=tar.gz
case "$os" in
  Linux) target="$arch-unknown-linux-musl" ;;
  Darwin) target="$arch-apple-darwin" ;;
  MINGW* | MSYS* | CYGWIN* | Windows_NT) target="$arch-pc-windows-msvc" exe=agentry.exe ext=zip ;;
  *) target="$arch-$os" ;;
esac
case "$target" in
  x86_64-unknown-linux-musl | aarch64-unknown-linux-musl | x86_64-apple-darwin | aarch64-apple-darwin | x86_64-pc-windows-msvc) ;;
  *)
    say "no release archive for $os $arch ($target); releases exist for x86_64 and aarch64 Linux and macOS, and x86_64 Windows. Build it instead: cargo install --locked agentry"
    exit 3
    ;;
esac
archive="agentry-$version-$target.$ext"

# Copies URL to FILE; 3 when the release has no such file.
fetch() {
  case "$1" in
    file://*)
      [ -f "${1#file://}" ] || return 3
      cp "${1#file://}" "$2"
      ;;
    *)
      if command -v curl >/dev/null 2>&1; then
        code="$(curl -sSL --proto '=https' --tlsv1.2 -o "$2" -w '%{http_code}' "$1")" || return 1
        [ "$code" = 404 ] && return 3
        [ "$code" = 200 ] || { say "$1: HTTP $code"; return 1; }
      elif command -v wget >/dev/null 2>&1; then
        wget -q -O "$2" "$1" || return 3
      else
        say "neither curl nor wget found"
        return 1
      fi
      ;;
  esac
}

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d' ' -f1
  else
    openssl dgst -sha256 -r "$1" | cut -d' ' -f1
  fi
}

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

status=0
fetch "$base/$archive" "$tmp/$archive" || status=$?
if [ "$status" -ne 0 ]; then
  [ "$status" -eq 3 ] && say "$base has no $archive"
  exit "$status"
fi
status=0
fetch "$base/$archive.sha256" "$tmp/$archive.sha256" || status=$?
if [ "$status" -ne 0 ]; then
  say "$base has $archive but not its .sha256: refusing to install an unchecked binary"
  exit 1
fi
want="$(cut -d' ' -f1 <"$tmp/$archive.sha256" | tr 'A-F' 'a-f')"
got="$(sha256 "$tmp/$archive")"
if [ -z "$want" ] || [ "$want" != "$got" ]; then
  say "checksum mismatch for $archive: the release says ${want:-nothing}, the download is $got; not installed"
  exit 1
fi

case "$ext" in
  zip)
    if command -v unzip >/dev/null 2>&1; then
      unzip -q "$tmp/$archive" -d "$tmp"
    else
      powershell -NoProfile -Command "Expand-Archive -LiteralPath '$tmp/$archive' -DestinationPath '$tmp'"
    fi
    ;;
  *) tar -xzf "$tmp/$archive" -C "$tmp" ;;
esac
mkdir -p "$dir"
cp "$tmp/agentry-$version-$target/$exe" "$dir/$exe.new"
chmod 755 "$dir/$exe.new"
mv -f "$dir/$exe.new" "$dir/$exe"
say "installed agentry $version ($target) in $dir/$exe"
case ":$PATH:" in
  *":$dir:"*) ;;
  *) say "$dir is not on PATH: add it, or run $dir/$exe" ;;
esac
