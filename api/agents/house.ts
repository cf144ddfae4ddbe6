// House agents: the house's own programs (agents/) trade through the public API like any agent, from
// accounts the house provisions here. An admin names a house user; the API ensures that user's
// wallet, has the operator register its smart account as a house agent (the house flag is the
// operator's alone to set) and bond the house's seed capital into its vault. Each step asks the chain
// first, so that a repeat, or a retry after a crash between the steps, does only what is missing.
import { type Address, getAddress, type Hex } from "viem";
import { toUsdcUnits } from "../../constants";
import type { ChainAccess } from "../chain/access";
import { registeredAgent, vaultAddress } from "../chain/agentRegistry";
import { bondFromOperator, HouseAgentRevertedError, registerHouseAgent, vaultShares } from "../chain/houseAgents";
import { oneAtATime } from "../chain/oneAtATime";
import { simpleAccount } from "../chain/smartAccount";
import { usdcBalance } from "../chain/usdc";
import { ownerKeyFor } from "../chain/walletKeys";
import type { AppEnv } from "../http/env";
import { ApiError, chainUnavailable } from "../http/errors";
import { agentIdOf } from "./caller";

export type HouseAgentContext = Pick<AppEnv["Variables"], "chain" | "config" | "db">;

export type HouseAgentParameters = {
  /** The house user the agent's programs sign in as (the `sub` of their tokens). */
  userId: string;
  name: string;
  persona: string;
  strategy: string;
  /** USDC the operator bonds into a vault that has no bond yet. */
  seedUsdc: number;
};

export type HouseAgent = {
  agentId: string;
  userId: string;
  walletAddress: Address;
  vaultAddress: Address;
  house: true;
  /** The registration this call sent; null when the agent was registered before. */
  registerTxHash: Hex | null;
  /** The seed bond this call sent; null when the vault already had a bond (or no seed was asked). */
  seedTxHash: Hex | null;
  /** USDC this call bonded. */
  seededUsdc: number;
};

/**
 * Within this process one house agent is ensured at a time: two concurrent requests for the same user
 * must not both register (the second would revert) or both seed. Across processes the chain decides:
 * a registration that lost the race reverts AlreadyRegistered and is taken as done.
 */
const oneHouseAgentAtATime = oneAtATime();

export function ensureHouseAgent(
  context: HouseAgentContext,
  request: HouseAgentParameters,
): Promise<{ created: boolean; agent: HouseAgent }> {
  const { chain, config } = context;
  if (!chain?.operator) throw chainUnavailable("this API instance has no operator key to register house agents");
  const masterKey = config.WALLET_MASTER_KEY;
  if (!masterKey) throw chainUnavailable("this API instance has no WALLET_MASTER_KEY to provision wallets");
  return oneHouseAgentAtATime(async () => {
    const manager = await ensureWallet(context, chain, masterKey, request.userId);
    const registerTxHash = await ensureRegistered(chain, manager, request);
    const vault = await vaultAddress(chain, manager);
    const seed = toUsdcUnits(request.seedUsdc);
    const seedTxHash =
      seed > 0n && (await vaultShares(chain, vault)) === 0n ? await seedVault(chain, vault, seed) : null;
    return {
      created: registerTxHash !== null,
      agent: {
        agentId: agentIdOf(manager),
        userId: request.userId,
        walletAddress: getAddress(manager),
        vaultAddress: getAddress(vault),
        house: true,
        registerTxHash,
        seedTxHash,
        seededUsdc: seedTxHash ? request.seedUsdc : 0,
      },
    };
  });
}

/** The house user's smart account, its wallet record created as POST /api/wallet/get-or-create would. */
async function ensureWallet(context: HouseAgentContext, chain: ChainAccess, masterKey: Hex, userId: string) {
  const existing = await context.db.wallets.find(userId);
  if (existing) return existing.address as Address;
  const account = await simpleAccount(chain.publicClient, ownerKeyFor(masterKey, userId));
  const { wallet } = await context.db.wallets.getOrCreate(userId, account.address);
  return wallet.address as Address;
}

/** Registers the account as a house agent unless it is one; the registration's hash when this call sent it. */
async function ensureRegistered(
  chain: ChainAccess,
  manager: Address,
  request: HouseAgentParameters,
): Promise<Hex | null> {
  const registered = await registeredAgent(chain, manager);
  if (registered) {
    if (!registered.house)
      throw new ApiError(409, "agent_not_house", "this user's account is registered as an agent of its own");
    return null;
  }
  try {
    return await registerHouseAgent(chain, {
      manager,
      name: request.name,
      persona: request.persona,
      strategy: request.strategy,
      feeBps: 0,
      lockupSeconds: 0,
    });
  } catch (error) {
    if (error instanceof HouseAgentRevertedError && error.reason === "AlreadyRegistered") {
      if ((await registeredAgent(chain, manager))?.house) return null;
      throw new ApiError(409, "agent_not_house", "this user's account is registered as an agent of its own");
    }
    throw refused(error);
  }
}

async function seedVault(chain: ChainAccess, vault: Address, units: bigint): Promise<Hex> {
  const operator = chain.operator!.account.address;
  if ((await usdcBalance(chain, operator)).units < units)
    throw new ApiError(409, "operator_underfunded", "the operator holds less USDC than the seed asked for");
  try {
    return await bondFromOperator(chain, vault, units);
  } catch (error) {
    throw refused(error);
  }
}

const refused = (error: unknown) =>
  error instanceof HouseAgentRevertedError
    ? new ApiError(409, "house_agent_refused", error.message, { reason: error.reason }, { cause: error })
    : error;
