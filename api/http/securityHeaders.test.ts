import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { docsPage } from "./docsPage";
import { STRICT_CSP, securityHeaders } from "./securityHeaders";

const OWN_CSP = "default-src 'self'";

const app = new Hono()
  .use(securityHeaders())
  .get("/json", (c) => c.json({ ok: true }))
  .get("/raw-json", () => new Response('{"ok":true}', { headers: { "content-type": "application/json" } }))
  .get("/html", (c) => c.html("<p>hi</p>"))
  .get("/html-own", (c) => c.html("<p>hi</p>", 200, { "content-security-policy": OWN_CSP }))
  .get("/html-header", (c) => {
    c.header("Content-Security-Policy", OWN_CSP);
    return c.html("<p>hi</p>");
  })
  .get("/raw-html", () => new Response("<p>hi</p>", { headers: { "content-type": "text/html" } }))
  .get(
    "/raw-html-own",
    () => new Response("<p>hi</p>", { headers: { "content-type": "text/html", "content-security-policy": OWN_CSP } }),
  )
  .get("/fails", () => {
    throw new Error("boom");
  })
  .get("/docs", docsPage({ url: "/openapi.json", pageTitle: "Docs" }))
  .onError((_, c) => c.json({ error: { code: "internal_error" } }, 500));

const get = (path: string) => app.request(path);

describe("securityHeaders", () => {
  it.each(["/json", "/raw-json", "/html", "/html-own", "/raw-html", "/raw-html-own", "/fails", "/nowhere", "/docs"])(
    "sends nosniff on %s",
    async (path) => {
      expect((await get(path)).headers.get("x-content-type-options")).toBe("nosniff");
    },
  );

  it("gives HTML without a policy of its own the strict one, and JSON none", async () => {
    expect((await get("/html")).headers.get("content-security-policy")).toBe(STRICT_CSP);
    expect((await get("/raw-html")).headers.get("content-security-policy")).toBe(STRICT_CSP);
    expect((await get("/json")).headers.get("content-security-policy")).toBeNull();
  });

  it.each(["/html-own", "/html-header", "/raw-html-own"])("keeps the policy that %s set", async (path) => {
    expect((await get(path)).headers.get("content-security-policy")).toBe(OWN_CSP);
  });

  it("lets /docs run only the scripts that carry this answer's nonce, a new one each time", async () => {
    const [first, second] = [await get("/docs"), await get("/docs")];
    const policy = first.headers.get("content-security-policy")!;
    const nonce = /'nonce-([^']+)'/.exec(policy)![1]!;
    const html = await first.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
    expect(policy).toMatch(/default-src 'none'/);
    expect(policy).toMatch(/frame-ancestors 'none'/);
    expect(second.headers.get("content-security-policy")).not.toContain(nonce);
  });
});
