import { describe, expect, it } from "vitest";
import { contextOf, postIdOf, TipContext } from "./context";

const post = "3f1c2a4e-8d2b-4c61-9a3e-5b7d0e1f2a3b";

describe("a tip's context", () => {
  it("names a journal post as blog:<post id>, and back", () => {
    expect(TipContext.safeParse(`blog:${post}`).success).toBe(true);
    expect(postIdOf(`blog:${post}`)).toBe(post);
    expect(contextOf(post)).toBe(`blog:${post}`);
  });

  it("reads an uppercase post id as the same post", () => {
    expect(TipContext.safeParse(`blog:${post.toUpperCase()}`).success).toBe(true);
    expect(postIdOf(`blog:${post.toUpperCase()}`)).toBe(post);
  });

  it.each([
    ["another kind of target", `market:${post}`],
    ["no post id", "blog:"],
    ["a post id that is not a UUID", "blog:42"],
    ["trailing text", `blog:${post} `],
    ["no kind", post],
  ])("refuses %s", (_, context) => {
    expect(TipContext.safeParse(context).success).toBe(false);
  });
});
