// Paid research over x402 v2 on the real stack: the payment network is the stack's second anvil
// (chain id 5042002, USDC with EIP-3009 at 0x3600…, Multicall3), payments are verified and settled
// by the API's in-process facilitator, and a clients pays with @x402/fetch as any x402 client would.
// A stand-in SearxNG on loopback plays the external search provider (one question makes it hang).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { x402Client } from "@x402/core/client";
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from "@x402/core/http";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import pg from "pg";
import pino from "pino";
import type { Address, Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestUSDCAbi } from "../abis";
import { createApp } from "../api/app";
import { publicClientFor } from "../api/chain/chain";
import { loadConfig } from "../api/config";
import { createPool, type Db } from "../api/db/pool";
import {
  PAYMENT_CHAIN_ID,
  PAYMENT_NETWORK,
  PAYMENT_USDC_ADDRESS,
  RESEARCH_PRICE_UNITS,
  TEST_NETWORK_CHAIN_ID,
  toUsdcUnits,
} from "../constants";
import { waitForIndexer } from "../scripts/stack/indexer";
import { localFacilitatorKey } from "../scripts/stack/paymentChain";
import { expectEnvelope } from "./helpers/http";
import { startTestStack, type TestStack } from "./helpers/stack";

const DEADLINE_MS = 2_000;
const HANGING_QUESTION = "what does the hanging provider say";

/** A SearxNG stand-in: two results for any question, and no answer at all for HANGING_QUESTION. */
function startSearxng(): Promise<Server> {
  const server = createServer((request, response) => {
    const q = new URL(request.url!, "http://x").searchParams.get("q") ?? "";
    if (q === HANGING_QUESTION) return;
    response.setHeader("content-type", "application/json");
    response.end(
      JSON.stringify({
        results: [
          {
            title: `Web: ${q}`,
            url: "https://example.test/solar",
            content: `Solar output in Spain rose 12 percent this year. ${q} is debated by analysts.`,
          },
          { title: "Unrelated", url: "https://example.test/other", content: "Cats sleep sixteen hours a day." },
        ],
      }),
    );
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

describe("paid research over x402", () => {
  let stack: TestStack;
  let searxng: Server;
  let api: string;
  let db: pg.Client;
  const chain = () => publicClientFor(stack.paymentChain.rpcUrl, PAYMENT_CHAIN_ID);
  const treasury = () => privateKeyToAccount(stack.keys.treasury).address;
  const balanceOf = (holder: Address) =>
    chain().readContract({
      address: PAYMENT_USDC_ADDRESS,
      abi: TestUSDCAbi,
      functionName: "balanceOf",
      args: [holder],
    });

  /** A fresh payer funded by the faucet, and an x402 client that pays with its key. */
  async function fundedPayer() {
    const account = privateKeyToAccount(generatePrivateKey());
    const grant = await fetch(`${api}/api/x402/faucet`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: account.address }),
    });
    expect(grant.status, await grant.clone().text()).toBe(200);
    const client = x402Client.fromConfig({
      schemes: [{ network: PAYMENT_NETWORK, client: new ExactEvmScheme(account) }],
      spendControls: {
        allowedAssets: [
          {
            network: PAYMENT_NETWORK,
            asset: PAYMENT_USDC_ADDRESS,
            maxAmountPerPayment: RESEARCH_PRICE_UNITS.toString(),
          },
        ],
      },
    });
    return { account, client, pay: wrapFetchWithPayment(fetch, client) };
  }

  const researchUrl = (q: string) => `${api}/api/x402/research?q=${encodeURIComponent(q)}`;

  async function requirementsFor(url: string): Promise<PaymentRequired> {
    const unpaid = await fetch(url);
    expect(unpaid.status).toBe(402);
    return decodePaymentRequiredHeader(unpaid.headers.get("payment-required")!);
  }

  /** A payment payload signed by the client for the route's own requirements. */
  async function signedPayment(client: x402Client, url: string): Promise<PaymentPayload> {
    return client.createPaymentPayload(await requirementsFor(url));
  }

  const paidWith = (url: string, payload: PaymentPayload) =>
    fetch(url, { headers: { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(payload) } });

  async function paymentsOf(payer: Address) {
    const { rows } = await db.query("SELECT status, settlement_tx, amount::text FROM api.payment WHERE payer = $1", [
      payer,
    ]);
    return rows;
  }

  beforeAll(async () => {
    searxng = await startSearxng();
    stack = await startTestStack({
      apiEnv: {
        SEARXNG_URL: `http://127.0.0.1:${(searxng.address() as AddressInfo).port}`,
        RESEARCH_DEADLINE_MS: String(DEADLINE_MS),
      },
    });
    await waitForIndexer({ indexerUrl: stack.indexerUrl!, rpcUrl: stack.rpcUrl });
    api = stack.apiUrl!;
    db = new pg.Client(stack.databaseUrl);
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await stack?.dispose();
    searxng?.close();
  });

  describe("the payment network", () => {
    it("is a chain with id 5042002 holding USDC with EIP-3009 at 0x3600… and Multicall3 at its canonical address", async () => {
      expect(await chain().getChainId()).toBe(PAYMENT_CHAIN_ID);
      expect(
        await chain().readContract({ address: PAYMENT_USDC_ADDRESS, abi: TestUSDCAbi, functionName: "name" }),
      ).toBe("USDC");
      expect(await chain().getCode({ address: "0xcA11bde05977b3631167028862bE2a173976CA11" })).toMatch(
        /^0x[0-9a-f]{100,}/,
      );
    });

    it("funds an address from the faucet once per interval", async () => {
      const address = privateKeyToAccount(generatePrivateKey()).address;
      const ask = () =>
        fetch(`${api}/api/x402/faucet`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ address }),
        });
      const grant = await ask();
      expect(grant.status).toBe(200);
      expect(await grant.json()).toMatchObject({ address, network: "eip155:5042002", asset: PAYMENT_USDC_ADDRESS });
      expect(await balanceOf(address)).toBe(toUsdcUnits(1000));
      const again = await ask();
      expect(again.status).toBe(429);
      expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
      expectEnvelope(await again.json(), "rate_limited");
    });

    it("refuses a faucet request without a valid address, naming it", async () => {
      const response = await fetch(`${api}/api/x402/faucet`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ address: "0x1234" }),
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as any).error.details.parameter).toBe("address");
    });
  });

  describe("asking", () => {
    it("answers an unpaid request with 402 and the x402 v2 requirements in PAYMENT-REQUIRED", async () => {
      const response = await fetch(researchUrl("solar output"));
      expect(response.status).toBe(402);
      expectEnvelope(await response.json(), "payment_required");
      const required = decodePaymentRequiredHeader(response.headers.get("payment-required")!);
      expect(required.x402Version).toBe(2);
      expect(required.accepts[0]).toMatchObject({
        scheme: "exact",
        network: "eip155:5042002",
        amount: "10000",
        asset: PAYMENT_USDC_ADDRESS,
        payTo: treasury(),
        maxTimeoutSeconds: 120,
        extra: { name: "USDC", version: "2" },
      });
    });

    it.each([
      ["missing", ""],
      ["too short", "q=ab"],
      ["too long", `q=${"x".repeat(501)}`],
    ])("refuses a %s question with 400 naming q, before asking for payment", async (_, query) => {
      const response = await fetch(`${api}/api/x402/research?${query}`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as any).error.details.parameter).toBe("q");
    });

    it("refuses an unknown depth with 400 naming depth", async () => {
      const response = await fetch(`${researchUrl("solar output")}&depth=deep`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as any).error.details.parameter).toBe("depth");
    });
  });

  describe("paying", () => {
    it("delivers the brief for 0.01 USDC paid with @x402/fetch, settled on the 5042002 chain", async () => {
      const { account, pay } = await fundedPayer();
      const [payerBefore, treasuryBefore] = [await balanceOf(account.address), await balanceOf(treasury())];
      const response = await pay(researchUrl("solar output in Spain"));
      expect(response.status, await response.clone().text()).toBe(200);
      const brief: any = await response.json();
      expect(brief.summary).toEqual(expect.any(String));
      expect(brief.partial).toBe(false);
      expect(brief.findings.length).toBeGreaterThan(0);
      for (const finding of brief.findings) {
        expect(finding.sources.length).toBeGreaterThan(0);
        for (const source of finding.sources)
          expect(source).toEqual({
            title: expect.any(String),
            url: expect.any(String),
            source: expect.any(String),
            snippet: expect.any(String),
          });
      }
      const settlement = decodePaymentResponseHeader(response.headers.get("payment-response")!);
      expect(settlement).toMatchObject({ success: true, network: "eip155:5042002" });
      const receipt = await chain().getTransactionReceipt({ hash: settlement.transaction as Hex });
      expect(receipt.status).toBe("success");
      expect(await balanceOf(account.address)).toBe(payerBefore - 10_000n);
      expect(await balanceOf(treasury())).toBe(treasuryBefore + 10_000n);
      expect(await paymentsOf(account.address)).toEqual([
        { status: "settled", settlement_tx: settlement.transaction, amount: "10000" },
      ]);
    });

    it("gives a retry with the same payment the same result without charging again", async () => {
      const { account, client } = await fundedPayer();
      const payment = await signedPayment(client, researchUrl("solar output"));
      const first = await paidWith(researchUrl("solar output"), payment);
      expect(first.status).toBe(200);
      const balance = await balanceOf(account.address);
      const again = await paidWith(researchUrl("solar output"), payment);
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual(await first.json());
      expect(again.headers.get("payment-response")).toBe(first.headers.get("payment-response"));
      expect(await balanceOf(account.address)).toBe(balance);
    });

    it("settles 10 concurrent requests with one payment once: the others wait (409) or get the same answer", async () => {
      const { account, client } = await fundedPayer();
      const before = await balanceOf(account.address);
      const payment = await signedPayment(client, researchUrl("solar output"));
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => paidWith(researchUrl("solar output"), payment)),
      );
      // A request that arrives after the first has settled is a retry and gets the stored answer.
      const delivered = answers.filter((answer) => answer.status === 200);
      const waiting = answers.filter((answer) => answer.status !== 200);
      expect(delivered.length).toBeGreaterThanOrEqual(1);
      expect(new Set(delivered.map((answer) => answer.headers.get("payment-response"))).size).toBe(1);
      const bodies = await Promise.all(delivered.map((answer) => answer.json()));
      for (const body of bodies) expect(body).toEqual(bodies[0]);
      for (const answer of waiting) {
        expect(answer.status).toBe(409);
        expectEnvelope(await answer.json(), "payment_in_progress");
      }
      expect(await balanceOf(account.address)).toBe(before - 10_000n);
      expect(await paymentsOf(account.address)).toEqual([
        expect.objectContaining({ status: "settled", amount: "10000" }),
      ]);
    });
  });

  describe("refusing a bad payment with 402, settling nothing", () => {
    async function expectRefused(payer: Address, response: Response, before: bigint) {
      expect(response.status).toBe(402);
      expectEnvelope(await response.json(), "payment_required");
      expect(await balanceOf(payer)).toBe(before);
    }

    it("a forged signature", async () => {
      const { account, client } = await fundedPayer();
      const before = await balanceOf(account.address);
      const payment = await signedPayment(client, researchUrl("solar output"));
      const forger = privateKeyToAccount(generatePrivateKey());
      const inner = payment.payload as { authorization: Record<string, unknown>; signature: Hex };
      const authorization = inner.authorization as Record<string, string>;
      const signature = await forger.signTypedData({
        domain: { name: "USDC", version: "2", chainId: PAYMENT_CHAIN_ID, verifyingContract: PAYMENT_USDC_ADDRESS },
        types: {
          TransferWithAuthorization: [
            { name: "from", type: "address" },
            { name: "to", type: "address" },
            { name: "value", type: "uint256" },
            { name: "validAfter", type: "uint256" },
            { name: "validBefore", type: "uint256" },
            { name: "nonce", type: "bytes32" },
          ],
        },
        primaryType: "TransferWithAuthorization",
        message: {
          from: authorization.from as Address,
          to: authorization.to as Address,
          value: BigInt(authorization.value!),
          validAfter: BigInt(authorization.validAfter!),
          validBefore: BigInt(authorization.validBefore!),
          nonce: authorization.nonce as Hex,
        },
      });
      const forged = { ...payment, payload: { ...inner, signature } };
      await expectRefused(account.address, await paidWith(researchUrl("solar output"), forged), before);
      expect(await paymentsOf(account.address)).toEqual([]);
    });

    it("a wrong amount", async () => {
      const { account, client } = await fundedPayer();
      const before = await balanceOf(account.address);
      const required = await requirementsFor(researchUrl("solar output"));
      const cheap = { ...required, accepts: [{ ...required.accepts[0]!, amount: "1" }] };
      const payment = await client.createPaymentPayload(cheap);
      await expectRefused(account.address, await paidWith(researchUrl("solar output"), payment), before);
    });

    it("a wrong network", async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      const client = x402Client.fromConfig({
        schemes: [{ network: "eip155:*", client: new ExactEvmScheme(account) }],
        spendControls: false,
      });
      const required = await requirementsFor(researchUrl("solar output"));
      const elsewhere = {
        ...required,
        accepts: [{ ...required.accepts[0]!, network: `eip155:${TEST_NETWORK_CHAIN_ID}` as const }],
      };
      const payment = await client.createPaymentPayload(elsewhere);
      await expectRefused(account.address, await paidWith(researchUrl("solar output"), payment), 0n);
    });

    it("an expired authorization", async () => {
      const { account, client } = await fundedPayer();
      const before = await balanceOf(account.address);
      const payment = await signedPayment(client, researchUrl("solar output"));
      const inner = payment.payload as { authorization: Record<string, string>; signature: Hex };
      const validBefore = BigInt(Math.floor(Date.now() / 1000) - 60);
      const signature = await account.signTypedData({
        domain: { name: "USDC", version: "2", chainId: PAYMENT_CHAIN_ID, verifyingContract: PAYMENT_USDC_ADDRESS },
        types: {
          TransferWithAuthorization: [
            { name: "from", type: "address" },
            { name: "to", type: "address" },
            { name: "value", type: "uint256" },
            { name: "validAfter", type: "uint256" },
            { name: "validBefore", type: "uint256" },
            { name: "nonce", type: "bytes32" },
          ],
        },
        primaryType: "TransferWithAuthorization",
        message: {
          from: account.address,
          to: inner.authorization.to as Address,
          value: BigInt(inner.authorization.value!),
          validAfter: 0n,
          validBefore,
          nonce: inner.authorization.nonce as Hex,
        },
      });
      const expired = {
        ...payment,
        payload: {
          authorization: { ...inner.authorization, validAfter: "0", validBefore: validBefore.toString() },
          signature,
        },
      };
      await expectRefused(account.address, await paidWith(researchUrl("solar output"), expired), before);
    });

    it("a nonce already used, for another question", async () => {
      const { account, client } = await fundedPayer();
      const payment = await signedPayment(client, researchUrl("solar output"));
      expect((await paidWith(researchUrl("solar output"), payment)).status).toBe(200);
      const before = await balanceOf(account.address);
      await expectRefused(account.address, await paidWith(researchUrl("another question entirely"), payment), before);
      expect(await paymentsOf(account.address)).toHaveLength(1);
    });
  });

  describe("the deadline and failures", () => {
    it("answers 200 with partial: true naming a provider that hangs, within the deadline plus 1 s", async () => {
      const { client } = await fundedPayer();
      const payment = await signedPayment(client, researchUrl(HANGING_QUESTION));
      const started = Date.now();
      const response = await paidWith(researchUrl(HANGING_QUESTION), payment);
      const elapsed = Date.now() - started;
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ partial: true, unfinished: ["searxng"] });
      // Verification and settlement included.
      expect(elapsed).toBeLessThan(DEADLINE_MS + 1_000);
    });

    describe("with a research that throws (the API in this process, its providers failing)", () => {
      let pool: Db;
      let app: ReturnType<typeof createApp>;

      beforeAll(() => {
        const logger = pino({ level: "silent" });
        const config = loadConfig({
          DATABASE_URL: stack.databaseUrl,
          VIEWS_SCHEMA: stack.viewsSchema,
          CHAIN_ID: String(TEST_NETWORK_CHAIN_ID),
          PAYMENT_RPC_URL: stack.paymentChain.rpcUrl,
          PAYMENT_PAY_TO: treasury(),
          FACILITATOR_PRIVATE_KEY: localFacilitatorKey(),
          LOG_LEVEL: "silent",
        });
        pool = createPool({ databaseUrl: config.DATABASE_URL, max: 4, logger });
        const failing = {
          name: "broken",
          budgetMs: 1_000,
          search: async () => {
            throw new Error("the provider broke");
          },
        };
        app = createApp({ config, pool, logger, researchProviders: [failing] });
      });
      afterAll(() => pool?.end());

      it("answers 503 research_failed and settles nothing: the payer's balance is unchanged", async () => {
        const { account, client } = await fundedPayer();
        const before = await balanceOf(account.address);
        const url = "http://localhost/api/x402/research?q=solar%20output";
        const unpaid = await app.request(url);
        expect(unpaid.status).toBe(402);
        const payment = await client.createPaymentPayload(
          decodePaymentRequiredHeader(unpaid.headers.get("payment-required")!),
        );
        const response = await app.request(url, {
          headers: { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(payment) },
        });
        expect(response.status).toBe(503);
        expectEnvelope(await response.json(), "research_failed");
        expect(response.headers.get("payment-response")).toBeNull();
        expect(await balanceOf(account.address)).toBe(before);
        expect(await paymentsOf(account.address)).toEqual([
          { status: "research_failed", settlement_tx: null, amount: "10000" },
        ]);
      });
    });
  });

  describe("discovery", () => {
    it("lists the research endpoint in the bazaar with the requirements of its 402 and its schemas", async () => {
      const bazaar: any = await (await fetch(`${api}/api/bazaar`)).json();
      const required = await requirementsFor(researchUrl("solar output"));
      expect(bazaar.x402Version).toBe(2);
      expect(bazaar.items).toHaveLength(1);
      const [item] = bazaar.items;
      expect(item).toMatchObject({ resource: `${api}/api/x402/research`, type: "http", x402Version: 2 });
      expect(item.accepts[0]).toEqual(required.accepts[0]);
      expect(new Date(item.lastUpdated).getTime()).not.toBeNaN();
      expect(item.extensions.bazaar.schema.input.properties.q).toBeDefined();
      expect(item.extensions.bazaar.schema.output.properties.findings).toBeDefined();
    });

    it("describes the research route with its 402 answer and headers in the document /openapi/index.json lists", async () => {
      const index: any = await (await fetch(`${api}/openapi/index.json`)).json();
      const document: any = await (await fetch(`${api}${index.specs[0].url}`)).json();
      const operation = document.paths["/api/x402/research"].get;
      expect(operation.responses["402"].headers["PAYMENT-REQUIRED"]).toBeDefined();
      expect(operation.responses["200"].headers["PAYMENT-RESPONSE"]).toBeDefined();
      expect(operation.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(
        expect.arrayContaining(["q", "depth", "payment-signature"]),
      );
    });
  });
});
