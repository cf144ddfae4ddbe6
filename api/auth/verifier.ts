// Who is calling: a bearer JWT verified with jose, against a JWKS (RS256/ES256, keys cached and
// refetched on rotation) or, locally, a shared secret (HS256). `exp` is required; issuer and
// audience are checked when configured; `alg: none` and any algorithm the key does not allow fail.
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from "jose";

export type User = {
  id: string;
  roles: string[];
  /** Journal writes need a verified user: `email_verified: true`, or the role `verified`. */
  verified: boolean;
  isAdmin: boolean;
};

export class AuthError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * A token naming an unknown key makes the verifier fetch the key set again, at most this often:
 * soon enough for a rotation, rarely enough that forged key ids cannot flood the identity provider.
 */
export const JWKS_REFETCH_COOLDOWN_MS = 5_000;

export type VerifierConfig = {
  JWKS_URL?: string;
  JWT_SECRET?: string;
  JWT_ISSUER?: string;
  JWT_AUDIENCE?: string;
};

export function createVerifier(config: VerifierConfig): (authorization: string | undefined) => Promise<User> {
  const options = {
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    requiredClaims: ["exp", "sub"],
  };
  const verify = config.JWKS_URL
    ? (() => {
        const keys = createRemoteJWKSet(new URL(config.JWKS_URL), {
          cooldownDuration: JWKS_REFETCH_COOLDOWN_MS,
          cacheMaxAge: 600_000,
        });
        return (token: string) => jwtVerify(token, keys, { ...options, algorithms: ["RS256", "ES256"] });
      })()
    : config.JWT_SECRET
      ? (() => {
          const secret = new TextEncoder().encode(config.JWT_SECRET);
          return (token: string) => jwtVerify(token, secret, { ...options, algorithms: ["HS256"] });
        })()
      : undefined;

  return async (authorization) => {
    if (!verify) throw new AuthError("authentication is not configured (JWKS_URL or JWT_SECRET)");
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
    if (!match) throw new AuthError("missing bearer token");
    let payload: JWTPayload;
    try {
      payload = (await verify(match[1]!)).payload;
    } catch (error) {
      throw new AuthError(describe(error), { cause: error });
    }
    const roles = Array.isArray(payload.roles)
      ? payload.roles.filter((role): role is string => typeof role === "string")
      : [];
    return {
      id: payload.sub!,
      roles,
      verified: payload.email_verified === true || roles.includes("verified"),
      isAdmin: roles.includes("admin"),
    };
  };
}

function describe(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "token expired";
  if (error instanceof errors.JWTClaimValidationFailed) return `token claim ${error.claim} is not acceptable`;
  if (error instanceof errors.JOSEAlgNotAllowed) return "token algorithm not allowed";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "token signature is invalid";
  return "token is invalid";
}
