#!/usr/bin/env python3
"""Jinja2 goldens for agentry's tsugite template environment.

Renders every template of the vendored tsugite fixtures (agent bodies and
`instructions`) plus a set of extra cases (reprs, filters, whitespace control,
undefined/unknown-filter/syntax errors, the package's globals) with tsugite's own
renderer (`tsugite.renderer.AgentRenderer`, i.e. Jinja2 configured exactly as the
package configures it), under the oracle's fixed world: clock 2025-01-15 12:00:00
UTC, `cwd()` = "<project>", `env` = {}.  Writes cases.json next to this file;
tests/it/jinja_tsugite.rs renders the same cases with agentry and compares.

    ~/.cache/agentry-oracle/tsugite/bin/python tests/goldens/jinja2/tsugite/gen.py
"""

import json
import os
import sys
from datetime import datetime as _real_datetime
from datetime import timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parents[2] / "fixtures" / "tsugite"
FIXED_NOW = _real_datetime(2025, 1, 15, 12, 0, 0)

# Every template sees this context: what prepare() gives an agent, with the
# oracle's stand-ins for prefetch, attachments, tool/exec directives and steps.
CONTEXT = {
    "user_prompt": "<user prompt>",
    "agent_name": "golden",
    "is_interactive": False,
    "is_daemon": False,
    "is_scheduled": False,
    "schedule_id": "",
    "conversation_id": "",
    "has_notify_tool": False,
    "running_tasks": [],
    "tsugite_url": "",
    "tsugite_token": "",
    "tools": ["read_file"],
    "is_subagent": False,
    "parent_agent": None,
    "chat_history": [],
    "CWD": "<project>",
    "INVOKED_FROM": None,
    "WORKSPACE_DIR": None,
    "inventory": "mock_prefetch_data",
    "notes": "mock attachment content",
    "available_skills": [{"name": "mock_skill", "description": "Mock skill for validation"}],
    "available_agents": "- **mock_agent**: Mock agent for validation",
    "prices": "[Tool directive: read_file(...) - not executed in render mode]",
    "total": "[Exec directive: tally(...) - not executed in render mode]",
    "facts": "mock_step_result",
    "numbers": [3, 1, 2],
    "mapping": {"b": 2, "a": 1},
    "ratio": 2.5,
    "whole": 2.0,
    "flag": True,
}

# Known divergence, left out of the set: Python's `'%s' % x` string formatting
# (minijinja has no `%` on strings; agentry reports a template error there).
EXTRA = [
    ("repr_list", "{{ [1, 'a', none, true, 2.5] }}"),
    ("repr_nested", "{{ [['x'], {'k': 'v'}] }}"),
    ("repr_dict", "{{ mapping }}"),
    ("repr_quotes", "{{ [\"it's\", 'say \"hi\"'] }}"),
    ("repr_scalars", "{{ none }} {{ true }} {{ false }} {{ INVOKED_FROM }} {{ flag }}"),
    ("floats", "{{ ratio }} {{ whole }} {{ 10 / 4 }} {{ 1.5 * 2 }} {{ 7 // 2 }}"),
    ("tools_repr", "tools={{ tools }} n={{ tools | length }}"),
    ("trim_blocks", "{% for n in numbers %}\n  - {{ n }}\n{% endfor %}\ndone"),
    ("lstrip_blocks", "start\n    {% if flag %}\n    yes\n    {% endif %}\nend"),
    ("manual_whitespace", "a {%- if flag -%} b {%- endif -%} c"),
    ("trailing_newline", "line\n"),
    ("filters", "{{ numbers | sort | join(',') }} {{ 'Hello' | upper }} {{ '  x ' | trim }} {{ 'a b' | title }} {{ numbers | max }}"),
    ("default_filter", "{{ missing | default('fallback') }} {{ '' | default('e', true) }}"),
    ("slugify", "{{ 'Fresh Apples!' | slugify }} {{ slugify('Über  cool -- thing_1') }}"),
    ("loop_vars", "{% for t in ['a','b','c'] %}{{ loop.index }}{{ t }}{% if not loop.last %},{% endif %}{% endfor %}"),
    ("membership", "{% if 'read_file' in tools %}has{% else %}lacks{% endif %}"),
    ("set_and_math", "{% set x = 5 %}{{ x * 2 }} {{ x ** 2 }} {{ -x }}"),
    ("string_methods", "{{ 'abc'.upper() }} {{ 'a b'.split() }} {{ 'x-y'.replace('-', '+') }}"),
    ("clock", "{{ now() }} | {{ today() }} | {{ yesterday() }} | {{ tomorrow() }}"),
    ("days_ago", "{{ days_ago(1) }} | {{ date_format(days_ago(2), '%Y/%m/%d %A') }} | {{ weeks_ago(1) }}"),
    ("env_and_cwd", "{{ env('HOME', 'nohome') }} {{ env.get('STAGE', 'dev') }} {{ env.get('X') }} {{ cwd() }}"),
    ("ignore_block", "keep<!-- tsu:ignore -->{{ undefined_inside }}<!-- /tsu:ignore --> this"),
    ("ranges", "{{ range(3) | list }} {{ range(5) | length }} {{ range(10, 0, -3) | join(',') }} {% for i in range(150000) if i < 3 %}{{ i }}{% endfor %}"),
    ("error_break", "{% for i in range(3) %}{% if i %}{% break %}{% endif %}{{ i }}{% endfor %}"),
    ("error_continue", "{% for i in range(3) %}{%- continue -%}{% endfor %}"),
    ("crlf", "a\r\nb {{ 'x\r\ny' }}\rc"),
    ("tojson", "{{ mapping | tojson }} {{ ['<a>', \"it's\"] | tojson }} {{ none | tojson }}"),
    ("defined_tests", "{{ missing is defined }} {{ user_prompt is defined }} {{ none is none }} {{ 3 is odd }} {{ 'a' is string }}"),
    ("string_filters", "{{ 'hello world' | capitalize }} {{ 'a b c' | wordcount }} {{ 'abc' | reverse }} {{ 'x' | center(5) }}|"),
    ("indent", "{{ 'a\\nb\\nc' | indent(2) }}|{{ 'a\\nb' | indent(2, true) }}"),
    ("truncate", "{{ 'the quick brown fox jumps' | truncate(12) }}"),
    ("numbers", "{{ '42' | int + 1 }} {{ '2.5' | float }} {{ 3.14159 | round(2) }} {{ -3 | abs }} {{ [1,2,3] | sum }} {{ numbers | min }}"),
    ("lists", "{{ numbers | first }} {{ numbers | last }} {{ numbers | reverse | list }} {{ [1,1,2] | unique | list }} {{ numbers | batch(2) | list }}"),
    ("dicts", "{{ mapping | dictsort }} {{ mapping.items() | list }} {% for k, v in mapping.items() %}{{ k }}={{ v }};{% endfor %}"),
    ("attr_filters", "{{ available_skills | map(attribute='name') | join(',') }} {{ available_skills | selectattr('name', 'equalto', 'mock_skill') | list | length }}"),
    ("str_format", "{{ '{} and {}'.format('a', 'b') }}"),
    ("escape_safe", "{{ '<b>' | e }} {{ '<b>' | safe }} {{ '<b>' }}"),
    ("string_concat", "{{ 'a' ~ 1 ~ none }} {{ 'ab' * 2 }} {{ 'abc'[1:] }} {{ numbers[0] }}"),
    ("inline_if", "{{ 'y' if flag else 'n' }} {{ 'y' if none else 'n' }}"),
    ("macro", "{% macro greet(n) %}Hi {{ n }}{% endmacro %}{{ greet('x') }}"),
    ("filter_block", "{% filter upper %}shout{% endfilter %}"),
    ("whitespace_expr", "a  {{- ' b ' -}}  c"),
    ("comment", "a{# hidden #}b\n{# line #}\nc"),
    ("raw", "{% raw %}{{ not rendered }}{% endraw %}"),
    ("more_filters", "{{ '<p>a  <b>b</b></p>' | striptags }} {{ 1 | filesizeformat }} {{ 1500000 | filesizeformat }} {{ 2048 | filesizeformat(true) }} {{ '<x>' | forceescape }} {{ 'ab' | center(7) }}|"),
    ("more_tests", "{{ 9 is divisibleby 3 }} {{ nothing is undefined }} {{ now is callable }} {{ 'ab' is lower }}"),
    ("error_split_filter", "{{ 'a,b' | split(',') }}"),
    ("error_unknown_test", "{{ 'ab' is startingwith('a') }}"),
    ("datetime_class", "{{ datetime.now() }} {{ datetime.now().strftime('%Y-%m-%d %H:%M') }} {{ datetime.now().year }} {{ datetime.fromisoformat('2024-02-29').strftime('%A') }}"),
    ("error_undefined", "Hello {{ stranger }}."),
    ("error_undefined_attr", "{{ stranger.name }}"),
    ("error_undefined_loop", "{% for x in nothing %}{{ x }}{% endfor %}"),
    ("error_unknown_filter", "{{ 'x' | no_such_filter }}"),
    ("error_syntax", "{% if %}broken{% endif %}"),
    ("error_unclosed", "{% for x in numbers %}{{ x }}"),
]


def fixed_world():
    import tsugite.renderer as renderer

    class FixedDatetime(_real_datetime):
        @classmethod
        def now(cls, tz=None):
            stamp = FIXED_NOW.replace(tzinfo=timezone.utc).timestamp()
            return cls.fromtimestamp(stamp) if tz is None else cls.fromtimestamp(stamp, tz)

    renderer.datetime = FixedDatetime
    renderer.local_tz = lambda: timezone.utc
    renderer.cwd = lambda: "<project>"

    class FixedEnv(renderer._CallableEnv):
        def __init__(self, *_args, **_kwargs):
            super().__init__({})

    renderer._CallableEnv = FixedEnv
    return renderer.AgentRenderer()


def fixture_templates():
    from tsugite.utils import parse_yaml_frontmatter

    out = []
    for path in sorted(FIXTURES.rglob("*.md")):
        if not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
            meta, body = parse_yaml_frontmatter(text, "Agent text")
        except Exception:
            continue
        rel = path.relative_to(FIXTURES).as_posix()
        if body:
            out.append((f"{rel}#body", body))
        if isinstance(meta, dict) and isinstance(meta.get("instructions"), str) and meta["instructions"].strip():
            out.append((f"{rel}#instructions", meta["instructions"].strip()))
    return out


def main():
    os.environ.clear()
    os.environ.update({"TZ": "UTC", "HOME": "/nonexistent"})
    renderer = fixed_world()
    cases = []
    for name, template in fixture_templates() + [(f"extra/{n}", t) for n, t in EXTRA]:
        case = {"name": name, "template": template}
        try:
            case["output"] = renderer.render(template, dict(CONTEXT))
        except Exception as exc:  # noqa: BLE001 - every failure is a golden too
            case["error"] = str(exc)
        cases.append(case)
    doc = {"context": CONTEXT, "cases": cases}
    (HERE / "cases.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(cases)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
