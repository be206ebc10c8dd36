"""The coding-agent CLIs in the differential tester (`run.py` dispatches here).

Claude Code, Copilot CLI, OpenCode, Codex, Gemini CLI, Qwen Code and Kimi Code: their
oracles (`shared/oracle/<fw>/oracle.py`, run with the system `python3`) drive the
released CLI installed under `~/.cache/agentry-oracle/<fw>/` and take seconds a run.

A workspace is a vendored fixture case mutated by the rules of `shared/spec/<fw>.md`
and the oracle's NOTES "hard cases": front-matter scalars in every position (the
values the tool's YAML library reads differently: js-yaml 4, Bun.YAML, the `yaml`
package, YAML 1.1 look-alikes), names with odd characters and built-in names, one
name twice in one folder and across the scopes, files copied between the project,
the user folders and a `--cwd` sub-folder, untrusted projects, CRLF, a BOM, Latin-1
bytes, lone CR, NUL and zero-width bytes; files moved into nested or hidden folders;
links to files, dangling links, link loops and agent folders reached through a
symlinked folder; extension folders (Gemini CLI, Qwen Code) with their manifest;
settings and config files (Claude Code's built-in switches, Kimi Code's
`extra_agent_dirs` and SYSTEM.md, Codex's user `[agents]`); Claude Code plugins
auto-loaded from a skills folder; TOML edge cases for Codex role files and `[agents]`
tables; JSON config agents for OpenCode (global, project, `.opencode`, and the
folders between the project and `--cwd`); Gemini CLI settings (agents off, folder
trust off, per-name overrides) and remote agents with inline cards (one, or several
in a YAML list). `inputs.json` (`cwd`, `trusted`) is passed to both sides.
"""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from judge import judge
import coding_skills
import skill_hard
import skills

FRAMEWORKS = ("claude-code", "copilot", "opencode", "codex", "gemini-cli", "qwen-code", "kimi-code")

# Scalars YAML libraries disagree on (1.1 vs 1.2 core, js-yaml's timestamps, Bun's).
YAML_VALUES = [
    "yes", "no", "on", "off", "true", "False", "~", "null", "", "0o17", "017", "0x1F", "1_000", "1e3", ".inf",
    "-.inf", ".nan", "3.0", "-3", "0", "2024-02-29", "2024-02-29T08:15:00Z", "2024-02-30", "12:30:00", "!!str 5",
    "'quoted'", '"a\\tb"', '"\\u00e9"', "[a, b]", "[Read, Bash]", "{a: 1}", "[]", "{}", "|\n  block\n  two\n",
    ">-\n  folded\n  text\n", "&a anchor", "*a", "a: b", "[unclosed", "{unclosed", "x # comment", "'it''s'",
    "\"multi\n  line\"", "\"multi\nline\"", "'multi\nline'", "\"multi\n\tline\"", "[a,\nb]", "{a: 1,\nb: 2}",
    "\"multi\n line\"", "[Read,\n  Grep]", "\t tabbed", "- item", "*", "!custom x", "? complex", "@at", "`tick`", "%pct", "ünïcödé",
]
# Values each key takes in the wild (any tool): tool names, models, modes, colours.
FIELD_VALUES = {
    "tools": ["Read, Grep", "Read Grep", "[Read, Bash]", "['*']", "*", '""', "[]", "Bash(git:*), Read", "mcp__srv__tool",
              "mcp__srv", "Agent(a, b)", "[read_file, grep_search]", "[read, edit, shell]", "read, edit", "github/*",
              "[run_shell_command, 'mcp_*']", "[ReadFile, Shell]", "[Read, 5]", "[null]", "[Read, Read]", "Task", "todo"],
    "disallowedTools": ["Bash", "[Write, Edit]", "mcp__*", "*", "[]"],
    "model": ["sonnet", "INHERIT", "inherit", "opus[1m]", "gpt-5", "openai/gpt-5", "[gpt-5, claude-sonnet-4]",
              "openai:", "nosuch:", "  ", "anthropic/claude-sonnet-4-5", "gemini-2.5-pro", "5", "claude-sonnet-4.5"],
    "permissionMode": ["plan", "acceptEdits", "bypassPermissions", "manual", "yolo", "default", "auto-edit"],
    "approvalMode": ["plan", "default", "auto-edit", "yolo", "nope"],
    "mode": ["primary", "subagent", "all", "other", "Primary"],
    "color": ["red", "#ff0000", "Blue", "automatic", "5"],
    "temperature": ["0", "0.5", "1.5", "2.5", "-1", "'0.3'"],
    "max_turns": ["0", "10", "-1", "1.5", "'5'"], "maxTurns": ["0", "10", "-1", "1.5", "'5'"],
    "override": ["true", "'true'", "yes", "1"], "infer": ["false", "'false'", "no", "0"],
    "kind": ["local", "remote", "Local", "agent"],
    "runConfig": ["{max_turns: 5}", "{max_turns: 0}", "{max_time_minutes: 1.5}", "{max_time_minutes: -1}", "{other: 1}",
                  "\n  max_turns: '3'", "[1]"],
    "modelConfig": ["{model: qwen-max}", "{model: ''}", "{model: 5}", "{temp: 1}"],
    "executor": ["{kind: acp, command: agent}", "{kind: codex, command: codex, args: [--x]}", "{kind: acp}",
                 "{kind: other, command: x}", "acp", "{kind: acp, command: a, args: x}"],
    "executionBackend": ["container", "host", "{kind: container}", "''"],
    "background": ["true", "'false'", "yes", "1"],
    "mcp_servers": ["{s: {command: npx, args: [srv]}}", "{s: {url: 'http://x'}}", "{s: 5}", "[a]",
                    "{s: {command: x, include_tools: [a], trust: true}}", "{s: {http_url: 'http://x', type: sse}}"],
    "mcpServers": ["{s: {command: npx}}", "{s: 5}", "[]"],
    "timeout_mins": ["5", "0", "1.5", "'5'"], "display_name": ["Pretty Name", "5", "''"],
    "steps": ["1", "0", "2.5", "-1", "'3'"], "maxSteps": ["4", "0", "'4'"],
    "hidden": ["true", "false", "'true'", "yes"], "disable": ["true", "false", "'yes'", "no"],
    "permission": ["{edit: deny}", "ask", "deny", "{bash: {'git *': allow, '*': ask}}", "{edit: maybe}", "[]"],
    "options": ["{reasoningEffort: high}", "[]", "{nested: {y: 2}}", "5"],
    "top_p": ["0.9", "1", "'0.5'", "2"], "variant": ["high", "5", "''"], "description": ["''", "'  '", "a\\nb", "Use proactively: reviews", "|\n  multi\n  line"],
}
ODD_NAMES = [
    "my agent", "My-Agent", "UPPER", "a:b", "a\uff1ab", "\uff21\uff22", "ünï", "42", "true", "-lead", "trail_", "_x-",
    "a/b", "a.b", "x" * 60, "x" * 260, "'  spaced  '", '""', "a_b-c", "ab", "a", "sp ace", "日本語", "a\\b", "😀",
    "reviewer", "tester",
]
# Names of each tool's built-in agents: a file may or may not replace them.
BUILTINS = {
    "claude-code": ["general-purpose", "Explore", "Plan", "statusline-setup", "explore"],
    "copilot": ["explore", "task", "general-purpose", "code-review", "Explore"],
    "opencode": ["build", "plan", "general", "explore", "title", "summary", "compaction"],
    "codex": ["default", "explorer", "worker"],
    "gemini-cli": ["codebase_investigator", "cli_help", "browser_agent", "generalist", "codebase-investigator"],
    "qwen-code": ["general-purpose", "General-Purpose", "explore", "plan"],
    "kimi-code": ["agent", "coder", "explore", "plan", "Coder"],
}
# Front-matter keys each tool knows (and a few it does not).
KEYS = {
    "claude-code": ["name", "description", "tools", "disallowedTools", "model", "permissionMode", "color", "memory",
                    "hooks", "mcpServers", "skills", "maxTurns", "effort", "isolation", "background"],
    "copilot": ["name", "description", "tools", "model", "infer", "disable-model-invocation", "user-invocable",
                "target", "mcp-servers", "skills", "reasoning-effort", "handoffs", "argument-hint", "metadata"],
    "opencode": ["name", "description", "mode", "model", "temperature", "top_p", "tools", "permission", "disable",
                 "prompt", "maxSteps", "steps", "color", "hidden", "options", "variant"],
    "gemini-cli": ["name", "description", "kind", "tools", "model", "temperature", "max_turns", "timeout_mins",
                   "display_name", "color", "mcp_servers", "mcpServers"],
    "qwen-code": ["name", "description", "tools", "model", "color", "approvalMode", "permissionMode", "maxTurns",
                  "runConfig", "modelConfig", "executor", "executionBackend", "disallowedTools"],
    "kimi-code": ["name", "description", "tools", "disallowedTools", "disallowed_tools", "model", "override",
                  "whenToUse", "subagents", "mode", "Description"],
}
KEYS["codex"] = ["name", "description", "developer_instructions", "model"]  # for a Markdown file in a Codex folder
# Where each tool looks for agent files (relative to the workspace; `{cwd}` is the
# working folder below the project, made when used).
PLACES = {
    "claude-code": ["project/.claude/agents", "home/.claude/agents", "project/{cwd}/.claude/agents",
                    "project/.claude/agents/sub", "project/packages/.claude/agents"],
    "copilot": ["project/.github/agents", "project/.claude/agents", "home/.copilot/agents",
                "project/{cwd}/.github/agents", "project/{cwd}/.claude/agents", "project/.github/agents/team"],
    "opencode": ["project/.opencode/agents", "project/.opencode/agent", "project/.opencode/mode",
                 "home/.config/opencode/agents", "home/.opencode/agents", "project/{cwd}/.opencode/agents",
                 "project/.opencode/agents/sub", "project/.opencode/modes", "project/.opencode/agent/a/.b",
                 "home/.config/opencode/mode", "project/{cwd}/.opencode/mode"],
    "codex": ["project/.codex/agents", "home/.codex/agents", "project/{cwd}/.codex/agents",
              "project/.codex/agents/sub"],
    "gemini-cli": ["project/.gemini/agents", "home/.gemini/agents", "project/{cwd}/.gemini/agents",
                   "project/.gemini/agents/sub", "home/.gemini/extensions/ext-a/agents"],
    "qwen-code": ["project/.qwen/agents", "home/.qwen/agents", "project/{cwd}/.qwen/agents",
                  "project/.qwen/agents/sub", "home/.qwen/extensions/ext-a/agents"],
    "kimi-code": ["project/.kimi-code/agents", "project/.agents/agents", "home/.kimi-code/agents",
                  "home/.agents/agents", "project/{cwd}/.kimi-code/agents", "project/.kimi-code/agents/sub"],
}
CWDS = ["packages/api", "sub", "app/web/src"]
SUFFIX = {"codex": ".toml"}

TOML_VALUES = [
    '"x"', "'literal'", '""', '"  padded  "', '"""\nmulti\nline\n"""', "'''\nraw \\n\n'''", '"""\r\ncrlf\r\n"""',
    "5", "true", "1.5", "[1]", '["a", "b"]', "[]", "{a = 1}", "{}", "1979-05-27", '"\\u00e9"', '"tab\\t"',
    '"unterminated', "inf", "nan", "0x1F", "1_000", '"ünï"', "'a' # comment", '"a" "b"',
]
TOML_KEYS = ["name", "description", "developer_instructions", "model", "model_reasoning_effort", "sandbox_mode",
             "nickname_candidates", "config_file", "approval_policy", "model_provider", "unknown_key", "mcp_servers",
             "instructions", "tools"]

OPENCODE_JSON_VALUES = [
    '"Writes docs"', '""', "5", "null", "true", "[]", "{}", '"{file:./prompt.txt}"', '"{file:~/p.txt}"',
    '"{file:./missing.txt}"', '"{env:HOME}"', '"{env:NOPE_X}"', '"primary"', '"subagent"', '"all"', '"nonsense"',
    '"openai/gpt-5"', "0.3", "2", '{"write": false, "bash": true}', '{"edit": "deny"}', '"deny"', '"ask"',
]
OPENCODE_JSON_KEYS = ["description", "prompt", "mode", "model", "temperature", "top_p", "tools", "permission",
                      "disable", "steps", "maxSteps", "name", "color", "hidden", "variant", "options", "unknown"]


def installed(fw: str) -> bool:
    home = Path(os.environ.get("AGENTRY_ORACLE_HOME", Path.home() / ".cache/agentry-oracle"))
    return (home / fw / "node_modules").is_dir()


def inputs_of(ws: Path) -> dict:
    try:
        return json.loads((ws / "inputs.json").read_text())
    except (OSError, ValueError):
        return {}


def agent_files(ws: Path):
    return sorted(p for d in ("project", "home", "xdg") if (ws / d).is_dir()
                  for p in (ws / d).rglob("*") if p.is_file() and not p.is_symlink())


def place(rng: random.Random, fw: str, ws: Path) -> Path:
    cwd = inputs_of(ws).get("cwd", ".")
    if fw == "claude-code" and rng.random() < 0.15:
        return plugin_agents(rng, ws)
    folder = rng.choice(PLACES[fw]).replace("{cwd}", cwd if cwd != "." else rng.choice(CWDS))
    path = ws / os.path.normpath(folder)
    path.mkdir(parents=True, exist_ok=True)
    manifest = {"gemini-cli": "gemini-extension.json", "qwen-code": "qwen-extension.json"}.get(fw)
    if manifest and path.parent.parent.name == "extensions" and not (path.parent / manifest).exists():
        (path.parent / manifest).write_text(json.dumps({"name": path.parent.name, "version": "1.0.0"}) + "\n")
    return path


def drop_or_double(rng: random.Random, lines, keyed):
    """One of the keyed lines dropped, or written twice."""
    i = rng.choice(keyed)
    if rng.random() < 0.5:
        del lines[i]
    else:
        lines.insert(i, lines[i])


def mutate_markdown(rng: random.Random, fw: str, data: bytes) -> bytes:
    """One change to a Markdown agent's bytes (front matter or body)."""
    kind = rng.randrange(15)
    text = data.decode("utf-8", "surrogateescape")
    lines = text.split("\n")
    keyed = [i for i, l in enumerate(lines) if re.match(r"^\s*[A-Za-z_][\w-]*\s*:", l)]
    fence = [i for i, l in enumerate(lines) if l.rstrip("\r") == "---"]
    close = fence[1] if len(fence) > 1 else (1 if fence else 0)
    if kind <= 3 and keyed:  # a scalar of another type in a known key, or a value the key takes in the wild
        i = rng.choice(keyed)
        key = lines[i].split(":", 1)[0]
        pool = FIELD_VALUES.get(key.strip()) if rng.random() < 0.6 else None
        lines[i] = f"{key}: {rng.choice(pool or YAML_VALUES)}"
    elif kind == 4 and keyed:
        drop_or_double(rng, lines, keyed)
    elif kind == 5:  # a known key with a random value
        lines.insert(max(close, 1), f"{rng.choice(KEYS[fw])}: {rng.choice(YAML_VALUES)}")
    elif kind == 6:  # an odd or a built-in name
        name = rng.choice(ODD_NAMES + BUILTINS[fw])
        named = [i for i in keyed if lines[i].startswith("name:")]
        line = f"name: {name}"
        if named:
            lines[named[0]] = line
        else:
            lines.insert(max(close, 1), line)
    elif kind == 7:  # CRLF, lone CR, or one CRLF line among LF ones
        lf = data.replace(b"\r\n", b"\n")
        how = rng.random()
        if how < 0.6:
            return lf.replace(b"\n", b"\r\n")
        if how < 0.8:
            return lf.replace(b"\n", b"\r")
        parts = lf.split(b"\n")
        i = rng.randrange(len(parts))
        parts[i] += b"\r"
        return b"\n".join(parts)
    elif kind == 8:
        return data if data.startswith(b"\xef\xbb\xbf") else b"\xef\xbb\xbf" + data
    elif kind == 9:  # a Latin-1 byte, a NUL, a lone surrogate's bytes, a zero-width space
        at = rng.randrange(len(data) + 1)
        return data[:at] + rng.choice([b"\xe9", b"\xa0", b"\xff", b"\x00", b"\xed\xa0\x80", "\u200b".encode()]) + data[at:]
    elif kind == 10:  # body text: empty, short, placeholders, a fence inside
        body = rng.choice(["", "short", "  \n\n", "Use ${project_name} and {{args}} and $ARGUMENTS.",
                           "---\nafter a fence", "text\n---\nmore: x", "A prompt long enough to count.\n"])
        lines = lines[:close + 1] + body.split("\n") if fence else lines + body.split("\n")
    elif kind == 11:  # fence trouble
        if fence:
            i = rng.choice(fence)
            lines[i] = rng.choice(["--- ", "----", "...", " ---", "---x", "--- # c", ""])
        else:
            lines.insert(0, "---")
    elif kind == 12 and keyed:  # a value as a list or a map
        i = rng.choice(keyed)
        key, _, value = lines[i].partition(":")
        lines[i] = f"{key}: [{value.strip() or 'x'}]" if rng.random() < 0.5 else f"{key}:\n  - {value.strip() or 'x'}"
    elif kind == 13 and keyed:  # a flow value over several lines, continued left of, at or past its key
        i = rng.choice(keyed)
        key = lines[i].split(":", 1)[0]
        lines[i:i + 1] = multiline_flow(rng, key)
    else:  # indentation trouble
        if lines:
            i = rng.randrange(len(lines))
            lines[i] = rng.choice(["\t", "  ", "- "]) + lines[i]
    return "\n".join(lines).encode("utf-8", "surrogateescape")


def multiline_flow(rng: random.Random, key: str) -> list:
    """`key` (kept with its indentation) given a quoted scalar, a flow sequence or mapping, or
    a plain scalar inside one, running over lines that start at column 0, at the key's column,
    or past it: YAML libraries differ on continuation lines left of their block entry (Bun
    refuses them, libyaml and js-yaml take some)."""
    col = len(key) - len(key.lstrip(" "))
    pad = lambda: " " * rng.choice([0, 0, col, col + 1, col + 2, 1])
    shape = rng.randrange(6)
    if shape == 0:
        return [f'{key}: "first line', f'{pad()}second line"']
    if shape == 1:
        return [f"{key}: 'first line", f"{pad()}it''s second'"]
    if shape == 2:
        return [f"{key}: [Read,", f"{pad()}Grep]"]
    if shape == 3:
        return [f"{key}: {{a: 1,", f"{pad()}b: 2}}"]
    if shape == 4:
        return [f'{key}: "first', "", f'{pad()}third"'] if rng.random() < 0.5 else [f'{key}: "first', f'{pad()}"']
    return [f"{key}: [Read, Grep", f"{pad()}{rng.choice([']', ', Bash]', 'Bash]'])}"]


def mutate_toml(rng: random.Random, data: bytes) -> bytes:
    """One change to a Codex role file or config.toml."""
    kind = rng.randrange(9)
    text = data.decode("utf-8", "surrogateescape")
    lines = text.split("\n")
    keyed = [i for i, l in enumerate(lines) if re.match(r"^\s*[A-Za-z_][\w.-]*\s*=", l)]
    if kind <= 2 and keyed:
        i = rng.choice(keyed)
        lines[i] = f"{lines[i].split('=', 1)[0].rstrip()} = {rng.choice(TOML_VALUES)}"
    elif kind == 3:
        lines.insert(rng.randrange(len(lines) + 1) if rng.random() < 0.3 else 0,
                     f"{rng.choice(TOML_KEYS)} = {rng.choice(TOML_VALUES)}")
    elif kind == 4 and keyed:
        i = rng.choice(keyed)
        if rng.random() < 0.5:
            del lines[i]
        else:
            lines.insert(i, lines[i])
    elif kind == 5:
        lines.insert(0, f'name = "{rng.choice(ODD_NAMES + BUILTINS["codex"])}"')
    elif kind == 6:
        return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    elif kind == 7:
        return data if data.startswith(b"\xef\xbb\xbf") else b"\xef\xbb\xbf" + data
    else:
        at = rng.randrange(len(data) + 1)
        return data[:at] + rng.choice([b"\xe9", b"\xa0", b"\xff", b"[", b'"']) + data[at:]
    return "\n".join(lines).encode("utf-8", "surrogateescape")


def codex_table(rng: random.Random, ws: Path):
    """An `[agents.NAME]` table in a config.toml (project `.codex`, home `.codex`)."""
    folder = ws / rng.choice(["project/.codex", "home/.codex"])
    folder.mkdir(parents=True, exist_ok=True)
    names = [p.stem for p in agent_files(ws) if p.suffix == ".toml" and p.name != "config.toml"]
    name = rng.choice(names + BUILTINS["codex"] + ["fresh"] if names else BUILTINS["codex"] + ["fresh"])
    body = [f"[agents.{json.dumps(name) if rng.random() < 0.3 else name}]"]
    for key in rng.sample(["description", "config_file", "nickname_candidates", "unknown"], rng.randint(1, 3)):
        if key == "config_file":
            body.append(f'config_file = "{rng.choice(["agents/" + name + ".toml", "./x.toml", "/nope.toml", ""])}"')
        elif key == "nickname_candidates":
            body.append("nickname_candidates = " + rng.choice(['["A", "B"]', "[]", '["a", "a"]', '"x"']))
        else:
            body.append(f"{key} = {rng.choice(TOML_VALUES[:5] + ['5'])}")
    config = folder / "config.toml"
    old = config.read_bytes() if config.exists() else b""
    if rng.random() < 0.2:
        body.insert(0, "[agents]\n" + rng.choice(["max_threads = 2", "max_depth = 'x'", ""]))
    config.write_bytes(old + b"\n" + "\n".join(body).encode() + b"\n")


def opencode_json(rng: random.Random, ws: Path):
    """Agents in an opencode.json[c] (project, a `.opencode` folder, the global config)."""
    where = rng.choice(["project/opencode.json", "project/opencode.jsonc", "project/.opencode/opencode.json",
                        "home/.config/opencode/opencode.json", "home/.config/opencode/config.json",
                        "project/{cwd}/opencode.json", "project/{cwd}/.opencode/opencode.jsonc", "home/.opencode/opencode.json",
                        "home/.config/opencode/opencode.jsonc"])
    cwd = inputs_of(ws).get("cwd", ".")
    where = where.replace("{cwd}", cwd if cwd != "." else rng.choice(CWDS))
    path = ws / os.path.normpath(where)
    path.parent.mkdir(parents=True, exist_ok=True)
    names = [p.stem for p in agent_files(ws) if p.suffix == ".md"]
    entries = []
    for _ in range(rng.randint(1, 3)):
        name = rng.choice(names + BUILTINS["opencode"] + ODD_NAMES[:6] if names else BUILTINS["opencode"])
        fields = [f'"{k}": {rng.choice(OPENCODE_JSON_VALUES)}'
                  for k in rng.sample(OPENCODE_JSON_KEYS, rng.randint(1, 4))]
        if rng.random() < 0.5:
            fields.insert(0, '"description": "From JSON"')
        entries.append(f'    {json.dumps(name)}: {{{", ".join(fields)}}}')
    key = rng.choice(["agent", "agent", "agents", "mode"])
    text = "{\n  " + json.dumps(key) + ": {\n" + ",\n".join(entries) + "\n  }\n}\n"
    if where.endswith("c") and rng.random() < 0.5:
        text = "// comment\n" + text.replace("\n  }\n}", ",\n  }, // trailing\n}")
    (path.parent / "prompt.txt").write_text("Prompt from a file.\n")
    path.write_text(text)


GEMINI_SETTINGS = [
    {"experimental": {"enableAgents": False}}, {"experimental": {"enableAgents": True}},
    {"security": {"folderTrust": {"enabled": False}}}, {"security": {"folderTrust": {"enabled": True}}},
    {"agents": {"overrides": {"{name}": {"enabled": False}}}}, {"agents": {"overrides": {"{name}": {"enabled": True}}}},
    {"agents": {"overrides": {"{name}": {"modelConfig": {"model": "gemini-2.5-pro"}}}}},
    {"agents": {"overrides": {"{name}": {"runConfig": {"maxTurns": 3, "maxTimeMinutes": 2}}}}},
    {"agents": {"overrides": {"{name}": {"tools": ["read_file"]}}}},
    {"agents": {"overrides": {"{name}": {"mcpServers": {"s": {"command": "x"}}}}}},
    {"agents": {"overrides": {"browser_agent": {"enabled": True}}}}, {"agents": {"overrides": 5}}, {"agents": []},
]
CARD = {"name": "M", "description": "card", "url": "http://127.0.0.1:9/m", "version": "1", "protocolVersion": "0.3.0",
        "capabilities": {}, "defaultInputModes": ["text"], "defaultOutputModes": ["text"], "skills": []}


def gemini_extra(rng: random.Random, ws: Path):
    """Settings (home or workspace `.gemini/settings.json`) naming agents of the
    workspace, or a remote agent with an inline card (one, or several in a YAML list)."""
    names = [m.group(1) for p in agent_files(ws) if p.suffix == ".md"
             for m in [re.search(rb"^name:\s*([\w-]+)", p.read_bytes(), re.M)] if m]
    names = [n.decode() for n in names] + BUILTINS["gemini-cli"]
    if rng.random() < 0.5:
        path = ws / rng.choice(["home/.gemini/settings.json", "project/.gemini/settings.json"])
        path.parent.mkdir(parents=True, exist_ok=True)
        merged = {}
        for piece in rng.sample(GEMINI_SETTINGS, rng.randint(1, 2)):
            text = json.dumps(piece).replace("{name}", rng.choice(names))
            for k, v in json.loads(text).items():
                merged[k] = {**merged[k], **v} if isinstance(merged.get(k), dict) and isinstance(v, dict) else v
        path.write_text(json.dumps(merged, indent=2) + "\n" if rng.random() < 0.9 else "{not json\n")
        return
    def card():
        c = dict(CARD, description=rng.choice(["card", "", "  padded  "]))
        roll = rng.random()
        if roll < 0.15:
            del c["url"]
        elif roll < 0.25:
            c["skills"] = [{"name": "s", "description": "does s"}, {"name": "t"}]
        return json.dumps(c)
    def entry(indent: str):
        name = rng.choice(names + ["remote-one", "Bad Name"])
        lines = [f"name: {name}", f"agent_card_json: '{card()}'"]
        if rng.random() < 0.4:
            lines.append("description: " + rng.choice(["From the user", "''", "5"]))
        if rng.random() < 0.2:
            lines.append(rng.choice(["agent_card_url: http://127.0.0.1:9/card", "display_name: Remote", "auth: {type: apiKey, key: k}"]))
        if indent or rng.random() < 0.8:
            lines.insert(0, "kind: remote")
        return [indent + lines[0]] + ["  " + l if indent else l for l in lines[1:]]
    if rng.random() < 0.3:
        body = [l for _ in range(rng.randint(1, 3)) for l in entry("- ")]
    else:
        body = entry("")
    stem = rng.choice(["remote", "r2", ".r", "list"])
    (place(rng, "gemini-cli", ws) / (stem + ".md")).write_text("---\n" + "\n".join(body) + "\n---\nIgnored body\n")


def fresh_agent(rng: random.Random, fw: str, ws: Path):
    """A new agent file in one of the tool's places, with a few random keys."""
    name = rng.choice(["helper", "helper", "reviewer"] + ODD_NAMES + BUILTINS[fw])
    stem = rng.choice([name.replace("/", "-").strip("'\"")[:200] or "x", "helper", "other"])
    if fw == "codex":
        keys = [f"name = {json.dumps(name)}", 'description = "A helper"', 'developer_instructions = "Do it well."']
        keys += [f"{rng.choice(TOML_KEYS)} = {rng.choice(TOML_VALUES)}" for _ in range(rng.randint(0, 2))]
        rng.shuffle(keys)
        (place(rng, fw, ws) / (stem + ".toml")).write_text("\n".join(keys) + "\n")
        return
    keys = [f"name: {name}", "description: " + rng.choice(["A helper", "Reviews code: carefully", '"quoted"'])]
    keys = [k for k in keys if rng.random() < 0.9]
    for key in rng.sample(KEYS[fw], rng.randint(0, 4)):
        keys.append(f"{key}: {rng.choice(FIELD_VALUES.get(key) or YAML_VALUES)}")
    body = rng.choice(["You are a helpful agent for this project.", "", "Short", "Line one\n\nLine two ${x}"])
    suffix = ".agent.md" if fw == "copilot" and rng.random() < 0.5 else ".md"
    (place(rng, fw, ws) / (stem + suffix)).write_text("---\n" + "\n".join(keys) + "\n---\n" + body + "\n")


# Skills (cases with `"skills": true`): the folders each tool reads skills from, and
# some it does not (`{n}` is the skill's folder; a path ending `.md` is a command file).
FRESH_SKILL_PLACES = {
    "copilot": ["project/.github/skills/{n}", "project/.agents/skills/{n}", "project/.claude/skills/{n}",
                "home/.copilot/skills/{n}", "home/.agents/skills/{n}", "project/{cwd}/.github/skills/{n}",
                "project/{cwd}/.agents/skills/{n}", "project/.claude/commands/{n}.md", "project/{cwd}/.claude/commands/{n}.md",
                "home/.claude/skills/{n}", "project/.github/skills/{n}/inner/{n}", "project/.github/skills/.hidden/{n}",
                "project/.github/skills", "project/.copilot/skills/{n}", "project/.github/skills/a/b/{n}"],
    "opencode": ["project/.opencode/skills/{n}", "project/.opencode/skill/{n}", "home/.config/opencode/skills/{n}",
                 "home/.opencode/skills/{n}", "home/.claude/skills/{n}", "home/.agents/skills/{n}",
                 "project/.claude/skills/{n}", "project/.agents/skills/{n}", "project/{cwd}/.agents/skills/{n}",
                 "project/{cwd}/.opencode/skills/{n}", "project/.opencode/skills/.dot/{n}", "project/.claude/skills/.dot/{n}",
                 "project/.opencode/skills", "project/.opencode/skills/{n}/node_modules/{n}", "project/.github/skills/{n}"],
}
FRESH_SKILL_KEYS = {
    "copilot": ["user-invocable", "disable-model-invocation", "allowed-tools", "license", "argument-hint"],
    "opencode": ["license", "allowed-tools", "metadata"],
}
FRESH_SKILL_NAMES = ["deploy", "Deploy", "lint", "review", "my skill", "a:b.c_d", "-bad", "x" * 65, "café", "", "5",
               "customize-cloud-agent", "github-pr-media", "customize-opencode"]


def fresh_skill(rng: random.Random, fw: str, ws: Path):
    """A new skill (a SKILL.md, or a command file) in one of the tool's skill places."""
    name = rng.choice(FRESH_SKILL_NAMES)
    folder = re.sub(r"[^A-Za-z0-9._-]", "-", name) or "x"
    cwd = inputs_of(ws).get("cwd", ".")
    where = rng.choice(FRESH_SKILL_PLACES[fw]).replace("{cwd}", cwd if cwd != "." else rng.choice(CWDS))
    path = ws / os.path.normpath(where.replace("{n}", rng.choice([folder, folder, "other"])))
    if path.suffix != ".md":
        path = path / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    keys = []
    if rng.random() < 0.85:
        keys.append(f"name: {rng.choice([name, json.dumps(name), name.upper()])}")
    if rng.random() < 0.85:
        keys.append("description: " + rng.choice(["Deploys the app", "Use when: asked", '""', "x" * rng.choice([10, 1024, 1025]),
                                                  "[a, b]", "42", "|\n  two\n  lines", "Bearer abc and <b>&</b>"]))
    for key in rng.sample(FRESH_SKILL_KEYS[fw], rng.randint(0, 2)):
        keys.append(f"{key}: {rng.choice(['true', 'false', 'yes', '[Read, Bash]', 'bash view', '5', '~'])}")
    rng.shuffle(keys)
    body = rng.choice(["Do the thing.\n", "# Title\n\nFirst\nsecond\n\nthird\nfourth\n", "", "\n\n  indented\n",
                       "curl -H 'Authorization: Bearer tok' https://u:p@host/\n"])
    front = "---\n" + "\n".join(keys) + "\n---\n" if rng.random() < 0.9 else ""
    path.write_text(front + body)


def mutate_tree(rng: random.Random, fw: str, ws: Path):
    """Shadowing and naming: a file copied to another scope or folder, renamed, linked, removed."""
    files = [f for f in agent_files(ws) if f.suffix in (".md", ".toml") and f.name != "config.toml"]
    if not files:
        return
    f = rng.choice(files)
    kind = rng.randrange(8)
    if kind <= 1:  # the same file in another place the tool searches
        dest = place(rng, fw, ws) / f.name
        if dest != f:
            shutil.copyfile(f, dest)
    elif kind == 2:  # the same file twice in one folder
        shutil.copyfile(f, f.with_name(rng.choice(["copy-", "z", "A", "_", "."]) + f.name))
    elif kind == 3:
        stem = rng.choice(ODD_NAMES[:14] + BUILTINS[fw] + ["README", "AGENTS"]).replace("/", "-")
        f.rename(f.with_name(stem + rng.choice([SUFFIX.get(fw, ".md")] * 4 + [".MD", ".agent.md", ".txt"])))
    elif kind == 4:  # a link to the file, a dangling link, a link loop
        what = rng.random()
        link = f.with_name(("link-" if what < 0.6 else "dangling-" if what < 0.8 else "loop-") + f.name)
        if not link.exists() and not link.is_symlink():
            os.symlink(f.name if what < 0.6 else "no-such-file.md" if what < 0.8 else link.name, link)
    elif kind == 5 and rng.random() < 0.4:  # a whole agent folder reached through a symlinked folder
        dest = ws / os.path.normpath(rng.choice(PLACES[fw]).replace("{cwd}", rng.choice(CWDS)))
        if not dest.exists() and not dest.is_symlink() and dest != f.parent:
            dest.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(os.path.relpath(f.parent, dest.parent), dest)
    elif kind == 6:  # moved into a nested folder, or hidden
        if rng.random() < 0.5:
            sub = f.parent / rng.choice(["nested", "a/b", ".dot", "Team"])
            sub.mkdir(parents=True, exist_ok=True)
            f.rename(sub / f.name)
        else:
            f.rename(f.with_name("." + f.name))
    elif len(files) > 1:
        f.unlink()


# Settings and config files the specs name as changing discovery (written as a whole,
# valid or not): built-ins switched off, extra agent folders, SYSTEM.md.
SETTINGS = {
    "claude-code": [("home/.claude/settings.json", ['{"disableAgentView": true}', '{"env": {"CLAUDE_CODE_DISABLE_EXPLORE_PLAN_AGENTS": "1"}}',
                                                    '{"env": {"CLAUDE_CODE_DISABLE_EXPLORE_PLAN_AGENTS": "0"}}', '{"disableAgentView": "yes"}',
                                                    '{not json', '[]'])],
    "kimi-code": [("home/.kimi-code/config.toml", ['extra_agent_dirs = ["extra/agents"]', 'extra_agent_dirs = ["~/more"]',
                                                   'extra_agent_dirs = [".kimi-code/agents"]', 'extra_agent_dirs = "x"',
                                                   'extra_agent_dirs = [', 'extra_agent_dirs = []']),
                  ("home/.kimi-code/SYSTEM.md", ["You are ${product_name}.\n", "", "  spaced  \n", "---\nname: x\n---\nbody\n"])],
    "codex": [("home/.codex/config.toml", ['[agents]\nmax_threads = 2', '[agents.explorer]\ndescription = "Mine"',
                                           '[agents.helper]\ndescription = "From the user"\nconfig_file = "agents/helper.toml"'])],
}


def settings_file(rng: random.Random, fw: str, ws: Path):
    """A settings or config file the tool reads beside its agents (valid or broken)."""
    where, values = rng.choice(SETTINGS[fw])
    path = ws / where
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.name == "config.toml" and path.exists() and rng.random() < 0.5:
        path.write_bytes(path.read_bytes() + b"\n" + rng.choice(values).encode() + b"\n")
    else:
        path.write_text(rng.choice(values) + "\n")
    if fw == "kimi-code" and "extra/agents" in path.read_text():
        extra = ws / "project/extra/agents"
        extra.mkdir(parents=True, exist_ok=True)
        (extra / "extra-helper.md").write_text("---\nname: extra-helper\ndescription: From an extra folder\n---\nBody\n")


PLUGIN_MANIFESTS = ['{"name": "kit"}', '{"name": "kit", "agents": "./agents/a.md"}', '{"description": "no name"}',
                    '{"name": "kit", "agents": ["./agents/"]}', '{"name": "other"}', "{broken"]


def plugin_agents(rng: random.Random, ws: Path) -> Path:
    """Claude Code: a plugin auto-loaded from a skills folder (user or project)."""
    root = ws / rng.choice(["home/.claude/skills", "project/.claude/skills"]) / rng.choice(["kit", "kit", "tools"])
    (root / ".claude-plugin").mkdir(parents=True, exist_ok=True)
    manifest = root / ".claude-plugin/plugin.json"
    if not manifest.exists() or rng.random() < 0.2:
        manifest.write_text(rng.choice(PLUGIN_MANIFESTS) + "\n")
    # Folders the plugin walk passes over (2.1.337: node_modules by any case or 8.3 name,
    # .mcpb-cache) beside ordinary ones, also nested.
    sub = rng.choice(["", "", "review", ".hidden", "node_modules", "Node_Modules", "NODE_M~1", ".mcpb-cache",
                      "node_modules2", "review/node_modules", "node_modules/pkg"])
    agents = root / "agents" / sub
    agents.mkdir(parents=True, exist_ok=True)
    return agents


def link_folder(rng: random.Random, fw: str, ws: Path):
    """A folder symlink: an agents folder (or a subfolder) linked into another place the
    tool searches, to itself (a loop), or to nowhere."""
    dirs = sorted({f.parent for f in agent_files(ws) if f.suffix in (".md", ".toml")})
    if not dirs:
        return
    target = rng.choice(dirs)
    dest = place(rng, fw, ws) / rng.choice(["linked", "zz-linked", ".linked"])
    if dest.exists() or dest.is_symlink():
        return
    kind = rng.random()
    if kind < 0.7:
        os.symlink(os.path.relpath(target, dest.parent), dest)
    elif kind < 0.85:
        os.symlink(".", dest)  # a loop
    else:
        os.symlink("nowhere", dest)


def mutate_inputs(rng: random.Random, ws: Path):
    """The working folder moved below the project, or the project untrusted."""
    inputs = inputs_of(ws)
    if rng.random() < 0.5:
        inputs["trusted"] = not inputs.get("trusted", True)
    else:
        cwd = rng.choice(CWDS)
        (ws / "project" / cwd).mkdir(parents=True, exist_ok=True)
        inputs["cwd"] = cwd
    (ws / "inputs.json").write_text(json.dumps(inputs) + "\n")


def make_workspace(rng: random.Random, fw: str, dest: Path, cases) -> Path:
    shutil.copytree(rng.choice(cases), dest, symlinks=True)
    (dest / "expected.json").unlink()
    for d in ("project", "home"):
        (dest / d).mkdir(exist_ok=True)
    for _ in range(rng.randint(2, 6)):
        try:
            mutate_once(rng, fw, dest)
        except OSError:  # a place that is a file, a name too long: that mutation is skipped
            pass
    return dest


def mutate_once(rng: random.Random, fw: str, dest: Path):
    """One mutation: a file's bytes, the tree, a fresh agent, the inputs, a config table."""
    inputs = inputs_of(dest)
    if skills.wants_skills(inputs) and fw in skill_hard.ROOTS and rng.random() < (0.35 if fw == "copilot" else 0.2):
        skill_hard.mutate(rng, fw, dest, inputs.get("cwd", "."), CWDS)
        return
    if skills.wants_skills(inputs) and fw in skills.PLACES and rng.random() < 0.5:
        skills.mutate(rng, fw, dest, inputs.get("cwd", "."), CWDS)
        return
    if fw == "opencode" and skills.wants_skills(inputs) and rng.random() < 0.4:
        skills.opencode_mutate(rng, dest, inputs.get("cwd", "."))
        return
    roll = rng.random()
    if fw in SKILL_PLACES and inputs_of(dest).get("skills") is True and rng.random() < 0.4:
        skill_mutation(rng, fw, dest)
    elif fw in coding_skills.SKILL_PLACES and coding_skills.asks_skills(dest) and rng.random() < 0.4:
        cwd = inputs_of(dest).get("cwd", ".")
        cwd = cwd if cwd != "." else rng.choice(CWDS)
        (coding_skills.fresh_skill if rng.random() < 0.5 else coding_skills.mutate_skill_tree)(rng, fw, dest, cwd)
    elif roll < 0.6:
        files = agent_files(dest)
        if files:
            f = rng.choice(files)
            mutate = mutate_toml if f.suffix == ".toml" else (lambda r, d: mutate_markdown(r, fw, d))
            if f.suffix in (".toml", ".md", ".MD"):
                f.write_bytes(mutate(rng, f.read_bytes()))
    elif roll < 0.75:
        mutate_tree(rng, fw, dest)
    elif roll < 0.85:
        if inputs_of(dest).get("skills") and fw in FRESH_SKILL_PLACES and rng.random() < 0.7:
            fresh_skill(rng, fw, dest)
        else:
            fresh_agent(rng, fw, dest)
    elif roll < 0.91:
        mutate_inputs(rng, dest)
    elif roll < 0.94:
        link_folder(rng, fw, dest)
    elif fw in SETTINGS and roll < 0.97:
        settings_file(rng, fw, dest)
    elif fw == "codex":
        codex_table(rng, dest)
    elif fw == "opencode":
        opencode_json(rng, dest)
    elif fw == "gemini-cli":
        gemini_extra(rng, dest)
    else:
        mutate_tree(rng, fw, dest)


# Skills (a case with inputs.json `"skills": true`): where each tool looks for skill
# folders, the front-matter keys its loader reads, and the settings that change them.
SKILL_PLACES = {
    "gemini-cli": ["project/.gemini/skills", "project/.agents/skills", "home/.gemini/skills", "home/.agents/skills",
                   "project/{cwd}/.gemini/skills", "project/{cwd}/.agents/skills", "home/.gemini/extensions/ext-a/skills",
                   "home/.gemini/extensions/ext-b/skills"],
    "qwen-code": ["project/.qwen/skills", "project/.agents/skills", "home/.qwen/skills", "home/.agents/skills",
                  "project/{cwd}/.qwen/skills", "project/{cwd}/.agents/skills", "home/.qwen/extensions/ext-a/skills",
                  "home/team-skills"],
}
SKILL_KEYS = {
    "gemini-cli": ["name", "description", "license", "metadata", "allowed-tools"],
    "qwen-code": ["name", "description", "when_to_use", "allowedTools", "allowed-tools", "model", "argument-hint",
                  "disable-model-invocation", "user-invocable", "paths", "priority", "hooks"],
}
SKILL_VALUES = {
    "paths": ["[src/**/*.ts]", "[]", "'*.md'", "[/etc/x]", "[../up]", "[a, '']"],
    "disable-model-invocation": ["true", "'true'", "yes", "false"], "user-invocable": ["false", "'false'", "no"],
    "priority": ["5", "-1", "high", "1.5", ".inf"], "allowedTools": ["[read_file, 3]", "read_file", "[]"],
    "hooks": ["{PreToolUse: [{matcher: x, hooks: [{type: command, command: echo}]}]}", "{Nope: []}", "[]"],
    "when_to_use": ["When asked", "5", "''"],
}
SKILL_NAMES = ["deploy", "Deploy", "pdf", "a:b", "skill-creator", "review", "loop", "ext-a:pdf", "my skill", "42", "",
               "a/b", "caf\u00e9", "x" * 70]
SKILL_SETTINGS = {
    "gemini-cli": ["home/.gemini/settings.json", "project/.gemini/settings.json"],
    "qwen-code": ["home/.qwen/settings.json", "project/.qwen/settings.json"],
}


def skill_place(rng: random.Random, fw: str, ws: Path) -> Path:
    cwd = inputs_of(ws).get("cwd", ".")
    folder = rng.choice(SKILL_PLACES[fw]).replace("{cwd}", cwd if cwd != "." else rng.choice(CWDS))
    path = ws / os.path.normpath(folder)
    path.mkdir(parents=True, exist_ok=True)
    manifest = {"gemini-cli": "gemini-extension.json", "qwen-code": "qwen-extension.json"}[fw]
    if path.parent.parent.name == "extensions" and not (path.parent / manifest).exists():
        (path.parent / manifest).write_text(json.dumps({"name": path.parent.name, "version": "1.0.0"}) + "\n")
    return path


def skill_mutation(rng: random.Random, fw: str, ws: Path):
    """A fresh skill folder, a skill folder copied or linked into another place (or
    twice into one), a SKILL.md moved out of shape, or skills settings."""
    skills = [f for f in agent_files(ws) if f.name == "SKILL.md"]
    kind = rng.randrange(6)
    if kind <= 1 or not skills:
        keys = [f"name: {json.dumps(rng.choice(SKILL_NAMES)) if rng.random() < 0.3 else rng.choice(SKILL_NAMES)}",
                "description: " + rng.choice(["Does a thing", "Use it: for colons", "''", "'  '", "|\n  Block\n  text"])]
        keys = [k for k in keys if rng.random() < 0.92]
        for key in rng.sample(SKILL_KEYS[fw], rng.randint(0, 3)):
            keys.append(f"{key}: {rng.choice(SKILL_VALUES.get(key) or YAML_VALUES)}")
        body = rng.choice(["Do the thing.", "", "  padded  \n\n", "a\n---\nb", "Use ${extensionPath}${/}x"])
        folder = skill_place(rng, fw, ws) / rng.choice(["s1", "s2", "A", ".dot", "_u", "node_modules", "b.backup-1-2"])
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "SKILL.md").write_text("---\n" + "\n".join(keys) + "\n---\n" + body + "\n")
    elif kind == 2:  # the same skill folder in another place, or twice in one
        f = rng.choice(skills)
        dest = (skill_place(rng, fw, ws) if rng.random() < 0.7 else f.parent.parent) / rng.choice(["copy", "a-copy", "z", f.parent.name])
        if not dest.exists():
            shutil.copytree(f.parent, dest, symlinks=True)
    elif kind == 3:  # a folder link, a SKILL.md link, a dangling link
        f = rng.choice(skills)
        dest = skill_place(rng, fw, ws) / rng.choice(["linked", "dangling"])
        if not dest.exists() and not dest.is_symlink():
            os.symlink(os.path.relpath(f.parent, dest.parent) if dest.name == "linked" else "nowhere", dest)
    elif kind == 4:  # out of shape: top level, nested, lower-case name
        f = rng.choice(skills)
        how = rng.randrange(3)
        if how == 0:
            shutil.copyfile(f, f.parent.parent / "SKILL.md")
        elif how == 1:
            (f.parent / "inner").mkdir(exist_ok=True)
            f.rename(f.parent / "inner" / "SKILL.md")
        else:
            f.rename(f.with_name("skill.md"))
    else:  # skills settings (user or workspace)
        names = [rng.choice(SKILL_NAMES[:8]) for _ in range(rng.randint(1, 2))]
        choices = [{"skills": {"disabled": names}}, {"skills": {"disabled": [n.upper() for n in names]}}]
        if fw == "gemini-cli":
            choices += [{"skills": {"enabled": False}}, {"security": {"folderTrust": {"enabled": False}}}]
        else:
            choices += [{"skills": {"disabledLevels": [rng.choice(["project", "user", "extension", "bundled"])]}},
                        {"skills": {"directories": ["~/team-skills"]}}, {"security": {"folderTrust": {"enabled": True}}}]
        path = ws / rng.choice(SKILL_SETTINGS[fw])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(rng.choice(choices)) + "\n")


def run_pair(fw: str, ws: Path, oracles: Path, agentry: str):
    """(expected, actual, problems) as `run.run_pair`, with `inputs.json` passed to both."""
    args = ["--project", str(ws / "project"), "--home", str(ws / "home")]
    if (ws / "xdg").is_dir():
        args += ["--xdg-config", str(ws / "xdg")]
    inputs = inputs_of(ws)
    if inputs.get("cwd", ".") != ".":
        args += ["--cwd", inputs["cwd"]]
    if inputs.get("trusted", True) is False:
        args += ["--untrusted"]
    # The oracle reports skills and the agent listing only when asked (FORMAT.md).
    asked = [f"--{k}" for k in ("skills", "listing") if inputs.get(k)]
    for d in ("project", "home"):
        (ws / d).mkdir(exist_ok=True)
    empty = Path(tempfile.mkdtemp(prefix="agentry-diff-empty-"))
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "AGENTRY_LISTING_ORDER": "name", "NO_COLOR": "1",
           "HOME": str(ws / "home")}
    try:
        o = subprocess.run(["python3", str(oracles / "oracle" / fw / "oracle.py"), *args, *asked], capture_output=True,
                           timeout=300)
        a = subprocess.run([agentry, "export", "--ecosystem", fw, "--json", *args, "--builtins", str(empty)],
                           capture_output=True, timeout=120, env=env)
    finally:
        shutil.rmtree(empty, ignore_errors=True)
    if fw == "qwen-code":
        o = drop_qwen_oracle_fault(o)
    return judge(o, a, oracles)


# Qwen Code's oracle parses every folder of an extension's `skills/` again to learn
# why a skill was dropped, the `*.backup-N-N` / `*.installing-N-N` folders too, which
# the tool skips (spec "Skills" S2): an oracle fault. Those errors leave the expected
# report before it is compared, and the run says so.
QWEN_SKIPPED_FOLDER = re.compile(r"/extensions/[^/]+/skills/[^/]*\.(?:backup|installing)-\d+-\d+/")


def drop_qwen_oracle_fault(o):
    try:
        report = json.loads(o.stdout, parse_constant=str)
    except ValueError:
        return o
    errors = report.get("errors") or []
    kept = [e for e in errors if not QWEN_SKIPPED_FOLDER.search("/" + str(e.get("source", "")))]
    if len(kept) == len(errors):
        return o
    print(f"(oracle fault: {len(errors) - len(kept)} error(s) of extension backup folders dropped)", flush=True)
    report["errors"] = kept
    return subprocess.CompletedProcess(o.args, o.returncode, json.dumps(report).encode(), o.stderr)
