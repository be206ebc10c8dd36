#!/usr/bin/env node
// Runs the agentry binary of this platform's package (@agentry/cli-<os>-<arch>, an
// optional dependency npm installs only where it fits), passing the arguments, the
// exit code and signals through.
"use strict";

const { spawn } = require("child_process");

const platforms = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64"];
const here = `${process.platform}-${process.arch}`;
const exe = process.platform === "win32" ? "agentry.exe" : "agentry";

function fail(lines) {
  process.stderr.write(lines.map((l) => `agentry: ${l}\n`).join(""));
  process.exit(1);
}

if (!platforms.includes(here)) {
  fail([
    `no prebuilt binary for ${here}; packages exist for ${platforms.join(", ")}.`,
    "Build it with Rust instead: cargo install --locked agentry",
  ]);
}

let binary;
try {
  binary = require.resolve(`@agentry/cli-${here}/bin/${exe}`);
} catch {
  fail([
    `the package @agentry/cli-${here} (this platform's binary) is not installed.`,
    "npm installs it as an optional dependency: reinstall without --omit=optional / --no-optional.",
    `Packages exist for ${platforms.join(", ")}.`,
  ]);
}

const child = spawn(binary, process.argv.slice(2), { stdio: "inherit", windowsHide: false });

// A signal sent to this launcher alone (a CI timeout, `kill`) reaches the binary too;
// the terminal's own Ctrl-C already reaches both, and a second one is harmless.
const forwarded = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];
const forward = (signal) => {
  try {
    child.kill(signal);
  } catch {
    // The binary has already exited.
  }
};
for (const signal of forwarded) {
  process.on(signal, forward);
}

child.on("error", (err) => fail([`cannot run ${binary}: ${err.message}`]));
child.on("exit", (code, signal) => {
  for (const s of forwarded) {
    process.removeListener(s, forward);
  }
  if (signal) {
    // Die of the same signal, so the caller sees what the binary saw.
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 1 : code);
});
