import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { Hono } from "hono";
import { afterAll, describe, expect, it } from "vitest";
import { chooseEncoding, EXPLORER_CSP, LOCAL_SIGN_IN_META, serveExplorer } from "./static";

describe("the explorer's static files", () => {
  const dir = mkdtempSync(join(tmpdir(), "explorer-"));
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "index.html"), `<html><head>${LOCAL_SIGN_IN_META}</head></html>`);
  const script = "console.log('explorer');".repeat(20);
  writeFileSync(join(dir, "assets", "main-ABC.js"), script);
  writeFileSync(join(dir, "assets", "main-ABC.js.gz"), gzipSync(script));
  writeFileSync(join(dir, "assets", "notes.txt"), "not served: no content type");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const app = (localSignIn: boolean) =>
    new Hono()
      .use(serveExplorer({ localSignIn, dir }))
      .get("/api/x", (c) => c.text("api"))
      .notFound((c) => c.text("none", 404));

  it("serves index.html with its Content-Security-Policy, revalidated on every visit", async () => {
    const response = await app(false).request("/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toBe(EXPLORER_CSP);
    expect(EXPLORER_CSP).toContain("script-src 'self'");
    expect(EXPLORER_CSP).not.toContain("unsafe");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await response.text()).toContain('<meta name="local-sign-in" content="off">');
    const again = await app(false).request("/index.html", {
      headers: { "if-none-match": response.headers.get("etag")! },
    });
    expect(again.status).toBe(304);
  });

  it("tells the page whether local sign-in is offered", async () => {
    expect(await (await app(true).request("/")).text()).toContain('<meta name="local-sign-in" content="on">');
  });

  it("serves hashed assets for a year, compressed when the client takes it, and only files it knows", async () => {
    const plain = await app(false).request("/assets/main-ABC.js");
    expect(plain.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(plain.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(plain.headers.get("content-security-policy")).toBeNull();
    expect(await plain.text()).toBe(script);
    const gzipped = await app(false).request("/assets/main-ABC.js", { headers: { "accept-encoding": "gzip, br;q=0" } });
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    expect(gzipped.headers.get("vary")).toBe("Accept-Encoding");
    expect(gunzipSync(Buffer.from(await gzipped.arrayBuffer())).toString()).toBe(script);
    const head = await app(false).request("/assets/main-ABC.js", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(script.length));
    for (const path of ["/assets/notes.txt", "/assets/missing.js", "/assets/%2e%2e%2findex.html"])
      expect((await app(false).request(path)).status).toBe(404);
  });

  it("leaves the API's paths and other methods to the routes", async () => {
    expect(await (await app(false).request("/api/x")).text()).toBe("api");
    expect((await app(false).request("/", { method: "POST" })).status).toBe(404);
  });

  it("answers / with a 404 saying how to build when there is no build", async () => {
    const empty = mkdtempSync(join(tmpdir(), "explorer-empty-"));
    const response = await new Hono()
      .use(serveExplorer({ localSignIn: false, dir: empty }))
      .onError((error, c) => c.text(error.message, 404))
      .request("/");
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("npm run build:web");
    rmSync(empty, { recursive: true, force: true });
  });

  it("picks brotli, then gzip, and never an encoding refused with q=0", () => {
    const both = { br: true, gzip: true };
    expect(chooseEncoding("gzip, deflate, br", both)).toBe("br");
    expect(chooseEncoding("gzip, br;q=0", both)).toBe("gzip");
    expect(chooseEncoding("br", { br: false, gzip: true })).toBeUndefined();
    expect(chooseEncoding("*", both)).toBe("gzip");
    expect(chooseEncoding(undefined, both)).toBeUndefined();
    expect(chooseEncoding("identity", both)).toBeUndefined();
  });
});
