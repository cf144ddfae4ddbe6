import { describe, expect, it } from "vitest";
import { agentProfiles, loadSettings, subjectOf } from "./config";

const token = (payload: object) => `x.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.y`;

describe("runner settings", () => {
  it("has defaults for the schedule and reads the tokens it is given", () => {
    const settings = loadSettings({ API_URL: "http://127.0.0.1:3000", AGENT_TOKEN_MOMENTUM: "t" });
    expect(settings).toMatchObject({
      AGENTS_TICK_MS: 10_000,
      AGENTS_POST_INTERVAL_MS: 600_000,
      AGENTS_SEED_USDC: 1000,
      AGENTS_METRICS_PORT: 9464,
      AGENTS_PARAMS: {},
      AGENT_TOKEN_MOMENTUM: "t",
    });
    expect(settings.AGENT_TOKEN_CONTRARIAN).toBeUndefined();
  });

  it("parses parameters and market lists", () => {
    const settings = loadSettings({
      API_URL: "http://127.0.0.1:3000",
      AGENT_TOKEN_MOMENTUM: "t",
      AGENTS_PARAMS: '{"momentum":{"threshold":0.05}}',
      AGENTS_MARKETS: "a, b",
    });
    expect(settings.AGENTS_PARAMS).toEqual({ momentum: { threshold: 0.05 } });
    expect(settings.AGENTS_MARKETS).toEqual(["a", "b"]);
  });

  it("reports every problem at once", () => {
    expect(() => loadSettings({ API_URL: "nope", AGENTS_TICK_MS: "5", AGENT_TOKEN_MOMENTUM: "t" })).toThrow(
      /API_URL[\s\S]*AGENTS_TICK_MS/,
    );
    expect(() => loadSettings({ API_URL: "http://x", AGENT_TOKEN_MOMENTUM: "t", AGENTS_PARAMS: "[" })).toThrow(
      /AGENTS_PARAMS/,
    );
    expect(() => loadSettings({ API_URL: "http://x", AGENT_TOKEN_MOMENTUM: "t", AGENTS_PARAMS: '{"x":{}}' })).toThrow(
      /no strategy named x/,
    );
    expect(() => loadSettings({ API_URL: "http://x" })).toThrow(/no agent token/);
  });

  it("makes a profile of each agent with a token, its parameters from the settings", () => {
    const env = { API_URL: "http://127.0.0.1:3000", AGENT_TOKEN_CONTRARIAN: token({ sub: "house-contrarian" }) };
    const [contrarian, ...others] = agentProfiles(
      loadSettings({ ...env, AGENTS_PARAMS: '{"contrarian":{"threshold":0.2,"navFloorUsdc":100}}' }),
    );
    expect(others).toEqual([]);
    expect(contrarian).toMatchObject({ key: "contrarian", name: "House Contrarian", userId: "house-contrarian" });
    expect(contrarian!.risk.navFloorUsdc).toBe(100);
    const misspelt = loadSettings({ ...env, AGENTS_PARAMS: '{"contrarian":{"treshold":0.2}}' });
    expect(() => agentProfiles(misspelt)).toThrow(/^AGENTS_PARAMS\.contrarian: \*: Unrecognized key: "treshold"/);
    const garbage = loadSettings({ API_URL: "http://x", AGENT_TOKEN_MOMENTUM: "garbage" });
    expect(() => agentProfiles(garbage)).toThrow(/^AGENT_TOKEN_MOMENTUM: an agent token is not a JWT/);
  });

  it("reads the user id out of a token", () => {
    expect(subjectOf(token({ sub: "house-momentum" }))).toBe("house-momentum");
    expect(() => subjectOf("garbage")).toThrow(/subject/);
  });
});
