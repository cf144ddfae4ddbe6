// A paymaster service speaking ERC-7677 (pm_getPaymasterStubData, pm_getPaymasterData) over HTTP,
// backed by the local VerifyingPaymaster signer: what a hosted sponsor looks like to the API.
import { createServer, type Server } from "node:http";
import { type Address, type Hex, numberToHex } from "viem";
import { formatUserOperation, type RpcUserOperation } from "viem/account-abstraction";
import { verifyingPaymaster } from "../../api/chain/paymaster";

export async function startPaymasterService(options: { address: Address; signerKey: Hex; chainId: number }) {
  const sponsor = verifyingPaymaster(options);
  const calls: string[] = [];
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const { id, method, params } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    calls.push(method);
    const userOperation = formatUserOperation(params[0] as RpcUserOperation);
    const parameters = {
      ...userOperation,
      entryPointAddress: params[1],
      chainId: Number(params[2]),
      context: params[3],
    } as never;
    const result =
      method === "pm_getPaymasterStubData"
        ? await sponsor.getPaymasterStubData()
        : await sponsor.getPaymasterData(parameters);
    response.setHeader("content-type", "application/json");
    response.end(
      JSON.stringify({
        jsonrpc: "2.0",
        id,
        result: {
          paymaster: result.paymaster,
          paymasterData: result.paymasterData,
          paymasterPostOpGasLimit: numberToHex(result.paymasterPostOpGasLimit ?? 0n),
          ...(result.paymasterVerificationGasLimit !== undefined && {
            paymasterVerificationGasLimit: numberToHex(result.paymasterVerificationGasLimit),
          }),
        },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
