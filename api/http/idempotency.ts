// `Idempotency-Key` on writes: the same key with the same body replays the first answer instead of
// acting twice; the same key with another body is a 422; a repeat while the first is still running
// is a 409. Server errors (5xx) and invalid requests (400 invalid_parameter, invalid_body) release the
// key, since nothing was done: the client may retry, or send the corrected request under the same key.
import { createHash } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env";
import { ApiError } from "./errors";

const KEY = /^[\x21-\x7e]{1,200}$/;

export const honourIdempotencyKey = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const key = c.req.header("idempotency-key");
  if (key === undefined) return next();
  if (!KEY.test(key))
    throw new ApiError(400, "invalid_parameter", "Idempotency-Key: 1 to 200 printable characters", {
      parameter: "Idempotency-Key",
    });
  const userId = c.var.user.id;
  const requestHash = createHash("sha256")
    .update(`${c.req.method} ${c.req.path}\n${await c.req.text()}`)
    .digest("hex");
  const claim = await c.var.db.idempotency.claim(userId, key, requestHash);
  if (claim.kind === "mismatch")
    throw new ApiError(422, "idempotency_key_reused", "this Idempotency-Key was used with a different request");
  if (claim.kind === "in_progress")
    throw new ApiError(
      409,
      "idempotency_key_in_progress",
      "a request with this Idempotency-Key is still being answered",
    );
  if (claim.kind === "replay") {
    return c.body(claim.response, claim.status as 200, {
      "content-type": "application/json",
      "idempotent-replayed": "true",
    });
  }
  c.set("idempotencyKey", key);
  try {
    await next();
  } catch (error) {
    // Only a thrown non-Error gets here: hono's compose answers an Error through onError first.
    await c.var.db.idempotency.release(userId, key);
    throw error;
  }
  // An error thrown below has become the response by now (compose hands it to onError); c.error keeps it.
  const refusedAsInvalid =
    c.error instanceof ApiError && (c.error.code === "invalid_parameter" || c.error.code === "invalid_body");
  if (c.res.status >= 500 || refusedAsInvalid) await c.var.db.idempotency.release(userId, key);
  else await c.var.db.idempotency.complete(userId, key, c.res.status, await c.res.clone().text());
};
