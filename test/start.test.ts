// `npm start` as a user runs it, with settings of their own: each variable the README says it
// honours takes effect (JWT_SECRET included), and every part runs on the pinned Node 22 even when
// the Node first on the machine's PATH is another.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import pg from "pg";
import type { Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicClientFor } from "../api/chain/chain";
import { simpleAccount } from "../api/chain/smartAccount";
import { ownerKeyFor } from "../api/chain/walletKeys";
import type { Deployment } from "../deployments/schema";
import { LOCAL_JWT_AUDIENCE, LOCAL_JWT_SECRET, LOCAL_WALLET_MASTER_KEY } from "../scripts/stack/keys";
import { freePort } from "../scripts/stack/ports";
import { NODE } from "../scripts/stack/processes";
import { API_VARIABLES, INDEXER_VARIABLES } from "../scripts/stack/settings";
import { getJson } from "./helpers/http";
import { tokenFor } from "./helpers/tokens";

const ROOT = join(import.meta.dirname, "..");
const PINNED_NODE = realpathSync(NODE);

/** Every process below `pid`, with what it runs and its environment. */
function descendants(pid: number): { pid: number; exe: string; command: string; env: Record<string, string> }[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean).map(Number),
  );
  return children.flatMap((child) => {
    try {
      const env = Object.fromEntries(
        readFileSync(`/proc/${child}/environ`, "utf8")
          .split("\0")
          .filter(Boolean)
          .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
      );
      const command = readFileSync(`/proc/${child}/cmdline`, "utf8").split("\0").join(" ");
      return [{ pid: child, exe: readlinkSync(`/proc/${child}/exe`), command, env }, ...descendants(child)];
    } catch {
      return []; // exited meanwhile
    }
  });
}

type Ports = Record<
  | "PORT"
  | "CHAIN_PORT"
  | "PAYMENT_CHAIN_PORT"
  | "BUNDLER_PORT"
  | "INDEXER_PORT"
  | "EMBEDDED_DATABASE_PORT"
  | "AGENTS_METRICS_PORT",
  number
>;
type NpmStart = { process: ChildProcess; output: string; dispose: () => Promise<void> };

async function freePorts(): Promise<Ports> {
  return {
    PORT: await freePort(),
    CHAIN_PORT: await freePort(),
    PAYMENT_CHAIN_PORT: await freePort(),
    BUNDLER_PORT: await freePort(),
    INDEXER_PORT: await freePort(),
    EMBEDDED_DATABASE_PORT: await freePort(),
    AGENTS_METRICS_PORT: await freePort(),
  };
}

/**
 * scripts/start.ts, which `npm start` runs, in `dir` on `ports` with `env`, once it is up. Its PATH
 * is the machine's without the project's bin folder: whatever Node comes first there, the parts
 * must run on the pinned one.
 */
async function npmStart(dir: string, ports: Ports, env: Record<string, string>): Promise<NpmStart> {
  const path = (process.env.PATH ?? "")
    .split(delimiter)
    .filter((entry) => !entry.includes("node_modules"))
    .join(delimiter);
  const child = spawn(NODE, [join(ROOT, "node_modules/.bin/tsx"), "scripts/start.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PATH: path,
      ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
      DATA_DIR: join(dir, "data"),
      BLOCK_TIME_MS: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const run: NpmStart = {
    process: child,
    output: "",
    dispose: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGINT");
        await exited;
      }
      const schemas = run.output.match(/tables in schema (\S+), views in (\S+)/)?.slice(1) ?? [];
      if (process.env.DATABASE_URL && schemas.length > 0) {
        const client = new pg.Client(process.env.DATABASE_URL);
        await client.connect();
        for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      }
      if (!process.env.KEEP_STACK_DATA) rmSync(dir, { recursive: true, force: true });
    },
  };
  child.stdout!.on("data", (chunk) => (run.output += chunk));
  child.stderr!.on("data", (chunk) => (run.output += chunk));
  await new Promise<void>((resolve, reject) => {
    // The hint on getting a token comes last.
    child.stdout!.on("data", () => /A token for the API|Tokens:/.test(run.output) && resolve());
    child.once("exit", (code) => reject(new Error(`npm start exited (${code}):\n${run.output}`)));
  });
  return run;
}

describe("npm start with settings of one's own", () => {
  const dir = mkdtempSync(join(tmpdir(), "pm-start-"));
  const deploymentsDir = join(dir, "deployments");
  const secret = "a-secret-of-my-own-at-least-32-characters-long";
  const operatorKey = generatePrivateKey();
  const paymasterSignerKey = generatePrivateKey();
  const masterKey = generatePrivateKey();
  const viewsSchema = `app_start_${Math.random().toString(36).slice(2, 8)}`;
  // Values unlike every default, so that the API's environment shows whose they are.
  const settings: Record<(typeof API_VARIABLES)[number] | (typeof INDEXER_VARIABLES)[number], string> = {
    HOST: "127.0.0.2",
    LOG_LEVEL: "debug",
    DATABASE_POOL_SIZE: "3",
    MAX_BODY_BYTES: "32768",
    // Checked in a run of its own: with it, JWT_SECRET would not count.
    JWKS_URL: "",
    JWT_SECRET: secret,
    JWT_ISSUER: "https://id.example.test",
    JWT_AUDIENCE: "my-audience",
    WALLET_MASTER_KEY: masterKey,
    OPERATOR_PRIVATE_KEY: operatorKey,
    PAYMASTER_SIGNER_KEY: paymasterSignerKey,
    BUNDLER_URL: "", // the bundler's port is only known below
    PAYMASTER_URL: "http://127.0.0.1:9/erc7677",
    FAUCET_ENABLED: "true",
    FAUCET_AMOUNT_USDC: "7",
    FAUCET_INTERVAL_SECONDS: "120",
    READ_CACHE_TTL_MS: "0",
    STREAM_PING_MS: "1234",
    STREAM_RETENTION_HOURS: "2",
    STREAM_MAX_CLIENTS: "77",
    STREAM_MAX_BUFFER_BYTES: "65536",
    STREAM_FANOUT_SLICE_MS: "3",
    STREAM_REORG_DEPTH: "40",
    JOURNAL_LIVE: "false",
    JOURNAL_MAX_LEN: "1234",
    JOURNAL_VIEW_FLUSH_MS: "250",
    WRITE_LIMIT_POSTS: "2/7m",
    WRITE_LIMIT_COMMENTS: "9/90s",
    WRITE_LIMIT_TIPS: "4/20m",
    WRITE_LIMIT_TRADES: "500/2m",
    WRITE_LIMIT_AGENTS: "50/20m",
    WRITE_LIMIT_ACCOUNT: "90/20m",
    WRITE_LIMIT_ADMIN: "80/2m",
    WRITE_LIMIT_FAUCET: "70/2h",
    READ_LIMIT: "5000/30s",
    TRUST_PROXY_HOPS: "2",
    // The machine's Redis (the API checks it answers at start), under keys of this run's own.
    REDIS_URL: "redis://127.0.0.1:6379",
    REDIS_KEY_PREFIX: `pm-start-${Math.random().toString(36).slice(2, 8)}:`,
    SHUTDOWN_DRAIN_MS: "3000",
    PAYMENT_PAY_TO: privateKeyToAccount(generatePrivateKey()).address,
    // Loopback addresses where nothing answers: this run checks only that they are passed on.
    FACILITATOR_URL: "http://127.0.0.1:9/facilitator",
    FACILITATOR_PRIVATE_KEY: generatePrivateKey(),
    RESEARCH_DEADLINE_MS: "4321",
    SEARXNG_URL: "http://127.0.0.1:9/searxng",
    POLLING_INTERVAL_MS: "250",
    PONDER_RPC_CACHE: "false",
    PONDER_LOG_LEVEL: "info",
  };
  // Users of their own: wallets live in the database, which other stacks may share.
  const alice = `alice-${Math.random().toString(36).slice(2, 8)}`;
  const bob = `bob-${Math.random().toString(36).slice(2, 8)}`;
  let run: NpmStart;
  let start: ChildProcess;
  let output = "";
  let apiUrl: string;
  let ports: Ports;

  beforeAll(async () => {
    ports = await freePorts();
    // localhost, not the stack's 127.0.0.1: the same Alto, under a name that only this setting gives.
    settings.BUNDLER_URL = `http://localhost:${ports.BUNDLER_PORT}/rpc`;
    run = await npmStart(dir, ports, { ...settings, DEPLOYMENTS_DIR: deploymentsDir, VIEWS_SCHEMA: viewsSchema });
    ({ process: start, output } = run);
    apiUrl = `http://127.0.0.2:${ports.PORT}`;
  });
  afterAll(() => run?.dispose());

  const apiProcess = () => {
    const api = descendants(start.pid!).filter((p) => p.command.includes("api/server.ts"));
    // tsx runs the server in a child of its own: the last one found is the server itself.
    return api.at(-1)!;
  };

  it("runs every part on the pinned Node 22, and says so", async () => {
    expect(output).toMatch(/Node\.js\s+v22\.\d+\.\d+/);
    const nodes = descendants(start.pid!).filter((p) => /\/node$/.test(p.exe) || p.exe.endsWith("/node (deleted)"));
    // start.ts under tsx, the API (tsx and its child), Alto, Ponder
    expect(nodes.length).toBeGreaterThanOrEqual(5);
    for (const node of nodes) expect(node.exe, node.command).toBe(PINNED_NODE);
    const log = readFileSync(join(dir, "data/logs/api.log"), "utf8");
    // The log file also takes the process's stderr, where Node writes its own warnings as text.
    const listening = log
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line))
      .find((line) => line.msg === "API listening");
    expect(listening.node).toMatch(/^v22\./);
  });

  it("runs the tests themselves on the pinned Node 22", () => {
    expect(realpathSync(process.execPath)).toBe(PINNED_NODE);
    expect(process.version).toMatch(/^v22\./);
  });

  it("accepts a token signed with the given JWT_SECRET, issuer and audience, and refuses the local secret's", async () => {
    const own = await tokenFor(alice, {}, { secret, issuer: settings.JWT_ISSUER, audience: settings.JWT_AUDIENCE });
    const local = await tokenFor(alice, {}, { issuer: settings.JWT_ISSUER, audience: settings.JWT_AUDIENCE });
    const wrongAudience = await tokenFor(alice, {}, { secret, issuer: settings.JWT_ISSUER });
    expect((await getJson(apiUrl, "/api/wallet/balance", { authorization: `Bearer ${own}` })).status).not.toBe(401);
    expect((await getJson(apiUrl, "/api/wallet/balance", { authorization: `Bearer ${local}` })).status).toBe(401);
    expect((await getJson(apiUrl, "/api/wallet/balance", { authorization: `Bearer ${wrongAudience}` })).status).toBe(
      401,
    );
  });

  it("prints how to get a token without printing the secret", () => {
    expect(output).toContain("your JWT_SECRET");
    expect(output).not.toContain(secret);
  });

  it("derives wallets from the given WALLET_MASTER_KEY", async () => {
    const token = await tokenFor(alice, {}, { secret, issuer: settings.JWT_ISSUER, audience: settings.JWT_AUDIENCE });
    const response = await fetch(`${apiUrl}/api/wallet/get-or-create`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    const { address } = (await response.json()) as { address: Address };
    const chain = publicClientFor(`http://127.0.0.1:${ports.CHAIN_PORT}`);
    expect(address).toBe((await simpleAccount(chain, ownerKeyFor(masterKey, alice))).address);
    expect(address).not.toBe((await simpleAccount(chain, ownerKeyFor(LOCAL_WALLET_MASTER_KEY, alice))).address);
  });

  it("deploys with the given operator and paymaster signer, and the faucet mints the given amount with the given interval", async () => {
    const deployment: Deployment = JSON.parse(readFileSync(join(deploymentsDir, "2010111.json"), "utf8"));
    expect(deployment.roles.operator).toBe(privateKeyToAccount(operatorKey).address);
    expect(deployment.roles.paymasterSigner).toBe(privateKeyToAccount(paymasterSignerKey).address);
    const token = await tokenFor(bob, {}, { secret, issuer: settings.JWT_ISSUER, audience: settings.JWT_AUDIENCE });
    const faucet = () =>
      fetch(`${apiUrl}/api/wallet/faucet`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    await fetch(`${apiUrl}/api/wallet/get-or-create`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    const grant = await faucet();
    expect(grant.status, await grant.clone().text()).toBe(200);
    expect(await grant.json()).toMatchObject({ amount: "7" });
    const again = await faucet();
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("retry-after"))).toBeLessThanOrEqual(120);
  });

  it("listens where PORT, HOST, CHAIN_PORT, BUNDLER_PORT and INDEXER_PORT say, writes to DATA_DIR and DEPLOYMENTS_DIR, and keeps automine with BLOCK_TIME_MS=0", async () => {
    expect((await fetch(`${apiUrl}/health`)).status).toBe(200);
    await expect(fetch(`http://127.0.0.1:${ports.PORT}/health`)).rejects.toThrow();
    const rpc = (url: string, method: string) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: [] }),
      }).then((r) => r.json() as Promise<{ result: unknown }>);
    expect((await rpc(`http://127.0.0.1:${ports.CHAIN_PORT}`, "anvil_getAutomine")).result).toBe(true);
    expect((await rpc(`http://127.0.0.1:${ports.BUNDLER_PORT}/rpc`, "eth_chainId")).result).toBe("0x1eabff");
    expect((await fetch(`http://127.0.0.1:${ports.INDEXER_PORT}/ready`)).status).toBe(200);
    expect(readdirSync(join(dir, "data/logs"))).toEqual(expect.arrayContaining(["api.log", "ponder.log"]));
    expect(output).toMatch(new RegExp(`deployment file +${join(deploymentsDir, "2010111.json")}`));
  });

  it("reads its views from VIEWS_SCHEMA", async () => {
    expect(output).toContain(`views in ${viewsSchema}`);
    const { status, body } = await getJson(apiUrl, "/ready");
    expect(status).toBe(200);
    expect(body.indexer).toBe(true);
  });

  it.each(API_VARIABLES.filter((name) => name !== "JWKS_URL"))("passes %s on to the API", (name) => {
    expect(apiProcess().env[name]).toBe(settings[name]);
  });

  it.each(INDEXER_VARIABLES)("passes %s on to the indexer", (name) => {
    const ponder = descendants(start.pid!).find((p) => p.command.includes("ponder"))!;
    expect(ponder.env[name]).toBe(settings[name]);
  });

  it("runs the house agents with tokens signed with the given JWT_SECRET, and prints them", async () => {
    for (const [name, strategy] of [
      ["House Market Maker", "market-maker"],
      ["House Momentum", "momentum"],
      ["House Contrarian", "contrarian"],
    ])
      expect(output).toMatch(new RegExp(`agent ${name}\\s+${strategy}  id 0x[0-9a-f]{40}`));
    expect(descendants(start.pid!).some((p) => p.command.includes("agents/main.ts"))).toBe(true);
    // Registered through the API that verifies the given secret, issuer and audience.
    const { body } = await getJson(apiUrl, "/api/agents/house");
    expect(body.agents.map((agent: { strategy: string }) => agent.strategy).sort()).toEqual([
      "contrarian",
      "market-maker",
      "momentum",
    ]);
  });

  it("stops every part on Ctrl-C", async () => {
    const parts = descendants(start.pid!).map((p) => p.pid);
    const exited = new Promise((resolve) => start.once("exit", resolve));
    start.kill("SIGINT");
    await exited;
    // A process that is gone, or a zombie waiting for a parent that will never reap it.
    const alive = parts.filter((pid) => {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
      } catch {
        return false;
      }
    });
    expect(alive).toEqual([]);
  });
});

describe("npm start with a JWKS_URL", () => {
  const dir = mkdtempSync(join(tmpdir(), "pm-start-jwks-"));
  const issuer = "https://id.example.test";
  let jwks: Server;
  let signingKey: Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
  let run: NpmStart;
  let apiUrl: string;

  beforeAll(async () => {
    const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
    signingKey = privateKey;
    const keys = [{ ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" }];
    jwks = createServer((_, response) => response.end(JSON.stringify({ keys })));
    await new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve));
    const jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;
    const ports = await freePorts();
    run = await npmStart(dir, ports, {
      JWKS_URL: jwksUrl,
      JWT_ISSUER: issuer,
      DEPLOYMENTS_DIR: join(dir, "deployments"),
    });
    apiUrl = `http://127.0.0.1:${ports.PORT}`;
  });
  afterAll(async () => {
    await run?.dispose();
    await new Promise((resolve) => jwks?.close(resolve));
  });

  it("accepts the identity provider's tokens and refuses the local secret's", async () => {
    const user = `carol-${Math.random().toString(36).slice(2, 8)}`;
    const fromProvider = await new SignJWT({})
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .setSubject(user)
      .setIssuer(issuer)
      .setAudience(LOCAL_JWT_AUDIENCE)
      .setExpirationTime("5m")
      .sign(signingKey);
    const local = await tokenFor(user, {}, { issuer });
    expect((await getJson(apiUrl, "/api/wallet/balance", { authorization: `Bearer ${fromProvider}` })).status).not.toBe(
      401,
    );
    expect((await getJson(apiUrl, "/api/wallet/balance", { authorization: `Bearer ${local}` })).status).toBe(401);
    expect(run.output).toContain("your JWKS_URL");
    expect(run.output).not.toContain(LOCAL_JWT_SECRET);
    // It cannot mint the house agents' tokens for an identity provider.
    expect(run.output).toMatch(/house agents\s+off \(JWKS_URL is set/);
  });
});
