// Comments on journal posts and markets: threads of replies, duel stances checked against the
// indexed positions, deletion by the author, and the live stream's `comment` event for each.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CommentEvent } from "../api/routes/stream";
import { testClient } from "./helpers/client";
import { expectEnvelope } from "./helpers/http";
import { openStream, type StreamClient, until } from "./helpers/sse";
import { startTestStack, type TestStack } from "./helpers/stack";
import { tokenFor } from "./helpers/tokens";

describe("comments", () => {
  let stack: TestStack;
  let client: ReturnType<typeof testClient>;
  let alice: string;
  let bob: string;
  let carol: string;
  let postId: string;
  const opened: StreamClient[] = [];
  const activeMarket = () => stack.deployment.markets[0]!;

  const comment = (token: string, body: Record<string, unknown>) =>
    client.call("POST", "/api/comments", { token, body });
  const onPost = (body: string, extra: Record<string, unknown> = {}) => ({
    targetType: "blog",
    targetId: postId,
    body,
    ...extra,
  });
  const list = (query: string) => client.call("GET", `/api/comments?${query}`);
  const publishPost = async (token: string, title: string) => {
    const response = await client.call("POST", "/api/blog", { token, body: { title, body: `# ${title}` } });
    expect(response.status).toBe(201);
    return response.body.id as string;
  };

  beforeAll(async () => {
    stack = await startTestStack();
    client = testClient(stack.apiUrl!);
    alice = await tokenFor("alice", { roles: ["verified"] });
    bob = await tokenFor("bob");
    carol = await tokenFor("carol", { roles: ["agent"] });
    postId = await publishPost(alice, "Why rates fall in March");
  });
  afterAll(async () => {
    for (const stream of opened) stream.close();
    await stack?.dispose();
  });

  it("threads comments and replies on a post: newest first, each reply naming its parent, paged by limit and offset", async () => {
    const first = await comment(bob, onPost("The dots say otherwise."));
    expect(first.status).toBe(201);
    const reply = await comment(carol, onPost("They moved in December.", { parentId: first.body.id }));
    const replyToReply = await comment(alice, onPost("Both fair points.", { parentId: reply.body.id }));
    const second = await comment(bob, onPost("Second thought: agree."));
    for (const response of [reply, replyToReply, second]) expect(response.status).toBe(201);
    expect(first.body).toMatchObject({
      userId: "bob",
      targetType: "blog",
      targetId: postId,
      body: "The dots say otherwise.",
      parentId: null,
      isDuel: false,
      stance: null,
      deleted: false,
      author: { userId: "bob", displayName: "bob", avatarUrl: null, isAgent: false },
    });
    expect(reply.body.author.isAgent).toBe(true);

    const all = await list(`target_type=blog&target_id=${postId}`);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 4, limit: 50, offset: 0 });
    expect(all.body.comments.map((c: { id: string }) => c.id)).toEqual([
      second.body.id,
      replyToReply.body.id,
      reply.body.id,
      first.body.id,
    ]);
    const parents = Object.fromEntries(
      all.body.comments.map((c: { id: string; parentId: string }) => [c.id, c.parentId]),
    );
    expect(parents).toEqual({
      [second.body.id]: null,
      [replyToReply.body.id]: reply.body.id,
      [reply.body.id]: first.body.id,
      [first.body.id]: null,
    });

    const page = await list(`target_type=blog&target_id=${postId}&limit=2&offset=2`);
    expect(page.body).toMatchObject({ total: 4, limit: 2, offset: 2 });
    expect(page.body.comments.map((c: { id: string }) => c.id)).toEqual([reply.body.id, first.body.id]);
  });

  it("keeps comments on markets apart from comments on posts, and refuses a parent from another target", async () => {
    const onMarket = await comment(bob, { targetType: "market", targetId: activeMarket().slug, body: "Cheap at 0.5" });
    expect(onMarket.status).toBe(201);
    const listed = await list(`target_type=market&target_id=${activeMarket().slug}`);
    expect(listed.body.comments.map((c: { id: string }) => c.id)).toEqual([onMarket.body.id]);

    const crossed = await comment(bob, onPost("Wrong thread", { parentId: onMarket.body.id }));
    expect(crossed.status).toBe(400);
    expect(crossed.body.error.details.parameter).toBe("parentId");
    const unknownParent = await comment(bob, onPost("No parent", { parentId: "00000000-0000-4000-8000-000000000000" }));
    expect(unknownParent.status).toBe(400);
    expect(unknownParent.body.error.details.parameter).toBe("parentId");
  });

  it("answers 404 for an unknown market, an unknown post and an archived post, for reads and writes", async () => {
    const archived = await publishPost(alice, "Soon gone");
    expect((await client.call("DELETE", `/api/blog/${archived}`, { token: alice })).status).toBeLessThan(300);
    for (const [targetType, targetId] of [
      ["market", "no-such-market"],
      ["blog", "00000000-0000-4000-8000-000000000000"],
      ["blog", archived],
    ]) {
      const read = await list(`target_type=${targetType}&target_id=${targetId}`);
      expect(read.status, `${targetType} ${targetId}`).toBe(404);
      expectEnvelope(read.body, "not_found");
      const write = await comment(bob, { targetType, targetId, body: "Hello?" });
      expect(write.status, `${targetType} ${targetId}`).toBe(404);
    }
  });

  it("answers 409 stance_not_held to a duel on an outcome the author holds no tokens of, and publishes it once the index shows the position", async () => {
    const market = activeMarket();
    const duel = { targetType: "market", targetId: market.slug, body: "Yes, clearly.", isDuel: true, stance: "Yes" };
    const withoutWallet = await comment(bob, duel);
    expect(withoutWallet.status).toBe(409);
    expectEnvelope(withoutWallet.body, "stance_not_held");

    expect((await client.call("POST", "/api/wallet/get-or-create", { token: bob })).status).toBe(200);
    expect((await client.call("POST", "/api/wallet/faucet", { token: bob })).status).toBe(200);
    expect((await comment(bob, duel)).status).toBe(409);
    const buy = await client.call("POST", "/api/trade/buy", {
      token: bob,
      body: { marketSlug: market.slug, outcome: "Yes", amount: 5 },
    });
    expect(buy.status).toBe(200);
    await until(
      async () =>
        (await client.call("GET", `/api/trade/status/${buy.body.txId}`, { token: bob })).body.status === "confirmed",
      "the buy confirmed by the indexer",
    );

    const held = await comment(bob, duel);
    expect(held.status).toBe(201);
    expect(held.body).toMatchObject({ isDuel: true, stance: "Yes" });
    const notHeld = await comment(bob, { ...duel, stance: "No" });
    expect(notHeld.status).toBe(409);
    expectEnvelope(notHeld.body, "stance_not_held");
    const notAnOutcome = await comment(bob, { ...duel, stance: "Maybe" });
    expect(notAnOutcome.status).toBe(400);
    expect(notAnOutcome.body.error.details.parameter).toBe("stance");
  });

  it("takes agree or disagree as a duel stance on a post, and nothing else", async () => {
    const agree = await comment(carol, onPost("Agreed.", { isDuel: true, stance: "agree" }));
    expect(agree.status).toBe(201);
    expect(agree.body).toMatchObject({ isDuel: true, stance: "agree" });
    expect((await comment(carol, onPost("No.", { isDuel: true, stance: "disagree" }))).status).toBe(201);
    for (const body of [
      onPost("Which side?", { isDuel: true }),
      onPost("Yes!", { isDuel: true, stance: "Yes" }),
      onPost("A side without a duel", { stance: "agree" }),
    ]) {
      const response = await comment(carol, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.details.parameter).toBe("stance");
    }
  });

  it("refuses a missing token, a blank body and a body over 2,000 characters", async () => {
    const anonymous = await client.call("POST", "/api/comments", { body: onPost("Hi") });
    expect(anonymous.status).toBe(401);
    for (const body of ["   ", "x".repeat(2_001)]) {
      const response = await comment(bob, onPost(body));
      expect(response.status).toBe(400);
      expect(response.body.error.details.parameter).toBe("body");
    }
    expect((await comment(bob, onPost("x".repeat(2_000)))).status).toBe(201);
  });

  it("lets only the author delete a comment; its replies stay below a tombstone without body", async () => {
    const parent = await comment(bob, onPost("I may regret this."));
    const child = await comment(carol, onPost("You will.", { parentId: parent.body.id }));
    const lonely = await comment(bob, onPost("Nobody answers this."));

    const byOther = await client.call("DELETE", `/api/comments/${parent.body.id}`, { token: carol });
    expect(byOther.status).toBe(403);
    expectEnvelope(byOther.body, "forbidden");
    const unknown = await client.call("DELETE", "/api/comments/00000000-0000-4000-8000-000000000000", { token: bob });
    expect(unknown.status).toBe(404);
    for (const id of [parent.body.id, lonely.body.id]) {
      const deleted = await client.call("DELETE", `/api/comments/${id}`, { token: bob });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toMatchObject({ id, deleted: true });
    }
    expect((await client.call("DELETE", `/api/comments/${parent.body.id}`, { token: bob })).status).toBe(404);

    const listed = (await list(`target_type=blog&target_id=${postId}&limit=100`)).body.comments;
    const ids = listed.map((c: { id: string }) => c.id);
    expect(ids).not.toContain(lonely.body.id);
    expect(listed.find((c: { id: string }) => c.id === parent.body.id)).toMatchObject({
      deleted: true,
      body: null,
      stance: null,
    });
    expect(listed.find((c: { id: string }) => c.id === child.body.id)).toMatchObject({ parentId: parent.body.id });
    const reply = await comment(carol, onPost("Too late.", { parentId: parent.body.id }));
    expect(reply.status).toBe(400);
  });

  it("answers a user's 31st comment within 10 minutes with 429 and Retry-After; refused comments do not count", async () => {
    const flood = await tokenFor("flood");
    expect((await comment(flood, onPost("   "))).status).toBe(400);
    for (let i = 1; i <= 30; i++)
      expect((await comment(flood, onPost(`Comment ${i}`))).status, `comment ${i}`).toBe(201);
    const limited = await comment(flood, onPost("One more"));
    expect(limited.status).toBe(429);
    expectEnvelope(limited.body, "rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await comment(bob, onPost("Others still comment."))).status).toBe(201);
  });

  it("sends each published comment to an EventSource client as a `comment` event within 1 s of the answer", async () => {
    const stream = openStream(`${stack.apiUrl}/api/trade/stream?types=comment`);
    opened.push(stream);
    await until(() => stream.of("connected").length > 0, "connected");
    const delays: number[] = [];
    let parentId: string | null = null;
    for (let i = 0; i < 5; i++) {
      const sent = await comment(
        carol,
        onPost(`Live ${i}`, parentId ? { parentId } : { isDuel: true, stance: "agree" }),
      );
      const answeredAt = performance.now();
      expect(sent.status).toBe(201);
      await until(() => stream.of("comment").some((event) => event.data.id === sent.body.id), `comment ${i} streamed`);
      delays.push(performance.now() - answeredAt);
      const event = CommentEvent.parse(stream.of("comment").find((e) => e.data.id === sent.body.id)!.data);
      expect(event).toEqual({
        type: "comment",
        id: sent.body.id,
        userId: "carol",
        targetType: "blog",
        targetId: postId,
        body: `Live ${i}`,
        parentId,
        isDuel: parentId === null,
        createdAt: sent.body.createdAt,
        stance: parentId === null ? "agree" : null,
      });
      parentId = sent.body.id;
    }
    for (const delay of delays) expect(delay).toBeLessThan(1_000);
  });
});
