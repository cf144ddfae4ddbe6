// The README's "First trade" tour, run as written (bash, curl, npm run token) against a test stack,
// so that what a newcomer types first stays true.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers/stack";

const ROOT = join(import.meta.dirname, "..");

/** The first `sh` block under the README heading `## First trade`. */
function tourScript(): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## First trade"));
  const match = /```sh\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error("README.md has no sh block under ## First trade");
  return match[1]!;
}

describe("the README's first trade", () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  it("runs as written: wallet, faucet, a buy confirmed by the indexer, the balance, the trade on the stream", async () => {
    const { stdout } = await promisify(execFile)("bash", ["-euo", "pipefail", "-c", tourScript()], {
      cwd: ROOT,
      env: { ...process.env, API: stack.apiUrl, JWT_SECRET: "" },
      timeout: 120_000,
    });
    expect(stdout).toMatch(/"isNew":true/);
    expect(stdout).toMatch(/"amount":"1000"/);
    expect(stdout).toMatch(/"status":"pending"/);
    expect(stdout).toMatch(/"status":"confirmed"/);
    expect(stdout).toMatch(/"amount":"990"/);
    expect(stdout).toMatch(/event: trade\n.*"marketSlug":"fed-cuts-rates-march-2027"/);
  });
});
