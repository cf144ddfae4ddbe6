// The house agents as a child process of the local stack (agents/main.ts, as `npm run agents` runs
// it), with tokens minted here with the API's signing secret: an admin token, with which the runner
// registers the house agents on its first start (POST /api/agents/house; later starts find them
// registered), and one token per agent with the roles `agent` and `verified`.
import { join } from "node:path";
import { SignJWT } from "jose";
import { HOUSE_AGENTS } from "../../agents/house";
import { LOCAL_JWT_AUDIENCE, LOCAL_JWT_ISSUER, LOCAL_JWT_SECRET } from "./keys";
import { type Child, startTypeScriptChild, stopChild, waitUntil } from "./processes";

const ROOT = join(import.meta.dirname, "../..");
/** The runner lives as long as the stack; a year outlasts any local session. */
const TOKEN_TTL_SECONDS = 365 * 24 * 3600;

export type RunningAgent = { name: string; strategy: string; userId: string; agentId: string | null };

export type AgentsOptions = {
  apiUrl: string;
  metricsPort: number;
  logFile: string;
  /** How the API verifies tokens: its JWT_SECRET, JWT_ISSUER and JWT_AUDIENCE when set, the local ones otherwise. */
  jwt?: { secret?: string; issuer?: string; audience?: string };
  /** Runner settings (AGENTS_TICK_MS, AGENTS_PARAMS, ...; see agents/config.ts). */
  env?: Record<string, string>;
  onSpawn?: (child: Child) => void;
};

export async function startAgents(
  options: AgentsOptions,
): Promise<{ child: Child; metricsUrl: string; agents: RunningAgent[] }> {
  const mint = (userId: string, roles: string[]) =>
    new SignJWT({ roles, email_verified: roles.includes("verified") })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + TOKEN_TTL_SECONDS)
      .setIssuer(options.jwt?.issuer || LOCAL_JWT_ISSUER)
      .setAudience(options.jwt?.audience || LOCAL_JWT_AUDIENCE)
      .sign(new TextEncoder().encode(options.jwt?.secret || LOCAL_JWT_SECRET));
  const tokens = Object.fromEntries(
    await Promise.all(
      HOUSE_AGENTS.map(async (agent) => [agent.tokenVariable, await mint(agent.userId, ["agent", "verified"])]),
    ),
  );
  const child = startTypeScriptChild("agents", join(ROOT, "agents/main.ts"), {
    cwd: ROOT,
    logFile: options.logFile,
    env: {
      API_URL: options.apiUrl,
      AGENTS_ADMIN_TOKEN: await mint("house-operator", ["admin"]),
      ...tokens,
      AGENTS_METRICS_PORT: String(options.metricsPort),
      LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
      ...options.env,
    },
  });
  options.onSpawn?.(child);
  const metricsUrl = `http://127.0.0.1:${options.metricsPort}`;
  try {
    // Ready once every agent is registered (house flag, seeded vault) and running.
    await waitUntil("agents", async () => (await fetch(`${metricsUrl}/health`)).ok, { child, timeoutMs: 120_000 });
    const { agents } = (await (await fetch(`${metricsUrl}/agents`)).json()) as { agents: RunningAgent[] };
    return { child, metricsUrl, agents };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}
