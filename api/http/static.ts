// The explorer (web/, built into web/dist by `npm run build:web`, which install runs) served at `/`:
// index.html and the hashed files under /assets/. Every file is read into memory once, with the
// gzip and brotli copies the build wrote beside it, so no request path ever reaches the file
// system. The page has a Content-Security-Policy of its own, set here whatever else the API sets:
// scripts, styles and connections from this origin only, so that a journal post's HTML that got
// past the sanitiser still could not run or send anything.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import type { Context, MiddlewareHandler } from "hono";
import { ApiError } from "./errors";

export const EXPLORER_DIST = join(import.meta.dirname, "../../web/dist");

export const EXPLORER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  // Posts' covers and authors' avatars are http(s) URLs anywhere; `data:` for the chart's own images.
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** The marker the build writes into index.html; the server sets it to whether local sign-in is offered. */
export const LOCAL_SIGN_IN_META = '<meta name="local-sign-in" content="off">';

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
  ".map": "application/json",
  ".woff2": "font/woff2",
};

type Asset = { body: Buffer; gzip?: Buffer; br?: Buffer; type: string; etag: string; cacheControl: string };

const etagOf = (body: Buffer) => `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;

function loadAssets(dir: string, localSignIn: boolean): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const indexFile = join(dir, "index.html");
  if (!existsSync(indexFile)) return assets;
  const html = Buffer.from(
    readFileSync(indexFile, "utf8").replace(
      LOCAL_SIGN_IN_META,
      LOCAL_SIGN_IN_META.replace("off", localSignIn ? "on" : "off"),
    ),
  );
  // index.html names the hashed files of this build: browsers revalidate it on every visit (a 304 mostly).
  assets.set("/", {
    body: html,
    gzip: gzipSync(html),
    br: brotliCompressSync(html),
    type: CONTENT_TYPES[".html"]!,
    etag: etagOf(html),
    cacheControl: "no-cache",
  });
  const assetDir = join(dir, "assets");
  for (const name of existsSync(assetDir) ? readdirSync(assetDir) : []) {
    const type = CONTENT_TYPES[extname(name)];
    if (!type) continue;
    const body = readFileSync(join(assetDir, name));
    const sibling = (suffix: string) =>
      existsSync(join(assetDir, name + suffix)) ? readFileSync(join(assetDir, name + suffix)) : undefined;
    assets.set(`/assets/${name}`, {
      body,
      gzip: sibling(".gz"),
      br: sibling(".br"),
      type,
      etag: etagOf(body),
      // Every name carries a hash of its content.
      cacheControl: "public, max-age=31536000, immutable",
    });
  }
  return assets;
}

/** br or gzip when the client takes it (`q=0` refuses); identity otherwise. */
export function chooseEncoding(acceptEncoding: string | undefined, offered: { br: boolean; gzip: boolean }) {
  const accepted = new Set(
    (acceptEncoding ?? "")
      .split(",")
      .map((part) => part.trim().toLowerCase().split(";"))
      .filter(([, ...params]) => !params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param)))
      .map(([name]) => name),
  );
  if (offered.br && accepted.has("br")) return "br" as const;
  if (offered.gzip && (accepted.has("gzip") || accepted.has("*"))) return "gzip" as const;
  return undefined;
}

function answer(c: Context, asset: Asset) {
  const encoding = chooseEncoding(c.req.header("accept-encoding"), { br: !!asset.br, gzip: !!asset.gzip });
  const body = encoding ? asset[encoding]! : asset.body;
  const headers: Record<string, string> = {
    "content-type": asset.type,
    "cache-control": asset.cacheControl,
    etag: asset.etag,
    vary: "Accept-Encoding",
    "x-content-type-options": "nosniff",
  };
  if (encoding) headers["content-encoding"] = encoding;
  if (asset.type.startsWith("text/html")) {
    headers["content-security-policy"] = EXPLORER_CSP;
    headers["referrer-policy"] = "no-referrer";
  }
  const etags = c.req
    .header("if-none-match")
    ?.split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""));
  if (etags?.includes(asset.etag) || etags?.includes("*")) return c.body(null, 304, headers);
  // The server adds a GET's content-length from the body itself.
  if (c.req.method === "HEAD") return c.body(null, 200, { ...headers, "content-length": String(body.length) });
  return c.body(new Uint8Array(body), 200, headers);
}

/**
 * Answers GET and HEAD of `/`, `/index.html` and `/assets/*` from `dir`; every other request goes on
 * to the API's routes. Without a build, `/` is a 404 saying how to build it.
 */
export function serveExplorer(options: { localSignIn: boolean; dir?: string }): MiddlewareHandler {
  let assets: Map<string, Asset> | undefined;
  return async (c, next) => {
    const path = c.req.path === "/index.html" ? "/" : c.req.path;
    if ((c.req.method !== "GET" && c.req.method !== "HEAD") || (path !== "/" && !path.startsWith("/assets/")))
      return next();
    // Read once the build is there: an API started before `npm run build:web` picks it up later.
    if (!assets?.size) assets = loadAssets(options.dir ?? EXPLORER_DIST, options.localSignIn);
    const asset = assets.get(path);
    if (asset) return answer(c, asset);
    if (path === "/")
      throw new ApiError(404, "route_not_found", "the explorer is not built on this server: run `npm run build:web`");
    return next();
  };
}
