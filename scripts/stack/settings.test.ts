// The README's table of environment variables, the API's configuration and the lists that
// `npm start` applies name the same variables.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AGENT_VARIABLES, API_VARIABLES, INDEXER_VARIABLES, START_VARIABLES, WIRED_VARIABLES } from "./settings";

const ROOT = join(import.meta.dirname, "../..");

function readmeVariables(): Set<string> {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Environment variables"));
  const table = section.slice(0, section.indexOf("\n## "));
  const names = table
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .flatMap((line) => [...line.split("|")[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]!));
  return new Set(names);
}

/** The keys of a configuration schema, one per line at the first level of indentation. */
function configVariables(file: string): string[] {
  const source = readFileSync(join(ROOT, file), "utf8");
  return [...source.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((match) => match[1]!);
}

const apiConfigVariables = () => configVariables("api/config.ts");

const honoured = [...START_VARIABLES, ...API_VARIABLES, ...AGENT_VARIABLES, ...INDEXER_VARIABLES];
const known = new Set<string>([...honoured, ...WIRED_VARIABLES]);

describe("environment variables", () => {
  it("documents in the README every variable that npm start honours", () => {
    const documented = readmeVariables();
    expect(honoured.filter((name) => !documented.has(name))).toEqual([]);
  });

  it("honours or sets itself every variable that the README documents", () => {
    expect([...readmeVariables()].filter((name) => !known.has(name))).toEqual([]);
  });

  it("passes on or sets itself every setting of the API", () => {
    const variables = apiConfigVariables();
    expect(variables.length).toBeGreaterThan(20);
    expect(variables.filter((name) => !known.has(name))).toEqual([]);
  });

  it("passes on or sets itself every setting of the house agents' runner", () => {
    const variables = configVariables("agents/config.ts");
    expect(variables.length).toBeGreaterThan(8);
    expect(variables.filter((name) => !known.has(name))).toEqual([]);
  });
});
