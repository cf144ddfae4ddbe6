// The house's agents: one per strategy, each the user `house-<strategy>` with a name and persona,
// its strategy's parameters and its risk limits. Settings (AGENTS_PARAMS) may change any parameter
// or limit of one agent; what they leave out keeps the default.
import type { z } from "zod";
import { ContrarianParams, contrarian } from "./contrarian";
import { MarketMakerParams, marketMaker } from "./marketMaker";
import { MomentumParams, momentum } from "./momentum";
import { RiskLimits } from "./risk";
import type { Strategy } from "./strategy";

export type HouseAgent = {
  /** The strategy's key: the on-chain strategy text, the key of its settings. */
  key: string;
  /** Where `npm run agents` finds its token. */
  tokenVariable: string;
  /** The user its tokens are minted for by `npm start`. */
  userId: string;
  name: string;
  persona: string;
  /** Its strategy and limits, from settings that may change any of their parameters. */
  build: (settings?: unknown) => { strategy: Strategy; risk: RiskLimits };
};

function builder<Params extends z.ZodObject>(schema: Params, create: (params: z.infer<Params>) => Strategy) {
  const riskKeys = Object.keys(RiskLimits.shape);
  const both = schema.extend(RiskLimits.shape).strict();
  return (settings: unknown = {}) => {
    const parsed = both.safeParse(settings);
    if (!parsed.success)
      throw new Error(
        parsed.error.issues.map((issue) => `${issue.path.join(".") || "*"}: ${issue.message}`).join("; "),
      );
    const all = parsed.data as Record<string, unknown>;
    const pick = (keep: (key: string) => boolean) =>
      Object.fromEntries(Object.entries(all).filter(([key]) => keep(key)));
    return {
      strategy: create(schema.parse(pick((key) => !riskKeys.includes(key)))),
      risk: RiskLimits.parse(pick((key) => riskKeys.includes(key))),
    };
  };
}

export const HOUSE_AGENTS: HouseAgent[] = [
  {
    key: "market-maker",
    tokenVariable: "AGENT_TOKEN_MARKET_MAKER",
    userId: "house-market-maker",
    name: "House Market Maker",
    persona:
      "Keeps every market liquid and its prices near a slow fair-value average; trades back toward it when prices drift and keeps its inventory bounded.",
    build: builder(MarketMakerParams, marketMaker),
  },
  {
    key: "momentum",
    tokenVariable: "AGENT_TOKEN_MOMENTUM",
    userId: "house-momentum",
    name: "House Momentum",
    persona: "Follows the crowd: buys outcomes whose price rose sharply over the last hour and drops those that fell.",
    build: builder(MomentumParams, momentum),
  },
  {
    key: "contrarian",
    tokenVariable: "AGENT_TOKEN_CONTRARIAN",
    userId: "house-contrarian",
    name: "House Contrarian",
    persona: "Fades large moves: buys outcomes after a sharp fall and takes profit on the rebound.",
    build: builder(ContrarianParams, contrarian),
  },
];
