// Writes, for every tests/goldens/claude-code-yaml/inputs/*.yaml, what Claude Code
// 2.1.328's front-matter parser makes of it: Bun.YAML.parse (Bun 1.4.4, the Bun
// compiled into the claude binary), and on failure the same lenient retry Claude Code
// runs (`nu` + leading tabs -> two spaces each; copied from the bundle, function Bar).
// Run with bun 1.4.4:  bun golden.js   (npm install bun@1.4.4)
// Output: expected/<name>.json = {"ok": value} | {"error": message} for the plain
// parse, and {"retry": ...} for the parse Claude Code falls back to.
const fs = require("fs");
const path = require("path");
const dir = __dirname;
const P8 = (e) => Bun.YAML.parse(e);
const tu = /[{}[\]*&#!|>%@`]|: /;
function nu(e) {
  let r = e.split(`\n`), o = [];
  for (let g of r) {
    let h = g.match(/^([a-zA-Z_-]+):\s+(\S.*)$/);
    if (h) {
      let [, y, k] = h;
      if (!y || !k) { o.push(g); continue; }
      if (k.startsWith('"') && k.endsWith('"') || k.startsWith("'") && k.endsWith("'")) { o.push(g); continue; }
      if (k.startsWith("[") && k.endsWith("]")) try { if (Array.isArray(P8(k))) { o.push(g); continue; } } catch {}
      if (tu.test(k)) { let R = k.replaceAll("\\", "\\\\").replaceAll('"', "\\\""); o.push(`${y}: "${R}"`); continue; }
    }
    o.push(g);
  }
  return o.join(`\n`);
}
function Bar(e) {
  try { return { ok: true, value: P8(e) }; } catch {
    try { let r = nu(e).replace(/^\t+/gm, (o) => "  ".repeat(o.length)); return { ok: true, value: P8(r) }; }
    catch (r) { return { ok: false, error: r instanceof Error ? r.message : String(r) }; }
  }
}
const plain = (text) => { try { return { ok: P8(text) }; } catch (e) { return { error: String(e && e.message) }; } };
fs.mkdirSync(path.join(dir, "expected"), { recursive: true });
for (const f of fs.readdirSync(path.join(dir, "inputs")).sort()) {
  if (!f.endsWith(".yaml")) continue;
  // Claude Code reads files as UTF-8 (invalid bytes become U+FFFD) and strips a BOM.
  let text = fs.readFileSync(path.join(dir, "inputs", f)).toString("utf-8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const r = Bar(text);
  const out = { plain: plain(text), claude: r.ok ? { ok: r.value } : { error: r.error } };
  fs.writeFileSync(path.join(dir, "expected", f.replace(/\.yaml$/, ".json")), JSON.stringify(out, (k, v) => (typeof v === "number" && !Number.isFinite(v) ? String(v) : v), 2) + "\n");
}
