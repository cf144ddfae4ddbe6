// The soak's settings, from the environment, checked once. `npm run soak -- --quick` starts from a
// small preset (a run of about a minute and a half, set-up included) that shows the soak itself
// works; any variable still wins over either preset.
import { z } from "zod";

const Count = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

const Settings = (preset: { traders: number; seconds: number; clients: number }) =>
  z.object({
    /** Simulated traders, each a user of its own with a wallet funded once by the faucet. */
    SOAK_TRADERS: Count(preset.traders),
    /** How long the traders send writes; the writes in flight then settle (SOAK_SETTLE_SECONDS). */
    SOAK_SECONDS: Count(preset.seconds),
    /** Stream clients listening throughout, in SOAK_CLIENT_PROCESSES processes of their own. */
    SOAK_CLIENTS: Count(preset.clients),
    SOAK_CLIENT_PROCESSES: Count(2),
    /** Longest pause of a trader between one write's end and its next (uniform from 0). */
    SOAK_THINK_MS: z.coerce.number().int().min(0).default(1_000),
    /** A trader's pause before asking GET /api/trade/status again after an error or no answer (a pending write's status is held by the route, `waitMs`). */
    SOAK_POLL_MS: z.coerce.number().int().min(10).default(250),
    /** After the traders stop: how long writes still pending may take to end, and the stream to deliver them. */
    SOAK_SETTLE_SECONDS: Count(120),
  });

export type SoakSettings = {
  traders: number;
  seconds: number;
  clients: number;
  clientProcesses: number;
  thinkMs: number;
  pollMs: number;
  settleSeconds: number;
};

export const DEFAULT_PRESET = { traders: 200, seconds: 60, clients: 1_000 };
export const QUICK_PRESET = { traders: 20, seconds: 10, clients: 50 };

/** The settings from `env`; every problem is reported at once. */
export function soakSettings(env: Record<string, string | undefined>, quick: boolean): SoakSettings {
  const parsed = Settings(quick ? QUICK_PRESET : DEFAULT_PRESET).safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`soak settings:\n  ${problems.join("\n  ")}`);
  }
  const s = parsed.data;
  return {
    traders: s.SOAK_TRADERS,
    seconds: s.SOAK_SECONDS,
    clients: s.SOAK_CLIENTS,
    clientProcesses: Math.min(s.SOAK_CLIENT_PROCESSES, s.SOAK_CLIENTS),
    thinkMs: s.SOAK_THINK_MS,
    pollMs: s.SOAK_POLL_MS,
    settleSeconds: s.SOAK_SETTLE_SECONDS,
  };
}
