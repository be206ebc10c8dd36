#!/usr/bin/env python3
"""Real repositories against the oracles: each folder is the project, the home is empty.

    python3 tests/differential/real.py DIR [DIR ...] [--frameworks a,b] [--agentry BIN]

For each folder and each framework whose oracle is installed, the folder is copied
(without `.git` and `node_modules`) into a fresh workspace as `project/`, the tool's
oracle and `agentry export` read it, and the two reports are compared under the same
rules as the random workspaces of `run.py`. It prints one line per pair: `agree`,
the disagreements, or why the oracle declined (the oracles refuse a workspace whose
configuration could start processes: MCP servers, hooks, plugins).
"""
import argparse
import shutil
import sys
import tempfile
from pathlib import Path

import coding
import run


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("folders", nargs="+", type=Path)
    p.add_argument("--frameworks", default=",".join(run.FRAMEWORKS))
    p.add_argument("--agentry", default=str(run.REPO / "target/release/agentry"))
    shared = next((d / "shared" for d in (run.REPO.parent, run.REPO.parent.parent) if (d / "shared/oracle").is_dir()),
                  run.REPO.parent / "shared")
    p.add_argument("--oracles", type=Path, default=shared)
    a = p.parse_args(argv)
    disagreements = 0
    for folder in a.folders:
        for fw in a.frameworks.split(","):
            py = ("python3" if coding.installed(fw) else None) if fw in coding.FRAMEWORKS \
                else run.oracle_python(a.oracles, fw)
            if py is None:
                print(f"{folder.name} {fw}: oracle not installed", flush=True)
                continue
            with tempfile.TemporaryDirectory(prefix="agentry-real-") as tmp:
                ws = Path(tmp) / "ws"
                ws.mkdir()
                shutil.copytree(folder, ws / "project", symlinks=True,
                                ignore=shutil.ignore_patterns(".git", "node_modules"))
                (ws / "home").mkdir()
                expected, _, problems = run.run_pair(fw, ws, py, a.oracles, a.agentry)
            if expected is None:
                print(f"{folder.name} {fw}: the oracle declined: {problems[0][:200].strip()}", flush=True)
            elif problems:
                disagreements += 1
                print(f"{folder.name} {fw}: {len(problems)} disagreements", flush=True)
                for line in problems[:6]:
                    print(f"    {line[:400]}", flush=True)
            else:
                print(f"{folder.name} {fw}: agree ({len(expected.get('agents', []))} agents)", flush=True)
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
