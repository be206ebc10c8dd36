"""Skills for the differential tester (Claude Code): new skill and command files in
every place the tool reads them, files copied between those places (shadowing),
linked, renamed, and the front-matter keys a skill reads with values from the wild.
Used by coding.py for workspaces whose inputs.json asks for skills."""
import json
import os
import random
import shutil
from pathlib import Path

# Where Claude Code 2.1.337 reads skills and commands, and places it does not
# (`.agents/skills`, below the working folder); `{cwd}` is the working folder.
SKILL_PLACES = {
    "claude-code": ["home/.claude/skills", "project/.claude/skills", "project/{cwd}/.claude/skills",
                    "project/packages/.claude/skills", "project/.agents/skills", "home/.claude/skills/kit/skills",
                    "project/.claude/skills/kit/skills"],
}
COMMAND_PLACES = {
    "claude-code": ["home/.claude/commands", "project/.claude/commands", "project/{cwd}/.claude/commands",
                    "project/.claude/commands/frontend", "home/.claude/skills/kit/commands"],
}
SKILL_KEYS = ["name", "description", "when_to_use", "argument-hint", "disable-model-invocation", "user-invocable",
              "allowed-tools", "model", "context", "agent", "paths", "effort", "version"]
SKILL_VALUES = {
    "description": ["Deploys the app", "Use when: the user asks", "42", '""', "|\n  first\n  second\n", "[a, b]", "~",
                    "x # comment", '"quoted # not comment"', ">-\n  folded\n  text\n"],
    "when_to_use": ["after edits", "", "5", "when: asked"],
    "argument-hint": ['"[file]"', "key: value", "3", "[a]"],
    "disable-model-invocation": ["true", "false", '"true"', "yes", "1", "off", '"no"', "maybe"],
    "user-invocable": ["false", "true", '"false"', "no", "0", "on", "x"],
    "name": ["other-name", "deploy", "shown name", "kit", "simplify", "Deploy", "a:b", "42"],
    "allowed-tools": ["Read, Bash(git:*)", "[Read]", "*"],
}
SKILL_NAMES = ["deploy", "deploy", "lint", "review", "simplify", "clear", "init", "Deploy", "with.dot", "ops:release",
               "über", "a b"]
BODIES = ["Do the steps.", "", "# Heading\n\nText with $ARGUMENTS.", "\tTabbed body.", "First.\n\nSecond."]


def asks_skills(ws: Path) -> bool:
    try:
        return bool(json.loads((ws / "inputs.json").read_text()).get("skills"))
    except (OSError, ValueError):
        return False


def folder(rng: random.Random, places, ws: Path, cwd: str) -> Path:
    path = ws / os.path.normpath(rng.choice(places).replace("{cwd}", cwd))
    path.mkdir(parents=True, exist_ok=True)
    if "/kit/" in str(path) and not (path.parent / ".claude-plugin/plugin.json").exists():
        (path.parent / ".claude-plugin").mkdir(parents=True, exist_ok=True)
        (path.parent / ".claude-plugin/plugin.json").write_text(rng.choice(['{"name": "kit"}', '{"name": "kit"}', '{"version": "1"}', '{"name": "k it"}']) + "\n")
    return path


def text(rng: random.Random) -> str:
    keys = [f"{k}: {rng.choice(SKILL_VALUES.get(k, ['x', 'true', '5']))}" for k in rng.sample(SKILL_KEYS, rng.randint(0, 4))]
    if rng.random() < 0.8:
        keys.insert(0, f"description: {rng.choice(SKILL_VALUES['description'])}")
    fm = "---\n" + "\n".join(keys) + "\n---\n" if rng.random() < 0.9 else ""
    return fm + rng.choice(BODIES) + "\n"


def fresh_skill(rng: random.Random, fw: str, ws: Path, cwd: str):
    """A new SKILL.md (or loose file, or lower-case skill.md) or command file."""
    name = rng.choice(SKILL_NAMES)
    if rng.random() < 0.65:
        d = folder(rng, SKILL_PLACES[fw], ws, cwd) / name
        d.mkdir(parents=True, exist_ok=True)
        (d / rng.choice(["SKILL.md"] * 8 + ["skill.md", "README.md"])).write_text(text(rng))
    else:
        d = folder(rng, COMMAND_PLACES[fw], ws, cwd)
        target = d / (name.replace(":", "-") + rng.choice([".md"] * 6 + [".txt"]))
        if rng.random() < 0.15:
            target = d / name.replace(":", "-") / "SKILL.md"
            target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text(rng))


def skill_files(ws: Path):
    return sorted(p for d in ("project", "home") if (ws / d).is_dir() for p in (ws / d).rglob("*.md")
                  if p.is_file() and not p.is_symlink() and ("/skills/" in str(p) or "/commands/" in str(p)))


def mutate_skill_tree(rng: random.Random, fw: str, ws: Path, cwd: str):
    """A skill folder copied to another place (shadowing), linked, or renamed."""
    files = [f for f in skill_files(ws) if f.name == "SKILL.md"]
    if not files:
        return fresh_skill(rng, fw, ws, cwd)
    f = rng.choice(files)
    kind = rng.randrange(4)
    if kind <= 1:
        dest = folder(rng, SKILL_PLACES[fw], ws, cwd) / f.parent.name
        if not dest.exists():
            shutil.copytree(f.parent, dest, symlinks=True)
    elif kind == 2:
        link = f.parent.with_name(rng.choice(["alias", "zz-alias", "dangling"]))
        if not link.exists() and not link.is_symlink():
            os.symlink(f.parent.name if link.name != "dangling" else "nowhere", link)
    else:
        f.parent.rename(f.parent.with_name(rng.choice(SKILL_NAMES).replace("/", "-")))
