// A tip: USDC from the tipper's smart account to the post author's, as one sponsored user
// operation. The author's account address follows from their user id, so a tip reaches an author
// who has never opened their wallet; the account is deployed by its own first user operation.
import { type Address, getAddress } from "viem";
import { toUsdcUnits } from "../../constants";
import { simpleAccount } from "../chain/smartAccount";
import { transferCall, usdcBalance } from "../chain/usdc";
import { ownerKeyFor } from "../chain/walletKeys";
import type { AppEnv } from "../http/env";
import { badRequest, chainUnavailable, notFound, walletNotFound } from "../http/errors";
import { sponsoredWrite, type WriteContext } from "../writes/sponsoredWrite";
import { postIdOf } from "./context";

/** What a tip needs of the request's context: `c.var` fits. */
export type TipContext = WriteContext & Pick<AppEnv["Variables"], "user">;

export type TipParameters = { context: string; amount: number };

export async function tip(context: TipContext, request: TipParameters) {
  const { chain, config, db, user } = context;
  const masterKey = config.WALLET_MASTER_KEY;
  if (!chain || !masterKey) throw chainUnavailable();
  const postId = postIdOf(request.context);
  const post = await db.posts.byId(postId);
  if (!post) throw notFound("post");
  if (post.author_id === user.id) throw badRequest("context", "you cannot tip your own post");
  const wallet = await db.wallets.find(user.id);
  if (!wallet) throw walletNotFound();
  const from = wallet.address as Address;
  const authorWallet = await db.wallets.find(post.author_id);
  const to = authorWallet
    ? getAddress(authorWallet.address)
    : (await simpleAccount(chain.publicClient, ownerKeyFor(masterKey, post.author_id))).address;
  const units = toUsdcUnits(request.amount);
  if ((await usdcBalance(chain, from)).units < units) throw badRequest("amount", "not enough USDC in the wallet");

  return sponsoredWrite(context, {
    userId: user.id,
    kind: "tip",
    request,
    calls: [transferCall(chain, to, units)],
    ownerKey: ownerKeyFor(masterKey, user.id),
    // Recorded before it is sent, and listed only once the indexer has its transfer (api/db/tips.ts):
    // a crash can leave a recorded tip that never lands (never listed), never a transfer unlisted.
    beforeSend: (txId) =>
      db.tips.record({
        userOpHash: txId,
        postId: post.id,
        tipperId: user.id,
        authorId: post.author_id,
        from,
        to,
        units,
      }),
    answer: ({ txId, txHash }) => ({
      txId,
      txHash,
      status: "pending" as const,
      context: request.context,
      amount: request.amount,
      to,
    }),
  });
}
