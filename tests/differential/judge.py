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
    return expected, actual, compare.compare(expected, actual)
