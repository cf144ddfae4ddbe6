// Headers that every answer carries. `X-Content-Type-Options: nosniff` keeps a browser from reading
// a JSON answer (whose strings a client may have written) as HTML or script. An HTML answer whose
// route set no Content-Security-Policy of its own gets a strict one: nothing loads, nothing runs,
// no frame may hold it; a page that needs more (the explorer, /docs) says so in its own header,
// which this never replaces. Both are set before the route runs, when Hono keeps them for the answer
// it builds; only an answer the route built itself (a raw Response) is touched afterwards, since
// touching a built answer makes @hono/node-server rebuild it (see cors.ts).
import type { MiddlewareHandler } from "hono";

export const STRICT_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const securityHeaders = (): MiddlewareHandler => async (c, next) => {
  c.header("X-Content-Type-Options", "nosniff");
  await next();
  const headers = c.res.headers;
  if (!headers.has("x-content-type-options")) c.header("X-Content-Type-Options", "nosniff");
  if (headers.get("content-type")?.startsWith("text/html") && !headers.has("content-security-policy"))
    c.header("Content-Security-Policy", STRICT_CSP);
};
