// The whole HTTP surface under random input: for every operation of the served OpenAPI document,
// random path segments, query strings, headers, content types and bodies, with and without valid
// tokens. No answer is a 5xx, every non-2xx is the JSON error envelope with a catalogued code, and
// every 2xx has a documented media type. The API runs in this process (api/service.ts, as the
// server builds it) on the stack's real database, chain and bundler, so that a failure shows its
// stack trace here; requests go through its HTTP server, because the event stream answers on the
// Node response itself rather than through Hono's app.request.
import { dirname } from "node:path";
import fc from "fast-check";
import pg from "pg";
import pino from "pino";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPENAPI_PATH } from "../api/app";
import { loadConfig } from "../api/config";
import { type ApiService, startApiService } from "../api/service";
import { waitForIndexer } from "../scripts/stack/indexer";
import { LOCAL_JWT_AUDIENCE, LOCAL_JWT_ISSUER, LOCAL_JWT_SECRET, LOCAL_WALLET_MASTER_KEY } from "../scripts/stack/keys";
import { localFacilitatorKey } from "../scripts/stack/paymentChain";
import { expectEnvelope } from "./helpers/http";
import { type Operation, operationsOf, type RandomRequest, randomRequest } from "./helpers/randomRequests";
import { startTestStack, type TestStack } from "./helpers/stack";
import { tokenFor } from "./helpers/tokens";

const REQUESTS = Number(process.env.PROPERTY_RUNS ?? 2_400);

describe("the HTTP surface under random input", () => {
  let stack: TestStack;
  let service: ApiService;
  let document: any;
  let operations: Operation[];
  let db: pg.Client;
  const tokens: Record<"alice" | "bob" | "admin", string> = { alice: "", bob: "", admin: "" };

  beforeAll(async () => {
    stack = await startTestStack();
    await waitForIndexer({ indexerUrl: stack.indexerUrl!, rpcUrl: stack.rpcUrl });
    const config = loadConfig({
      PORT: "0",
      DATABASE_URL: stack.databaseUrl,
      VIEWS_SCHEMA: stack.viewsSchema,
      INDEXER_URL: stack.indexerUrl,
      CHAIN_ID: String(stack.deployment.chainId),
      RPC_URL: stack.rpcUrl,
      DEPLOYMENTS_DIR: dirname(stack.deploymentFile),
      OPERATOR_PRIVATE_KEY: stack.keys.operator,
      BUNDLER_URL: stack.bundlerUrl,
      PAYMASTER_SIGNER_KEY: stack.keys.paymasterSigner,
      JWT_SECRET: LOCAL_JWT_SECRET,
      JWT_ISSUER: LOCAL_JWT_ISSUER,
      JWT_AUDIENCE: LOCAL_JWT_AUDIENCE,
      WALLET_MASTER_KEY: LOCAL_WALLET_MASTER_KEY,
      // Paid research takes payments, so that its 402 and its refusals are fuzzed too.
      PAYMENT_RPC_URL: stack.paymentChain.rpcUrl,
      PAYMENT_PAY_TO: privateKeyToAccount(stack.keys.treasury).address,
      FACILITATOR_PRIVATE_KEY: localFacilitatorKey(),
      LOG_LEVEL: "silent",
    });
    service = await startApiService(config, pino({ level: process.env.LOG_LEVEL ?? "silent" }));
    document = await (await fetch(`${service.url}${OPENAPI_PATH}`)).json();
    operations = operationsOf(document);
    tokens.alice = await tokenFor("property-alice");
    tokens.bob = await tokenFor("property-bob");
    tokens.admin = await tokenFor("property-admin", { roles: ["admin"] });
    db = new pg.Client(stack.databaseUrl);
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await service?.close();
    await stack?.dispose();
  });

  async function send(request: { method: string; url: string; headers: Record<string, string>; body?: string }) {
    const abort = new AbortController();
    const response = await fetch(`${service.url}${request.url}`, {
      method: request.method,
      headers: request.headers,
      // Bytes, so that fetch adds no content type of its own.
      body: request.body === undefined ? undefined : Buffer.from(request.body),
      signal: AbortSignal.any([abort.signal, AbortSignal.timeout(10_000)]),
    }).catch((error) => {
      throw new Error(
        `no answer to ${request.method} ${request.url} ${JSON.stringify(request.headers)} ${request.body?.slice(0, 200)}`,
        { cause: error },
      );
    });
    const contentType = response.headers.get("content-type") ?? "";
    // An event stream stays open: its status and headers are the answer.
    if (contentType.startsWith("text/event-stream")) {
      abort.abort();
      return { status: response.status, contentType, text: "" };
    }
    return { status: response.status, contentType, text: await response.text() };
  }

  function check(request: RandomRequest, answer: { status: number; contentType: string; text: string }) {
    const described = `${request.method} ${request.url} ${JSON.stringify(request.headers)} body ${request.body?.slice(0, 300)}\n→ ${answer.status} ${answer.contentType} ${answer.text.slice(0, 500)}`;
    if (answer.status >= 500) throw new Error(`a 5xx: ${described}`);
    if (answer.status >= 200 && answer.status < 300) {
      const documented = request.operation.responses[String(answer.status)];
      if (!documented?.some((mediaType) => answer.contentType.startsWith(mediaType)))
        throw new Error(`an undocumented 2xx or media type: ${described}`);
      return;
    }
    if (!answer.contentType.startsWith("application/json")) throw new Error(`not JSON: ${described}`);
    const body = JSON.parse(answer.text);
    expectEnvelope(body);
    if (!codes().includes(body.error.code)) throw new Error(`a code outside the catalogue: ${described}`);
  }

  const codes = (): string[] => document.components.schemas.Error.properties.error.properties.code.enum;

  it(`answers ${REQUESTS} random requests over every documented operation without a 5xx, errors in the envelope`, async () => {
    const markets: any = await (await fetch(`${service.url}/api/markets?limit=200`)).json();
    const words = {
      slugs: markets.markets.map((market: { slug: string }) => market.slug),
      outcomes: [...new Set<string>(markets.markets.flatMap((market: { outcomes: string[] }) => market.outcomes))],
      tokens: Object.values(tokens),
    };
    expect(words.slugs.length).toBeGreaterThan(0);
    // Wallets for two of the users, so that writes get past the wallet check to the market's.
    for (const token of [tokens.alice, tokens.admin]) {
      await send({ method: "POST", url: "/api/wallet/get-or-create", headers: { authorization: `Bearer ${token}` } });
      await send({ method: "POST", url: "/api/wallet/faucet", headers: { authorization: `Bearer ${token}` } });
    }

    const perOperation = new Map<string, Record<number, number>>();
    await fc.assert(
      fc.asyncProperty(randomRequest(operations, words), async (request) => {
        const answer = await send(request);
        const statuses = perOperation.get(request.operation.operationId) ?? {};
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        perOperation.set(request.operation.operationId, statuses);
        check(request, answer);
      }),
      {
        numRuns: REQUESTS,
        seed: process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : undefined,
        // The failure message names the request in full; shrinking would replay slow writes for minutes.
        endOnFailure: true,
      },
    );

    const sent = [...perOperation.values()].flatMap(Object.values).reduce((sum, count) => sum + count, 0);
    console.log(
      [
        `property test: ${sent} requests over ${perOperation.size} operations; answers by status:`,
        ...[...perOperation].map(([operationId, statuses]) => `  ${operationId}: ${JSON.stringify(statuses)}`),
      ].join("\n"),
    );
    expect(sent).toBeGreaterThanOrEqual(2_000);
    expect([...perOperation.keys()].sort()).toEqual(operations.map((operation) => operation.operationId).sort());
  });

  describe("the bad inputs the issue found, one by one", () => {
    const WRITES = ["/api/trade/buy", "/api/trade/sell", "/api/trade/claim", "/api/markets"];
    const json = (body: string) => ({ body, contentType: "application/json" });
    const EXAMPLES: [string, { body: string; contentType?: string }, number, string][] = [
      [
        "a form body",
        { body: "marketSlug=x&outcome=Yes", contentType: "application/x-www-form-urlencoded" },
        415,
        "unsupported_media_type",
      ],
      [
        "an XML body",
        { body: "<buy><amount>1</amount></buy>", contentType: "application/xml" },
        415,
        "unsupported_media_type",
      ],
      [
        "a multipart body",
        {
          body: '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--xyz--\r\n',
          contentType: "multipart/form-data; boundary=xyz",
        },
        415,
        "unsupported_media_type",
      ],
      ["a body without a content type", { body: '{"marketSlug":"x"}' }, 415, "unsupported_media_type"],
      ["a trailing comma", json('{"a":1,}'), 400, "invalid_body"],
      ["single quotes", json("{'marketSlug':'x'}"), 400, "invalid_body"],
      ["Infinity", json('{"amount":Infinity}'), 400, "invalid_body"],
      ["a truncated body", json('{"a":'), 400, "invalid_body"],
      ["a form body sent as JSON", json("marketSlug=x&outcome=Yes&amount=1"), 400, "invalid_body"],
      ["a body over 64 KiB", json(`{"marketSlug":"${"x".repeat(70_000)}"}`), 413, "payload_too_large"],
      [
        "a NUL in the market slug",
        json('{"marketSlug":"a\\u0000b","outcome":"Yes","amount":1}'),
        400,
        "invalid_parameter",
      ],
    ];
    const cases = WRITES.flatMap((path) =>
      EXAMPLES.map(([what, request, status, code]) => ({ path, what, request, status, code })),
    );

    const rowCounts = async () =>
      (
        await db.query(
          "SELECT (SELECT count(*) FROM api.submission) AS submissions, (SELECT count(*) FROM api.idempotency_key) AS keys, (SELECT count(*) FROM api.market_draft) AS drafts",
        )
      ).rows[0];

    it.each(cases)(
      "POST $path with $what answers $status $code, writing nothing",
      async ({ path, request, status, code }) => {
        const before = await rowCounts();
        const headers: Record<string, string> = {
          authorization: `Bearer ${tokens.admin}`,
          "idempotency-key": `found-${Math.random()}`,
        };
        if (request.contentType) headers["content-type"] = request.contentType;
        const answer = await send({ method: "POST", url: path, headers, body: request.body });
        expect(answer.status, answer.text).toBe(status);
        expect(answer.contentType).toMatch(/^application\/json/);
        expectEnvelope(JSON.parse(answer.text), code);
        expect(await rowCounts()).toEqual(before);
      },
    );

    it.each([
      ["GET", "/api/markets/%00/prices"],
      ["GET", "/api/markets/%00"],
      ["POST", "/api/markets/active%00/activate"],
      ["POST", "/api/markets/active%00/resolve"],
      ["GET", "/api/trade/stream?marketSlug=%00"],
    ])("%s %s answers 400 naming the parameter", async (method, url) => {
      const answer = await send({ method, url, headers: { authorization: `Bearer ${tokens.admin}` } });
      expect(answer.status, answer.text).toBe(400);
      const body = JSON.parse(answer.text);
      expectEnvelope(body, "invalid_parameter");
      expect(["slug", "marketSlug"]).toContain(body.error.details.parameter);
    });
  });
});
