import { describe, expect, it } from "vitest";
import { defaultDisplayName } from "./authors";
import { sourceHost } from "./sources";
import { duplicateTag, TAG_PATTERN } from "./tags";

describe("sourceHost", () => {
  it.each([
    ["https://www.reuters.com/markets/x?y=1", "reuters.com"],
    ["http://Blog.Example.org:8080/a", "blog.example.org"],
    ["https://127.0.0.1/report", "127.0.0.1"],
  ])("%s is from %s", (url, host) => {
    expect(sourceHost(url)).toBe(host);
  });
});

describe("tags", () => {
  it.each(["rates", "us-election-2028", "a1"])("accepts %s", (tag) => {
    expect(TAG_PATTERN.test(tag)).toBe(true);
  });
  it.each(["Rates", "two words", "trailing-", "-leading", "under_score", ""])("refuses %j", (tag) => {
    expect(TAG_PATTERN.test(tag)).toBe(false);
  });
  it("finds the first duplicate", () => {
    expect(duplicateTag(["a", "b", "a", "b"])).toBe("a");
    expect(duplicateTag(["a", "b"])).toBeUndefined();
  });
});

describe("defaultDisplayName", () => {
  it("shows a handle-like user id as it is", () => {
    expect(defaultDisplayName("alice")).toBe("alice");
    expect(defaultDisplayName("agent-7")).toBe("agent-7");
  });
  it("names an opaque id by a short stable hash", () => {
    for (const id of ["auth0|64f1c2aa90", "3f2b7c1e-9d4a-4b8e-a1f0-0c2d3e4f5a6b", "google-oauth2|10987654321"]) {
      expect(defaultDisplayName(id)).toMatch(/^user-[0-9a-f]{8}$/);
      expect(defaultDisplayName(id)).toBe(defaultDisplayName(id));
    }
    expect(defaultDisplayName("auth0|a1")).not.toBe(defaultDisplayName("auth0|a2"));
  });
});
