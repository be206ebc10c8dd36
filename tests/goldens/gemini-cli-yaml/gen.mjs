// Writes <case>.json next to each <case>.yaml: what Gemini CLI 0.61.0's own js-yaml
// (4.1.1, bundled into the CLI's core chunk) makes of the text with `load`.
// Usage: node gen.mjs [bundle dir]
// (default ~/.cache/agentry-oracle/gemini-cli/node_modules/@google/gemini-cli/bundle)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const bundle = process.argv[2] ?? path.join(os.homedir(), ".cache/agentry-oracle/gemini-cli/node_modules/@google/gemini-cli/bundle");
// The chunk holding the agent loader also holds js-yaml: cut it out and evaluate it.
const chunk = fs.readdirSync(bundle).map((f) => path.join(bundle, f))
  .find((f) => f.endsWith(".js") && fs.readFileSync(f, "utf8").includes("async function parseAgentMarkdown("));
const text = fs.readFileSync(chunk, "utf8");
const start = text.indexOf("// node_modules/js-yaml/dist/js-yaml.mjs");
const end = text.indexOf("var load = loader.load;", start);
if (start < 0 || end < 0) throw new Error(`js-yaml not found in ${chunk}`);
const load = new Function(`${text.slice(start, end)}\nreturn loader.load;`)();

function typed(v) {
  if (v === undefined) return { $undefined: true };
  if (v instanceof Date) return { $date: true };
  if (typeof v === "number" && !Number.isFinite(v)) return { $number: String(v) };
  if (Array.isArray(v)) return v.map(typed);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typed(x)]));
  return v;
}

for (const f of fs.readdirSync(here).filter((f) => f.endsWith(".yaml")).sort()) {
  const input = fs.readFileSync(path.join(here, f), "utf8");
  let out;
  try {
    out = { value: typed(load(input)) };
  } catch (e) {
    out = { error: String(e.reason ?? e.message) };
  }
  fs.writeFileSync(path.join(here, f.replace(/\.yaml$/, ".json")), JSON.stringify(out, null, 2) + "\n");
}
