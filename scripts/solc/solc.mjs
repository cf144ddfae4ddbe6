#!/usr/bin/env node
// forge finds no compiler offline, so foundry.toml points `solc` here: a shim that speaks the
// slice of solc's command line that forge uses (--version, and --standard-json on stdin) through
// solc.js, the npm build of the same compiler.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";

const solc = createRequire(import.meta.url)("solc");

if (process.argv.includes("--version")) {
  const version = solc.version().replace(/\.Emscripten.*$/, "");
  process.stdout.write(`solc, the solidity compiler commandline interface\nVersion: ${version}\n`);
  process.exit(0);
}

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);

// forge inlines every source; this callback only serves a path it did not, relative to the root.
const findImports = (path) => {
  try {
    return { contents: readFileSync(resolve(process.cwd(), path), "utf8") };
  } catch {
    return { error: `File not found: ${path}` };
  }
};

const output = solc.compile(Buffer.concat(chunks).toString("utf8"), { import: findImports });
// solc.js prints its own diagnostics on lines starting with ">>>", which would corrupt the JSON.
process.stdout.write(
  output
    .split("\n")
    .filter((line) => !line.startsWith(">>>"))
    .join("\n"),
);
