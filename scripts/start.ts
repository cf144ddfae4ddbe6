// `npm start`: the whole service on this machine with embedded defaults; Ctrl-C stops it all.
import { execFileSync } from "node:child_process";
import { join, resolve } from "node:path";
import exitHook from "async-exit-hook";
import type { Hex } from "viem";
import { startStack } from "./stack";
import { LOCAL_JWT_SECRET } from "./stack/keys";
import { StartError } from "./stack/processes";
import { AGENT_VARIABLES, API_VARIABLES, givenValues } from "./stack/settings";

const root = join(import.meta.dirname, "..");
const env = process.env;
const dataDir = resolve(env.DATA_DIR || join(root, ".data"));

const keyFromEnv = (name: string): Hex | undefined => {
  const value = env[name];
  if (!value) return undefined;
  if (!/^0x[0-9a-fA-F]{64}$/.test(value)) {
    console.error(`${name} must be a private key as 0x and 64 hex digits`);
    process.exit(2);
  }
  return value as Hex;
};
const operator = keyFromEnv("OPERATOR_PRIVATE_KEY");
const paymasterSigner = keyFromEnv("PAYMASTER_SIGNER_KEY");
const apiEnv = givenValues(API_VARIABLES, env);
// With a JWKS the local secret stays out of the API, so that only the identity provider's tokens count.
if (env.JWKS_URL && !env.JWT_SECRET) apiEnv.JWT_SECRET = "";
// The house agents act with tokens minted here, which an API that trusts only a JWKS would refuse.
const agentsOff =
  env.AGENTS === "off" ? "AGENTS=off" : env.JWKS_URL ? "JWKS_URL is set: start.ts cannot mint their tokens" : "";

execFileSync(join(root, "node_modules/.bin/forge"), ["build", "--quiet"], { cwd: root, stdio: "inherit" });

// async-exit-hook exits the process on SIGINT/SIGTERM once every hook is done: this one makes that
// exit wait until every child has stopped, also when the signal comes in the middle of start-up.
let stopping = false;
let stopStack: () => Promise<void> = async () => {};
exitHook((done) => {
  stopping = true;
  console.log("\nStopping...");
  void stopStack().then(done);
});

const stack = await startStack({
  onStop: (stop) => (stopStack = stop),
  dataDir,
  deploymentsDir: resolve(env.DEPLOYMENTS_DIR || join(root, "deployments")),
  databaseUrl: env.DATABASE_URL || undefined,
  blockTimeMs: Number(env.BLOCK_TIME_MS ?? 1000),
  chainPort: Number(env.CHAIN_PORT ?? 8545),
  paymentChainPort: Number(env.PAYMENT_CHAIN_PORT ?? 8546),
  bundlerPort: Number(env.BUNDLER_PORT ?? 4337),
  databasePort: Number(env.EMBEDDED_DATABASE_PORT ?? 54329),
  indexerPort: Number(env.INDEXER_PORT ?? 42069),
  apiPort: Number(env.PORT ?? 3000),
  viewsSchema: env.VIEWS_SCHEMA || undefined,
  keys: { ...(operator && { operator }), ...(paymasterSigner && { paymasterSigner }) },
  apiEnv,
  ...(!agentsOff && {
    agents: { env: givenValues(AGENT_VARIABLES, env), metricsPort: Number(env.AGENTS_METRICS_PORT || 9464) },
  }),
}).catch((error: unknown) => {
  // Every child is stopped by now; a part that did not start says why and what to do.
  console.error(`\nThe stack did not start. ${error instanceof StartError ? error.message : (error as Error).stack}`);
  process.exit(1);
});

const { contracts, markets } = stack.deployment;
const rows: [string, string][] = [
  ["Node.js", `${process.version} (every part)`],
  ["chain (anvil)", `${stack.rpcUrl}  ws ${stack.wsUrl}  chain id ${stack.deployment.chainId}`],
  ["payment chain (anvil)", `${stack.paymentChain.rpcUrl}  chain id ${stack.paymentChain.chainId} (eip155)`],
  ["bundler (alto)", stack.bundlerUrl],
  ["database", `${stack.databaseUrl.replace(/:[^:@/]+@/, ":***@")}${databaseNote()}`],
  ["explorer", `${stack.apiUrl}/`],
  ["API", `${stack.apiUrl}  docs ${stack.apiUrl}/docs  OpenAPI ${stack.apiUrl}/openapi/api.json`],
  ["live stream (SSE)", `${stack.apiUrl}/api/trade/stream`],
  ["indexer (ponder)", `${stack.indexerUrl}  tables in schema ${stack.indexerSchema}, views in ${stack.viewsSchema}`],
  ["EntryPoint v0.7", contracts.entryPoint],
  ["SimpleAccountFactory", contracts.simpleAccountFactory],
  ["VerifyingPaymaster", contracts.verifyingPaymaster],
  ["TestUSDC", contracts.usdc],
  ["MarketFactory", contracts.marketFactory],
  ["AgentRegistry", contracts.agentRegistry],
  ["USDC (payment chain)", `${stack.paymentChain.usdc}  faucet: POST ${stack.apiUrl}/api/x402/faucet {"address"}`],
  ["Multicall3 (payment chain)", stack.paymentChain.multicall3],
  ["paid research (x402)", `${stack.apiUrl}/api/x402/research?q=...  discovery ${stack.apiUrl}/api/bazaar`],
  ...markets.map((m): [string, string] => [`market ${m.slug}`, m.address]),
  ...agentRows(),
  ["deployment file", stack.deploymentFile],
  ["logs", join(dataDir, "logs")],
];
const width = Math.max(...rows.map(([name]) => name.length));
console.log(`\nPrediction market stack is up (Ctrl-C stops everything):\n`);
for (const [name, value] of rows) console.log(`  ${name.padEnd(width)}  ${value}`);
console.log(`\n  ${tokenHint()}\n`);

for (const child of stack.children) {
  child.process.once("exit", (code, signal) => {
    if (stopping) return;
    console.error(`${child.name} exited (${code ?? signal}); see ${child.logFile}`);
    process.kill(process.pid, "SIGTERM");
  });
}

/** The house agents: where their counters are, and each agent's strategy and id (its smart account). */
function agentRows(): [string, string][] {
  const agents = stack.agents;
  if (!agents) return [["house agents", `off (${agentsOff})`]];
  return [
    [
      "house agents",
      `${agents.metricsUrl}/metrics  log ${join(dataDir, "logs", "agents.log")}  (AGENTS=off leaves them out)`,
    ],
    ...agents.running.map((agent): [string, string] => [
      `agent ${agent.name}`,
      `${agent.strategy}  id ${agent.agentId}`,
    ]),
  ];
}

function databaseNote(): string {
  const embedded = stack.database.embedded;
  return embedded ? `  (embedded, data in ${embedded.dataDir})` : "";
}

/** How to get a token the API accepts; a secret of the user's own is never printed. */
function tokenHint(): string {
  const command = "npm run token -- <userId> [--verified] [--admin]";
  if (env.JWKS_URL) return "Tokens: from the identity provider that publishes your JWKS_URL.";
  if (env.JWT_SECRET) return `A token for the API, with your JWT_SECRET in the environment: ${command}`;
  return `A token for the API (local secret): JWT_SECRET=${LOCAL_JWT_SECRET} ${command}`;
}
