#!/usr/bin/env python3
"""Writes the golden inputs: one Copilot agent file per tricky front matter, under
case/project/.github/agents/ (byte-exact: BOM, CRLF and Latin-1 cases included).
make.sh then runs the real Copilot CLI 1.0.102 (shared/oracle/copilot) on them."""
import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
AGENTS = HERE / "case" / "project" / ".github" / "agents"

def fm(text: str, body: str = "Body.") -> bytes:
    return f"---\n{text}\n---\n{body}\n".encode()

CASES: dict[str, bytes] = {
    # scalars in `description` (a string is echoed; anything else names its type)
    "bool-yes": fm("description: yes"),
    "bool-on": fm("description: on"),
    "bool-no-quoted": fm("description: 'no'"),
    "bool-true": fm("description: true"),
    "bool-title": fm("description: True"),
    "bool-upper": fm("description: TRUE"),
    "null-tilde": fm("description: ~"),
    "null-word": fm("description: Null"),
    "null-empty": fm("description:"),
    "int-hex": fm("description: 0x10"),
    "int-octal": fm("description: 0o17"),
    "int-leading-zero": fm("description: 017"),
    "int-huge": fm("description: 123456789012345678901234567890"),
    "float-exp": fm("description: 1e3"),
    "float-inf": fm("description: .inf"),
    "float-nan": fm("description: .NaN"),
    "date": fm("description: 2024-01-01"),
    "timestamp": fm("description: 2001-12-14t21:59:43.10-05:00"),
    "sexagesimal": fm("description: 12:30:00"),
    "colon-nospace": fm("description: a:b"),
    "colon-space": fm("description: a: b"),
    "hash-comment": fm("description: a # comment"),
    "hash-nospace": fm("description: a#b"),
    "double-quoted-escapes": fm('description: "tab\\there \\u00e9 \\x41"'),
    "single-quoted": fm("description: 'it''s'"),
    "quoted-spaces": fm('description: "  padded  "'),
    "unclosed-quote": fm('description: "never closed'),
    "literal-block": fm("description: |\n  line one\n  line two"),
    "literal-keep": fm("description: |+\n  kept\n"),
    "folded-strip": fm("description: >-\n  a\n  b"),
    "str-tag": fm("description: !!str 123"),
    "custom-tag": fm("description: !shout hello"),
    "int-tag": fm("description: !!int 7"),
    # keys and documents
    "quoted-key": fm('"description": quoted key'),
    "dup-key": fm("description: one\ndescription: two"),
    "dup-nested": fm("description: d\ngithub: {toolsets: [a], toolsets: [b]}"),
    "anchor-alias": fm("description: &d shared\nname: *d"),
    "merge-key": fm("base: &b {description: merged}\n<<: *b"),
    "number-key": fm("description: d\n1: one"),
    "null-key": fm("description: d\n~: nothing"),
    "comment-only": fm("# nothing but a comment"),
    "scalar-document": fm("just text"),
    "doc-end-inside": fm("description: d\n...\nname: after"),
    "flow-mapping": fm("{description: flow, name: flowname}"),
    "tab-after-colon": fm("description:\ttabbed"),
    "tab-indent": fm("description: d\ntools:\n\t- read"),
    "indent-list": fm("description: d\ntools:\n- read\n- edit"),
    "deep-nesting": fm("description: d\ngithub: " + "{a: " * 40 + "x" + "}" * 40),
    "control-char": fm("description: bell\x07here"),
    # bytes
    "bom": b"\xef\xbb\xbf" + fm("description: after a bom"),
    "crlf-folded": fm("description: >\n  folded\n  crlf\ntools: [read]").replace(b"\n", b"\r\n"),
    "latin1-body": fm("description: fine", "caf").replace(b"caf", b"caf\xe9"),
    "bom-twice": b"\xef\xbb\xbf\xef\xbb\xbf" + fm("description: two boms"),
    # field shapes
    "name-null": fm("description: d\nname: ~"),
    "name-empty": fm("description: d\nname: ''"),
    "tools-star-mixed": fm("description: d\ntools: [read, '*']"),
    "tools-empty-items": fm("description: d\ntools: 'read,, search ,'"),
    "tools-nested": fm("description: d\ntools: [[read]]"),
    "model-empty-list": fm("description: d\nmodel: []"),
    "model-nested": fm("description: d\nmodel: [[a]]"),
    "infer-yes": fm("description: d\ninfer: yes"),
    "dmi-upper": fm("description: d\ndisable-model-invocation: FALSE"),
}

def main() -> None:
    AGENTS.mkdir(parents=True, exist_ok=True)
    for old in AGENTS.iterdir():
        old.unlink()
    for name, data in CASES.items():
        (AGENTS / f"{name}.agent.md").write_bytes(data)
    home = HERE / "case" / "home"
    home.mkdir(parents=True, exist_ok=True)
    (home / ".gitkeep").write_bytes(b"")
    print(f"{len(CASES)} inputs in {AGENTS}")

if __name__ == "__main__":
    main()
