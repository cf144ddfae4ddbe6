// The OpenAPI document as the app serves it passes Redocly's `recommended` rules with no error:
// generated clients name their methods after operationIds, and tools need security, servers and
// the error responses declared. Runs the app in-process; no stack is needed to describe it.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { openApiDocument } from "../api/client/document";

const REDOCLY = join(import.meta.dirname, "..", "node_modules", ".bin", "redocly");
const folder = mkdtempSync(join(tmpdir(), "pm-openapi-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

type Problem = { ruleId: string; severity: "error" | "warn"; message: string; location: { pointer: string }[] };

async function lint(document: unknown) {
  const file = join(folder, "api.json");
  writeFileSync(file, JSON.stringify(document, null, 2));
  // Exit code 1 means problems were found; the JSON report says which.
  const run = await promisify(execFile)(REDOCLY, ["lint", "--extends=recommended", "--format=json", file], {
    // Nothing leaves the machine: no telemetry, no update check.
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  }).catch((error: { stdout?: string; code?: number }) => {
    if (error.code === 1 && error.stdout) return { stdout: error.stdout };
    throw error;
  });
  return JSON.parse(run.stdout) as { totals: { errors: number; warnings: number }; problems: Problem[] };
}

const describeProblems = (problems: Problem[]) =>
  problems.map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`).join("\n");

describe("OpenAPI document lint (Redocly, recommended rules)", () => {
  it("reports no error", async () => {
    const report = await lint(await openApiDocument());
    const errors = report.problems.filter((problem) => problem.severity === "error");
    expect(errors, describeProblems(errors)).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });

  it("finds the errors of a document without security and servers (the lint is live)", async () => {
    const document: any = await openApiDocument();
    delete document.servers;
    for (const operations of Object.values<any>(document.paths))
      for (const operation of Object.values<any>(operations)) delete operation.security;
    const report = await lint(document);
    expect(report.totals.errors).toBeGreaterThan(0);
    expect(report.problems.map((problem) => problem.ruleId)).toEqual(
      expect.arrayContaining(["no-empty-servers", "security-defined"]),
    );
  });

  it("names every operation with a unique camelCase operationId", async () => {
    const document: any = await openApiDocument();
    const ids = Object.values<any>(document.paths).flatMap((operations) =>
      Object.values<any>(operations).map((operation) => operation.operationId),
    );
    expect(ids.length).toBeGreaterThan(10);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z]+$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("publishes the error codes as an enum, each with its meaning", async () => {
    const document: any = await openApiDocument();
    const code = document.components.schemas.Error.properties.error.properties.code;
    expect(code.enum).toEqual(
      expect.arrayContaining(["invalid_body", "unsupported_media_type", "database_unavailable"]),
    );
    for (const value of code.enum) expect(code.description).toContain(`\`${value}\``);
  });
});
