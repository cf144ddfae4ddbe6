// Paid research as the app holds it: the providers (the corpus always, SearxNG when configured),
// the payment network and the x402 payment gate, built once from the configuration.
import type { Logger } from "pino";
import { createPaymentChainAccess, type PaymentChainAccess } from "../chain/paymentChain";
import type { Config } from "../config";
import type { Queries } from "../http/env";
import { createResearchPaymentGate, type PaymentGate } from "../http/x402";
import { corpusProvider } from "./corpus";
import { searxngProvider } from "./searxng";
import type { ResearchProvider } from "./types";

export type PaidResearch = {
  /** Undefined when this instance cannot take payments: the route answers 404 research_unavailable. */
  gate?: PaymentGate;
  providers: ResearchProvider[];
  paymentChain?: PaymentChainAccess;
};

export function createPaidResearch(options: {
  config: Config;
  db: Queries;
  logger: Logger;
  /** Instead of the configured providers (tests of failing and hanging providers). */
  providers?: ResearchProvider[];
}): PaidResearch {
  const { config, db, logger } = options;
  const paymentChain = config.PAYMENT_RPC_URL
    ? createPaymentChainAccess({
        rpcUrl: config.PAYMENT_RPC_URL,
        facilitatorKey: config.FACILITATOR_PRIVATE_KEY,
        minterKey: config.OPERATOR_PRIVATE_KEY,
      })
    : undefined;
  const providers = options.providers ?? [
    corpusProvider(db.researchCorpus),
    ...(config.SEARXNG_URL ? [searxngProvider(config.SEARXNG_URL)] : []),
  ];
  const gate = createResearchPaymentGate({ config, access: paymentChain, payments: db.payments, logger });
  return { gate, providers, paymentChain };
}
