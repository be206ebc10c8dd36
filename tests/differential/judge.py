"""One oracle run and one agentry run, read and compared under the shared rules."""
import json
import sys
from pathlib import Path


def judge(o, a, oracles: Path):
    """(expected, actual, problems); expected is None when the oracle failed."""
    try:
        # Read as compare.py reads them: a bare NaN/Infinity (Python's json.dumps of a
        # float the tool keeps, which agentry's report repeats) is a float both sides.
        expected = json.loads(o.stdout)
    except ValueError:
        return None, None, ["oracle failed: " + o.stderr.decode(errors="replace")[-300:]]
    try:
        actual = json.loads(a.stdout)
    except ValueError:
        return expected, None, ["agentry printed no JSON: " + a.stderr.decode(errors="replace")[-300:]]
    sys.path.insert(0, str(oracles / "conformance"))
    import compare  # the shared rules
    return expected, actual, compare.compare(*openhands_one_skill_per_path(expected, actual))


def openhands_one_skill_per_path(expected, actual):
    """The OpenHands oracle's fault, filtered: it keeps one loaded skill per file path
    (`attempts`, `loaded` and `by_source` in oracle.py are keyed by path), while the
    SDK can make two skills of one file: a third-party file inside a skills folder
    below the working folder is both the path rule `agents:<dir>` (K1 #3) and the
    skill `agents` (read in the skills folder, K3). The oracle then prints the skill
    it kept once per name (one (name, source) twice) or loses the other one (a
    shadowed `agents`). Where agentry has more skills at one path than the oracle has
    names there, the copies count once and agentry's skills the oracle could not
    name are not compared."""
    if expected.get("ecosystem") != "openhands" or not isinstance(actual, dict) or not actual.get("skills"):
        return expected, actual
    names, ours = {}, {}
    for e in expected.get("skills") or []:
        names.setdefault(e.get("source"), set()).add(e.get("name"))
    for a in actual["skills"]:
        ours[a.get("source")] = ours.get(a.get("source"), 0) + 1
    lost = {src for src, n in ours.items() if n > 1 and src in names and len(names[src]) < n}
    if not lost:
        return expected, actual
    once = []
    for e in expected["skills"]:
        if e.get("source") not in lost or e not in once:
            once.append(e)
    kept = [a for a in actual["skills"] if a.get("source") not in lost or a.get("name") in names[a.get("source")]]
    return {**expected, "skills": once}, {**actual, "skills": kept}
