// The journal on the real stack: verified users publish markdown posts, readers list and read them
// (each read counts a view), authors name themselves by profile and archive their own posts.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startApi } from "../scripts/stack/api";
import { freePort } from "../scripts/stack/ports";
import { stopChild } from "../scripts/stack/processes";
import { testClient } from "./helpers/client";
import { expectEnvelope } from "./helpers/http";
import { startTestStack, type TestStack } from "./helpers/stack";
import { tokenFor } from "./helpers/tokens";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("journal", () => {
  let stack: TestStack;
  let client: ReturnType<typeof testClient>;
  // Unique per run: a shared database keeps the posts of earlier runs.
  const run = Math.random().toString(36).slice(2, 8);
  const ada = `ada${run}`;
  const tag = `rates-${run}`;
  const tokens = {} as Record<"ada" | "agent" | "unverified" | "mallory", string>;

  const publish = (token: string, post: Record<string, unknown>) =>
    client.call("POST", "/api/blog", { token, body: post });
  const feed = async (query: string) => {
    const { status, body } = await client.call("GET", `/api/blog?${query}`);
    expect(status).toBe(200);
    return body;
  };

  beforeAll(async () => {
    stack = await startTestStack();
    client = testClient(stack.apiUrl!);
    tokens.ada = await tokenFor(ada, { email_verified: true });
    tokens.agent = await tokenFor(`agent-${run}`, { roles: ["agent", "verified"] });
    tokens.unverified = await tokenFor(`reader${run}`, { email_verified: false });
    tokens.mallory = await tokenFor(`mallory${run}`, { roles: ["verified"] });
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  it("reports its settings", async () => {
    const { status, body } = await client.call("GET", "/api/blog/config");
    expect(status).toBe(200);
    expect(body).toEqual({ live: true, maxLen: 20_000, titleMax: 200 });
  });

  describe("a verified user", () => {
    let post: any;

    it("publishes a post: 201 with the post, its excerpt derived from the markdown and its sources' hosts", async () => {
      const { status, body } = await publish(tokens.ada, {
        title: "Why the Fed cuts in March",
        body: "# The case\n\nInflation is **falling** fast, see [the minutes](https://www.federalreserve.gov/m.htm).\n\n```\nignored code\n```",
        coverUrl: "https://images.example.com/fed.png",
        tags: [tag, "macro"],
        sources: [{ title: "FOMC minutes", url: "https://www.federalreserve.gov/m.htm" }],
      });
      expect(status).toBe(201);
      expect(body).toEqual({
        id: expect.stringMatching(UUID),
        title: "Why the Fed cuts in March",
        excerpt: "The case Inflation is falling fast, see the minutes.",
        body: expect.stringContaining("**falling**"),
        coverUrl: "https://images.example.com/fed.png",
        tags: [tag, "macro"],
        sources: [{ title: "FOMC minutes", url: "https://www.federalreserve.gov/m.htm", source: "federalreserve.gov" }],
        kind: "post",
        views: 0,
        author: { userId: ada, displayName: ada, avatarUrl: null, isAgent: false },
        tipsTotal: 0,
        publishedAt: expect.stringMatching(ISO),
      });
      post = body;
    });

    it("reads it with its markdown as sent, and every read counts a view", async () => {
      const first = await client.call("GET", `/api/blog/${post.id}`);
      const second = await client.call("GET", `/api/blog/${post.id}`);
      expect(first.status).toBe(200);
      expect(first.body.body).toBe(post.body);
      expect(second.body.views).toBe(first.body.views + 1);
      // Written in a batch within a second or so, then served by the feed too.
      await vi.waitFor(async () => expect((await feed(`author=${ada}`)).posts[0].views).toBe(2), {
        timeout: 10_000,
        interval: 200,
      });
    });

    it("keeps an excerpt it is given", async () => {
      const { status, body } = await publish(tokens.ada, {
        title: "Second thoughts",
        body: "Long *markdown* body",
        excerpt: "My own summary",
        tags: [tag],
      });
      expect(status).toBe(201);
      expect(body).toMatchObject({ excerpt: "My own summary", coverUrl: null, sources: [] });
    });

    it("lists by tag and by author, newest first, without bodies", async () => {
      const byTag = await feed(`tag=${tag}`);
      expect(byTag).toMatchObject({ total: 2, limit: 20, offset: 0 });
      expect(byTag.posts.map((p: any) => p.title)).toEqual(["Second thoughts", "Why the Fed cuts in March"]);
      for (const entry of byTag.posts) expect(entry).not.toHaveProperty("body");
      const byAuthor = await feed(`author=${ada}&limit=1&offset=1`);
      expect(byAuthor).toMatchObject({ total: 2, limit: 1, offset: 1 });
      expect(byAuthor.posts.map((p: any) => p.id)).toEqual([post.id]);
      expect((await feed(`tag=${tag}-none`)).posts).toEqual([]);
    });

    it("names its author by the profile they set, on earlier posts too", async () => {
      const put = await client.call("PUT", "/api/profile", {
        token: tokens.ada,
        body: { displayName: "Ada L.", avatarUrl: "https://images.example.com/ada.png" },
      });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({
        userId: ada,
        displayName: "Ada L.",
        avatarUrl: "https://images.example.com/ada.png",
        isAgent: false,
      });
      expect((await client.call("GET", "/api/profile", { token: tokens.ada })).body).toEqual(put.body);
      expect((await client.call("GET", `/api/blog/${post.id}`)).body.author).toEqual(put.body);
      await vi.waitFor(async () => expect((await feed(`author=${ada}`)).posts[1].author).toEqual(put.body), {
        timeout: 5_000,
        interval: 100,
      });
    });

    it("archives its own post: it leaves the feed and its GET is 404", async () => {
      const { status, body } = await client.call("DELETE", `/api/blog/${post.id}`, { token: tokens.ada });
      expect(status).toBe(200);
      expect(body).toEqual({ id: post.id, archived: true });
      const read = await client.call("GET", `/api/blog/${post.id}`);
      expect(read.status).toBe(404);
      expectEnvelope(read.body, "not_found");
      await vi.waitFor(async () => expect((await feed(`author=${ada}`)).total).toBe(1), {
        timeout: 5_000,
        interval: 100,
      });
      const again = await client.call("DELETE", `/api/blog/${post.id}`, { token: tokens.ada });
      expect(again.status).toBe(404);
    });
  });

  it("publishes an agent's post as an analysis by an agent", async () => {
    const { status, body } = await publish(tokens.agent, { title: "Model update", body: "Odds moved." });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      kind: "analysis",
      author: { userId: `agent-${run}`, displayName: `agent-${run}`, isAgent: true },
    });
  });

  it("refuses a post from an unverified user (403) and from no user (401)", async () => {
    const unverified = await publish(tokens.unverified, { title: "Hi", body: "Hello" });
    expect(unverified.status).toBe(403);
    expectEnvelope(unverified.body, "forbidden");
    const anonymous = await client.call("POST", "/api/blog", { body: { title: "Hi", body: "Hello" } });
    expect(anonymous.status).toBe(401);
    expectEnvelope(anonymous.body, "unauthorized");
  });

  it("lets only the author archive a post: 403 for another user, 404 for an unknown post", async () => {
    const { body: post } = await publish(tokens.ada, { title: "Mine", body: "Mine alone." });
    const other = await client.call("DELETE", `/api/blog/${post.id}`, { token: tokens.mallory });
    expect(other.status).toBe(403);
    expectEnvelope(other.body, "not_author");
    expect((await client.call("GET", `/api/blog/${post.id}`)).status).toBe(200);
    const unknown = await client.call("DELETE", "/api/blog/00000000-0000-4000-8000-000000000000", {
      token: tokens.ada,
    });
    expect(unknown.status).toBe(404);
  });

  it.each([
    ["a title over 200 characters", { title: "t".repeat(201), body: "b" }, "title"],
    ["a body over 20,000 characters", { title: "t", body: "b".repeat(20_001) }, "body"],
    ["a blank title", { title: "   ", body: "b" }, "title"],
    ["an excerpt over 280 characters", { title: "t", body: "b", excerpt: "e".repeat(281) }, "excerpt"],
    ["a javascript: cover", { title: "t", body: "b", coverUrl: "javascript:alert(1)" }, "coverUrl"],
    ["an uppercase tag", { title: "t", body: "b", tags: ["Macro"] }, "tags.0"],
    ["eleven tags", { title: "t", body: "b", tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, "tags"],
    ["a repeated tag", { title: "t", body: "b", tags: ["a", "a"] }, "tags"],
    [
      "a source that is not http",
      { title: "t", body: "b", sources: [{ title: "s", url: "ftp://x.org" }] },
      "sources.0.url",
    ],
    ["an unknown field", { title: "t", body: "b", author: "someone-else" }, "author"],
  ])("refuses %s with a 400 naming it", async (_, post, parameter) => {
    const { status, body } = await publish(tokens.mallory, post);
    expect(status).toBe(400);
    expectEnvelope(body, "invalid_parameter");
    expect(body.error.details.parameter).toBe(parameter);
  });

  it("counts a title's and a body's length in characters: 200 emoji are a valid title", async () => {
    const { status } = await publish(tokens.mallory, { title: "😀".repeat(200), body: "😀".repeat(20_000) });
    expect(status).toBe(201);
  });

  it.each([
    ["limit=51", "limit"],
    ["limit=0", "limit"],
    ["offset=-1", "offset"],
    ["tag=Not%20a%20slug", "tag"],
  ])("answers GET /api/blog?%s with a 400 naming the parameter", async (query, parameter) => {
    const { status, body } = await client.call("GET", `/api/blog?${query}`);
    expect(status).toBe(400);
    expect(body.error.details.parameter).toBe(parameter);
  });

  it("answers 400 for a post id that is not a UUID and 404 for an unknown one", async () => {
    const bad = await client.call("GET", "/api/blog/not-a-uuid");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.parameter).toBe("id");
    const unknown = await client.call("GET", "/api/blog/00000000-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);
    expectEnvelope(unknown.body, "not_found");
  });

  it("refuses a profile without a name, with a non-http avatar, and without a token", async () => {
    const blank = await client.call("PUT", "/api/profile", { token: tokens.mallory, body: { displayName: " " } });
    expect(blank.body.error.details.parameter).toBe("displayName");
    const avatar = await client.call("PUT", "/api/profile", {
      token: tokens.mallory,
      body: { displayName: "M", avatarUrl: "data:image/png;base64,AAAA" },
    });
    expect(avatar.body.error.details.parameter).toBe("avatarUrl");
    expect((await client.call("GET", "/api/profile")).status).toBe(401);
  });

  it("with posting switched off, says so in its settings and refuses posts (403 journal_closed) but serves reads", async () => {
    const api = await startApi({
      ...stack.apiOptions!,
      port: await freePort(),
      logFile: join(stack.dataDir, "logs", "api-closed.log"),
      env: { ...stack.apiOptions!.env, JOURNAL_LIVE: "false" },
    });
    try {
      const closed = testClient(api.url);
      expect((await closed.call("GET", "/api/blog/config")).body).toMatchObject({ live: false });
      const { status, body } = await closed.call("POST", "/api/blog", {
        token: tokens.ada,
        body: { title: "t", body: "b" },
      });
      expect(status).toBe(403);
      expectEnvelope(body, "journal_closed");
      expect((await closed.call("GET", `/api/blog?author=${ada}`)).body.total).toBe(2);
    } finally {
      await stopChild(api.child);
    }
  });
});
