// The local stack's own identity provider: a well-known HS256 secret (public, in this repository)
// that `npm start` and the tests give the API when no JWT_SECRET or JWKS_URL is configured. Tokens
// signed with it prove nothing, so the API mints them for anyone who asks (GET /api/dev/token), and
// only while that secret is the one in use.
import { SignJWT } from "jose";
import type { Config } from "../config";

export const LOCAL_JWT_SECRET = "local-test-network-jwt-secret-not-for-production";
export const LOCAL_JWT_ISSUER = "prediction-market-local";
export const LOCAL_JWT_AUDIENCE = "prediction-market-api";

/** A day: long enough to try the service by hand, short enough that a pasted token goes stale. */
export const LOCAL_TOKEN_TTL_SECONDS = 24 * 3600;

/** True only when the API verifies tokens with the local secret alone (no JWKS). */
export const usesLocalSecret = (config: Pick<Config, "JWKS_URL" | "JWT_SECRET">) =>
  !config.JWKS_URL && config.JWT_SECRET === LOCAL_JWT_SECRET;

/** A token for `userId` without roles, as the API is configured to verify it. */
export async function mintLocalToken(
  config: Pick<Config, "JWT_ISSUER" | "JWT_AUDIENCE">,
  userId: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<{ token: string; expiresAt: number }> {
  const expiresAt = nowSeconds + LOCAL_TOKEN_TTL_SECONDS;
  let jwt = new SignJWT({ roles: [] })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(userId)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(expiresAt);
  if (config.JWT_ISSUER) jwt = jwt.setIssuer(config.JWT_ISSUER);
  if (config.JWT_AUDIENCE) jwt = jwt.setAudience(config.JWT_AUDIENCE);
  return { token: await jwt.sign(new TextEncoder().encode(LOCAL_JWT_SECRET)), expiresAt };
}
