// Writes expected/NAME.json for every inputs/NAME.md: what OpenCode 1.18.33's
// ConfigMarkdown.parse gives (gray-matter 4.0.3 with js-yaml 3, then OpenCode's
// fallbackSanitization and a second gray-matter call), as the reader keeps it:
// {"data": {...md.data}, "body": md.content.trim()}, or {"dropped": true}.
// Run: npm install gray-matter@4.0.3 in a scratch folder, then
//   NODE_PATH=<scratch>/node_modules node generate.js
const fs = require("fs");
const path = require("path");
const matter = require("gray-matter");

// OpenCode's fallbackSanitization (config/markdown.ts), transcribed.
function fallbackSanitization(content) {
  const match = content.match(/^---\r?\n([\s\S]*?)\r?\n---/);
  if (!match) return content;
  const frontmatter = match[1];
  const lines = frontmatter.split(/\r?\n/);
  const result = [];
  for (const line of lines) {
    if (line.trim().startsWith("#") || line.trim() === "") { result.push(line); continue; }
    if (line.match(/^\s+/)) { result.push(line); continue; }
    const kvMatch = line.match(/^([a-zA-Z_][a-zA-Z0-9_]*)\s*:\s*(.*)$/);
    if (!kvMatch) { result.push(line); continue; }
    const key = kvMatch[1];
    const value = kvMatch[2].trim();
    if (value === "" || value === ">" || value === "|" || value.startsWith('"') || value.startsWith("'")) {
      result.push(line); continue;
    }
    if (value.includes(":")) { result.push(`${key}: |-`); result.push(`  ${value}`); continue; }
    result.push(line);
  }
  const processed = result.join("\n");
  return content.replace(frontmatter, () => processed);
}

function parse(template) {
  try {
    return matter(template);
  } catch {
    return matter(fallbackSanitization(template));
  }
}

const dir = path.join(__dirname, "inputs");
const out = path.join(__dirname, "expected");
fs.mkdirSync(out, { recursive: true });
for (const name of fs.readdirSync(dir).sort()) {
  // Filesystem.readText: the bytes decoded as UTF-8 (invalid bytes become U+FFFD).
  const text = fs.readFileSync(path.join(dir, name), "utf8");
  let result;
  try {
    const md = parse(text);
    result = { data: { ...md.data }, body: md.content.trim() };
  } catch {
    result = { dropped: true };
  }
  fs.writeFileSync(path.join(out, name.replace(/\.md$/, ".json")), JSON.stringify(result, null, 2) + "\n");
}
