import { describe, expect, it } from "vitest";
import { loadConfig, parseWriteLimit } from "./config";

const base = { DATABASE_URL: "postgres://localhost/test" };

describe("write limit settings", () => {
  it.each([
    ["5/1h", { max: 5, windowSeconds: 3600 }],
    ["30/10m", { max: 30, windowSeconds: 600 }],
    ["2/45s", { max: 2, windowSeconds: 45 }],
  ])("%s means %j", (setting, limit) => {
    expect(parseWriteLimit(setting)).toEqual(limit);
  });

  it("defaults to 5 posts an hour and 30 comments in 10 minutes", () => {
    const config = loadConfig(base);
    expect(config.WRITE_LIMIT_POSTS).toEqual({ max: 5, windowSeconds: 3600 });
    expect(config.WRITE_LIMIT_COMMENTS).toEqual({ max: 30, windowSeconds: 600 });
  });

  it.each(["5", "5/h", "0/1h", "5/1d", "-1/1h", "5 / 1h"])("refuses %j, naming the setting", (setting) => {
    expect(() => loadConfig({ ...base, WRITE_LIMIT_POSTS: setting })).toThrow(/WRITE_LIMIT_POSTS: like "5\/1h"/);
  });
});

describe("journal settings", () => {
  it("is live with a 20,000-character body by default, and off only when told", () => {
    expect(loadConfig(base)).toMatchObject({ JOURNAL_LIVE: true, JOURNAL_MAX_LEN: 20_000 });
    expect(loadConfig({ ...base, JOURNAL_LIVE: "false" }).JOURNAL_LIVE).toBe(false);
  });
});
