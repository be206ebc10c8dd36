"""Differential fuzzing against the real PyYAML: writes random YAML-ish documents and
what yaml.SafeLoader and yaml.CSafeLoader make of them to a JSON file, for the ignored
test `differential_fuzz` in tests/it/pyyaml_goldens.rs:

    ~/.cache/agentry-oracle/openhands/bin/python tests/goldens/pyyaml/dfuzz.py 50000 1 /tmp/dfuzz.json
    AGENTRY_DFUZZ=/tmp/dfuzz.json cargo test --release --test pyyaml_goldens -- --ignored

Arguments: number of documents, random seed, output path.
"""
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import yaml  # noqa: E402
from gen import Recursive, error_of, marks, tagged  # noqa: E402

N, SEED, OUT = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
random.seed(SEED)

scalars = ['a', 'b c', 'yes', 'No', '0777', '0x1F', '1_000', '1:30', '1.5', '1e3', '1.0e+3', '.inf', '-.nan', '~', 'null', '',
           '2024-05-06', '2024-02-29 08:15:00', '2024-02-29T08:15:00Z', '"q"', "'s'", '"a\\tb"', "'it''s'", '<<', '=',
           'é', 'x: y', 'http://x', '-', '?', ':', '#c', 'a#b', 'a #b', '!!str 1', '!!int "7"', '!!binary aGk=', '!foo x',
           '&a v', '*a', '&b [1]', '*b', '[a, b]', '{k: v}', '[]', '{}', '|\n  lit', '>\n  fold', '!!set {a}', '"\\u00e9"',
           '0', '-0', '+1', '0b11', '09', '1:60', '190:20:30.5', '.5', '1.', 'True', 'OFF', 'y', '"multi\n  line"']
keys = ['a', 'b', 'name', '1', 'true', '~', '<<', '"k"', "'k'", '? x', '[x]', 'a b', 'k:', '&k a', '*k', '2024-01-01', '1.0']
ws = [' ', '  ', '\t', '']
def block(depth, indent):
    out = []
    for _ in range(random.randint(1, 4)):
        r = random.random()
        pad = ' ' * indent
        if r < 0.55:
            k = random.choice(keys)
            if depth < 3 and random.random() < 0.3:
                out.append(pad + k + ':')
                out.append(block(depth + 1, indent + random.choice([2, 2, 4, 1, 0])))
            else:
                out.append(pad + k + ':' + random.choice([' ', ' ', '', '\t']) + random.choice(scalars))
        elif r < 0.85:
            if depth < 3 and random.random() < 0.3:
                out.append(pad + '-')
                out.append(block(depth + 1, indent + 2))
            else:
                out.append(pad + '- ' + random.choice(scalars))
        elif r < 0.9:
            out.append(pad + '# comment')
        elif r < 0.95:
            out.append(random.choice(['---', '...', '%YAML 1.1', '']))
        else:
            out.append(pad + random.choice(scalars))
    return '\n'.join(out)
atoms = ['a', 'b c', 'yes', '0777', '0x_1F', '1:30', '1.5', '1e3', '.inf', '~', '', '2024-05-06', '"q"', "'s'",
         '"a\\tb"', '"x\\\n y"', "'it''s'", '<<', '=', 'é', 'http://x:8', '-x', '?x', ':x', 'x:', 'x?', '!!str', '!!int 3',
         '&a', '*a', '&a v', '*a ', '!e!x', '? ', ': ', '# c', '\t', '  ', '\n', '\n  ', ',', '[', ']', '{', '}',
         '"', "'", '|', '>', '-', '%', '@', '`', '\\', 'k: v', '- i', '---', '...', '\r\n', '\u2028', '\ufeff', '\x85']
def flow(depth):
    r = random.random()
    if depth > 3 or r < 0.4:
        return random.choice(atoms[:30])
    if r < 0.7:
        return '[' + random.choice([', ', ',', ' ,', ',\n ']).join(flow(depth + 1) for _ in range(random.randint(0, 4))) + random.choice([']', ',]', ' ]', ''])
    return '{' + ', '.join(flow(depth + 1) + random.choice([': ', ':', ' : ', '']) + flow(depth + 1) for _ in range(random.randint(0, 3))) + random.choice(['}', ',}', ''])
def doc():
    r = random.random()
    if r < 0.4:
        return flow(0)
    if r < 0.7:
        return ''.join(random.choice(atoms) for _ in range(random.randint(1, 12)))
    lines = []
    for _ in range(random.randint(1, 5)):
        lines.append(random.choice(['', ' ', '  ', '\t']) + random.choice(['k', 'k2', '- ', '? ', '']) + random.choice([': ', ':', '']) + flow(1))
    return '\n'.join(lines)
def scalar_soup():
    """Plain scalars near the resolver's edges: numbers, dates, bools, nulls."""
    pieces = ["0", "1", "7", "9", "_", ":", ".", "e", "E", "+", "-", "x", "b", "o", "5", "59", "60", "inf", "nan",
              "Inf", "NaN", "-", "2024", "-02", "-29", "-1", "T", "t", " ", "08:15:00", "Z", "+01:00", "-5", ".5",
              "yes", "No", "ON", "null", "~", "1_0", "0x", "0b", "12", "3"]
    return "".join(random.choice(pieces) for _ in range(random.randint(1, 6)))


def scalar_doc():
    lines = []
    for i in range(random.randint(1, 6)):
        tag = random.choice(["", "", "", "!!int ", "!!float ", "!!bool ", "!!timestamp ", "!!str ", "!!null ", "! "])
        value = scalar_soup()
        if random.random() < 0.15:
            value = '"%s"' % value
        key = random.choice(["k%d" % i, scalar_soup(), "k"])
        lines.append("%s: %s%s" % (key, tag, value))
    return "\n".join(lines) + "\n"


def outcome(text, loader):
    try:
        data = yaml.load(text, Loader=loader)
        out = {"ok": tagged(data)}
        try:
            out["repr"] = repr(data)
            out["str"] = str(data)
        except ValueError:  # ints too long to print
            pass
        if loader is yaml.SafeLoader:
            node = yaml.compose(text, Loader=yaml.SafeLoader)
            try:
                out["marks"] = marks(node, data) if node is not None else None
            except ValueError:  # merges, duplicates, sets: positions not comparable 1:1
                pass
        return out
    except Recursive:
        return {"recursive": True}
    except RecursionError:
        return {"error": {"line": None}}
    except Exception as e:  # noqa: BLE001 - every exception is an outcome
        return {"error": error_of(text, e)}


cases = []
for i in range(N):
    if i % 3 == 2:
        text = scalar_doc()
    elif i % 3 == 1:
        text = block(0, 0) + random.choice(["\n", "", "\r\n", "\n\n"])
        if random.random() < 0.2:
            text = text.replace("\n", "\r\n")
    else:
        text = doc()
    cases.append({"text": text, "py": outcome(text, yaml.SafeLoader), "c": outcome(text, yaml.CSafeLoader)})
with open(OUT, "w") as f:
    json.dump(cases, f)
print(len(cases), "documents,", sum(1 for c in cases if "ok" in c["py"]), "load")
