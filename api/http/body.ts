// Request bodies: this API takes JSON only. `limitBodies` answers 413 payload_too_large past a
// size, before reading beyond it, and closes the connection. `requireJsonBodies` answers a
// non-empty body that is not sent as application/json (or a +json type) with 415
// unsupported_media_type, and one that does not parse with 400 invalid_body, on every route and
// before authentication, so that no handler and no idempotency record ever sees it. An empty body
// passes: a route that needs one says so (400).
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { invalidBody, payloadTooLarge, unsupportedMediaType } from "./errors";

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/;

/**
 * A GET or HEAD that announces no body (no Content-Length, no Transfer-Encoding) has none. Asked of
 * the headers, because asking `c.req.raw.body` makes Hono's Node adapter build a full Request (an
 * AbortController, undici's Request and Headers) for every read, which profiles of uncached reads
 * showed among the costliest steps of a request.
 */
const surelyBodiless = (c: Context) =>
  (c.req.method === "GET" || c.req.method === "HEAD") &&
  c.req.header("content-length") === undefined &&
  c.req.header("transfer-encoding") === undefined;

export const limitBodies = (maxBytes: number): MiddlewareHandler => {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: (c) => {
      // The rest of the body is never read: the connection cannot carry another request after it.
      c.header("connection", "close");
      throw payloadTooLarge(maxBytes);
    },
  });
  return (c, next) => (surelyBodiless(c) ? next() : limit(c, next));
};

export const requireJsonBodies = (): MiddlewareHandler => async (c, next) => {
  if (surelyBodiless(c) || !c.req.raw.body) return next();
  const text = await c.req.text();
  if (text.length === 0) return next();
  const mediaType = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!JSON_MEDIA_TYPE.test(mediaType)) throw unsupportedMediaType(mediaType);
  try {
    JSON.parse(text);
  } catch (error) {
    throw invalidBody(error);
  }
  await next();
};
