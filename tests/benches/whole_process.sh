#!/usr/bin/env bash
# Whole-process figures with public tools, on the benches' generated workspaces:
# hyperfine for wall time (agentry against the `find | xargs cat` floor and against
# `true`), GNU time for peak memory against the workspace's bytes.
#
#   bash tests/benches/whole_process.sh [SIZE]      (SIZE: small, large or huge; default large)
#
# Needs hyperfine and GNU time: `apt-get install hyperfine time` (Debian/Ubuntu
# packages `hyperfine`, `time`). Builds agentry and the generator in release mode.
set -euo pipefail
size=${1:-large}
case $size in
  small) agents=2000 ;; large) agents=20000 ;; huge) agents=100000 ;;
  *) echo "usage: $0 [small|large|huge]" >&2; exit 2 ;;
esac
for tool in hyperfine /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "$tool is missing: apt-get install hyperfine time" >&2; exit 1; }
done
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
cargo build --release --quiet --features bench-examples --bin agentry --example gen_corpus
target=${CARGO_TARGET_DIR:-$repo/target}
bin=$target/release/agentry
cache=${AGENTRY_BENCH_CACHE:-$target/bench-corpus-v2}
ws=$cache/$size
tiny=$cache/agents-10
# The same cache and layout as `cargo bench --bench suite` (seed 1, 1 % broken).
for pair in "$ws:$agents" "$tiny:10"; do
  dir=${pair%:*} n=${pair##*:}
  if [ ! -d "$dir/project" ]; then
    rm -rf "$dir.partial"
    "$target/release/examples/gen_corpus" "$dir.partial" --agents "$n" >/dev/null
    mv "$dir.partial" "$dir"
  fi
done
empty=$cache/empty-builtins
mkdir -p "$empty"
flags() { echo "--project $1/project --home $1/home --xdg-config $1/xdg --builtins $empty"; }

echo "## cold load of $size: agentry list vs the floor"
hyperfine --warmup 1 --runs 5 --ignore-failure \
  "$bin list $(flags "$ws") > /dev/null" \
  "find $ws -type f -print0 | xargs -0 cat > /dev/null"

echo "## list on 10 agents vs true"
hyperfine --warmup 3 --runs 30 -N --ignore-failure "$bin list $(flags "$tiny")" "true"

echo "## peak memory of list on $size vs its bytes"
bytes=$(find "$ws" -type f -printf "%s\n" | awk "{ s += \$1 } END { print s }")
/usr/bin/time -v "$bin" list $(flags "$ws") 2>"$cache/time.txt" >/dev/null || true
rss_kib=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$cache/time.txt")
awk -v r="$rss_kib" -v b="$bytes" 'BEGIN { printf "peak RSS %.0f MB, workspace %.0f MB: %.2fx (target <= 2x)\n", r*1024/1e6, b/1e6, r*1024/b }'
