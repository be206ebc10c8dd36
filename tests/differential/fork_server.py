"""A fork server for the Python oracles: `run.py` spends most of a workspace's time
starting the oracle's interpreter and importing the tool's package, so this process
loads the oracle once and forks a fresh child per workspace.

    PYTHON fork_server.py ORACLE.py [MODULE...]

Run with the oracle's own interpreter. It loads ORACLE.py as a module (its top-level
imports run, its `if __name__ == "__main__"` does not), imports each MODULE (the
tool modules the oracle imports lazily), then reads one JSON request a line,
`{"argv": [...], "out": PATH, "err": PATH, "timeout": S}`, and for each forks a child
that sends file descriptors 1 and 2 to OUT and ERR and calls the oracle's
`main(argv)`; it answers `{"rc": N}`. Every child starts from the same loaded state
and whatever it changes (environment, working folder, monkeypatches, caches) dies
with it, so a run is the oracle's own run minus the start-up.
"""
import importlib
import json
import os
import runpy
import signal
import sys


def main():
    oracle, modules = sys.argv[1], sys.argv[2:]
    sys.argv = [oracle]
    namespace = runpy.run_path(oracle, run_name="oracle_fork_server")
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception:  # an oracle that never imports it loses nothing
            pass
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                out = os.open(request["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
                err = os.open(request["err"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
                os.dup2(out, 1)
                os.dup2(err, 2)
                signal.alarm(int(request.get("timeout", 120)))
                sys.argv = [oracle, *request["argv"]]
                try:
                    result = namespace["main"](request["argv"])
                    code = result if isinstance(result, int) else 0
                except SystemExit as stop:
                    if isinstance(stop.code, str):
                        sys.stderr.write(stop.code + "\n")
                    code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
            except BaseException:
                import traceback

                traceback.print_exc()
            finally:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(code)
        _, status = os.waitpid(pid, 0)
        rc = os.waitstatus_to_exitcode(status)
        sys.stdout.write(json.dumps({"rc": rc}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
