"""A fork server for the fast-agent oracle: starting its interpreter and importing
fast-agent-mcp is most of a workspace's time, so this process does it once and
forks a child per workspace.

    PYTHON fast_agent_server.py ORACLE.py        (PYTHON: the oracle's venv)

The oracle normally re-executes itself in a minimal environment (`_reexec`); here
the server starts in that environment (the caller passes PYTHONHASHSEED=0 and TZ=UTC,
which only count at start-up), marks it as the oracle's child so `main` does not
re-execute, installs the oracle's Python 3.11 shim and imports exactly the modules
the oracle's `run` imports before it patches the network and the clock. Each request,
one JSON line `{"argv": [...], "out": PATH, "err": PATH, "timeout": S}`, forks a child that sets
HOME and XDG_CONFIG_HOME as `_reexec` would, sends fds 1 and 2 to OUT and ERR and
calls the oracle's `main(argv)`; the answer is `{"rc": N}`. Whatever a child changes
(working folder, patches, fast-agent's settings cache) dies with it.
"""
import importlib
import json
import os
import runpy
import signal
import sys
from pathlib import Path

# The modules `oracle.run` imports before `_disable_network` / `_freeze_clock`.
PRELOAD = [
    "fast_agent.cli.runtime.request_builders", "fast_agent.core.agent_card_loader", "fast_agent.core.exceptions",
    "fast_agent.core.fastagent", "fast_agent.core.validation", "fast_agent.mcp.prompts.prompt_load",
]


def _option(argv, name, default=None):
    return argv[argv.index(name) + 1] if name in argv[:-1] else default


def main():
    oracle = sys.argv[1]
    keep = {k: os.environ[k] for k in ("PATH",) if k in os.environ}
    os.environ.clear()
    os.environ.update(keep, LANG="C.UTF-8", LC_ALL="C.UTF-8", TZ="UTC", PYTHONHASHSEED="0",
                      PYTHONDONTWRITEBYTECODE="1", PYTHONIOENCODING="utf-8", AGENTRY_FA_ORACLE_CHILD="1")
    namespace = runpy.run_path(oracle, run_name="fast_agent_oracle_server")
    namespace["_install_py311_shim"]()
    for name in PRELOAD:
        importlib.import_module(name)
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                argv = request["argv"]
                home = Path(_option(argv, "--home")).expanduser().resolve()
                xdg = _option(argv, "--xdg-config")
                os.environ["HOME"] = str(home)
                os.environ["XDG_CONFIG_HOME"] = str(Path(xdg).expanduser().resolve() if xdg else home / ".config")
                out = os.open(request["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
                err = os.open(request["err"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
                os.dup2(out, 1)
                os.dup2(err, 2)
                signal.alarm(int(request.get("timeout", 120)))
                try:
                    code = namespace["main"](argv)
                except SystemExit as stop:
                    code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
            except BaseException:
                import traceback

                traceback.print_exc()
            finally:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(code if isinstance(code, int) else 1)
        _, status = os.waitpid(pid, 0)
        sys.stdout.write(json.dumps({"rc": os.waitstatus_to_exitcode(status)}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
