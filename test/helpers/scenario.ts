// A reproducible trading session: random buys and sells by many traders across markets, packed
// several to a block, as a busy market would see them.

import type { Address, PublicClient } from "viem";
import { MarketAbi } from "../../abis";
import { toUsdcUnits } from "../../constants";
import { type ChainDriver, prng } from "./chain";

export async function tradeRandomly(options: {
  driver: ChainDriver;
  chain: PublicClient;
  traders: Address[];
  markets: { address: Address; outcomes: number }[];
  trades: number;
  perBlock: number;
  seed: number;
}): Promise<number> {
  const { driver, chain, traders, markets } = options;
  const random = prng(options.seed);
  let succeeded = 0;
  while (succeeded < options.trades) {
    const batch = [];
    for (let i = 0; i < options.perBlock; i++) {
      const trader = random.pick(traders);
      const market = random.pick(markets);
      const outcome = random.int(market.outcomes);
      if (random.next() < 0.3) {
        const held = (await chain.readContract({
          address: market.address,
          abi: MarketAbi,
          functionName: "balanceOf",
          args: [trader, BigInt(outcome)],
        })) as bigint;
        // Several sells of the same holding may land in one block; the later ones may revert.
        if (held > 0n) batch.push(driver.sell(trader, market.address, outcome, held / BigInt(2 + random.int(3)) + 1n));
        continue;
      }
      batch.push(
        driver.buy(trader, market.address, outcome, toUsdcUnits(1 + random.int(40)) + BigInt(random.int(1e6))),
      );
    }
    const results = await driver.mineBlock(batch);
    succeeded += results.filter((r) => r.ok).length;
  }
  return succeeded;
}

export const traderAddresses = (count: number, offset = 0): Address[] =>
  Array.from({ length: count }, (_, i) => `0x${(0xa11ce000 + offset + i).toString(16).padStart(40, "0")}` as Address);
