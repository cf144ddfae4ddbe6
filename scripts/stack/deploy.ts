// Deploys everything the service needs onto a fresh local chain and describes it as a Deployment.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import {
  type Abi,
  type Address,
  concat,
  createPublicClient,
  createWalletClient,
  encodeAbiParameters,
  type Hex,
  http,
  parseEther,
} from "viem";
import { entryPoint07Address } from "viem/account-abstraction";
import { privateKeyToAccount } from "viem/accounts";
import { AgentRegistryAbi, MarketFactoryAbi, TestUSDCAbi } from "../../abis";
import { toUsdcUnits } from "../../constants";
import type { Deployment } from "../../deployments/schema";
import { DEMO_MARKETS } from "./demoMarkets";
import type { Role } from "./keys";

/** Nick's deterministic deployer, present on anvil from genesis. */
const CREATE2_DEPLOYER: Address = "0x4e59b44847b379578588920ca78fbf26c0b4956c";
const ENTRY_POINT_SALT: Hex = "0x90d8084deab30c2a37c45e8d47f49f2f7965183cb6990a98943ef94940681de3";
/** Where permissionless's toSimpleSmartAccount looks for the v0.7 factory. */
export const SIMPLE_ACCOUNT_FACTORY: Address = "0x91E60e0613810449d098b0b5Ec8b51A0FE8c8985";
const PAYMASTER_DEPOSIT = parseEther("1000");
const HOUSE_FLOAT = toUsdcUnits(1_000_000);

const require = createRequire(import.meta.url);
const aaArtifact = (name: string): { abi: Abi; bytecode: Hex } =>
  require(`@account-abstraction/contracts/artifacts/${name}.json`);
const forgeArtifact = (name: string): { abi: Abi; bytecode: Hex } => {
  const json = JSON.parse(readFileSync(join(import.meta.dirname, "../../out", `${name}.sol`, `${name}.json`), "utf8"));
  return { abi: json.abi, bytecode: json.bytecode.object };
};

export async function deployContracts(options: {
  rpcUrl: string;
  chainId: number;
  keys: Record<Role, Hex>;
}): Promise<Deployment> {
  const transport = http(options.rpcUrl);
  const chain = {
    id: options.chainId,
    name: "local",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  } as const;
  const publicClient = createPublicClient({ chain, transport });
  const operator = privateKeyToAccount(options.keys.operator);
  const wallet = createWalletClient({ chain, transport, account: operator });
  const treasury = privateKeyToAccount(options.keys.treasury).address;
  const paymasterSigner = privateKeyToAccount(options.keys.paymasterSigner).address;
  const startBlock = await publicClient.getBlockNumber();

  const confirm = async (hash: Hex) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (receipt.status !== "success") throw new Error(`deployment transaction ${hash} reverted`);
    return receipt;
  };
  const deployCreate2 = async (salt: Hex, initCode: Hex, expected: Address) => {
    if (!(await publicClient.getCode({ address: expected }))) {
      await confirm(await wallet.sendTransaction({ to: CREATE2_DEPLOYER, data: concat([salt, initCode]) }));
    }
    if (!(await publicClient.getCode({ address: expected }))) throw new Error(`nothing deployed at ${expected}`);
    return expected;
  };
  const deploy = async (artifact: { abi: Abi; bytecode: Hex }, args: readonly unknown[]) => {
    const receipt = await confirm(
      await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args }),
    );
    return receipt.contractAddress!;
  };

  // ERC-4337 at the canonical addresses, so standard tooling finds it.
  await deployCreate2(ENTRY_POINT_SALT, aaArtifact("EntryPoint").bytecode, entryPoint07Address);
  await deployCreate2(
    "0x0000000000000000000000000000000000000000000000000000000000000000",
    concat([
      aaArtifact("SimpleAccountFactory").bytecode,
      encodeAbiParameters([{ type: "address" }], [entryPoint07Address]),
    ]),
    SIMPLE_ACCOUNT_FACTORY,
  );
  const paymasterArtifact = aaArtifact("VerifyingPaymaster");
  const verifyingPaymaster = await deploy(paymasterArtifact, [entryPoint07Address, paymasterSigner]);
  await confirm(
    await wallet.writeContract({
      address: verifyingPaymaster,
      abi: paymasterArtifact.abi,
      functionName: "deposit",
      value: PAYMASTER_DEPOSIT,
    }),
  );

  const usdc = await deploy(forgeArtifact("TestUSDC"), [operator.address]);
  const marketFactory = await deploy(forgeArtifact("MarketFactory"), [operator.address, usdc, treasury]);
  const agentRegistry = await deploy(forgeArtifact("AgentRegistry"), [operator.address, usdc, marketFactory]);
  const write = async (request: Parameters<typeof wallet.writeContract>[0]) =>
    confirm(await wallet.writeContract(request));
  await write({ address: usdc, abi: TestUSDCAbi, functionName: "grantRoles", args: [operator.address, 1n] });
  await write({
    address: marketFactory,
    abi: MarketFactoryAbi,
    functionName: "grantRoles",
    args: [operator.address, 3n],
  });
  await write({
    address: agentRegistry,
    abi: AgentRegistryAbi,
    functionName: "grantRoles",
    args: [operator.address, 1n],
  });
  await write({ address: usdc, abi: TestUSDCAbi, functionName: "mint", args: [operator.address, HOUSE_FLOAT] });
  await write({ address: usdc, abi: TestUSDCAbi, functionName: "approve", args: [marketFactory, 2n ** 256n - 1n] });

  const now = (await publicClient.getBlock()).timestamp;
  const markets: Deployment["markets"] = [];
  for (const market of DEMO_MARKETS) {
    await write({
      address: marketFactory,
      abi: MarketFactoryAbi,
      functionName: "createMarket",
      args: [
        market.slug,
        market.title,
        market.description,
        market.outcomes,
        now + BigInt(market.closesInSeconds),
        toUsdcUnits(market.bUsdc),
        BigInt(market.feeBps),
      ],
    });
    const address = await publicClient.readContract({
      address: marketFactory,
      abi: MarketFactoryAbi,
      functionName: "marketAddress",
      args: [market.slug],
    });
    markets.push({ slug: market.slug, address });
  }

  return {
    chainId: options.chainId,
    startBlock: Number(startBlock),
    contracts: {
      entryPoint: entryPoint07Address,
      simpleAccountFactory: SIMPLE_ACCOUNT_FACTORY,
      verifyingPaymaster,
      usdc,
      marketFactory,
      agentRegistry,
    },
    roles: { operator: operator.address, paymasterSigner, treasury },
    markets,
  };
}
