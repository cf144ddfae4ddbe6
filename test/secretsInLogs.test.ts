// No secret leaves through a log or a command line: a trading session on the real stack (a wallet,
// the faucet, a buy to confirmed, a sell, bad tokens, oversized requests) with the API logging at
// debug, then every process of the stack has its command line read, as `ps` shows it to any user
// of the host, and once the stack has stopped every log it wrote is searched, for the JWT secret,
// every private key, the wallet master key and the owner key derived from it, and each bearer
// token sent. The same session checks what every answer carries against sniffing and framing.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownerKeyFor } from "../api/chain/walletKeys";
import { LOCAL_JWT_SECRET, LOCAL_WALLET_MASTER_KEY } from "../scripts/stack/keys";
import { localFacilitatorKey } from "../scripts/stack/paymentChain";
import { testClient } from "./helpers/client";
import { expectEnvelope } from "./helpers/http";
import { startTestStack, type TestStack } from "./helpers/stack";
import { tokenFor } from "./helpers/tokens";

/** Every process at or below `pid` (tsx runs the API in a child of its own), with its command line. */
function processTree(pid: number): { pid: number; command: string }[] {
  try {
    const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
    const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean).map(Number),
    );
    return [{ pid, command }, ...children.flatMap(processTree)];
  } catch {
    return []; // exited meanwhile
  }
}

/**
 * `body` sent chunked, with no length to refuse up front, so that the limit has to count what
 * arrives. The answer may come before the body is all sent, and the connection then closes under
 * the rest: what is not sent is of no interest.
 */
function sendChunked(url: string, method: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    // Named: node sends a DELETE's body unframed otherwise.
    const headers = { "content-type": "application/json", "transfer-encoding": "chunked" };
    const req = request(url, { method, agent: false, headers }, (res) => {
      let text = "";
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, body: text }));
      res.on("error", reject);
    });
    req.on("error", () => {});
    for (let i = 0; i < body.length; i += 64 * 1024) req.write(body.slice(i, i + 64 * 1024));
    req.end();
  });
}

/** Every file below `dir`. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesBelow(path) : [path];
  });
}

/** The forms a secret may take in text: as given, without 0x, in either case. */
const formsOf = (secret: string) => {
  const bare = secret.replace(/^0x/i, "");
  return [...new Set([secret, bare, bare.toLowerCase(), bare.toUpperCase()])];
};

describe("secrets in logs and command lines", () => {
  let stack: TestStack;
  let client: ReturnType<typeof testClient>;
  const user = "secrets-trader";
  const secrets: Record<string, string> = {};
  const readLogs = () =>
    filesBelow(join(stack.dataDir, "logs")).map((file) => ({ file, text: readFileSync(file, "utf8") }));

  beforeAll(async () => {
    stack = await startTestStack({ apiEnv: { LOG_LEVEL: "debug" } });
    client = testClient(stack.apiUrl!);
    Object.assign(secrets, {
      JWT_SECRET: LOCAL_JWT_SECRET,
      WALLET_MASTER_KEY: LOCAL_WALLET_MASTER_KEY,
      "the trader's owner key": ownerKeyFor(LOCAL_WALLET_MASTER_KEY, user),
      FACILITATOR_PRIVATE_KEY: localFacilitatorKey(),
      ...Object.fromEntries(Object.entries(stack.keys).map(([role, key]) => [`${role} key`, key])),
    });
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  it("runs a trading session: a wallet, the faucet, a buy confirmed, a sell, and bad tokens refused", async () => {
    const token = await tokenFor(user);
    secrets["the trader's token"] = token;
    const trade = (path: string, body: unknown) => client.call("POST", path, { token, body });
    expect((await trade("/api/wallet/get-or-create", undefined)).status).toBe(200);
    expect((await trade("/api/wallet/faucet", undefined)).status).toBe(200);
    const market = stack.deployment.markets[1]!.slug;
    const buy = await trade("/api/trade/buy", { marketSlug: market, outcome: "Yes", amount: 5 });
    expect(buy.status).toBe(200);
    let status = "pending";
    for (let i = 0; i < 200 && status === "pending"; i++) {
      status = (await client.call("GET", `/api/trade/status/${buy.body.txId}`, { token })).body.status;
      if (status === "pending") await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe("confirmed");
    const sell = await trade("/api/trade/sell", { marketSlug: market, outcome: "Yes", tokenAmount: 1 });
    expect(sell.status).toBe(200);

    const forged = await tokenFor(user, {}, { secret: "a-guess-at-the-secret-of-32-characters" });
    const expired = await tokenFor(user, {}, { expiresAt: Math.floor(Date.now() / 1000) - 60 });
    secrets["a forged token"] = forged;
    secrets["an expired token"] = expired;
    for (const bad of [forged, expired, `${token.slice(0, -4)}AAAA`]) {
      const refused = await client.call("POST", "/api/wallet/faucet", { token: bad });
      expect(refused.status).toBe(401);
      expectEnvelope(refused.body, "unauthorized");
    }
  });

  it("sends nosniff with every answer, JSON, stream or error, and a strict policy with HTML", async () => {
    for (const path of ["/api/markets", "/health", "/openapi/api.json", "/api/nowhere", "/api/markets?limit=0"]) {
      const response = await fetch(`${stack.apiUrl}${path}`);
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(response.headers.get("content-security-policy"), path).toBeNull();
    }
    const stream = new AbortController();
    const events = await fetch(`${stack.apiUrl}/api/trade/stream`, { signal: stream.signal });
    expect(events.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(events.headers.get("x-content-type-options")).toBe("nosniff");
    stream.abort();
    const docs = await fetch(`${stack.apiUrl}/docs`);
    expect(docs.headers.get("content-type")).toMatch(/^text\/html/);
    expect(docs.headers.get("content-security-policy")).toMatch(/^default-src 'none'; script-src 'nonce-/);
  });

  it("refuses an oversized chunked body with 413 on every operation that takes a body, before authentication", async () => {
    const document = (await (await fetch(`${stack.apiUrl}/openapi/api.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((method) => ["post", "put", "patch", "delete"].includes(method))
        .map((method) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, "x") })),
    );
    expect(operations.length).toBeGreaterThan(15);
    // Past every route's limit: posts take up to 12 bytes a character of JOURNAL_MAX_LEN (20,000) more.
    const oversized = JSON.stringify({ padding: "x".repeat(1024 * 1024) });
    for (const { method, path } of operations) {
      const answer = await sendChunked(`${stack.apiUrl}${path}`, method, oversized);
      expect(answer.status, `${method} ${path}: ${answer.body}`).toBe(413);
      expectEnvelope(JSON.parse(answer.body), "payload_too_large");
    }
  });

  it("answers headers over 16 KiB with 431 in the envelope", async () => {
    const { port, hostname } = new URL(stack.apiUrl!);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () =>
        socket.write(`GET /api/markets HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`),
      );
      let text = "";
      socket.on("data", (chunk) => (text += chunk));
      socket.on("error", reject);
      socket.on("close", () => resolve(text));
    });
    const [head, body] = answer.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head!.toLowerCase()).toContain("x-content-type-options: nosniff");
    expectEnvelope(JSON.parse(body!), "headers_too_large");
  });

  it("puts no secret on the command line of any process of the stack", () => {
    const processes = stack.children.flatMap((child) => processTree(child.process.pid!));
    expect(processes.map((process) => process.command).join("\n")).toMatch(/alto/);
    expect(processes.length).toBeGreaterThanOrEqual(stack.children.length);
    const found = processes.flatMap(({ pid, command }) =>
      Object.entries(secrets).flatMap(([name, secret]) =>
        formsOf(secret).some((form) => command.includes(form))
          ? [`${name} in the command line of ${pid}: ${command}`]
          : [],
      ),
    );
    expect(found).toEqual([]);
  });

  it("writes no secret to any log, once the stack has stopped and every log is complete", async () => {
    await stack.stop();
    const logs = readLogs();
    expect(logs.map((log) => log.file.split("/").pop()).sort()).toEqual(
      expect.arrayContaining(["alto.log", "anvil.log", "api.log", "ponder.log"]),
    );
    // The session is in the logs, so that a clean search means something.
    const api = logs.find((log) => log.file.endsWith("api.log"))!.text;
    expect(api).toContain('"path":"/api/trade/buy"');
    expect(api).toContain('"status":401');
    const found = logs.flatMap(({ file, text }) =>
      Object.entries(secrets).flatMap(([name, secret]) =>
        formsOf(secret).some((form) => text.includes(form)) ? [`${name} in ${file}`] : [],
      ),
    );
    expect(found).toEqual([]);
  });
});
