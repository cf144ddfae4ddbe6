// `npm run agents`: the house agents against the API at API_URL, with the tokens in the environment
// (AGENT_TOKEN_MARKET_MAKER, AGENT_TOKEN_MOMENTUM, AGENT_TOKEN_CONTRARIAN; each agent whose token is
// set runs). With AGENTS_ADMIN_TOKEN it first registers them as house agents. `npm start` runs this
// file with tokens it mints itself.
import pino from "pino";
import type { AgentProfile } from "./agent";
import { agentProfiles, loadSettings, type RunnerSettings } from "./config";
import { startRunner } from "./runner";

let settings: RunnerSettings;
let profiles: AgentProfile[];
try {
  settings = loadSettings();
  profiles = agentProfiles(settings);
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
const logger = pino({ level: settings.LOG_LEVEL });

for (const profile of profiles)
  logger.info({ agent: profile.name, strategy: profile.key, userId: profile.userId, risk: profile.risk }, "agent");

const runner = await startRunner({
  apiUrl: settings.API_URL.replace(/\/$/, ""),
  agents: profiles,
  adminToken: settings.AGENTS_ADMIN_TOKEN,
  seedUsdc: settings.AGENTS_SEED_USDC,
  tickMs: settings.AGENTS_TICK_MS,
  postIntervalMs: settings.AGENTS_POST_INTERVAL_MS,
  markets: settings.AGENTS_MARKETS,
  metricsPort: settings.AGENTS_METRICS_PORT,
  logger,
}).catch((error: unknown) => {
  logger.fatal({ reason: (error as Error).message }, "the agents did not start");
  logger.flush();
  process.exit(1);
});
logger.info({ metrics: runner.metricsUrl, api: settings.API_URL }, "agents running");

const shutdown = () => {
  logger.info("stopping");
  setTimeout(() => process.exit(0), 5_000).unref();
  void runner.stop().then(() => process.exit(0));
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
