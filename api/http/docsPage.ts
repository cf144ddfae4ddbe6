// The interactive reference at /docs (Scalar): its page loads Scalar's script from its CDN and
// styles itself inline, so it carries a policy of its own instead of the strict default
// (securityHeaders.ts): scripts only by this answer's nonce and from that CDN, requests only to
// this origin (the OpenAPI document and "try it"), and no frame may hold it.
import { randomBytes } from "node:crypto";
import { Scalar } from "@scalar/hono-api-reference";
import type { MiddlewareHandler } from "hono";

const SCALAR_CDN = "https://cdn.jsdelivr.net";
const SCALAR_FONTS = "https://fonts.scalar.com";

export const docsPolicy = (nonce: string) =>
  [
    "default-src 'none'",
    `script-src 'nonce-${nonce}' ${SCALAR_CDN}`,
    `style-src 'self' 'unsafe-inline' ${SCALAR_CDN} ${SCALAR_FONTS}`,
    `font-src 'self' data: ${SCALAR_CDN} ${SCALAR_FONTS}`,
    "img-src 'self' data: https:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");

export const docsPage = (options: { url: string; pageTitle: string }): MiddlewareHandler => {
  return (c, next) => {
    const nonce = randomBytes(16).toString("base64");
    c.header("Content-Security-Policy", docsPolicy(nonce));
    return Scalar({ ...options, nonce })(c, next);
  };
};
