#!/usr/bin/env python3
"""CPU time of the explorer up to its complete catalog on screen, against the CPU
time of `agentry list` on the same workspace, interleaved (issue #28).

On a shared machine wall time says little; CPU time (user + sys of every thread)
says what each path costs. The explorer runs in a pseudo-terminal whose output goes
through a terminal emulator (pyte); the catalog is complete when the status bar
counts agents (" agents · "), as in `cargo bench` section `complete`. Its CPU time
then is read from /proc (all threads, alive or ended); `list`'s from wait4.

    python3 tests/benches/explorer_cpu.py BINARY WORKSPACE [RUNS] [BINARY2 ...]

WORKSPACE holds project/, home/, xdg/ (the bench corpus's `large`); built-in agents
come from an empty folder. Needs pyte (`pip install pyte`).
"""

import os
import pty
import select
import signal
import statistics
import sys
import tempfile
import time

import fcntl
import struct
import termios

import pyte

ROWS, COLS = 40, 160
TICK = os.sysconf("SC_CLK_TCK")


def flags(ws, builtins):
    return ["--project", f"{ws}/project", "--home", f"{ws}/home", "--xdg-config", f"{ws}/xdg", "--builtins", builtins]


def cpu_of(pid):
    """utime + stime of the whole process (ended threads included), seconds; and
    (user, sys, minor page faults)."""
    with open(f"/proc/{pid}/stat") as f:
        rest = f.read().rsplit(")", 1)[1].split()
    user, sys_, faults = int(rest[11]) / TICK, int(rest[12]) / TICK, int(rest[7])
    return user + sys_, (user, sys_, faults)


def explorer(binary, ws, builtins):
    """(wall, cpu) from start to the complete catalog on screen."""
    env = dict(os.environ, TERM="xterm-256color", AGENTRY_CONFIG=f"{builtins}/no-config.yaml")
    started = time.monotonic()
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        os.chdir(ws)
        os.execve(binary, [binary, *flags(ws, builtins), "--theme", "dark"], env)
    screen = pyte.Screen(COLS, ROWS)
    stream = pyte.ByteStream(screen)
    result = None
    deadline = started + 600
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 1.0)
        if not ready:
            continue
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        stream.feed(data)
        if " agents · " in screen.display[-1]:
            result = (time.monotonic() - started, *cpu_of(pid))
            break
    os.write(fd, b"q")
    for _ in range(100):
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        # Keep the pty drained, or the explorer blocks writing its last frame.
        if select.select([fd], [], [], 0.02)[0]:
            try:
                os.read(fd, 65536)
            except OSError:
                pass
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    os.close(fd)
    return result


def list_run(binary, ws, builtins):
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.execv(binary, [binary, "list", *flags(ws, builtins)])
    _, _, usage = os.wait4(pid, 0)
    detail = (usage.ru_utime, usage.ru_stime, usage.ru_minflt)
    return time.monotonic() - started, usage.ru_utime + usage.ru_stime, detail


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binaries = [sys.argv[1]] + sys.argv[4:]
    ws = sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    builtins = tempfile.mkdtemp(prefix="agentry-empty-builtins-")
    figures = {b: {"ewall": [], "ecpu": [], "lwall": [], "lcpu": []} for b in binaries}
    for run in range(runs + 1):
        for b in binaries:
            e = explorer(b, ws, builtins)
            lw, lc, ld = list_run(b, ws, builtins)
            if e is None:
                sys.exit(f"{b}: the explorer never showed its complete catalog")
            if run == 0:
                continue  # warms the page cache
            f = figures[b]
            f["ewall"].append(e[0]); f["ecpu"].append(e[1]); f["lwall"].append(lw); f["lcpu"].append(lc)
            print(f"{os.path.basename(b)} run {run}: explorer wall {e[0]*1000:.0f} ms cpu {e[1]*1000:.0f} ms; "
                  f"list wall {lw*1000:.0f} ms cpu {lc*1000:.0f} ms; (user, sys, minflt) explorer "
                  f"{tuple(round(x, 3) for x in e[2])} list {tuple(round(x, 3) for x in ld)}", flush=True)
    print(f"load average: {os.getloadavg()}")
    for b, f in figures.items():
        m = {k: statistics.median(v) for k, v in f.items()}
        print(f"{b}: explorer CPU {m['ecpu']*1000:.0f} ms vs list {m['lcpu']*1000:.0f} ms = {m['ecpu']/m['lcpu']:.3f}x "
              f"(ratio of medians); wall {m['ewall']*1000:.0f} vs {m['lwall']*1000:.0f} ms = {m['ewall']/m['lwall']:.3f}x; "
              f"paired CPU ratios median {statistics.median(a/b for a, b in zip(f['ecpu'], f['lcpu'])):.3f}x")
    os.rmdir(builtins)


if __name__ == "__main__":
    main()
