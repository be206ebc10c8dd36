#!/usr/bin/env python3
"""Differential tester: random workspaces, the tool's own loader against agentry.

    python3 tests/differential/run.py FRAMEWORK [--count N] [--seed S] [--keep DIR]
                                      [--agentry BIN] [--oracles DIR] [--stop-after K]
                                      [--kind agents|skills|listing]

For each of N random workspaces it runs the framework's oracle (the tool's real
released code, `../shared/oracle/<fw>/`) and `agentry export`, compares the two
reports under the rules of `compare.py`, and shrinks every disagreement to the
smallest workspace that still shows it (whole files first, then lines, then bytes of
a line), written under `--keep` (default `target/differential/<fw>/`) with the
oracle's `expected.json` beside it: a ready fixture case. It prints one line per
disagreement and ends with `N passed, N failed`.

Workspaces are made by mutating the vendored fixture cases (`tests/fixtures/<fw>/`),
which hold every shape the spec names, with mutations drawn from the spec's rules:
YAML 1.1 scalars in every position (`yes`, `on`, `~`, `0o17`, `0x1f`, `1_000`, `.inf`,
dates, timestamps with zones, `!!str`), values of the wrong type (lists, maps,
numbers, nulls), keys dropped, duplicated or renamed, Jinja constructs in prompt
bodies (loops over strings, lists and dicts with every `loop` variable, tuples,
filters, macros, whitespace control, undefined names), CRLF, a BOM, Latin-1 bytes,
files copied into the other folders the tool searches (shadowing), renamed,
symlinked, and chains and cycles through `extends`/`extend` keys.

The oracle runs in a fork server (`fork_server.py`): its interpreter and the tool's
package load once, and each workspace is a forked child of that state (what the
child changes dies with it); `--no-fork-server` starts the oracle afresh each time.

No run waits for ever: the oracle and agentry each get `--timeout` seconds (60) a
workspace. agentry running over is a disagreement (`agentry hung`, shrunk and kept like
any other); the oracle running over is printed as `ORACLE HUNG` with the workspace
kept, and counted with the workspaces the oracle could not read.

Where the oracle is not installed (`setup.sh` has not run), the tester says so and
exits 0 without testing: CI replays the fixture cases, not the oracles.
"""
import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
import coding  # the coding-agent CLIs (tests/differential/coding.py)
from judge import judge

FRAMEWORKS = ("openhands", "tsugite", "fast-agent", "kimi") + coding.FRAMEWORKS

YAML11 = [
    "yes", "no", "on", "off", "y", "n", "True", "FALSE", "~", "null", "", "0o17", "017", "0x1f",
    "1_000", "1e3", ".inf", "-.inf", ".nan", "3.0", "2024-02-29", "2024-02-29T08:15:00Z",
    "2024-02-29 08:15:00+02:00", "12:30:00", "!!str 5", "'quoted'", '"a\\tb"', "[a, b]", "{a: 1}",
    "[]", "{}", "- x", "|\n  block\n", ">-\n  folded\n", "&a anchor", "*a", "<<: {k: v}", "null key",
    # constructor exceptions that escape `except yaml.YAMLError` (ValueError, KeyError, …)
    "!!int x", "!!float x", "!!bool maybe", "!!timestamp nope", "!!int ''", "2024-02-30", "2024-13-01",
    "2024-02-29 25:00:00", "!!binary xx", "!custom x", "7.0", "'7'", "' 8 '", "-3",
    # empty and blank strings (a child's `""` leaves the parent's value), non-string
    # scalars for string fields (pydantic keeps or refuses them), and flow scalars
    # running over lines whose continuation is under-indented (column 0, a tab)
    '""', "'  '", "+.inf", "-.NaN", '"first\nsecond"', "'first\nsecond'", '"first\n\tsecond"', "[a,\nb]",
    "{a: 1,\nb: 2}", '"first\n  second"', "first\nsecond",
]
JINJA = [
    "{% for c in 'abc' %}{{ loop.index }}{{ c }}{% if loop.last %}.{% endif %}{% endfor %}",
    "{% for c in 'xy' %}{{ loop.length }}/{{ loop.revindex }}/{{ loop.first }}{% endfor %}",
    "{% for k, v in {'a': 1, 'b': 2}.items() %}{{ k }}={{ v }};{% endfor %}",
    "{% for x in [1, 2, 3] %}{{ loop.index0 }}{{ loop.revindex0 }}{{ loop.cycle('a', 'b') }}{% endfor %}",
    "{{ (1, 2) }}", "{{ [1, 'a', None, True] }}", "{{ {'a': 1} }}", "{{ undefined_name }}",
    "{{ 'abc' | upper }}{{ 'x' | default('d') }}{{ [3, 1] | sort }}{{ 'a b' | title }}",
    "{% macro m(x) %}<{{ x }}>{% endmacro %}{{ m(1) }}", "{%- if true -%}  trimmed  {%- endif -%}",
    "{{ 7 // 2 }} {{ 7 / 2 }} {{ 2 ** 10 }} {{ 'a' ~ 1 }}", "{{ user_prompt }}", "{% raw %}{{ x }}{% endraw %}",
    "${NAME} ${ROLE_ADDITIONAL}", "{{ none }}{{ true }}", "{# comment #}", "{{ '%s-%d' % ('a', 3) }}",
    "{% for c in 'a-b' if c != '-' %}{{ loop.length }}{{ loop.last }}{{ loop.revindex0 }}{% endfor %}",
    "{{ ('a',) }}{{ () }}{{ [(1, 'x')] }}{{ 2 in (1, 2) }}{{ (1, 2)[0] }}", "{% set t = (1, 2) %}{{ t }}",
    "{{ '%5.1f|%-3s|%03d|%x|%%|%r' % (2.25, 'a', 7, 255, 'q') }}", "{{ '%s' % [1] }}{{ '%d' % 'x' }}",
    "{{ '<%s>' % 'abc'|upper }}{{ '%s %s' % 1 }}",
    # `%` on a variable and on numbers, with its precedence; tuples without brackets
    "{% set fmt = '%s=%r' %}{{ fmt % ('k', 'v') }}", "{{ 7 % 3 }} {{ -7 % 3 }} {{ 7.5 % -2 }} {{ 2 * 5 % 4 + 1 }}",
    "{% set n = 3 %}{{ '%03d' % n }}{{ n % 2 }}{{ 2 ** n % 5 }}", "{{ 5 % 0 }}", "{{ 'a' % [1] }}{{ none % 2 }}",
    "{% set t = 1, 'a' %}{{ t }}{{ 1, 2 }}{{ t|length }}", "{% for x in 1, 2 %}{{ x }}{% endfor %}{% set a, b = 3, 4 %}{{ b }}",
    "{% for i in range(5) if i % 2 %}{{ i }}{{ loop.index }}{% endfor %}",
    # dicts looped directly, dictsort, whitespace control, more filters
    "{% for k in {'b': 1, 'a': 2} %}{{ k }}{% endfor %}{{ {'b': 1, 'a': 2}|dictsort }}",
    "{% for k, v in {'a': 1}|dictsort %}{{ loop.index }}{{ k }}{{ v }}{{ loop.last }}{% endfor %}",
    "{%- for x in [1] -%} {{ x }} {%- endfor %}  {{- ' a ' -}}  x", "{{ [1, 2]|join('-') }}{{ 'abc'|replace('b', 'x') }}{{ ' a '|trim }}",
    "{{ 3.14159|round(2) }}{{ -3|abs }}{{ 'x'|center(5) }}{{ 42|string }}{{ '7'|int + 1 }}{{ [1, 2]|sum }}{{ [1, 2]|first }}",
    "{% macro m(a, b=2) %}{{ a }}{{ b }}{% endmacro %}{{ m(1) }}{{ m(1, 3) }}{{ m(b=5, a=0) }}",
    # Jinja2's own filters, tests and globals (not minijinja's): word splitting in
    # `title`, `capitalize`, `wordwrap`, `urlize`, `xmlattr`, `pprint`, `indent` with
    # a string, `round` methods, `float` defaults, `unique`, `groupby`, `cycler`
    "{{ 'kimi_shell a-b(c' | title }}{{ 'hELLO wORLD' | capitalize }}{{ ' x ' | trim('x ') }}",
    "{{ 'The quick brown fox jumps over' | wordwrap(9) }}{{ 'a\nb' | indent('> ', true, true) }}",
    "{{ 'see http://x.com now' | urlize }}{{ {'a': 1, 'b': 'x<'} | xmlattr }}{{ [1, 'a', none] | pprint }}",
    "{{ 2.5 | round }}{{ 1.5 | round(0, 'floor') }}{{ 'x' | float(1.5) }}{{ ['a', 'A'] | unique | list }}",
    "{{ [{'k': 1}, {'k': 1}] | groupby('k') }}{% set c = cycler('a', 'b') %}{{ c.next() }}{{ c.next() }}",
    "{{ 'x' is escaped }}{{ 1 is boolean }}{{ 'upper' is filter }}{{ 'odd' is test }}{{ debug is defined }}",
    # the rest of Jinja2's filters with their keyword arguments, its tests and globals,
    # and the str methods templates call (minijinja's own differ or lack them)
    "{{ [1, none, 'a', [2, 'b'], 1.5]|join('-') }}{{ 'abc'|join('.') }}{{ [{'n': 'x'}, {'n': 'y'}]|join(',', attribute='n') }}",
    "{{ [1, 2.5]|sum }}{{ [1, 2]|sum(start=10) }}{{ [{'v': 1}, {'v': 2}]|sum(attribute='v') }}{{ ['a']|sum }}",
    "{{ ['a', 'B']|max }}{{ ['a', 'B']|min(case_sensitive=true) }}{{ [{'v': 1}, {'v': 5}]|max(attribute='v') }}{{ []|min }}",
    "{{ [{'k': 2, 'v': 1}, {'k': 1, 'v': 2}]|groupby('k')|list }}{% for g, l in [{'k': 'a'}]|groupby('k') %}{{ g }}{{ l }}{% endfor %}",
    "{{ 'a b&c/é'|urlencode }}{{ {'a': 'x y', 'b': 1}|urlencode }}{{ [('k', 'v')]|urlencode }}{{ 5|urlencode }}",
    "{{ {'a': [1, 'x<'], 'b': none}|tojson }}{{ {'b': [1], 'a': {}}|tojson(indent=2) }}{{ 'é'|tojson }}",
    "{{ 'see www.x.org, (http://y.com/a?b=1). me@x.io'|urlize }}{{ 'http://long.example.com/path'|urlize(12, true, target='_blank') }}",
    "{{ {'b': [1, 'x'], 'a': none}|pprint }}{{ range(30)|list|pprint }}{{ ('word ' * 20)|pprint }}{{ {'k': 'w ' * 50}|pprint }}",
    "{{ {'a': 1}|attr('a') }}", "{{ 'x'|attr('upper') is defined }}{{ cycler(1, 2).current }}",
    "{% set c = cycler('a', 'b') %}{{ c.next() }}{{ c.current }}{{ c.next() }}{{ c.next() }}{{ c.reset() }}{{ c.current }}",
    "{{ 'x'.center(5, '*') }}{{ 'ab'.ljust(4, '.') }}{{ 'ab'.rjust(4) }}{{ '-5'.zfill(4) }}{{ 'a-b-c'.partition('-') }}{{ 'a-b-c'.rpartition('-') }}",
    "{{ 'AbC'.swapcase() }}{{ 'Straße'.casefold() }}{{ 'abc'.removeprefix('a') }}{{ 'abc'.removesuffix('c') }}{{ 'x'.center(0) }}",
    "{{ [1, 2, 3, 4, 5]|batch(2)|list }}{{ [1, 2, 3]|slice(2, 'x')|list }}{{ [3, 1, 2]|sort(reverse=true) }}{{ ['a', 'A']|unique|list }}",
    "{{ 1000|filesizeformat }}{{ 123456789|filesizeformat(true) }}{{ '<p>a <b>b</b></p>'|striptags }}{{ 'a b c'|wordcount }}",
    "{{ [1, 2, 3, 4]|select('odd')|list }}{{ [1, 5]|reject('gt', 4)|list }}{{ [{'a': 1}, {'a': 0}]|selectattr('a')|list }}{{ ['a', 'b']|map('upper')|list }}",
    "{{ 1 is sameas 1 }}{{ {} is mapping }}{{ 2 is ge 1 }}{{ 'a' is in 'abc' }}{{ none is none }}{{ 3 is divisibleby 0 }}",
    "{{ range(1, 10, 3)|list }}{{ dict(a=1, b=2) }}{% set ns = namespace(x=1) %}{% set ns.x = 2 %}{{ ns.x }}{% set j = joiner('|') %}{{ j() }}a{{ j() }}b",
]
# Helpers of tsugite's own environment (`renderer.AgentRenderer`): dates and deltas.
TSUGITE_JINJA = [
    "{{ timedelta(days=1, hours=2) }}|{{ timedelta(seconds=-1) }}|{{ timedelta(weeks=1).days }}",
    "{{ (datetime.now() - timedelta(days=7)).strftime('%Y-%m-%d') }}{{ days_ago(2) + timedelta(hours=3) }}",
    "{{ humanize_relative(days_ago(3), datetime.now()) }}{{ humanize_mtime(1736900000) }}{{ humanize_mtime(0) }}",
    "{% set d = timedelta(minutes=90) %}{{ d.seconds }} {{ d.total_seconds() }} {{ d > timedelta(hours=1) }}",
    "{{ datetime.now() - days_ago(1) }}", "{{ timedelta(days=1000000000) }}",
]
KEYS = ["name", "description", "model", "tools", "extends", "extend", "max_turns", "skills", "metadata",
        "permission_mode", "temperature", "type", "instruction", "servers", "subagents", "system_prompt_path",
        "when_to_use", "color", "mcp_servers", "agent", "version", "history", "messages", "default"]


def oracle_python(oracles: Path, fw: str):
    """The oracle venv's python when installed, else None (nothing is installed here)."""
    home = Path(os.environ.get("AGENTRY_ORACLE_HOME", Path.home() / ".cache/agentry-oracle"))
    for venv in (home / fw, home / fw.replace("-", "_"), home / f"{fw}-venv"):
        py = venv / "bin/python"
        if py.exists():
            return str(py)
    return None


# Which cases seed the workspaces (`--kind`): as CONFORMANCE_KIND in the shared run.sh.
KIND = None


def case_kind(case: Path) -> str:
    try:
        inputs = json.loads((case / "inputs.json").read_text())
    except (OSError, ValueError):
        inputs = {}
    return "skills" if inputs.get("skills") else "listing" if inputs.get("listing") else "agents"


def case_dirs(fw: str):
    """The vendored cases workspaces are made from (`--kind`: only those that ask for
    skills, or only those that do not)."""
    root = REPO / "tests/fixtures" / fw
    return sorted(p for p in root.iterdir() if (p / "expected.json").is_file() and KIND in (None, case_kind(p)))


def files_of(ws: Path):
    # inputs.json holds the case's run options (`skills`, `cwd`): not a file to mutate.
    return sorted(p for p in ws.rglob("*") if p.is_file() and not p.is_symlink() and p.name not in ("expected.json", "inputs.json"))


def inputs_of(ws: Path) -> dict:
    try:
        return json.loads((ws / "inputs.json").read_text())
    except (OSError, ValueError):
        return {}


def jinja_snippet(rng: random.Random, fw: str) -> str:
    """A Jinja construct written in the framework's delimiters (Kimi prints `${ }`)."""
    snippet = rng.choice(JINJA + TSUGITE_JINJA if fw == "tsugite" else JINJA)
    if fw == "kimi":
        snippet = snippet.replace("{{- ", "${ ").replace(" -}}", " }").replace("{{ ", "${ ").replace(" }}", " }")
    return snippet


def place_in_instructions(rng: random.Random, fw: str, lines):
    """Tsugite renders `instructions` into the system prompt (the body is the user
    message, which the report does not compare): a snippet there is checked."""
    if fw != "tsugite" or not lines or lines[0].strip() != "---":
        return False
    text = jinja_snippet(rng, fw)
    for i, l in enumerate(lines[1:], 1):
        if l.strip() == "---":
            break
        if l.startswith("instructions:"):
            lines[i] = "instructions: " + json.dumps(text, ensure_ascii=False)
            return True
    lines.insert(1, "instructions: " + json.dumps(text, ensure_ascii=False))
    return True


def mutate_text(rng: random.Random, data: bytes, fw: str = "") -> bytes:
    """One spec-driven change to a file's bytes."""
    kind = rng.randrange(12)
    text = data.decode("utf-8", "surrogateescape")
    lines = text.split("\n")
    keyed = [i for i, l in enumerate(lines) if re.match(r"^\s*[A-Za-z_][\w-]*\s*:", l)]
    if kind <= 3 and keyed:  # a YAML 1.1 scalar (or a wrong type) as a value
        i = rng.choice(keyed)
        key = lines[i].split(":", 1)[0]
        lines[i] = f"{key}: {rng.choice(YAML11)}"
    elif kind == 4 and keyed:
        coding.drop_or_double(rng, lines, keyed)
    elif kind == 5 and keyed:  # a known key added with a random value
        lines.insert(rng.choice(keyed), f"{rng.choice(KEYS)}: {rng.choice(YAML11)}")
    elif kind == 6 and rng.random() < 0.5 and place_in_instructions(rng, fw, lines):
        pass
    elif kind == 6:  # a Jinja construct in the body
        lines.insert(len(lines) if rng.random() < 0.7 else rng.randrange(len(lines) + 1), jinja_snippet(rng, fw))
    elif kind == 7:
        return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    elif kind == 8:
        return data if data.startswith(b"\xef\xbb\xbf") else b"\xef\xbb\xbf" + data
    elif kind == 9:  # a Latin-1 byte
        at = rng.randrange(len(data) + 1)
        return data[:at] + rng.choice([b"\xe9", b"\xa0", b"\xff"]) + data[at:]
    elif kind == 10 and keyed:  # a value as a list or a map
        i = rng.choice(keyed)
        key, _, value = lines[i].partition(":")
        lines[i] = f"{key}: [{value.strip() or 'x'}]" if rng.random() < 0.5 else f"{key}: {{v: {value.strip() or 'x'}}}"
    else:  # indentation or fence trouble
        if lines:
            i = rng.randrange(len(lines))
            lines[i] = rng.choice(["\t", "  ", "---", "...", "- "]) + lines[i]
    return "\n".join(lines).encode("utf-8", "surrogateescape")


def mutate_tree(rng: random.Random, ws: Path):
    """One change to the workspace's files: copy (shadowing), rename, link, remove."""
    files = files_of(ws)
    if not files:
        return
    f = rng.choice(files)
    kind = rng.randrange(5)
    if kind == 0:  # the same file in another folder the workspace has
        dirs = sorted({p.parent for p in files})
        dest = rng.choice(dirs) / f.name
        if dest != f and not dest.is_dir() and not dest.is_symlink():  # a folder of that name stays
            shutil.copyfile(f, dest)
    elif kind == 1:
        f.rename(f.with_name(rng.choice(["x", "Renamed", "a.b", "ünï", "README", "_y"]) + f.suffix))
    elif kind == 2:
        link = f.with_name("link-" + f.name)
        if not link.exists():
            os.symlink(f.name, link)
    elif kind == 3 and len(files) > 1:
        f.unlink()
    else:
        f.write_bytes(f.read_bytes() + b"\n")


FAST_AGENT_SETTINGS = [
    "mcp: {targets: [uvx fetch]}", "mcp: {servers: 5}", "mcp: {servers: {a: 5}}", "mcp: 5", "mcp: {defaults: {x: 1}}",
    "logger: {level: nonsense}", "logger: {level: info}", "logger: 5", "logger: ~", "logger: {batch_size: true}",
    "default_model: 5", "default_model: -.inf", "default_model: haiku", "session_history: maybe", "session_history: 'yes'",
    "llm_retries: 2.5", "llm_retries: '3'", "openai: 5", "default_environment: x", "home: 5", "home: h2", "[1, 2]",
    "unknown: [1]", "mcp_ui_mode: x", "model_references: {ns: {k: ''}}", "environments: {_x: {}}", "a2a: 5",
]


def fast_agent_settings(rng: random.Random, dest: Path):
    """A settings file, valid or refused, in one of the places discovery looks, and
    sometimes a secrets file (merged into the settings) beside it or alone."""
    folder = dest / "project" / rng.choice(["", ".fast-agent"])
    folder.mkdir(parents=True, exist_ok=True)
    if rng.random() < 0.8:
        name = rng.choice(["fast-agent.yaml", "fast-agent.yaml", "fastagent.config.yaml", "fast-agent.config.yaml"])
        (folder / name).write_text("\n".join(rng.sample(FAST_AGENT_SETTINGS, rng.randint(1, 2))) + "\n")
    if rng.random() < 0.4:
        secrets = folder if rng.random() < 0.7 else dest / "project" / rng.choice(["", ".fast-agent"])
        secrets.mkdir(parents=True, exist_ok=True)
        for name in rng.sample(["fast-agent.secrets.yaml", "fastagent.secrets.yaml"], 1 if rng.random() < 0.9 else 2):
            body = rng.sample(FAST_AGENT_SETTINGS + ["home: ~", "openai: {api_key: sk-x}", "logger: {level: [1}"], 1)
            (secrets / name).write_text("\n".join(body) + "\n")


# AgentCard keys by card type (fast-agent's agent_card_loader), and values for them.
FAST_AGENT_CARD_KEYS = {
    "agent": ["subagents", "subagent_model", "harness_tools", "servers", "tools", "resources", "prompts", "mcp_connect",
              "skills", "model", "use_history", "save_trajectory", "request_params", "human_input", "api_key",
              "history_source", "max_parallel", "child_timeout_sec", "function_tools", "tool_hooks", "lifecycle_hooks",
              "commands", "trim_tool_history", "tool_input_schema", "messages", "shell", "cwd", "variables",
              "description", "default", "tool_only", "schema_version"],
    "chain": ["sequence", "cumulative"], "parallel": ["fan_out", "fan_in", "include_request"],
    "evaluator_optimizer": ["generator", "evaluator", "min_rating", "max_refinements", "refinement_instruction"],
    "router": ["agents", "model", "use_history", "request_params"], "orchestrator": ["agents", "plan_type", "plan_iterations"],
    "iterative_planner": ["agents", "plan_iterations"], "MAKER": ["worker", "k", "max_samples", "match_strategy"],
    "a2a": ["url", "transport", "streaming", "headers", "auth", "request_timeout_seconds"],
}
FAST_AGENT_VALUES = YAML11 + [
    "[helper]", "helper", "{temperature: 0.5, maxTokens: 10}", "{a: [x]}", "[{name: t, description: d}]",
    "history.json", "[history.md]", "./x", "~/y", "${HOME}", "${UNSET:-dflt}", "http://localhost:1", "5", "0.5",
    # JSON schemas (tool_input_schema), valid and each of fast-agent's refusals
    "{type: object, properties: {q: {type: string}}, required: [q]}", "{q: {type: string}}",
    "{type: object, properties: {q: 5}}", "{type: object, required: [x]}", "{type: object, required: q}",
    "{type: object, properties: {' ': {}}, additionalProperties: 1}", "{type: object, additionalProperties: {}}",
]


def fast_agent_card(rng: random.Random, dest: Path):
    """A card of a random type with keys of that type set to random values."""
    folder = dest / "project" / ".fast-agent" / rng.choice(["agent-cards", "agent-cards", "tool-cards"])
    folder.mkdir(parents=True, exist_ok=True)
    kind = rng.choice(sorted(FAST_AGENT_CARD_KEYS))
    keys = rng.sample(FAST_AGENT_CARD_KEYS[kind], min(len(FAST_AGENT_CARD_KEYS[kind]), rng.randint(1, 3)))
    lines = [f"type: {kind}"] if kind != "agent" or rng.random() < 0.3 else []
    lines += [f"{k}: {rng.choice(FAST_AGENT_VALUES)}" for k in keys]
    name = rng.choice(["gen", "helper", "Gen"])
    if rng.random() < 0.5:
        (folder / f"{name}.yaml").write_text("\n".join(lines + ["instruction: hi"]) + "\n")
    else:
        (folder / f"{name}.md").write_text("---\n" + "\n".join(lines) + "\n---\nBody {{currentDate}}\n")


# OpenHands skills (spec "Skills"): where they are read, and front matters drawn from
# its rules (strict SKILL.md names, triggers, inputs, paths, the flag, mcp_tools).
OPENHANDS_SKILL_DIRS = ["project/.agents/skills", "project/.openhands/skills", "project/.openhands/microagents",
                        "home/.agents/skills", "home/.openhands/skills", "home/.openhands/microagents",
                        "project/{cwd}/.agents/skills", "project/{cwd}/.openhands/skills"]
OPENHANDS_FRONT = [
    "name: {name}", "name: Other", "name: 42", "name:", "description: does {name}", "description: [a, b]",
    "triggers: [deploy, {name}]", "triggers: deploy", "triggers: []", "inputs: [{{name: X, description: x}}]",
    "inputs: [{{name: X}}]", "paths: '*.py, tests/**'", "paths: []", "disable-model-invocation: true",
    "disable_model_invocation: maybe", "allowed-tools: Read Bash", "allowed-tools: {{a: 1}}", "metadata: {{a: 1}}",
    "license: MIT", "mcp_tools: {{fetch: {{command: uvx}}}}", "mcp_tools: 5", "compatibility: 3",
]
OPENHANDS_THIRD_PARTY = ["AGENTS.md", "agents.md", "agent.md", "CLAUDE.md", "Claude.md", "GEMINI.md", ".cursorrules"]


def openhands_skill(rng: random.Random, dest: Path):
    """A skill in one of the places OpenHands reads (or an instruction file at a root,
    the working folder or below it), with a front matter of random keys."""
    cwd = inputs_of(dest).get("cwd", ".")
    name = rng.choice(["deploy", "review", "agents", "Fmt", "a--b", "pdf-tools"])
    lines = [l.format(name=name) for l in rng.sample(OPENHANDS_FRONT, rng.randint(0, 3))]
    text = ("---\n" + "\n".join(lines) + "\n---\n" if lines else "") + rng.choice(["Body of " + name + ".\n", "# H\n\nFirst line.\n", "Tag ${VERSION}.\n", ""])
    kind = rng.randrange(6)
    if kind == 0:  # an instruction file at the root, the working folder or below it
        folder = dest / "project" / rng.choice([".", cwd, f"{cwd}/sub", "docs"])
        path = folder / rng.choice(OPENHANDS_THIRD_PARTY)
        if rng.random() < 0.2:  # not UTF-8 (K1: an AGENTS.md that is not UTF-8 stops every project skill)
            text = text.replace("Body", "Caf\udce9 body", 1) if "Body" in text else "Caf\udce9\n" + text
    elif kind == 4:  # one name twice in one folder: the last of a type wins there, the first place across places
        folder = dest / rng.choice(OPENHANDS_SKILL_DIRS).replace("{cwd}", cwd)
        for stem in rng.sample(["a", "b", name, "z"], 2):
            (folder / stem).parent.mkdir(parents=True, exist_ok=True)
            front = [f"name: {name}"] + rng.sample(["triggers: [go]", "description: d", "paths: '*.py'"], rng.randint(0, 1))
            (folder / f"{stem}.md").write_text("---\n" + "\n".join(front) + f"\n---\nFrom {stem}.\n")
        path = folder / name / "SKILL.md"
        text = f"---\nname: {name.lower()}\ndescription: the SKILL.md form\n---\nFolder form.\n"
    elif kind == 5:  # an instruction file inside a skills folder (third-party name wins over the file kind)
        folder = dest / rng.choice(OPENHANDS_SKILL_DIRS).replace("{cwd}", cwd)
        path = folder / rng.choice(OPENHANDS_THIRD_PARTY + ["sub/CLAUDE.md", "Gemini.md"])
    else:
        folder = dest / rng.choice(OPENHANDS_SKILL_DIRS).replace("{cwd}", cwd)
        path = folder / name / rng.choice(["SKILL.md", "skill.md"]) if kind == 1 else folder / (name + rng.choice([".md", ".md", ".MD"]))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8", "surrogateescape"))


def tsugite_config(rng: random.Random, dest: Path):
    """tsugite's `config.json` (its model strips white space from every string):
    `default_base_agent` and `agent_paths` written with spaces, blank, or wrong."""
    home = dest / "home"
    agents = sorted({p.stem for p in files_of(dest) if p.suffix == ".md"}) or ["default"]
    base = rng.choice([f"  {rng.choice(agents)}  ", "   ", "", rng.choice(agents), None, 5, "\tdefault\n"])
    config = {} if base is None else {"default_base_agent": base}
    if rng.random() < 0.5:
        config["agent_paths"] = rng.choice([["  ~/team  "], [" ./agents "], ["  "], "x", [5]])
        (home / "team").mkdir(parents=True, exist_ok=True)
        (home / "team" / "member.md").write_text("---\nname: member\nmodel: ''\n---\nFrom the team folder\n")
    folder = (dest / "xdg") if (dest / "xdg").is_dir() else home / ".config"
    (folder / "tsugite").mkdir(parents=True, exist_ok=True)
    (folder / "tsugite" / "config.json").write_text(json.dumps(config) + "\n")


def make_workspace(rng: random.Random, fw: str, dest: Path) -> Path:
    if fw in coding.FRAMEWORKS:
        return coding.make_workspace(rng, fw, dest, case_dirs(fw))
    case = rng.choice(case_dirs(fw))
    shutil.copytree(case, dest, symlinks=True)
    (dest / "expected.json").unlink()
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.75:
            files = files_of(dest)
            if files:
                f = rng.choice(files)
                f.write_bytes(mutate_text(rng, f.read_bytes(), fw))
        else:
            mutate_tree(rng, dest)
    if fw == "tsugite" and rng.random() < 0.15:
        tsugite_config(rng, dest)
    if fw == "fast-agent" and rng.random() < 0.25:
        fast_agent_settings(rng, dest)
    if fw == "fast-agent" and rng.random() < 0.3:
        fast_agent_card(rng, dest)
    if fw == "openhands" and inputs_of(dest).get("skills"):
        for _ in range(rng.randint(0, 3)):
            openhands_skill(rng, dest)
    return dest


FAST_AGENT_SERVER = {}


def fast_agent_oracle(py: str, oracle: Path, argv):
    """The fast-agent oracle's run on `argv` through `fast_agent_server.py` (one import of
    fast-agent-mcp, a fork per workspace; the same expected.json on every vendored case)."""
    server = FAST_AGENT_SERVER.get(py)
    if server is None or server.poll() is not None:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONHASHSEED": "0", "TZ": "UTC"}
        server = subprocess.Popen([py, str(HERE / "fast_agent_server.py"), str(oracle)], env=env,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        FAST_AGENT_SERVER[py] = server
    return ask_server(server, FAST_AGENT_SERVER, py, argv)


# Tool modules the oracles import inside their functions, loaded once by the fork
# server (`fork_server.py`) so that each workspace costs a fork, not an interpreter.
PRELOAD = {
    "tsugite": ["tsugite.agent_inheritance", "tsugite.md_agents", "tsugite.renderer", "tsugite.core.agent",
                "tsugite.utils", "tsugite.agent_preparation", "tsugite.ui.repl_completer", "pydantic"],
}
SERVERS = {}
USE_FORK_SERVER = True


def run_oracle(py: str, oracle: Path, argv):
    """The oracle's run on `argv` (returncode, stdout, stderr), through the fork server."""
    if not USE_FORK_SERVER:
        try:
            return subprocess.run([py, str(oracle), *argv], capture_output=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return subprocess.CompletedProcess(argv, -9, b"", f"{ORACLE_HUNG} (stopped after {TIMEOUT} s)".encode())
    fw = oracle.parent.name
    server = SERVERS.get((py, oracle))
    if server is None or server.poll() is not None:
        server = subprocess.Popen([py, str(HERE / "fork_server.py"), str(oracle), *PRELOAD.get(fw, [])],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        SERVERS[(py, oracle)] = server
    return ask_server(server, SERVERS, (py, oracle), argv)


# Seconds one side may take on one workspace (`--timeout`): a run that takes longer is
# stopped and reported as a hang, never waited for.
TIMEOUT = 60
ORACLE_HUNG = "oracle hung"


def ask_server(server, servers: dict, key, argv):
    """One oracle run through a fork server. The server's child stops itself after
    TIMEOUT seconds (SIGALRM); should no answer come a little after that (a child
    that ignores the alarm, a stuck server), the server is killed and restarted on
    the next request, and the run counts as the oracle's hang."""
    import select
    with tempfile.TemporaryDirectory(prefix="agentry-oracle-out-") as tmp:
        out, err = Path(tmp) / "out", Path(tmp) / "err"
        server.stdin.write(json.dumps({"argv": list(argv), "out": str(out), "err": str(err), "timeout": TIMEOUT}) + "\n")
        server.stdin.flush()
        ready, _, _ = select.select([server.stdout], [], [], TIMEOUT + 15)
        if not ready:
            server.kill()
            server.wait()
            servers.pop(key, None)
            return subprocess.CompletedProcess(argv, -9, b"", f"{ORACLE_HUNG} (no answer in {TIMEOUT + 15} s)".encode())
        reply = json.loads(server.stdout.readline() or '{"rc": -1}')
        stderr = err.read_bytes() if err.exists() else b""
        if reply["rc"] == -signal.SIGALRM:
            stderr += f"\n{ORACLE_HUNG} (stopped after {TIMEOUT} s)".encode()
        return subprocess.CompletedProcess(argv, reply["rc"], out.read_bytes() if out.exists() else b"", stderr)


def run_agentry(argv, env=None):
    """agentry's run on `argv`; one that outlasts TIMEOUT is killed and reported as a
    hang (agentry must never hang: its JSON is then missing, a disagreement)."""
    try:
        return subprocess.run(argv, capture_output=True, timeout=TIMEOUT, env=env)
    except subprocess.TimeoutExpired as late:
        return subprocess.CompletedProcess(argv, -9, late.stdout or b"",
                                           f"agentry hung: no answer in {TIMEOUT} s".encode())


def run_pair(fw: str, ws: Path, py: str, oracles: Path, agentry: str):
    """(expected, actual, problems); expected is None when the oracle failed."""
    if fw in coding.FRAMEWORKS:
        return coding.run_pair(fw, ws, oracles, agentry)
    args = ["--project", str(ws / "project"), "--home", str(ws / "home")]
    if (ws / "xdg").is_dir():
        args += ["--xdg-config", str(ws / "xdg")]
    inputs = inputs_of(ws)
    if inputs.get("cwd", ".") != ".":
        (ws / "project" / inputs["cwd"]).mkdir(parents=True, exist_ok=True)
        args += ["--cwd", inputs["cwd"]]
    builtin = ws / "builtin"
    empty = Path(tempfile.mkdtemp(prefix="agentry-diff-empty-"))
    builtins = ["--builtins", str(builtin if builtin.is_dir() else empty)]
    oracle = oracles / "oracle" / fw / "oracle.py"
    # Only the oracles of frameworks with built-in agents take `--builtins`.
    oracle_args = args + (builtins if "--builtins" in oracle.read_text() else [])
    # A skills case asks the oracle for skills too (FORMAT.md "Skills").
    # An OpenHands agent naming skills is skipped when one is not loaded; the oracle
    # checks that only with --skills (without, every name resolves), so it is asked too.
    if fw == "openhands" and (inputs.get("skills") or any(b"\nskills" in f.read_bytes()[:4096] for f in files_of(ws))):
        oracle_args.append("--skills")
    try:
        for d in ("project", "home"):
            (ws / d).mkdir(exist_ok=True)
        # fast-agent's oracle restarts itself in a fresh interpreter: it has its own server.
        oracle_run = fast_agent_oracle if fw == "fast-agent" else run_oracle
        o = oracle_run(py, oracle, oracle_args)
        a = run_agentry([agentry, "export", "--ecosystem", fw, "--json", *args, *builtins],
                        env={**os.environ, "AGENTRY_LISTING_ORDER": "name"})
    finally:
        shutil.rmtree(empty, ignore_errors=True)
    return judge(o, a, oracles)


def shrink(fw, ws, py, oracles, agentry, first_problem, budget=None):
    """The smallest workspace that still shows the same first problem (within `budget` oracle runs)."""
    runs = [0]

    def still(path):
        runs[0] += 1
        if budget is not None and runs[0] > budget:
            return False
        exp, _, problems = run_pair(fw, path, py, oracles, agentry)
        return exp is not None and problems and problems[0].split(":")[0] == first_problem.split(":")[0]

    for f in files_of(ws):  # whole files
        keep = f.read_bytes()
        f.unlink()
        if not still(ws):
            f.write_bytes(keep)
    for f in files_of(ws):  # lines, then characters of what is left
        lines = f.read_bytes().split(b"\n")
        i = 0
        while i < len(lines) and len(lines) > 1:
            trial = lines[:i] + lines[i + 1:]
            f.write_bytes(b"\n".join(trial))
            if still(ws):
                lines = trial
            else:
                i += 1
        f.write_bytes(b"\n".join(lines))
    return ws


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("framework", choices=FRAMEWORKS)
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--keep", type=Path)
    built = [REPO / "target" / kind / "agentry" for kind in ("release", "debug")]
    p.add_argument("--agentry", default=str(next((b for b in built if b.is_file()), built[0])))
    # `../shared` beside the repository, or beside the folder of worktrees.
    shared = next((d / "shared" for d in (REPO.parent, REPO.parent.parent) if (d / "shared/oracle").is_dir()),
                  REPO.parent / "shared")
    p.add_argument("--oracles", type=Path, default=shared)
    p.add_argument("--stop-after", type=int, default=10, help="stop after this many disagreements")
    p.add_argument("--no-shrink", action="store_true")
    p.add_argument("--no-fork-server", action="store_true", help="start the oracle afresh for every workspace")
    # Each run may take up to --timeout on both sides: an unbounded shrink of a slow
    # case looked like a hung tester.
    p.add_argument("--shrink-budget", type=int, default=200, help="at most this many oracle runs to shrink one case")
    p.add_argument("--kind", choices=("agents", "skills", "listing"), help="seed only from cases of this kind")
    p.add_argument("--timeout", type=int, default=60, help="seconds the oracle or agentry may take on one workspace")
    a = p.parse_args(argv)
    global USE_FORK_SERVER, KIND, TIMEOUT
    TIMEOUT = a.timeout
    KIND = a.kind
    USE_FORK_SERVER = not a.no_fork_server
    py = ("python3" if coding.installed(a.framework) else None) if a.framework in coding.FRAMEWORKS \
        else oracle_python(a.oracles, a.framework)
    if py is None or not (a.oracles / "oracle" / a.framework / "oracle.py").is_file():
        print(f"the {a.framework} oracle is not installed (run {a.oracles}/oracle/{a.framework}/setup.sh): skipped")
        return 0
    if not Path(a.agentry).is_file():
        print(f"no agentry binary at {a.agentry} (cargo build --release)", file=sys.stderr)
        return 2
    keep = a.keep or REPO / "target/differential" / a.framework
    keep.mkdir(parents=True, exist_ok=True)
    rng = random.Random(a.seed)
    passed = failed = unusable = 0
    started = time.monotonic()

    def pace():
        done = passed + failed + unusable
        return f"{(time.monotonic() - started) / done:.1f} s per workspace" if done else "no workspace yet"

    # A run stopped from outside (SIGTERM, Ctrl-C) still says how far it got.
    def stopped(*_):
        print(f"stopped after {passed + failed + unusable} workspaces: {passed} passed, {failed} failed,"
              f" {unusable} the oracle could not read ({pace()}, shrinking included)", flush=True)
        sys.exit(130)
    signal.signal(signal.SIGTERM, stopped)
    signal.signal(signal.SIGINT, stopped)
    for n in range(a.count):
        with tempfile.TemporaryDirectory(prefix="agentry-diff-") as tmp:
            ws = make_workspace(rng, a.framework, Path(tmp) / "ws")
            expected, _, problems = run_pair(a.framework, ws, py, a.oracles, a.agentry)
            if expected is None:
                unusable += 1  # the oracle itself crashed on this input: nothing to compare
                # Kept (unshrunk) with the oracle's complaint, to tell a tool's own refusal from an oracle fault.
                hung = any(ORACLE_HUNG in p for p in problems)
                out = keep / f"{'oracle-hung' if hung else 'unread'}-{a.seed}-{n}"
                shutil.rmtree(out, ignore_errors=True)
                try:
                    shutil.copytree(ws, out, symlinks=True)
                    (out / "oracle-error.txt").write_text("\n".join(problems) + "\n")
                except (OSError, shutil.Error):  # a folder loop too deep to copy: the complaint is printed
                    shutil.rmtree(out, ignore_errors=True)
                print(f"{'ORACLE HUNG' if hung else 'UNREAD'} {out}: {(problems or ['?'])[0][:200]!r}", flush=True)
                continue
            if not problems:
                passed += 1
                if passed % 25 == 0:
                    print(f"... {passed} passed, {failed} failed so far ({pace()})", flush=True)
                continue
            failed += 1
            out = keep / f"case-{a.seed}-{n}"
            shutil.rmtree(out, ignore_errors=True)
            shutil.copytree(ws, out, symlinks=True)
            if not a.no_shrink:
                shrink(a.framework, out, py, a.oracles, a.agentry, problems[0], a.shrink_budget)
            expected, _, problems = run_pair(a.framework, out, py, a.oracles, a.agentry)
            (out / "expected.json").write_text(json.dumps(expected, indent=2, ensure_ascii=False) + "\n")
            print(f"FAIL {out}: {problems[0] if problems else '(gone after shrinking)'}", flush=True)
            if failed >= a.stop_after:
                break
    if unusable:
        print(f"{unusable} workspaces the oracle could not read were not counted")
    print(f"{passed} passed, {failed} failed ({pace()}, shrinking included)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
