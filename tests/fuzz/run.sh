#!/bin/sh
# One fuzz run of one target, with the bounds the figures in RESULTS.md were taken
# with: stop at 10 million executions or after SECONDS (default one hour), a hang is
# an input running over 10 s, out of memory is 2 GiB resident.
#
#   tests/fuzz/run.sh TARGET [SECONDS] [EXTRA_CORPUS_DIR...]
#
# Run from the repository root. New inputs go to tests/fuzz/artifacts/work/TARGET
# (not committed); the committed, minimised corpus tests/fuzz/corpus/TARGET seeds the
# run. cargo-fuzz needs nightly flags: RUSTC_BOOTSTRAP=1 lets the stable toolchain
# accept them. No sanitizer (`-s none`): agentry forbids `unsafe`, so AddressSanitizer
# would only slow the run; debug assertions (`-a`) keep integer-overflow checks on.
set -eu
target=$1
seconds=${2:-3600}
shift; [ $# -gt 0 ] && shift
case $target in
  yaml) dict=yaml.dict ;;
  frontmatter|agentcard_bundle|openhands|fast_agent|copilot|opencode|qwen_code|gemini_cli|kimi_code) dict=frontmatter.dict ;;
  codex) dict=yaml.dict ;;
  tsugite|tsugite_template) dict=jinja.dict ;;
  kimi) dict=yaml.dict ;;
  claude_code) dict=frontmatter.dict ;;
  *_skill|codex_skill_meta|openhands_instructions) dict=skill.dict ;;
  *) echo "unknown target $target" >&2; exit 2 ;;
esac
work=tests/fuzz/artifacts/work/$target
mkdir -p "$work" "tests/fuzz/corpus/$target"
RUSTC_BOOTSTRAP=1 exec nice -n 15 cargo fuzz run "$target" --fuzz-dir tests/fuzz -O -a -s none \
  "$work" "tests/fuzz/corpus/$target" "$@" -- \
  -dict="tests/fuzz/dict/$dict" -runs=10000000 -max_total_time="$seconds" \
  -timeout=10 -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1
