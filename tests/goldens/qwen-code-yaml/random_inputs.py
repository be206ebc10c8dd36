"""Writes random-inputs.json: random front matters built from tokens that the
`yaml` package and yaml-rust are likely to read differently (core-schema scalars,
tags, quotes, block scalars, empty values, tabs, stray lines, unclosed flows).
golden.mjs then writes random-outputs.json with Qwen Code's own parse of each.

    python3 random_inputs.py [SEED] [COUNT]
"""
import json
import random
import sys

r = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 11)
count = int(sys.argv[2]) if len(sys.argv) > 2 else 1500
KEYS = ["name", "description", "tools", "a", "b", "x y", "'q'", '"d"', "1", "~", "<<", "k"]
SCALARS = ["yes", "no", "on", "off", "True", "~", "null", "", "0x1F", "0o17", "017", "+5", "-3.5e2", ".inf", "-.Inf", ".NaN",
           "1_000", "0b101", "'single'", "'it''s'", '"dq \\" x"', '"\\u00e9\\t"', "a #c", "#c", "[a, b]", "{a: 1}", "&x 1",
           "*x", "!!str 3", "!!int 3", "!!float 2.0", "!!bool yes", "!local v", "2024-02-30", "12:30:00", "a,b", "1.0", "1e5",
           "-0", "00", "0x", "0o", ".5", "5.", "+.5"]
BROKEN = ["- item", "@x", "`x", "|", ">-", "'unclosed", '"unclosed', "%x", "? q", "[unclosed", "{bad", "a: b"]


def value(depth, scalars):
    c = r.random()
    if depth < 2 and c < 0.15:
        ind = "  " * (depth + 1)
        return "\n" + "\n".join(ind + r.choice(KEYS) + ": " + value(depth + 1, scalars).lstrip("\n") for _ in range(r.randint(1, 3)))
    if depth < 2 and c < 0.3:
        ind = "  " * depth
        return "\n" + "\n".join(ind + "- " + r.choice(scalars) for _ in range(r.randint(1, 3)))
    if c < 0.35:
        return "|\n  line one\n  line two"
    return r.choice(scalars)


def front_matter(unique_keys, scalars):
    lines = []
    for _ in range(r.randint(1, 5)):
        key = r.choice(KEYS)
        if unique_keys:
            key = key.strip("'\"") + str(len(lines))
        lines.append(key + ":" + r.choice([" ", " ", "  ", "\t"]) + value(0, scalars))
    if r.random() < 0.05:
        lines.append("---")
    if r.random() < 0.05:
        lines.insert(1, "\tbad")
    if r.random() < 0.05:
        lines.append("  stray")
    return "\n".join(lines)


inputs = [front_matter(i % 3 != 0, SCALARS + (BROKEN if i % 3 == 0 else [])) for i in range(count)]
json.dump(inputs, open("random-inputs.json", "w"), indent=0)
