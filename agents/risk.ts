// Risk limits per agent, checked before any decision is sent: the largest USDC of one decision, the
// largest position in one market (what it holds there at current prices plus the buy), and a floor
// under the vault's net asset value below which the agent stops trading. A decision that would break
// a limit is skipped with the reason, never trimmed to fit.
import { z } from "zod";
import { type Decision, holdingOf, marketExposure, type Portfolio } from "./strategy";
import { usdc } from "./words";

export const RiskLimits = z.strictObject({
  maxDecisionUsdc: z.number().positive().default(50),
  maxPositionUsdc: z.number().positive().default(250),
  navFloorUsdc: z.number().min(0).default(500),
});
export type RiskLimits = z.infer<typeof RiskLimits>;

export type RiskCheck = { ok: true } | { ok: false; reason: string };

export function checkRisk(decision: Decision, portfolio: Portfolio, limits: RiskLimits): RiskCheck {
  if (portfolio.netAssetValue < limits.navFloorUsdc)
    return {
      ok: false,
      reason: `stopped: the vault's net asset value ${usdc(portfolio.netAssetValue)} is below the floor of ${usdc(limits.navFloorUsdc)}`,
    };
  if (decision.action === "sell") {
    const held = holdingOf(portfolio, decision.marketSlug, decision.outcome)?.tokens ?? 0;
    if (decision.tokens > held)
      return { ok: false, reason: `selling ${decision.tokens} tokens but the vault holds ${held}` };
    return { ok: true };
  }
  if (decision.amount > limits.maxDecisionUsdc)
    return {
      ok: false,
      reason: `${usdc(decision.amount)} is above the largest decision of ${usdc(limits.maxDecisionUsdc)}`,
    };
  const exposure = marketExposure(portfolio, decision.marketSlug);
  if (exposure + decision.amount > limits.maxPositionUsdc)
    return {
      ok: false,
      reason: `the position in ${decision.marketSlug} would reach ${usdc(exposure + decision.amount)}, above the largest of ${usdc(limits.maxPositionUsdc)}`,
    };
  if (decision.amount > portfolio.cash)
    return { ok: false, reason: `${usdc(decision.amount)} is more than the vault's cash of ${usdc(portfolio.cash)}` };
  return { ok: true };
}
