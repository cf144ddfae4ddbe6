// Tokens as the local identity provider would issue them, and the broken ones an attacker would try.
import { base64url, SignJWT } from "jose";
import { LOCAL_JWT_AUDIENCE, LOCAL_JWT_ISSUER, LOCAL_JWT_SECRET } from "../../scripts/stack/keys";

type Claims = { roles?: string[]; email_verified?: boolean };

export async function tokenFor(
  userId: string,
  claims: Claims = {},
  options: { secret?: string; issuer?: string; audience?: string; expiresAt?: number } = {},
): Promise<string> {
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime(options.expiresAt ?? Math.floor(Date.now() / 1000) + 600)
    .setIssuer(options.issuer ?? LOCAL_JWT_ISSUER)
    .setAudience(options.audience ?? LOCAL_JWT_AUDIENCE)
    .sign(new TextEncoder().encode(options.secret ?? LOCAL_JWT_SECRET));
}

/** An unsigned token (`alg: none`) with otherwise valid claims. */
export function unsignedToken(userId: string): string {
  const encode = (value: object) => base64url.encode(JSON.stringify(value));
  const now = Math.floor(Date.now() / 1000);
  return `${encode({ alg: "none", typ: "JWT" })}.${encode({ sub: userId, iss: LOCAL_JWT_ISSUER, aud: LOCAL_JWT_AUDIENCE, iat: now, exp: now + 600 })}.`;
}
