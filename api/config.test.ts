import { describe, expect, it } from "vitest";
import { loadConfig, parseRateLimit } from "./config";

const base = { DATABASE_URL: "postgres://localhost/test" };

describe("write limit settings", () => {
  it.each([
    ["5/1h", { max: 5, windowSeconds: 3600 }],
    ["30/10m", { max: 30, windowSeconds: 600 }],
    ["2/45s", { max: 2, windowSeconds: 45 }],
  ])("%s means %j", (setting, limit) => {
    expect(parseRateLimit(setting)).toEqual(limit);
  });

  it("defaults to 5 posts an hour and 30 comments in 10 minutes", () => {
    const config = loadConfig(base);
    expect(config.WRITE_LIMIT_POSTS).toEqual({ max: 5, windowSeconds: 3600 });
    expect(config.WRITE_LIMIT_COMMENTS).toEqual({ max: 30, windowSeconds: 600 });
  });

  it("limits every other kind of write by default: trades, agents, the account, admins and faucets", () => {
    expect(loadConfig(base)).toMatchObject({
      WRITE_LIMIT_TRADES: { max: 600, windowSeconds: 60 },
      WRITE_LIMIT_AGENTS: { max: 60, windowSeconds: 600 },
      WRITE_LIMIT_ACCOUNT: { max: 120, windowSeconds: 600 },
      WRITE_LIMIT_ADMIN: { max: 120, windowSeconds: 60 },
      WRITE_LIMIT_FAUCET: { max: 100, windowSeconds: 3600 },
    });
  });

  it.each(["5", "5/h", "0/1h", "5/1d", "-1/1h", "5 / 1h"])("refuses %j, naming the setting", (setting) => {
    expect(() => loadConfig({ ...base, WRITE_LIMIT_POSTS: setting })).toThrow(/WRITE_LIMIT_POSTS: like "5\/1h"/);
  });
});

describe("read limit settings", () => {
  it("defaults to 12,000 reads a minute per address, 30 tips in 10 minutes per user, no proxy and no Redis", () => {
    expect(loadConfig(base)).toMatchObject({
      READ_LIMIT: { max: 12_000, windowSeconds: 60 },
      WRITE_LIMIT_TIPS: { max: 30, windowSeconds: 600 },
      TRUST_PROXY_HOPS: 0,
    });
    expect(loadConfig(base).REDIS_URL).toBeUndefined();
  });

  it("is switched off by off only", () => {
    expect(loadConfig({ ...base, READ_LIMIT: "off" }).READ_LIMIT).toBeUndefined();
    expect(loadConfig({ ...base, READ_LIMIT: "20/1s" }).READ_LIMIT).toEqual({ max: 20, windowSeconds: 1 });
  });

  it.each(["0", "none", "0/1m", "12000"])("refuses %j, naming the setting", (setting) => {
    expect(() => loadConfig({ ...base, READ_LIMIT: setting })).toThrow(/READ_LIMIT: like "12000\/1m".*or off/);
  });
});

describe("journal settings", () => {
  it("is live with a 20,000-character body by default, and off only when told", () => {
    expect(loadConfig(base)).toMatchObject({ JOURNAL_LIVE: true, JOURNAL_MAX_LEN: 20_000 });
    expect(loadConfig({ ...base, JOURNAL_LIVE: "false" }).JOURNAL_LIVE).toBe(false);
  });
});
