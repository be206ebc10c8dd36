"""Golden generator: runs the real PyYAML (pure-Python SafeLoader, i.e. yaml.safe_load)
over every tests/goldens/pyyaml/cases/*.yaml and writes expected/<case>.json.

    ~/.cache/agentry-oracle/openhands/bin/python tests/goldens/pyyaml/gen.py [--import-fixtures]

--import-fixtures first copies every .yaml/.yml file and every `---` front-matter block
found under /work/shared/fixtures into cases/fx-*.yaml (deduplicated by content).

Each expected file is one of
  {"ok": <tagged>, "str": str(v), "repr": repr(v), "json": <what Value::to_json gives>,
   "root": [line, col] | null,
   "entries": [...top-level dict entries...], "marks": <node marks> | null,
   "has_set": bool, "has_tuple": bool}
  {"error": {"line": L | null, "col": C | null, "kind": "...", "context": "...", "message": "..."}}
  {"recursive": true}     # PyYAML builds a self-containing structure; agentry refuses it
and every one also has "all": the outcome of yaml.safe_load_all, {"ok": [<tagged>...]},
{"error": {...}} or {"recursive": true}; and "c": the outcome of yaml.load with
yaml.CSafeLoader (libyaml), {"ok": <tagged>}, {"error": ...} or {"recursive": true}.
<tagged> is {"t": python type name, "v": value}: ints as decimal text, floats as repr(),
bytes as repr(), dates/datetimes as isoformat(), lists as arrays, dicts as [[k, v], ...],
sets as arrays sorted by their JSON text, tuples (from !!omap/!!pairs) as lists.
Lines and columns are 1-based (PyYAML marks + 1).
"""
import datetime
import glob
import hashlib
import json
import os
import re
import sys

import yaml
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases")
EXPECTED = os.path.join(HERE, "expected")
FIXTURES = "/work/shared/fixtures"


class Recursive(Exception):
    pass


def tagged(v, stack=()):
    if id(v) in stack:
        raise Recursive()
    if v is None:
        return {"t": "NoneType"}
    if isinstance(v, bool):
        return {"t": "bool", "v": v}
    if isinstance(v, int):
        return {"t": "int", "v": str(v)}
    if isinstance(v, float):
        return {"t": "float", "v": repr(v)}
    if isinstance(v, str):
        return {"t": "str", "v": v}
    if isinstance(v, bytes):
        return {"t": "bytes", "v": repr(v)}
    if isinstance(v, datetime.datetime):
        return {"t": "datetime", "v": v.isoformat()}
    if isinstance(v, datetime.date):
        return {"t": "date", "v": v.isoformat()}
    stack = stack + (id(v),)
    if isinstance(v, (list, tuple)):
        return {"t": "list", "v": [tagged(x, stack) for x in v]}
    if isinstance(v, dict):
        return {"t": "dict", "v": [[tagged(k, stack), tagged(x, stack)] for k, x in v.items()]}
    if isinstance(v, set):
        items = [tagged(x, stack) for x in v]
        items.sort(key=lambda t: json.dumps(t, sort_keys=True))
        return {"t": "set", "v": items}
    raise TypeError(type(v))


def jsonable(v):
    """What agentry's Value::to_json must produce (json.dumps rules; dates via
    isoformat(); bytes via str(); NaN/inf -> null; ints outside i64..u64 -> str; keys:
    str as is, True/False/None -> "true"/"false"/"null", ints -> str, floats -> repr or
    NaN/Infinity/-Infinity, anything else -> str())."""
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        return v if -2**63 <= v < 2**64 else str(v)
    if isinstance(v, float):
        return None if v != v or v in (float("inf"), float("-inf")) else v
    if isinstance(v, (datetime.date, datetime.datetime)):
        return v.isoformat()
    if isinstance(v, bytes):
        return str(v)
    if isinstance(v, (list, tuple, set)):
        return [jsonable(x) for x in v]
    out = {}
    for k, x in v.items():
        if isinstance(k, str):
            ks = k
        elif k is True or k is False or k is None:
            ks = json.dumps(k)
        elif isinstance(k, float):
            ks = "NaN" if k != k else "Infinity" if k == float("inf") else "-Infinity" if k == float("-inf") else repr(k)
        else:
            ks = str(k)
        out[ks] = jsonable(x)
    return out


def contains(v, types, stack=()):
    if isinstance(v, types):
        return True
    if id(v) in stack:
        return False
    stack = stack + (id(v),)
    if isinstance(v, (list, tuple, set)):
        return any(contains(x, types, stack) for x in v)
    if isinstance(v, dict):
        return any(contains(k, types, stack) or contains(x, types, stack) for k, x in v.items())
    return False


def pos(mark):
    return [mark.line + 1, mark.column + 1]


def reader_position(text, index):
    """Line/col of a character index, counted like PyYAML's Reader.forward."""
    line, col = 0, 0
    for i, ch in enumerate(text[:index]):
        nxt = text[i + 1] if i + 1 < len(text) else "\0"
        if ch in "\n\x85\u2028\u2029" or (ch == "\r" and nxt != "\n"):
            line, col = line + 1, 0
        elif ch != "\ufeff":
            col += 1
    return [line + 1, col + 1]


def marks(node, data):
    """Start marks of every node, when the constructed data mirrors the node graph
    (no merge keys, duplicates, sets, omaps); else raise ValueError."""
    if isinstance(node, ScalarNode):
        return pos(node.start_mark)
    if isinstance(node, SequenceNode):
        if node.tag != "tag:yaml.org,2002:seq" or not isinstance(data, list) or len(data) != len(node.value):
            raise ValueError
        return pos(node.start_mark) + [[marks(n, d) for n, d in zip(node.value, data)]]
    if node.tag != "tag:yaml.org,2002:map" or not isinstance(data, dict) or len(data) != len(node.value):
        raise ValueError
    out = []
    for (k, v), (dk, dv) in zip(node.value, data.items()):
        if k.tag in ("tag:yaml.org,2002:merge", "tag:yaml.org,2002:value"):
            raise ValueError
        out.append([marks(k, dk), marks(v, dv)])
    return pos(node.start_mark) + [out]


def entries_of(text):
    """Top-level dict entries after merges/duplicates, with their key and value marks."""
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if not isinstance(node, MappingNode):
            return None, node
        loader.flatten_mapping(node)
        index, out = {}, []
        for k, v in node.value:
            key = loader.construct_object(k, deep=True)
            value = loader.construct_object(v, deep=True)
            e = {"key": str(key), "key_pos": pos(k.start_mark), "value_pos": pos(v.start_mark),
                 "str": str(value), "repr": repr(value)}
            if key in index:
                out[index[key]].update({k2: e[k2] for k2 in ("value_pos", "str", "repr")})
            else:
                index[key] = len(out)
                out.append(e)
        return out, node
    finally:
        loader.dispose()


def error_of(text, e):
    if isinstance(e, yaml.MarkedYAMLError):
        mark = e.problem_mark or e.context_mark
        return {"line": mark.line + 1 if mark else None, "col": mark.column + 1 if mark else None,
                "kind": type(e).__name__, "context": e.context, "message": e.problem}
    if isinstance(e, yaml.reader.ReaderError):
        line, col = reader_position(text, e.position)
        return {"line": line, "col": col, "kind": "ReaderError", "context": None,
                "message": "unacceptable character #x%04x: %s" % (e.character, e.reason)}
    return {"line": None, "col": None, "kind": type(e).__name__, "context": None,
            "message": "%s: %s" % (type(e).__name__, e)}


def run_all(text):
    """yaml.safe_load_all: every document, or the first error."""
    try:
        return {"ok": [tagged(d) for d in yaml.load_all(text, Loader=yaml.SafeLoader)]}
    except Recursive:
        return {"recursive": True}
    except Exception as e:  # noqa: BLE001 - any exception is an outcome to record
        return {"error": error_of(text, e)}


def run_c(text):
    """yaml.CSafeLoader (libyaml): only the outcome and the value are compared."""
    try:
        return {"ok": tagged(yaml.load(text, Loader=yaml.CSafeLoader))}
    except Recursive:
        return {"recursive": True}
    except RecursionError:
        return {"error": {"line": None, "col": None, "kind": "RecursionError", "context": None, "message": ""}}
    except Exception as e:  # noqa: BLE001
        return {"error": error_of(text, e)}


def run(text):
    out = run_one(text)
    out["all"] = run_all(text)
    out["c"] = run_c(text)
    return out


def run_one(text):
    try:
        data = yaml.load(text, Loader=yaml.SafeLoader)
    except RecursionError:
        return {"error": {"line": None, "col": None, "kind": "RecursionError", "context": None,
                          "message": "maximum recursion depth exceeded"}}
    except Exception as e:  # noqa: BLE001 - YAMLError, or ValueError from datetime, KeyError from bool, ...
        return {"error": error_of(text, e)}
    try:
        out = {"ok": tagged(data)}
    except Recursive:
        return {"recursive": True}
    out["str"] = str(data)
    out["repr"] = repr(data)
    out["json"] = jsonable(data)
    out["has_set"] = contains(data, set)
    out["has_tuple"] = contains(data, tuple)
    entries, node = entries_of(text)
    out["root"] = pos(node.start_mark) if node is not None else None
    out["entries"] = entries
    try:
        out["marks"] = marks(node, data) if node is not None else None
    except ValueError:
        out["marks"] = None
    return out


def front_matter(text):
    """python-frontmatter's split: an opening line of 3+ dashes, up to the next one."""
    lines = text.strip().splitlines(keepends=True)
    if not lines or not re.match(r"^-{3,}\s*$", lines[0]):
        return None
    for i in range(1, len(lines)):
        if re.match(r"^-{3,}\s*$", lines[i]):
            return "".join(lines[1:i])
    return None


def import_fixtures():
    seen = set()
    for path in sorted(glob.glob(os.path.join(CASES, "fx-*.yaml"))):
        os.remove(path)
    for root, _, files in os.walk(FIXTURES):
        for name in sorted(files):
            path = os.path.join(root, name)
            try:
                with open(path, encoding="utf-8", newline="") as f:
                    text = f.read()
            except (UnicodeDecodeError, OSError):
                continue
            if name.endswith((".yaml", ".yml")):
                content = text
            elif name.lower().endswith(".md"):
                content = front_matter(text.replace("\r\n", "\n").replace("\r", "\n"))
                if content is None:
                    continue
            else:
                continue
            digest = hashlib.sha1(content.encode("utf-8", "surrogatepass")).hexdigest()[:8]
            if digest in seen:
                continue
            seen.add(digest)
            rel = os.path.relpath(path, FIXTURES).split(os.sep)
            slug = re.sub(r"[^A-Za-z0-9]+", "-", "-".join([rel[0], rel[-1]]))[:60].strip("-")
            with open(os.path.join(CASES, "fx-%s-%s.yaml" % (slug, digest)), "w", encoding="utf-8", newline="") as f:
                f.write(content)


def main():
    if "--import-fixtures" in sys.argv:
        import_fixtures()
    os.makedirs(EXPECTED, exist_ok=True)
    names = set()
    for path in sorted(glob.glob(os.path.join(CASES, "*.yaml"))):
        name = os.path.basename(path)[:-5]
        names.add(name)
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
        out = run(text)
        with open(os.path.join(EXPECTED, name + ".json"), "w", encoding="utf-8") as f:
            json.dump(out, f, ensure_ascii=True, separators=(",", ":"))
            f.write("\n")
    for path in glob.glob(os.path.join(EXPECTED, "*.json")):
        if os.path.basename(path)[:-5] not in names:
            os.remove(path)
    print("%d cases, PyYAML %s" % (len(names), yaml.__version__))


if __name__ == "__main__":
    main()
