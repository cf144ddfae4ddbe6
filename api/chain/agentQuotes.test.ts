import { describe, expect, it } from "vitest";
import type { Deployment } from "../../deployments/schema";
import { createChainAccess } from "./access";
import { quoteUnbondAt } from "./agentQuotes";

describe("quoteUnbondAt", () => {
  it("answers null, rather than failing the read, when the chain node does not answer", async () => {
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    const chain = createChainAccess({ rpcUrl: "http://127.0.0.1:1", deployment: { chainId: 2010111 } as Deployment });
    const quote = await quoteUnbondAt(chain, {
      vault: "0x00000000000000000000000000000000000000aa",
      bondId: 1n,
      shares: 1_000_000n,
    });
    expect(quote).toBeNull();
  });
});
