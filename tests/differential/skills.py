"""Skills in the differential tester (`coding.py` calls in here for a workspace whose
`inputs.json` asks for skills): mutations drawn from the "Skills" section of
`shared/spec/<fw>.md` and the oracle's NOTES hard cases.

Codex: SKILL.md under every root (`.agents/skills` and `.codex/skills` from the
repository root to the working folder, `~/.codex/skills`, `~/.agents/skills`), names
shared across scopes, folder-name fallback, front matter that strict YAML refuses,
`agents/openai.yaml` (policy, interface), hidden and too-deep folders, wrongly cased
`skill.md`, linked folders and files, and the user's `[[skills.config]]` /
`[skills.bundled]`. Kimi Code: `.kimi-code/skills` and `.agents/skills` (project root
and home), flat `NAME.md` files, names differing only in case, `type`,
`disable-model-invocation`, `has-sub-skill` bundles with children named in other
cases, `arguments`, `extra_skill_dirs` and `builtin_product_skills`. OpenCode
(`opencode_mutate`): a name in several folders (the parse race), descriptions from the
wild, `permission.skill` rules of the default agent and `skills.paths`.
"""
import json
import os
import random
import shutil
from pathlib import Path

PLACES = {
    "codex": ["project/.agents/skills", "project/.codex/skills", "home/.codex/skills", "home/.agents/skills",
              "project/{cwd}/.agents/skills", "project/{cwd}/.codex/skills"],
    "kimi-code": ["project/.kimi-code/skills", "project/.agents/skills", "home/.kimi-code/skills",
                  "home/.agents/skills", "project/{cwd}/.kimi-code/skills", "home/team-skills"],
}
NAMES = ["deploy", "Deploy", "review", "imagegen", "skill-creator", "write-goal", "Update-Config", "mcp-config",
         "web", "web.fetch", "a b", "x" * 64, "é" * 65, "2024", "", "  padded  ", "a:b", "README"]
DESCRIPTIONS = ["Deploys the app", "Usage: run it: now", "[unclosed", '""', "'  '", "42", "|\n  block\n  two",
                ">\n  folded\n  text", '"quote \\" inside"', "x: y # note", "{a: b}", "[a, b]", "d" * 1030, "~"]
EXTRA_KEYS = {
    "codex": ["metadata:\n  short-description: Short one", "metadata: 3", "metadata:\n  short-description: [x",
              "allowed-tools: [Read]", "license: MIT", "name: [a, b]", "foo: a: b"],
    "kimi-code": ["type: flow", "type: reference", "type: script", "type: 5", "when-to-use: Before commits",
                  "when_to_use: ''", "disable-model-invocation: true", "disable-model-invocation: 'true'",
                  "has-sub-skill: true", "metadata: {hasSubSkill: true}", "arguments: file pages", "arguments: [a, 2]",
                  "whenToUse: 5"],
}
BODIES = ["Do the thing.\n", "", "Run $file on $pages ($ARGUMENTS, $0) in ${KIMI_SKILL_DIR}.\n", "Line one\r\nLine two\r\n",
          "```mermaid\nflowchart TD\n  A --> B\n```\n"]
OPENAI_YAML = ["policy:\n  allow_implicit_invocation: false\n", "policy:\n  products: [chatgpt]\n",
               "policy:\n  products: [codex]\n", "interface: [unclosed\n",
               "interface:\n  display_name: Pretty\n  brand_color: '#12AB34'\n  icon_small: ./assets/a.svg\n",
               "interface:\n  brand_color: red\n  default_prompt: Go\n"]
SETTINGS = {
    "codex": ("home/.codex/config.toml", ['[[skills.config]]\nname = "deploy"\nenabled = false',
                                          '[[skills.config]]\nname = "review"\nenabled = false\n\n[[skills.config]]\nname = "review"\nenabled = true',
                                          '[[skills.config]]\npath = "skills/deploy/SKILL.md"\nenabled = false',
                                          '[skills.bundled]\nenabled = false', '[[skills.config]]\nname = "x"']),
    "kimi-code": ("home/.kimi-code/config.toml", ["builtin_product_skills = false", 'extra_skill_dirs = ["~/team-skills"]',
                                                  'extra_skill_dirs = ["team", "~/team-skills", "missing"]',
                                                  "extra_skill_dirs = 5"]),
}


def wants_skills(inputs: dict) -> bool:
    return inputs.get("skills") is True


def place(rng: random.Random, fw: str, ws: Path, cwd: str, cwds) -> Path:
    folder = rng.choice(PLACES[fw]).replace("{cwd}", cwd if cwd != "." else rng.choice(cwds))
    path = ws / os.path.normpath(folder)
    path.mkdir(parents=True, exist_ok=True)
    return path


def skill_files(ws: Path):
    return sorted(p for d in ("project", "home") if (ws / d).is_dir() for p in (ws / d).rglob("*")
                  if p.is_file() and not p.is_symlink() and p.suffix in (".md", ".MD") and "/agents/" not in str(p))


def fresh_skill(rng: random.Random, fw: str, ws: Path, root: Path):
    keys = []
    if rng.random() < 0.85:
        keys.append(f"name: {rng.choice(NAMES)}")
    if rng.random() < 0.9:
        keys.append(f"description: {rng.choice(DESCRIPTIONS)}")
    keys += rng.sample(EXTRA_KEYS[fw], rng.randint(0, 2))
    rng.shuffle(keys)
    text = "---\n" + "\n".join(keys) + "\n---\n" + rng.choice(BODIES)
    folder = rng.choice(["deploy", "review", "Deploy", "kit", "nested/deep", ".hidden", "a/b/c/d/e/f/g", "node_modules"])
    if fw == "kimi-code" and rng.random() < 0.3:  # a flat file at the top of the folder
        (root / (rng.choice(["notes", "deploy", "Deploy", "README"]) + ".md")).write_text(
            text if rng.random() < 0.6 else rng.choice(BODIES))
        return
    target = root / folder
    target.mkdir(parents=True, exist_ok=True)
    (target / rng.choice(["SKILL.md"] * 8 + ["skill.md"])).write_text(text)
    if fw == "codex" and rng.random() < 0.25:
        (target / "agents").mkdir(exist_ok=True)
        (target / "agents/openai.yaml").write_text(rng.choice(OPENAI_YAML))


def kimi_bundle(rng: random.Random, root: Path):
    """A skill folder with children (Kimi Code: `has-sub-skill` makes each child
    `bundle.child`; without it the folder skill hides them), names differing in case."""
    bundle = root / rng.choice(["kit", "Kit", "tools"])
    flag = rng.choice(["has-sub-skill: true", "metadata: {hasSubSkill: true}", "has-sub-skill: 'true'", ""])
    (bundle / rng.choice(["a", "b"])).mkdir(parents=True, exist_ok=True)
    (bundle / "SKILL.md").write_text(f"---\nname: {rng.choice([bundle.name, bundle.name.upper()])}\n"
                                     f"description: A bundle\n{flag}\n---\nBundle body.\n")
    for child in rng.sample(["a", "b", "Deploy", "deploy", "nested/inner"], rng.randint(1, 3)):
        (bundle / child).mkdir(parents=True, exist_ok=True)
        if rng.random() < 0.85:
            name = rng.choice([child.split("/")[-1], child.upper(), "deploy", f"{bundle.name}.{child}"])
            (bundle / child / "SKILL.md").write_text(f"---\nname: {name}\ndescription: Child {child}\n---\nChild.\n")


OPENCODE_PERMISSION = ['"deny"', '"ask"', '"allow"', '{"*": "deny"}', '{"deploy": "deny"}', '{"dep*": "deny", "*": "allow"}',
                       '{"*": "deny", "review": "allow"}', '{"Deploy": "deny"}', '{"deploy": "ask"}', '{"*": "maybe"}']
OPENCODE_DESCRIPTIONS = ["Deploys the app", "''", '"two\n  lines"', "|\n  Block one\n  block two", "<b>&amp;</b> <x>",
                         "x" * 1100, "42", "[a, b]", "'  spaced  '", "Use: when asked"]


def opencode_mutate(rng: random.Random, ws: Path, cwd: str):
    """OpenCode skills: one name in several places (the parse race), descriptions, the
    default agent's `permission.skill` rules, and `skills.paths` folders."""
    roll = rng.random()
    files = [p for p in skill_files(ws) if p.name == "SKILL.md"]
    if roll < 0.3 and files:  # the same skill in another folder OpenCode reads (a race: every definition flagged)
        f = rng.choice(files)
        dest = ws / rng.choice(["project/.opencode/skills", "project/.claude/skills", "home/.claude/skills",
                                "home/.config/opencode/skills", "project/.agents/skills"]) / (f.parent.name + rng.choice(["", "-2"]))
        if not dest.exists():
            shutil.copytree(f.parent, dest, symlinks=True)
    elif roll < 0.55:  # a fresh skill with a description from the wild
        name = rng.choice(["deploy", "Deploy", "review", "customize-opencode", "", "a b"])
        folder = ws / rng.choice(["project/.opencode/skills", "project/.opencode/skill", "project/.claude/skills",
                                  "home/.config/opencode/skills", "home/team-skills", "project/extra"]) / (name or "empty")
        folder.mkdir(parents=True, exist_ok=True)
        keys = [f"name: {rng.choice([name, repr(name), '5', '[x]'])}"] if rng.random() < 0.9 else []
        if rng.random() < 0.85:
            keys.append("description: " + rng.choice(OPENCODE_DESCRIPTIONS))
        (folder / "SKILL.md").write_text("---\n" + "\n".join(keys) + "\n---\n" + rng.choice(BODIES))
    else:  # opencode.json: skills.paths and the default agent's permission.skill
        config = {}
        if rng.random() < 0.6:
            config["skills"] = {"paths": rng.sample(["~/team-skills", "extra", "./extra", "~/team-skills/", "missing",
                                                     f"{cwd}/extra" if cwd != "." else "extra/"], rng.randint(1, 3))}
        if rng.random() < 0.6:
            rule = json.loads(rng.choice(OPENCODE_PERMISSION))
            if rng.random() < 0.7:
                config["permission"] = {"skill": rule}
            else:
                config["agent"] = {"build": {"permission": {"skill": rule}}}
        where = ws / rng.choice(["project/opencode.json", "home/.config/opencode/opencode.json", "project/.opencode/opencode.json"])
        where.parent.mkdir(parents=True, exist_ok=True)
        where.write_text(json.dumps(config) + "\n")
        team = ws / "home/team-skills/team-one"
        if not team.exists():
            team.mkdir(parents=True)
            (team / "SKILL.md").write_text("---\nname: deploy\ndescription: From the team folder\n---\nTeam body.\n")


def mutate(rng: random.Random, fw: str, ws: Path, cwd: str, cwds):
    """One skills mutation: a fresh skill, a copy in another root, a linked folder or
    file, a rename, or the user config's skill settings."""
    roll = rng.random()
    files = skill_files(ws)
    if fw == "kimi-code" and roll < 0.1:
        kimi_bundle(rng, place(rng, fw, ws, cwd, cwds))
    elif roll < 0.35 or not files:
        fresh_skill(rng, fw, ws, place(rng, fw, ws, cwd, cwds))
    elif roll < 0.6:  # the same skill in another root
        f = rng.choice(files)
        src = f.parent if f.name == "SKILL.md" else f
        dest = place(rng, fw, ws, cwd, cwds) / src.name
        if not dest.exists():
            (shutil.copytree if src.is_dir() else shutil.copyfile)(src, dest)
    elif roll < 0.72:  # a linked skill folder or file, or a dangling link
        f = rng.choice(files)
        src = f.parent if f.name == "SKILL.md" and rng.random() < 0.7 else f
        dest = place(rng, fw, ws, cwd, cwds) / ("linked-" + src.name)
        if not dest.exists() and not dest.is_symlink():
            os.symlink(os.path.relpath(src, dest.parent) if rng.random() < 0.85 else "nowhere", dest)
    elif roll < 0.82:  # renamed: another case, hidden, deeper
        f = rng.choice(files)
        d = f.parent
        if d.name not in ("skills", "project", "home"):
            new = d.with_name(rng.choice([d.name.upper(), "." + d.name, d.name + "-2"]))
            if not new.exists():
                d.rename(new)
    else:
        where, values = SETTINGS[fw]
        path = ws / where
        path.parent.mkdir(parents=True, exist_ok=True)
        value = rng.choice(values)
        # A key already set is replaced: written twice it makes the file invalid TOML,
        # which the Kimi Code oracle cannot report (it stops: "could not read").
        keys = {line.split("=")[0].strip() for line in value.splitlines() if "=" in line and not line.startswith("[")}
        old = path.read_text() if path.exists() and rng.random() < 0.5 else ""
        if fw == "kimi-code":
            old = "".join(l for l in old.splitlines(keepends=True) if l.split("=")[0].strip() not in keys)
        path.write_text(old + value + "\n")
        team = ws / "home/team-skills/team-one"
        if fw == "kimi-code" and not team.exists():
            team.mkdir(parents=True)
            (team / "SKILL.md").write_text("---\nname: deploy\ndescription: From the team folder\n---\nTeam body.\n")
