import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { limitBodies, requireJsonBodies } from "./body";
import { toApiError } from "./errorMapping";
import { errorResponse } from "./errors";

const app = new Hono()
  .use(limitBodies(1024), requireJsonBodies())
  .post("/echo", async (c) => c.json({ received: await c.req.json(), raw: await c.req.text() }))
  .post("/empty", (c) => c.json({ ok: true }))
  .get("/read", (c) => c.json({ ok: true }))
  .onError((error, c) => errorResponse(c, toApiError(error)));

const post = async (path: string, sent: string | Uint8Array | undefined, contentType?: string) => {
  const response = await app.request(path, {
    method: "POST",
    body: sent,
    headers: contentType === undefined ? {} : { "content-type": contentType },
  });
  const body = (await response.json()) as { error: { code: string; message: string; details?: unknown } };
  return { status: response.status, body };
};

/** A GET whose body must not be asked for: on Node, asking builds a whole Request per read. */
function bodyUntouched(url: string): Request {
  const request = new Request(url);
  Object.defineProperty(request, "body", {
    get() {
      throw new Error("the body of a GET without one was read");
    },
  });
  return request;
}

describe("request bodies", () => {
  it("never asks a GET that announces no body for it", async () => {
    const response = await app.fetch(bodyUntouched("http://127.0.0.1/read"));
    expect(response.status).toBe(200);
  });

  it("passes a JSON body on, readable as JSON and as the text sent", async () => {
    const text = '{ "a": [1, 2] }';
    expect(await post("/echo", text, "application/json; charset=utf-8")).toEqual({
      status: 200,
      body: { received: { a: [1, 2] }, raw: text },
    });
    expect((await post("/echo", "{}", "application/merge-patch+json")).status).toBe(200);
  });

  it("lets an empty body through whatever its content type", async () => {
    expect((await post("/empty", undefined)).status).toBe(200);
    expect((await post("/empty", "", "application/x-www-form-urlencoded")).status).toBe(200);
  });

  it.each(['{"a":1,}', "{'a':'x'}", '{"amount":Infinity}', '{"a":', "a=1&b=2"])(
    "answers %s as JSON with 400 invalid_body, saying why",
    async (text) => {
      const answer = await post("/echo", text, "application/json");
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe("invalid_body");
      expect(answer.body.error.message).toMatch(/^the body is not valid JSON: /);
    },
  );

  it.each([
    "application/x-www-form-urlencoded",
    "application/xml",
    "multipart/form-data; boundary=x",
    "text/plain",
    "application/jsonx",
  ])("answers a body sent as %s with 415 unsupported_media_type", async (contentType) => {
    const answer = await post("/echo", '{"a":1}', contentType);
    expect(answer).toMatchObject({ status: 415, body: { error: { code: "unsupported_media_type" } } });
  });

  it("answers a body without a content type with 415", async () => {
    const answer = await post("/echo", new TextEncoder().encode('{"a":1}'));
    expect(answer).toMatchObject({ status: 415, body: { error: { code: "unsupported_media_type" } } });
  });

  it("answers a body over the limit with 413 payload_too_large, with or without a Content-Length", async () => {
    const big = JSON.stringify({ a: "x".repeat(2000) });
    const sized = await app.request("/echo", {
      method: "POST",
      body: big,
      headers: { "content-type": "application/json", "content-length": String(big.length) },
    });
    expect(sized.headers.get("connection")).toBe("close");
    expect(await post("/echo", big, "application/json")).toMatchObject({
      status: 413,
      body: { error: { code: "payload_too_large", details: { maxBytes: 1024 } } },
    });
    const streamed = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const response = await app.request("/echo", {
      method: "POST",
      body: streamed,
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
  });
});
