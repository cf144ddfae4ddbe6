import { jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { LOCAL_JWT_AUDIENCE, LOCAL_JWT_ISSUER, LOCAL_JWT_SECRET, mintLocalToken, usesLocalSecret } from "./localToken";
import { createVerifier } from "./verifier";

describe("local tokens", () => {
  it("are offered only while the API verifies with the built-in local secret alone", () => {
    expect(usesLocalSecret({ JWT_SECRET: LOCAL_JWT_SECRET })).toBe(true);
    expect(usesLocalSecret({ JWT_SECRET: "another-secret-of-at-least-thirty-two-chars" })).toBe(false);
    expect(usesLocalSecret({ JWT_SECRET: undefined })).toBe(false);
    expect(usesLocalSecret({ JWT_SECRET: LOCAL_JWT_SECRET, JWKS_URL: "https://id.example/jwks" })).toBe(false);
  });

  it("verify as the API is configured, for a day, without roles", async () => {
    const config = { JWT_SECRET: LOCAL_JWT_SECRET, JWT_ISSUER: LOCAL_JWT_ISSUER, JWT_AUDIENCE: LOCAL_JWT_AUDIENCE };
    const now = Math.floor(Date.now() / 1000);
    const { token, expiresAt } = await mintLocalToken(config, "ada", now);
    expect(expiresAt).toBe(now + 24 * 3600);
    const user = await createVerifier(config)(`Bearer ${token}`);
    expect(user).toEqual({ id: "ada", roles: [], verified: false, isAdmin: false });
    const { payload } = await jwtVerify(token, new TextEncoder().encode(LOCAL_JWT_SECRET));
    expect(payload).toMatchObject({ iss: LOCAL_JWT_ISSUER, aud: LOCAL_JWT_AUDIENCE, sub: "ada" });
  });
});
