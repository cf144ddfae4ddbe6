// Token verification against a JWKS served over HTTP, as an identity provider would serve it:
// RS256 and ES256 accepted, a symmetric or foreign key refused, a rotated-in key picked up.
import { createServer, type Server } from "node:http";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthError, createVerifier, JWKS_REFETCH_COOLDOWN_MS } from "../api/auth/verifier";

describe("JWKS verification", () => {
  let server: Server;
  let url: string;
  const published: JWK[] = [];
  type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
  const keys: Record<string, { privateKey: PrivateKey; alg: string }> = {};

  const addKey = async (kid: string, alg: "RS256" | "ES256") => {
    const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
    published.push({ ...(await exportJWK(publicKey)), kid, alg, use: "sig" });
    keys[kid] = { privateKey, alg };
  };
  const sign = (kid: string, claims: Record<string, unknown> = {}, key = keys[kid]!) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: key.alg, kid })
      .setSubject("user-42")
      .setIssuer("https://id.test")
      .setAudience("prediction-market-api")
      .setExpirationTime("5m")
      .sign(key.privateKey);

  beforeAll(async () => {
    await addKey("rsa-1", "RS256");
    await addKey("ec-1", "ES256");
    server = createServer((_, response) => {
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ keys: published }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/jwks.json`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const verifier = () =>
    createVerifier({ JWKS_URL: url, JWT_ISSUER: "https://id.test", JWT_AUDIENCE: "prediction-market-api" });

  it("accepts RS256 and ES256 tokens signed by published keys", async () => {
    const verify = verifier();
    expect(await verify(`Bearer ${await sign("rsa-1", { roles: ["admin"] })}`)).toEqual({
      id: "user-42",
      roles: ["admin"],
      verified: false,
      isAdmin: true,
    });
    expect((await verify(`Bearer ${await sign("ec-1", { email_verified: true })}`)).verified).toBe(true);
  });

  it("refuses a symmetric token, a key it does not publish, and a wrong issuer", async () => {
    const verify = verifier();
    const hs256 = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256", kid: "rsa-1" })
      .setSubject("user-42")
      .setIssuer("https://id.test")
      .setAudience("prediction-market-api")
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode("a-secret-that-is-long-enough-0000000"));
    await expect(verify(`Bearer ${hs256}`)).rejects.toBeInstanceOf(AuthError);
    const { privateKey } = await generateKeyPair("RS256");
    await expect(verify(`Bearer ${await sign("rsa-1", {}, { privateKey, alg: "RS256" })}`)).rejects.toThrow(
      /signature/,
    );
    const foreignIssuer = await new SignJWT({})
      .setProtectedHeader({ alg: "RS256", kid: "rsa-1" })
      .setSubject("user-42")
      .setIssuer("https://elsewhere.test")
      .setAudience("prediction-market-api")
      .setExpirationTime("5m")
      .sign(keys["rsa-1"]!.privateKey);
    await expect(verify(`Bearer ${foreignIssuer}`)).rejects.toThrow(/iss/);
  });

  it("picks up a key rotated in after the key set was first fetched, once the refetch cooldown passed", async () => {
    const verify = verifier();
    await verify(`Bearer ${await sign("rsa-1")}`);
    await addKey("rsa-2", "RS256");
    await new Promise((resolve) => setTimeout(resolve, JWKS_REFETCH_COOLDOWN_MS + 100));
    expect((await verify(`Bearer ${await sign("rsa-2")}`)).id).toBe("user-42");
  });
});
