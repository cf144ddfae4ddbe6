// The OpenAPI document: valid by a validator library, and complete: every route the app serves is
// in it. Runs the app in-process; no stack is needed to describe it.

import { compileErrors, validate } from "@readme/openapi-parser";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { createApp, OPENAPI_PATH } from "../api/app";
import { loadConfig } from "../api/config";
import { createPool } from "../api/db/pool";

// The pool never connects: describing routes runs no query.
const config = loadConfig({ DATABASE_URL: "postgres://unused@127.0.0.1:1/unused" });
const app = createApp({
  config,
  pool: createPool({ databaseUrl: config.DATABASE_URL, max: 1, logger: pino({ level: "silent" }) }),
  logger: pino({ level: "silent" }),
});

/** Routes that serve the documentation itself rather than the API it describes. */
const DOCUMENTATION_ROUTES = new Set([`GET ${OPENAPI_PATH}`, "GET /docs"]);

describe("OpenAPI document", () => {
  it("passes the validator", async () => {
    const document: any = await (await app.request(OPENAPI_PATH)).json();
    expect(document.openapi).toBe("3.1.0");
    const result = await validate(structuredClone(document));
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
  });

  it("describes every route the app serves", async () => {
    const document: any = await (await app.request(OPENAPI_PATH)).json();
    const served = app.routes
      .filter((route) => route.method !== "ALL")
      .map((route) => `${route.method} ${route.path}`)
      .filter((route) => !DOCUMENTATION_ROUTES.has(route));
    expect(served.length).toBeGreaterThan(5);
    for (const route of served) {
      const [method, path] = route.split(" ") as [string, string];
      const documented = document.paths[path.replace(/:(\w+)/g, "{$1}")]?.[method.toLowerCase()];
      expect(documented, `${route} is not in the document`).toBeDefined();
    }
  });

  it("lists the document in /openapi/index.json", async () => {
    const index: any = await (await app.request("/openapi/index.json")).json();
    expect(index.specs).toContainEqual(expect.objectContaining({ url: OPENAPI_PATH }));
  });
});
