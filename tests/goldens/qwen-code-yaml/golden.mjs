// Writes the goldens of Qwen Code's front-matter YAML: for each `inputs/*.yaml`
// (a front matter, as parseSubagentContent hands it to the parser), the object
// Qwen Code's own `parse` (packages/core/src/utils/yaml-parser.ts: the `yaml`
// package with the core schema, else its line parser, nulls stripped) returns,
// and whether the `yaml` package itself accepted the text.
//
//   node golden.mjs PKG_DIR    (PKG_DIR = .../node_modules/@qwen-code/qwen-code)
//
// Output: `outputs/NAME.json` = {"object": ..., "yaml_ok": bool}. Non-finite
// numbers are written as the strings "Infinity", "-Infinity", "NaN". The same for
// each text of `random-inputs.json` (random_inputs.py), as `random-outputs.json`.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const chunks = path.join(process.argv[2], 'chunks');
const file = fs.readdirSync(chunks).sort().find((f) =>
  f.startsWith('chunk-') && fs.readFileSync(path.join(chunks, f), 'utf8').includes('// packages/core/src/utils/yaml-parser.ts'));
if (!file) throw new Error('yaml-parser chunk not found');
for (const k of ['log', 'info', 'debug', 'warn']) console[k] = () => {};
const mod = await import(pathToFileURL(path.join(chunks, file)).href);
const yaml = mod.require_dist();

const replacer = (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v);
fs.mkdirSync(path.join(here, 'outputs'), { recursive: true });
const golden = (text) => {
  let yamlOk = true;
  try {
    yaml.parse(text, { schema: 'core' });
  } catch {
    yamlOk = false;
  }
  return { object: mod.parse(text), yaml_ok: yamlOk };
};
for (const name of fs.readdirSync(path.join(here, 'inputs')).sort()) {
  const text = fs.readFileSync(path.join(here, 'inputs', name), 'utf8');
  const out = JSON.stringify(golden(text), replacer, 2) + '\n';
  fs.writeFileSync(path.join(here, 'outputs', name.replace(/\.yaml$/, '.json')), out);
}
const randomInputs = path.join(here, 'random-inputs.json');
if (fs.existsSync(randomInputs)) {
  const outputs = JSON.parse(fs.readFileSync(randomInputs, 'utf8')).map(golden);
  fs.writeFileSync(path.join(here, 'random-outputs.json'), JSON.stringify(outputs, replacer) + '\n');
}
