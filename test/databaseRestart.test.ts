// PostgreSQL restarted under a running API: requests meanwhile fail with 503 in the envelope, and the
// same API process answers again once the database is back. No process exits for it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testClient } from "./helpers/client";
import { expectEnvelope } from "./helpers/http";
import { startTestStack, type TestStack } from "./helpers/stack";
import { tokenFor } from "./helpers/tokens";

describe("a database restart", () => {
  let stack: TestStack;
  let client: ReturnType<typeof testClient>;

  beforeAll(async () => {
    // The read cache off, so that every read asks the database.
    stack = await startTestStack({ embeddedDatabase: true, apiEnv: { READ_CACHE_TTL_MS: "0" } });
    client = testClient(stack.apiUrl!, await tokenFor("restart-rita"));
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  it("answers 503 database_unavailable while PostgreSQL is down and 200 again afterwards, in the same process", async () => {
    const api = stack.children.find((child) => child.name === "api")!.process;
    const pid = api.pid;
    expect((await client.call("GET", "/api/markets")).status).toBe(200);

    await stack.database.embedded!.stop();
    for (const [method, path] of [
      ["GET", "/api/markets"],
      ["GET", "/api/trades/recent"],
      ["POST", "/api/wallet/get-or-create"],
    ] as const) {
      const { status, body } = await client.call(method, path);
      expect(status, `${method} ${path}`).toBe(503);
      expectEnvelope(body, "database_unavailable");
    }
    expect((await client.call("GET", "/health")).status).toBe(200);
    expect((await client.call("GET", "/ready")).status).toBe(503);

    await stack.database.embedded!.start();
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await client.call("GET", "/api/markets")).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe(200);
    expect((await client.call("POST", "/api/wallet/get-or-create")).status).toBe(200);
    expect(api.exitCode).toBeNull();
    expect(api.pid).toBe(pid);
  });
});
