"""Hard skill files for the differential tester (Codex, Copilot CLI, Gemini CLI, Qwen
Code): whole SKILL.md texts and folder shapes drawn from the "Skills" sections of
`shared/spec/<fw>.md` and the oracles' NOTES hard cases, where the four tools part
ways — front-matter fences (BOM, blank first line, `...`, `--- end`, `----`, lone CR,
no closing line), YAML that fails and falls back to a line parser (Gemini, Qwen),
non-string names and descriptions, names a tool rewrites (spaces, `: / < > *`),
descriptions taken from the body (Copilot), flags as YAML 1.1 words, secrets in a
body (Copilot masks them), and folders a tool skips or refuses (a folder named
`SKILL.md`, `.git`, `node_modules`, `*.backup-N-N`, a skill inside a skill, a linked
`SKILL.md`, a SKILL.md directly in the skills folder).
"""
import os
import random
from pathlib import Path

# Skills folders of each tool (and a few it does not read); `{cwd}` is the working folder.
ROOTS = {
    "codex": ["project/.agents/skills", "project/.codex/skills", "home/.codex/skills", "home/.agents/skills",
              "project/{cwd}/.agents/skills"],
    "copilot": ["project/.github/skills", "project/.agents/skills", "project/.claude/skills", "home/.copilot/skills",
                "home/.agents/skills", "project/{cwd}/.github/skills", "home/.claude/skills"],
    "gemini-cli": ["project/.gemini/skills", "project/.agents/skills", "home/.gemini/skills", "home/.agents/skills",
                   "project/{cwd}/.gemini/skills", "home/.gemini/extensions/ext-a/skills"],
    "qwen-code": ["project/.qwen/skills", "project/.agents/skills", "home/.qwen/skills", "home/.agents/skills",
                  "project/{cwd}/.qwen/skills", "home/.qwen/extensions/ext-a/skills"],
}
MANIFEST = {"gemini-cli": "gemini-extension.json", "qwen-code": "qwen-extension.json"}

TEXTS = [
    "\ufeff---\nname: bom\ndescription: With a BOM\n---\nBody.\n",
    "\n---\nname: blank-first\ndescription: A blank first line\n---\nBody.\n",
    "---\nname: dots\ndescription: Ends with dots\n...\nBody.\n",
    "---\nname: end-word\ndescription: Closed by a word\n--- end\nBody.\n",
    "---\nname: four\ndescription: Four dashes\n----\nBody.\n",
    "---\nname: tail\ndescription: Text after the fence\n---x\nBody.\n",
    "--- \nname: spaced-fence\ndescription: A space after the fence\n---\nBody.\n",
    "---\nname: unclosed\ndescription: Never closed\nBody.\n",
    "---\nname: last\ndescription: No line break at the end\n---",
    "---\n---\nBody only.\n",
    "---\n- a\n- b\n---\nFirst line.\nSecond line.\n",
    "",
    "---\nname: dup\nname: dup-two\ndescription: Two names\n---\nBody.\n",
    "---\nname: colon\ndescription: Usage: run it: now\n---\nBody.\n",
    "---\nname: outer\ndescription: a: b\nmetadata:\n  name: inner\n---\nBody.\n",
    "---\nmetadata:\n  name: inner\nname: outer\ndescription: Plain\n---\nBody.\n",
    "---\nname: cont\ndescription: first: x\n  second line\n\tthird\n\nfourth\n---\nBody.\n",
    "---\nname: 42\ndescription: 7\n---\nNumbers.\n",
    "---\nname: \"42\"\ndescription: Quoted number\n---\nBody.\n",
    "---\nname: [a, b]\ndescription: A list name\n---\nBody.\n",
    "---\nname: {a: 1}\ndescription: A map name\n---\nBody.\n",
    "---\nname: 'a<b>*?|\\c/d'\ndescription: Odd characters\n---\nBody.\n",
    "---\nname: a<b>:c\ndescription: x: y\n---\nBody.\n",
    "---\nname: my skill\ndescription: A space in the name\n---\nBody.\n",
    "---\nname: '  padded  '\ndescription: '  padded  '\n---\nBody.\n",
    "---\nname: from-body\n---\n# Heading\n\nfirst line\n- two\n```\ncode\n```\nmore\n",
    "---\nname: empty-desc\ndescription: \"\"\n---\nBody line.\n",
    "---\nname: null-desc\ndescription:\n---\nBody line.\n",
    "---\nname: block\ndescription: |\n  two\n  lines\n---\nBody.\n",
    "---\nname: folded\ndescription: >-\n  folded\n  text\n---\nBody.\n",
    "---\nname: flags\ndescription: Flags as words\nuser-invocable: yes\ndisable-model-invocation: 'true'\n---\nBody.\n",
    "---\nname: hidden\ndescription: Not for the model\ndisable-model-invocation: true\n---\nBody.\n",
    "---\nname: tools\ndescription: Tools of mixed type\nallowed-tools: [Read, 5]\nallowedTools: [read_file, 3]\n---\nBody.\n",
    "---\r\nname: crlf\r\ndescription: CRLF lines\r\n---\r\nBody one.\r\nBody two.\r\n",
    "---\rname: lone-cr\rdescription: Lone CR\r---\rBody.\r",
    "---\nname: tabs\n\tdescription: Tab indented\n---\nBody.\n",
    "---\nname: paths\ndescription: Paths list\npaths:\n  - src/**\n\t- bad\n---\nBody.\n",
    "---\nname: trailing\ndescription: Blank lines\n---\n\n\n  indented body\n\n\n",
    "---\nname: secret\ndescription: Secrets in the body\n---\nUse Bearer abc123 and --password=hunter2 at https://u:p@host/.\n",
    "---\nname: long\ndescription: " + "d" * 1024 + "\n---\nBody.\n",
    "---\nname: longer\ndescription: " + "d" * 1025 + "\n---\nBody.\n",
    "---\nname: " + "n" * 65 + "\ndescription: A long name\n---\nBody.\n",
    "---\nname: qwen-keys\ndescription: Qwen keys\nmodel: inherit\nwhen_to_use: Before commits\npriority: 2\n"
    "argument-hint: 5\n---\nBody.\n",
    "---\nname: ''\ndescription: Blank name\n---\nBody.\n",
    "---\ndescription: No name key\n---\nBody.\n",
    "---\nname: deploy\ndescription: Shares a name\n---\nBody of a deploy.\n",
    "---\nname: Deploy\ndescription: Upper case\n---\nBody.\n",
    "---\nname: ext-a:pdf\ndescription: Named like an extension skill\n---\nBody.\n",
    "---\nname: skill-creator\ndescription: Named like a built-in\n---\nBody.\n",
    "---\nname: customize-cloud-agent\ndescription: Named like a built-in\n---\nBody.\n",
    "---\nname: review\ndescription: Named like a bundled skill\n---\nBody.\n",
    "---\nname: x\ndescription: d\nname: y\n---\nDuplicate keys.\n",
]
LATIN1 = b"---\nname: latin\ndescription: caf\xe9\n---\nBody \xe9.\n"
FOLDERS = ["hard", "Hard", "Bad Name!", "-dash", "a b", "caf\u00e9", "_under", ".dot", "node_modules", ".git",
           "x.backup-1-2", "x.installing-3-4", "deploy", "deep/er", "SKILL.md"]


def root_of(rng: random.Random, fw: str, ws: Path, cwd: str, cwds) -> Path:
    where = rng.choice(ROOTS[fw]).replace("{cwd}", cwd if cwd != "." else rng.choice(cwds))
    root = ws / os.path.normpath(where)
    root.mkdir(parents=True, exist_ok=True)
    manifest = MANIFEST.get(fw)
    if manifest and root.parent.parent.name == "extensions" and not (root.parent / manifest).exists():
        (root.parent / manifest).write_text('{"name": "%s", "version": "1.0.0"}\n' % root.parent.name)
    return root


def write_text(rng: random.Random, path: Path):
    path.parent.mkdir(parents=True, exist_ok=True)
    if rng.random() < 0.05:
        path.write_bytes(LATIN1)
    else:
        path.write_bytes(rng.choice(TEXTS).encode("utf-8"))


def mutate(rng: random.Random, fw: str, ws: Path, cwd: str, cwds):
    """One hard skill: a hard text in a (possibly odd) folder, or an odd shape."""
    root = root_of(rng, fw, ws, cwd, cwds)
    kind = rng.random()
    if kind < 0.7:
        folder = rng.choice(FOLDERS)
        if folder == "SKILL.md":  # a folder named SKILL.md inside a skill folder
            (root / "dir-skill" / "SKILL.md").mkdir(parents=True, exist_ok=True)
            return
        write_text(rng, root / folder / "SKILL.md")
    elif kind < 0.78:  # a SKILL.md directly in the skills folder
        write_text(rng, root / "SKILL.md")
    elif kind < 0.86:  # a skill inside a skill
        write_text(rng, root / "outer" / "SKILL.md")
        write_text(rng, root / "outer" / "inner" / "SKILL.md")
    elif kind < 0.93:  # a linked SKILL.md beside a real one
        write_text(rng, root / "real" / "SKILL.md")
        link = root / "via-link" / "SKILL.md"
        link.parent.mkdir(parents=True, exist_ok=True)
        if not link.exists() and not link.is_symlink():
            os.symlink("../real/SKILL.md", link)
    elif fw == "copilot":  # a command file with a name the tool rewrites or drops
        commands = ws / "project/.claude/commands"
        commands.mkdir(parents=True, exist_ok=True)
        name = rng.choice(["My Cmd", "Bad Name!", "deploy", "customize-cloud-agent", "-x", "ok.v2"])
        write_text(rng, commands / (name + ".md"))
    else:  # the same text twice, in two folders of one root
        text = rng.choice(TEXTS).encode("utf-8")
        for folder in ("twin-a", "twin-b"):
            (root / folder).mkdir(parents=True, exist_ok=True)
            (root / folder / "SKILL.md").write_bytes(text)
