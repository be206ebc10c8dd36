#!/usr/bin/env python3
"""Writes the golden inputs: one Copilot agent file per tricky front matter, under
case/project/.github/agents/ (byte-exact: BOM, CRLF and Latin-1 cases included),
and one per tricky `tools` list under tools-case/project/.github/agents/.
make.sh then runs the real Copilot CLI 1.0.102 (shared/oracle/copilot) on them."""
import os
from pathlib import Path

HERE = Path(__file__).resolve().parent

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
    "tools-nested": fm("description: d\ntools: [[read]]"),
    "model-empty-list": fm("description: d\nmodel: []"),
    "model-nested": fm("description: d\nmodel: [[a]]"),
    "infer-yes": fm("description: d\ninfer: yes"),
    "dmi-upper": fm("description: d\ndisable-model-invocation: FALSE"),
    # fences and bodies
    "fence-leading-space": b" ---\ndescription: d\n---\nBody.\n",
    "fence-tab": b"---\t\ndescription: d\n---\t\nBody.\n",
    "fence-four-dashes": b"----\ndescription: d\n----\nBody.\n",
    "fence-cr-only": b"---\rdescription: d\r---\rBody.\r",
    "crlf-folded-end": b"---\r\ndescription: >\r\n  folded\r\n  end\r\n---\r\nBody.\r\n",
    "body-lone-cr": b"---\ndescription: d\n---\nOne\rTwo\n",
    "body-nbsp-edges": "---\ndescription: d\n---\n\u00a0Body.\u3000\n".encode(),
    "body-only-fence": b"---\ndescription: d\n---\n---\n",
    # more keys
    "key-case": fm("Description: capital"),
    "tools-bool": fm("description: d\ntools: true"),
    "model-bool": fm("description: d\nmodel: false"),
    "name-list": fm("description: d\nname: [a]"),
    "two-errors": fm("description: 5\nname: 6\ntools: 7"),
    "two-errors-reversed": fm("tools: 7\nname: 6\ndescription: 5"),
    "ui-string": fm("description: d\nuser-invocable: 'false'"),
    "skills-string": fm("description: d\nskills: one"),
    "skills-numbers": fm("description: d\nskills: [1]"),
    "github-list": fm("description: d\ngithub: [a]"),
    "effort-list": fm("description: d\nreasoning-effort: [high]"),
    "cii-string": fm("description: d\ninclude-custom-instructions: 'yes'"),
    "mcp-list": fm("description: d\nmcp-servers: [a]"),
    "mcp-server-string": fm("description: d\nmcp-servers: {srv: x}"),
    "mcp-no-type": fm("description: d\nmcp-servers: {srv: {command: x}}"),
    "mcp-stdio": fm("description: d\nmcp-servers: {srv: {type: stdio, command: x}}"),
    "mcp-http": fm("description: d\nmcp-servers: {srv: {type: http}}"),
    "mcp-args-string": fm("description: d\nmcp-servers: {srv: {type: local, command: x, args: a, tools: ['*']}}"),
    "unknown-many-order": fm("zeta: 1\ndescription: d\nalpha: 2\nmcpServers: {}"),
}

# Tool names (a case of their own: the CLI's sub-agents, one per name, reveal the
# tools each gets; in a workspace of many agents the model is not offered them all).
TOOL_CASES: dict[str, bytes] = {
    "indent-list": fm("description: d\ntools:\n- read\n- edit"),
    "tools-star-mixed": fm("description: d\ntools: [read, '*']"),
    "tools-empty-items": fm("description: d\ntools: 'read,, search ,'"),
    "tools-comma-star": fm("description: d\ntools: 'read, *'"),
    "tools-native": fm("description: d\ntools: [read_bash, sql, skill, update_todo, write_agent, list_bash, tool_search_tool]"),
    "tools-claude-more": fm("description: d\ntools: [MultiEdit, NotebookEdit, TodoWrite, Task, WebFetch, LS, WebSearch]"),
    "tools-vscode": fm("description: d\ntools: [codebase, runCommands, runSubagent, custom-agent, fetch, terminal, str_replace_editor]"),
    "tools-alias-case": fm("description: d\ntools: [EXECUTE, Todo, Agent, WRITE]"),
    "tools-blank-body": fm("description: d\ntools: [read]", "   "),
    "tools-mcp-name": fm("description: d\ntools: [read, github/get_issue, playwright/*]"),
    "tools-on-request": fm("description: d\ntools: [read_file, file_search, READ_FILE, Semantic_Search, semantic_search, send_inbox, apply_patch, web_fetch]"),
    "tools-vscode-sets": fm("description: d\ntools: ['search/codebase', 'edit/editFiles', 'runCommands/terminal', 'read/readFile', 'execute/runInTerminal', 'web/fetch', 'agent/runSubagent', 'todo', 'vscode/askQuestions', 'memory', 'edit/*']"),
    "tools-vscode-plain": fm("description: d\ntools: [editFiles, createFile, readFile, runInTerminal, fileSearch, textSearch, createDirectory, todos, runTasks, problems, usages]"),
    "tools-vscode-search": fm("description: d\ntools: ['search/fileSearch', 'search/textSearch', 'edit/createFile', 'Search/Codebase', 'search/usages']"),
    "tools-native-case": fm("description: d\ntools: [SQL, Update_Todo, Tool_Search_Tool, Read_Bash, Fetch_Copilot_CLI_Documentation, Skill]"),
}

def write(case: str, cases: dict[str, bytes]) -> None:
    agents = HERE / case / "project" / ".github" / "agents"
    agents.mkdir(parents=True, exist_ok=True)
    for old in agents.iterdir():
        old.unlink()
    for name, data in cases.items():
        (agents / f"{name}.agent.md").write_bytes(data)
    home = HERE / case / "home"
    home.mkdir(parents=True, exist_ok=True)
    (home / ".gitkeep").write_bytes(b"")
    print(f"{len(cases)} inputs in {agents}")

def main() -> None:
    write("case", CASES)
    write("tools-case", TOOL_CASES)

if __name__ == "__main__":
    main()
