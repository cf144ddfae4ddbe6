// The runner's settings, from the environment, checked once at start (as api/config.ts does for the
// API): where the API is, the tokens the agents act with, their schedule and their parameters.
import { z } from "zod";
import type { AgentProfile } from "./agent";
import { HOUSE_AGENTS } from "./house";

const optional = <T extends z.ZodType>(schema: T) => z.preprocess((value) => value || undefined, schema.optional());

const Settings = z.object({
  API_URL: z.url(),
  /** An admin token: with it the runner registers (and seeds) every house agent it has a token for. */
  AGENTS_ADMIN_TOKEN: optional(z.string()),
  AGENT_TOKEN_MARKET_MAKER: optional(z.string()),
  AGENT_TOKEN_MOMENTUM: optional(z.string()),
  AGENT_TOKEN_CONTRARIAN: optional(z.string()),
  /** How often every agent decides; a trade on the live stream brings the next round forward. */
  AGENTS_TICK_MS: z.coerce.number().int().min(100).default(10_000),
  /** How often each agent publishes an analysis post. */
  AGENTS_POST_INTERVAL_MS: z.coerce.number().int().min(1000).default(600_000),
  /** USDC the operator bonds into each house agent's vault at registration. */
  AGENTS_SEED_USDC: z.coerce.number().min(0).default(1000),
  /** The runner's /metrics, /agents and /health; 0 for any free port. */
  AGENTS_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  /** Parameters and risk limits by strategy, as JSON: {"momentum": {"threshold": 0.05}}. */
  AGENTS_PARAMS: z
    .string()
    .default("{}")
    .transform((text, context) => {
      try {
        return z.record(z.string(), z.unknown()).parse(JSON.parse(text));
      } catch {
        context.addIssue({ code: "custom", message: "must be a JSON object keyed by strategy" });
        return z.NEVER;
      }
    }),
  /** Only these markets (comma-separated slugs); every active market when unset. */
  AGENTS_MARKETS: optional(z.string().transform((text) => text.split(",").map((slug) => slug.trim()))),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type RunnerSettings = z.infer<typeof Settings>;

/** The settings, or every problem with them at once. */
export function loadSettings(env: NodeJS.ProcessEnv = process.env): RunnerSettings {
  const parsed = Settings.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`invalid agents settings:\n  ${problems.join("\n  ")}`);
  }
  const settings = parsed.data;
  const unknown = Object.keys(settings.AGENTS_PARAMS).filter((key) => !HOUSE_AGENTS.some((a) => a.key === key));
  if (unknown.length > 0) throw new Error(`AGENTS_PARAMS: no strategy named ${unknown.join(", ")}`);
  if (!HOUSE_AGENTS.some((agent) => settings[agent.tokenVariable as keyof RunnerSettings]))
    throw new Error(`no agent token: set ${HOUSE_AGENTS.map((agent) => agent.tokenVariable).join(", ")}`);
  return settings;
}

/** The house agents that have a token, with their strategies and limits as the settings make them. */
export function agentProfiles(settings: RunnerSettings): AgentProfile[] {
  return HOUSE_AGENTS.flatMap((house) => {
    const token = settings[house.tokenVariable as keyof RunnerSettings] as string | undefined;
    if (!token) return [];
    const fail = (where: string, error: unknown) => new Error(`${where}: ${(error as Error).message}`);
    let built: ReturnType<typeof house.build>;
    let userId: string;
    try {
      built = house.build(settings.AGENTS_PARAMS[house.key]);
    } catch (error) {
      throw fail(`AGENTS_PARAMS.${house.key}`, error);
    }
    try {
      userId = subjectOf(token);
    } catch (error) {
      throw fail(house.tokenVariable, error);
    }
    return [{ key: house.key, name: house.name, persona: house.persona, userId, token, ...built }];
  });
}

/** The `sub` of a JWT, read without verifying it: the API verifies, the runner only needs the user id. */
export function subjectOf(token: string): string {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8"));
    if (typeof payload.sub === "string" && payload.sub) return payload.sub;
  } catch {}
  throw new Error("an agent token is not a JWT with a subject");
}
